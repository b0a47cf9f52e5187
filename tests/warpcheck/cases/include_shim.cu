// #defines from headers of the same tree are followed (the header includes
// itself, which must not loop).
#include "include/shims.cuh"
#include "include/missing.cuh"
#include <cuda_runtime.h>

__device__ float f(float v) { return v + __shfl_down_sync(0xffffffff, v, 1); }
void launch(float *x, int n) { k<<<n, 4 * HOST_WARP_SIZE>>>(x); }  // expect: H6
