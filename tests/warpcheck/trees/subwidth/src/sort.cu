// Sums over the warp through a helper whose width is a template argument.
#include "proj/merge.cuh"

__global__ void row_sums(const float *in, float *out) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    v = group_sum<float, 32>(v);  // expect: H14 expect-col: 26
    if (threadIdx.x % kWarpSize == 0)
        out[blockIdx.x * (blockDim.x / kWarpSize) + threadIdx.x / kWarpSize] = v;
}

__global__ void pair_sums(const float *in, float *out) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    v = group_sum<float, 2>(v);  // pairs of lanes: fine on every width
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void full_sums(const float *in, float *out) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    v = group_sum<float, kWarpSize>(v);
    if (threadIdx.x % kWarpSize == 0)
        out[blockIdx.x * (blockDim.x / kWarpSize) + threadIdx.x / kWarpSize] = v;
}
