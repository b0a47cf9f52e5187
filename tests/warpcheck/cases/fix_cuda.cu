// Fix fixture (CUDA, _sync intrinsics): every fix must still compile.
__global__ void k(const float *in, float *out, int *cnt) {
    float v = in[threadIdx.x];
    for (int o = 16; o > 0; o /= 2)  // expect: H1
        v += __shfl_xor_sync(0xffffffff, v, o);  // expect: H2
    int lane = threadIdx.x % 32;  // expect: H3
    int warp = threadIdx.x / 32;  // expect: H3
    __shared__ float sums[32];  // expect: H3
    if (lane == 31)  // expect: H5
        sums[warp] = v;
    unsigned int b = __ballot_sync(0xffffffff, v > 0);  // expect: H4 H2
    cnt[warp] = __ffs(b) + (int)(1u << lane);  // expect: H4 H4
    __syncwarp(0xffffffff);  // expect: H2
    out[threadIdx.x] = __shfl_sync(0xffffffff, v, 31) + sums[0];  // expect: H2 H5
}
