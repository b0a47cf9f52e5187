#include "proj/width.cuh"

// A physical warp id and lane: PROJ_WARP_SIZE is the chip's width, not 32.
__global__ void row_sums(const float *in, float *out) {
    __shared__ float sums[16];
    const int warp_idx = threadIdx.x / PROJ_WARP_SIZE;
    const int warp_lane = threadIdx.x % PROJ_WARP_SIZE;
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = PROJ_WARP_SIZE / 2; o > 0; o /= 2)
        v += __shfl_xor(v, o);
    if (warp_lane == 0)
        sums[warp_idx] = v;
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = sums[0];
}
