// H3 warp-tree: an unrolled tree over warp ids whose first step is a
// literal. With warp ids counted by a width that has no value of its own,
// the block holds BLOCK / W warps: twice as many with 32 lanes as with 64,
// and a tree that starts at 8 adds only 16 of them.

template <unsigned int BLOCK, unsigned int W>
__device__ void rows_sum(float *out, float v) {
    __shared__ float part[BLOCK];
    int lane = threadIdx.x & (W - 1);
    int wid = threadIdx.x / W;
    part[wid * W + lane] = v;
    __syncthreads();
    if (wid < 8) part[wid * W + lane] += part[(wid + 8) * W + lane];  // expect: H3 expect-col: 9
    __syncthreads();
    if (wid < 4) part[wid * W + lane] += part[(wid + 4) * W + lane];
    __syncthreads();
    if (wid < 2) part[wid * W + lane] += part[(wid + 2) * W + lane];
    __syncthreads();
    if (wid < 1) part[wid * W + lane] += part[(wid + 1) * W + lane];
    if (wid == 0) out[lane] = part[lane];
}

__device__ void tile_sum(float *out, float v) {
    __shared__ float part[1024];
    int wid = threadIdx.x / warpSize;
    int lane = threadIdx.x % warpSize;
    part[threadIdx.x] = v;
    __syncthreads();
    if (wid < 4) part[wid * warpSize + lane] += part[(wid + 4) * warpSize + lane];  // expect: H3 expect-col: 9
    __syncthreads();
    if (wid < 2) part[wid * warpSize + lane] += part[(wid + 2) * warpSize + lane];
    if (wid == 0) out[lane] = part[lane];
}

// Not reported: the wider step in a branch on the width (the count of
// warps is covered for both), warp ids of a fixed logical width (the block
// decides the count), a tree whose steps are computed, and a test with no
// partner step.
template <unsigned int BLOCK, unsigned int W>
__device__ void rows_sum_both(float *out, float v) {
    __shared__ float part[BLOCK];
    int lane = threadIdx.x & (W - 1);
    int wid = threadIdx.x / W;
    part[wid * W + lane] = v;
    __syncthreads();
    if (W == 32) {
        if (wid < 16) part[wid * W + lane] += part[(wid + 16) * W + lane];
        __syncthreads();
    }
    if (wid < 8) part[wid * W + lane] += part[(wid + 8) * W + lane];
    __syncthreads();
    if (wid < 4) part[wid * W + lane] += part[(wid + 4) * W + lane];
    if (wid == 0) out[lane] = part[lane];
}

__device__ void fixed_sum(float *out, float v) {
    __shared__ float part[512];
    int lane = threadIdx.x & 63;
    int wid = threadIdx.x / 64;
    part[threadIdx.x] = v;
    __syncthreads();
    if (wid < 8) part[wid * 64 + lane] += part[(wid + 8) * 64 + lane];
    if (wid == 0) out[lane] = part[lane];
}

template <unsigned int BLOCK, unsigned int W>
__device__ void computed_sum(float *out, float v) {
    __shared__ float part[BLOCK];
    int lane = threadIdx.x & (W - 1);
    int wid = threadIdx.x / W;
    part[wid * W + lane] = v;
    __syncthreads();
    for (unsigned int s = BLOCK / W / 2; s > 0; s >>= 1) {
        if (wid < s) part[wid * W + lane] += part[(wid + s) * W + lane];
        __syncthreads();
    }
    if (wid < 8) out[wid] = part[wid * W];
}
