// No build flags: <proj/width.h> and "common/defs.cuh" are found in the
// tree by the path the include names.
#include <proj/width.h>
#include "common/defs.cuh"
#include <cuda_runtime.h>

__device__ float warp_sum(float v) {
    for (int o = PROJ_WARP_SIZE / 2; o > 0; o >>= 1)  // expect: H1 expect-col: 18
        v += __shfl_xor(v, o);
    return v;
}

__global__ void groups(float *out) {
    int g = threadIdx.x / kGroup;  // expect: H3 expect-col: 25
    out[g] = warp_sum(out[threadIdx.x]);
}
