#include <hip/hip_runtime.h>
// Fix fixture (HIP, mask-less intrinsics): every fix must still compile.
__global__ void k(const float *in, float *out, int *cnt) {
    float v = in[threadIdx.x];
    for (int o = 16; o > 0; o /= 2)  // expect: H1
        v += __shfl_xor(v, o);
    int lane = threadIdx.x & 31;  // expect: H3
    int warp = threadIdx.x >> 5;  // expect: H3
    __shared__ float sums[32];  // expect: H3
    if (lane == 31)  // expect: H5
        sums[warp] = v;
    unsigned int b = __ballot(v > 0);  // expect: H4
    cnt[warp] = __popc(b) + (int)(1 << lane);  // expect: H4 H4
    out[threadIdx.x] = __shfl(v, 31) + sums[0];  // expect: H5
}
