#include <hip/hip_runtime.h>

#include <proj/width.hpp>

// The lanes a row needs, rounded up to a power of two, at most the wavefront.
__device__ int row_lanes(int n)
{
    int need = n < warpSize ? n : warpSize;
    int lanes = 1;
    for (int s = 0; s <= 4; ++s) {  // expect: H1 expect-col: 26
        if (lanes >= need)
            break;
        lanes = lanes * 2;
    }
    return lanes;
}

#ifndef __HIP_PLATFORM_AMD__
// Only CUDA compiles this: 32 lanes.
__device__ int row_lanes_cuda(int n)
{
    int need = n < warpSize ? n : warpSize;
    int lanes = 1;
    for (int s = 0; s <= 4; ++s) {
        if (lanes >= need)
            break;
        lanes = lanes * 2;
    }
    return lanes;
}
#endif

__global__ void fill_rows(int *out, int n)
{
    out[threadIdx.x] = row_lanes(n);
}
