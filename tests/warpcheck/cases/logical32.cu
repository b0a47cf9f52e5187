// Consistent 32-lane logical warps: xor offsets below 32 or shuffles of
// width 32, lane and warp ids in 32s, a slot per 32 threads. A 64-lane
// wavefront runs each as two independent halves, so H1, H3 and H5 are notes;
// masks (H2) and partial-wave masks (H10) are still wrong.
#define WARP 32

__device__ float half_sum(float v) {
    for (int o = 16; o > 0; o >>= 1)  // expect-note: H1 expect-col: 18
        v += __shfl_xor(v, o);
    return v;
}

__global__ void block_sum(const float *in, float *out) {
    __shared__ float partial[32];  // expect-note: H3 expect-col: 30
    int lane = threadIdx.x & 31;  // expect-note: H3 expect-col: 28
    int warp = threadIdx.x >> 5;  // expect-note: H3
    float v = half_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
    if (lane == 0)
        partial[warp] = v;
    __syncthreads();
    if (threadIdx.x < 32) {  // expect-note: H3 expect-col: 23
        v = threadIdx.x < blockDim.x / 32 ? partial[lane] : 0.0f;
        for (int o = 1; o < 32; o *= 2)  // expect-note: H1
            v += __shfl_xor_sync(0xffffffff, v, o);  // expect: H2 H10
        if (lane == 0)
            out[blockIdx.x] = v;
    }
}

__global__ void scan32(const int *in, int *out, int *totals) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = i % WARP;  // expect-note: H3
    int v = in[i];
    for (int d = 1; d < 32; d *= 2) {
        int t = __shfl_up(v, d, 32);
        if (lane >= d)
            v += t;
    }
    out[i] = v;
    if (lane == 31)  // expect-note: H5 expect-col: 17
        totals[i / 32] = __shfl(v, 31, 32);  // expect-note: H3
}
