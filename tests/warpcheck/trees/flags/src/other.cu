// -DPROJ_ROCM_BUILD=0: this compile is no ROCm build of the first branch;
// -UPROJ_HAVE_SHIMS: the header's mask-dropping shims are not there, so
// the 32-bit mask from the header reaches the shuffle.
#include "proj/width.h"

#if PROJ_ROCM_BUILD
__device__ float never(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }
#else
__device__ float here(float v) { return v + __shfl_xor_sync(PROJ_MASK, v, 1); }  // expect: H2 expect-col: 61
#endif
