// Must not flag: run-time conditions that keep whole wavefronts together
// (bounds in multiples of 64 or of warpSize, tid < blockDim.x, physical warp
// ids, blockIdx, parameters, votes, data every lane shares), masks of the
// active lanes, mask-less intrinsics, and loops with the same trip count in
// every lane.
__global__ void whole_waves(const float *in, float *out, int n, int k, bool flag) {
    int tid = threadIdx.x;
    float v = in[tid];
    if (tid < n * 64)
        v += __shfl_xor_sync(~0ull, v, 1);
    if (tid < (n & ~63))
        v += __shfl_xor_sync(~0ull, v, 2);
    int aligned = n / 64 * 64;
    if (tid < aligned)
        v += __shfl_xor_sync(~0ull, v, 4);
    if (tid < k * warpSize)
        v += __shfl_xor_sync(~0ull, v, 8);
    if (tid < blockDim.x)
        v += __shfl_xor_sync(~0ull, v, 16);
    int warp_id = tid / warpSize;
    if (warp_id < n)
        v += __shfl_xor_sync(~0ull, v, 32);
    if (blockIdx.x < n && blockIdx.y * blockDim.x < k)
        __syncwarp(~0ull);
    if (flag && n > 0)
        __syncwarp(~0ull);
    if (in[blockIdx.x] > 0.0f)
        __syncwarp(~0ull);
    out[tid] = v;
}

__device__ float votes_and_masks(const float *data, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long b = __ballot_sync(~0ull, data[i] > 0);
    int count = __popcll(b);
    if (count > 3)
        v += __shfl_xor_sync(~0ull, v, 1);
    while (__any_sync(~0ull, v > 1.0f))
        v = __shfl_xor_sync(~0ull, v, 1) * 0.5f;
    if (i < n)
        v += __shfl_xor_sync(__activemask(), v, 1);
    if (i < n)
        v += __shfl_xor(v, 1);
    v = n > 0 ? __shfl_xor_sync(~0ull, v, 2) : v;
    return v;
}

__device__ float uniform_loops(const float *in, float v, int n) {
    int tid = threadIdx.x;
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_xor_sync(~0ull, v, o);
    for (int i = tid; i < 4096; i += blockDim.x)
        v += __shfl_xor_sync(~0ull, in[i], 1);
    for (int r = 0; r < n; r++)
        v += __shfl_down_sync(~0ull, v, 1);
    return v;
}
