#pragma once

// One warp per block: the thread index is the lane.
__global__ void block_sum(const float *in, float *out) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_down(v, o);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
}

// Warps counted from the thread index: any block of whole warps works.
__global__ void warp_sums(const float *in, float *out) {
    int lane = threadIdx.x % warpSize;
    int warp = threadIdx.x / warpSize;
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_down(v, o);
    if (lane == 0)
        out[blockIdx.x * 16 + warp] = v;
}

// No warp-level operation: 64 is only a block size.
__global__ void scale(float *x, float a) {
    x[blockIdx.x * 64 + threadIdx.x] *= a;
}

// Rows of 32 (threadIdx.y the row), rotated with no width: on a 64-lane
// wavefront the second row reads the first row's lanes.
__global__ void row_roll(const float *in, float *out) {
    int at = (blockIdx.x * blockDim.y + threadIdx.y) * 32 + threadIdx.x;
    out[at] = __shfl(in[at], (threadIdx.x + 1) & 31);  // expect: H11 H3
}

// Rows of 32 reduced by xor offsets below 32: each row stays in its half.
__global__ void row_max(const float *in, float *out) {
    int at = (blockIdx.x * blockDim.y + threadIdx.y) * 32 + threadIdx.x;
    float v = in[at];
    for (int o = 16; o > 0; o /= 2)
        v = fmaxf(v, __shfl_xor(v, o, 32));
    out[at] = v;
}

#define WARP_SIZE 32

// One partial sum per warp of the device, warps counted from warpSize.
__global__ void block_partials(const float *in, float *partials) {
    int warp = threadIdx.x / warpSize;
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_down(v, o);
    if (threadIdx.x % warpSize == 0)
        partials[blockIdx.x * (blockDim.x / warpSize) + warp] = v;
}
