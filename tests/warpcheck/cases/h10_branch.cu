// H10: full lane masks in branches that only part of a wavefront takes
// (first_warp keeps to 32-lane logical warps: its H1 and H3 are notes, its
// masks still wrong).
__device__ float first_warp(float v, const float *s) {
    int tid = threadIdx.x;
    if (tid < 32) {  // expect-note: H3
        v = s[tid];
        for (int o = 16; o > 0; o /= 2)  // expect-note: H1
            v += __shfl_xor_sync(0xffffffff, v, o);  // expect: H2 H10 expect-col: 34
    }
    return v;
}

__device__ float lane_branch(float v) {
    int lane = threadIdx.x % warpSize;
    if (lane < 16)
        v = __shfl_down_sync(~0ull, v, 8);  // expect: H10 expect-col: 30
    else
        __syncwarp(0xffffffffffffffffull);  // expect: H10
    return v;
}

__device__ float early_exit(float v) {
    int warp = threadIdx.x >> 5;  // expect: H3
    if (warp != 0)
        return 0;
    return __shfl_sync(~0ull, v, 0);  // expect: H10
}

__global__ void single_thread(unsigned long long *out) {
    if (threadIdx.x == 0) {
        out[0] = __ballot_sync(-1, 1);  // expect: H10
    }
}
