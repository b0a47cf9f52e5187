// Suppression comments on the line or the line above.
__device__ float f(float v) {
    // warpcheck: ignore H2 -- the mask is widened by our shim header
    v += __shfl_xor_sync(0xffffffff, v, 1);
    v += __shfl_xor_sync(0xffffffff, v, 2);  // warpcheck: ignore H2
    v *= 2;
    v += __shfl_xor_sync(0xffffffff, v, 4);  // warpcheck: ignore H3 (wrong id) // expect: H2
    return v;
}

__device__ int g(int tid) {
    // warpcheck: ignore H3 H4 -- deliberate 32-lane logical warps
    return (tid & 31) + (1 << tid);
}
