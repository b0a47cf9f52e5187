#include <hip/hip_runtime.h>
// Fix fixture (HIP) for H3 "first warp", H8, H10 and H11: every fix must
// still compile.
#ifdef __gfx90a__  // expect: H8
#define WAVE_WIDTH 64
#else
#define WAVE_WIDTH 32
#endif

__global__ void k(const float *in, float *out, int n) {
    int tid = threadIdx.x;
    float v = in[tid];
    if (tid < 32)  // expect: H3
        v += __shfl_xor_sync(~0ull, v, 1);  // expect: H10
    int lane = tid % warpSize;
    float r = __shfl(v, (lane + 1) & 31);  // expect: H11 H3
    if (lane == 0)
        __syncwarp(~0ull);  // expect: H10
    if (tid < n)
        out[n] = __popcll(__ballot_sync(~0ull, v > 0));  // expect: H10
    out[tid] = v + r + WAVE_WIDTH;
}
