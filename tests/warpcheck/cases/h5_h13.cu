// H5 last-lane constants and H13 mask overflow.
__device__ float f(float v, int width) {
    int lane = threadIdx.x % warpSize;
    if (lane == 31)  // expect: H5
        v = 0;
    v = __shfl(v, 31);  // expect: H5
    unsigned long long all = 1ull << warpSize;  // expect: H13
    unsigned long long part = (1ull << width) - 1;  // expect: H13
    return v + all + part;
}

// A count of bits (a log2 of a segment of lanes) is not a width of lanes.
__device__ int segment(int segbits) {
    int lane = threadIdx.x % warpSize;
    return lane & ((1 << segbits) - 1);
}
