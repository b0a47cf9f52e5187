// 1 << x is a lane bit when x is a lane (or the thread index itself), not
// when x is another value computed from a thread index: here a loop
// counter that reuses the name of an element offset.
__device__ float welford_like(const float *vals, int n2, unsigned *bits) {
    const int thrx = threadIdx.x + threadIdx.y * blockDim.x;
    int l = 4 * thrx;
    float s = 0.f;
    for (; l < n2; ++l)
        s += vals[l];
    for (int l = 0; l <= 4; ++l)
        s += __shfl_xor(s, 1 << l, 32);
    const int stride = 1 << (4 * thrx);
    bits[thrx] = 1u << (threadIdx.x & 31);  // expect: H4 expect-note: H3
    return s + stride;
}
