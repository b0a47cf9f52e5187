// A per-row softmax whose rows are spread over warp_size lanes: the host
// picks warp_size, the kernel takes it as a template argument.
#pragma once

template <int kRowWarp>
__global__ void row_softmax(const float *in, float *out, int cols) {
    float m = -1e30f;
    for (int c = threadIdx.x % kRowWarp; c < cols; c += kRowWarp)
        m = fmaxf(m, in[blockIdx.x * cols + c]);
    for (int o = kRowWarp / 2; o > 0; o /= 2)
        m = fmaxf(m, __shfl_xor(m, o, kRowWarp));
    if (threadIdx.x % kRowWarp == 0)
        out[blockIdx.x] = m;
}

inline int next_pow2(int n) {
    int p = 1;
    while (p < n)
        p *= 2;
    return p;
}

// The cap is written for 32-lane warps: a CDNA wavefront is 64.
inline int row_warp(int cols) {
    int p = next_pow2(cols);
    int warp_size = (p < 32) ? p : 32;  // expect: H6 expect-col: 26
    return warp_size;
}
