// H2: 32-bit lane masks.
#define FULL_MASK 0xffffffff

__device__ float f(float v, bool p) {
    v += __shfl_xor_sync(0xFFFFFFFFu, v, 1);  // expect: H2
    unsigned b = __any_sync(~0u, p);  // expect: H2
    __syncwarp(0xffffffff);  // expect: H2
    v += __shfl_down_sync(FULL_MASK, v, 2);  // expect: H2
    unsigned mask = 0xffffffff;
    v += __shfl_up_sync(mask, v, 1);  // expect: H2
    return v + b;
}
