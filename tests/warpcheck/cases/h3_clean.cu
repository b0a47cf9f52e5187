// Must not flag: bit packing and bank arithmetic on data, not thread ids.
__device__ unsigned pack(unsigned x, unsigned long long y, int n) {
    unsigned lo = x & 31;
    unsigned hi = (unsigned)(y >> 5);
    int banks = n % 32;
    int words = n / 32;
    __shared__ int table[32];
    table[banks] = words;
    static_assert(sizeof(int) == 4 || sizeof(int) == 8, "int");
    return lo + hi + __popc(x) + table[lo];
}

__global__ void generic(float *out) {
    int lane = threadIdx.x % warpSize;
    int warp = threadIdx.x / warpSize;
    out[warp] = lane;
}
