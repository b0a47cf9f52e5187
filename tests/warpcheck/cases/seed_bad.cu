// The seed's patterns for 32-lane warps (a consistent logical warp: notes; masks, ballots: bugs).
__device__ float warp_reduce(float val) {
    for (int offset = 16; offset > 0; offset /= 2)  // expect-note: H1 expect-col: 23
        val += __shfl_xor_sync(0xffffffff, val, offset);  // expect: H2 expect-col: 32
    return val;
}

__global__ void block_sum(const float *in, float *out) {
    __shared__ float warp_sums[32];  // expect-note: H3
    float v = warp_reduce(in[blockIdx.x * blockDim.x + threadIdx.x]);
    if (threadIdx.x % 32 == 0)  // expect-note: H3
        warp_sums[threadIdx.x / 32] = v;  // expect-note: H3
    __syncthreads();
}

__global__ void count_active(const int *data, int *out) {
    bool pred = data[threadIdx.x] > 0;
    unsigned int active = __ballot_sync(0xffffffff, pred);  // expect: H4 H2
    if (threadIdx.x == 0)
        *out = __popc(active);  // expect: H4
}
