// H1: shuffle loops whose trip counts are fixed for 32 lanes.
__device__ float down(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)  // expect: H1
        v += __shfl_down_sync(~0ull, v, o);
    return v;
}

__device__ float scan(float v, int lane) {
    for (int d = 1; d < 32; d *= 2) {  // expect: H1 expect-col: 25
        float t = __shfl_up_sync(~0ull, v, d);
        if (lane >= d) v += t;
    }
    return v;
}

__device__ float hip_style(float v) {
    for (int mask = 16; mask >= 1; mask /= 2)  // expect: H1
        v += __shfl_xor(v, mask);
    return v;
}
