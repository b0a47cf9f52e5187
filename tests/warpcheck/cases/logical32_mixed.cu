// Mixed schemes: 32-lane pieces next to code that spans the physical
// wavefront. These stay warnings.

// Lanes in 32s, but shuffles with no width over the whole wavefront, and a
// per-warp partial array indexed by tid / 32: lanes 16..31 read lanes 32..47.
__global__ void down_from_16(const float *in, float *out) {
    __shared__ float partial[32];  // expect: H3
    int tid = threadIdx.x;
    float v = in[tid];
    for (int o = 16; o > 0; o /= 2)  // expect: H1
        v += __shfl_down(v, o);
    if (tid % 32 == 0)  // expect: H3
        partial[tid / 32] = v;  // expect: H3
    out[tid] = partial[0];
}

// An xor butterfly over 32 lanes whose result is stored per physical warp.
__device__ float xor16(float v) {
    for (int o = 16; o > 0; o /= 2)  // expect: H1
        v += __shfl_xor(v, o);
    return v;
}

__global__ void read_physically(const float *in, float *out) {
    int lane = threadIdx.x % 32;  // expect: H3
    float v = xor16(in[threadIdx.x]);
    if (lane == 0)
        out[threadIdx.x / warpSize] = v;
}

// 32-lane ids with a ballot: its bits and count are the physical wavefront's.
__global__ void ballot_mix(const float *in, unsigned long long *out) {
    int lane = threadIdx.x & 31;  // expect: H3
    float v = in[threadIdx.x];
    for (int o = 1; o < 32; o *= 2)  // expect: H1
        v += __shfl_xor(v, o);
    unsigned long long b = __ballot(v > 0);
    if (lane == 0)
        out[threadIdx.x >> 5] = b;  // expect: H3
}

// A broadcast from lane 0 with no width: lanes 32..63 read lane 0 too.
__device__ float broadcast_mix(float v) {
    int lane = threadIdx.x % 32;  // expect: H3
    for (int o = 16; o > 0; o /= 2)  // expect: H1
        v += __shfl_xor(v, o);
    return __shfl(v, 0) + lane;
}

// A 32-lane scheme called from a kernel that counts warps in warpSize.
__device__ float xor_half(float v) {
    int lane = threadIdx.x & 31;  // expect: H3
    for (int o = 16; o > 0; o /= 2)  // expect: H1
        v += __shfl_xor(v, o);
    return lane == 0 ? v : 0.0f;
}

__global__ void caller_in_warpsize(const float *in, float *out) {
    float v = xor_half(in[threadIdx.x]);
    if (threadIdx.x < blockDim.x / warpSize)
        out[threadIdx.x] = v;
}
