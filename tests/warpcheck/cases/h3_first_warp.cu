// H3: "first warp" tests written as tid < 32; and what is not one.
#define WARP_SIZE 32
__global__ void block_reduce(const float *in, float *out, float *partial, int n) {
    int tid = threadIdx.x;
    float v = in[blockIdx.x * blockDim.x + tid];
    v += __shfl_down(v, 1);
    if (tid < 32)  // expect: H3 expect-col: 15
        partial[tid] = v;
    if (threadIdx.x < WARP_SIZE && v > 0)  // expect: H3 expect-col: 23
        out[0] = v;
    if (tid <= 31)  // expect: H3
        out[1] = v;
    int gid = blockIdx.x * blockDim.x + tid;
    int lane = tid % warpSize;
    if (gid < 32 || lane < 32 || n < 32 || tid < warpSize || tid < 64)
        out[2] = v;
    for (int i = tid; i < 32; i += blockDim.x)
        out[i] = v;
    if (tid >= 32)  // expect: H3
        return;
    out[3] = v;
}
