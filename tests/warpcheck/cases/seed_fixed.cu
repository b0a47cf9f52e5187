// The portable versions of the seed's patterns: nothing to report.
__device__ float warp_reduce(float val) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        val += __shfl_xor_sync(~0ull, val, offset);
    return val;
}

__global__ void block_sum(const float *in, float *out) {
    __shared__ float warp_sums[32];  // 1024 / 32: an upper bound for both widths
    float v = warp_reduce(in[blockIdx.x * blockDim.x + threadIdx.x]);
    if (threadIdx.x % warpSize == 0)
        warp_sums[threadIdx.x / warpSize] = v;
    __syncthreads();
}

__global__ void count_active(const int *data, int *out) {
    bool pred = data[threadIdx.x] > 0;
    unsigned long long active = __ballot_sync(~0ull, pred);
    if (threadIdx.x == 0)
        *out = __popcll(active);
}
