// Must not flag: explicit width 32 is a deliberate logical warp; loops with
// no shuffle; loops bounded by warpSize.
__device__ float logical(float v) {
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_xor(v, o, 32);
    return v;
}

__device__ int plain(const int *a) {
    int s = 0;
    for (int i = 16; i > 0; i /= 2)
        s += a[i];
    return s;
}

__device__ float generic(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_xor(v, o);
    for (int d = 1; d < warpSize; d *= 2)
        v += __shfl_up(v, d);
    return v;
}
