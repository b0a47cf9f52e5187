// Kernels whose launches are in launch.cu: another translation unit.

// One warp per block: the thread index is the lane.
__global__ void row_sum(const float *in, float *out) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_down(v, o);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
}

// Rows of 32 (threadIdx.y the row) rotated with no width.
__global__ void row_roll(const float *in, float *out) {
    int at = (blockIdx.x * blockDim.y + threadIdx.y) * 32 + threadIdx.x;
    out[at] = __shfl(in[at], (threadIdx.x + 1) % warpSize);
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

