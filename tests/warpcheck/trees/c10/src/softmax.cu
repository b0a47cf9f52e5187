// PyTorch's C10_WARP_SIZE from a header outside the tree: a constexpr per
// target in the device pass (64 under __GFX9__, else 32), a run-time query
// (at::cuda::warp_size()) on the host.
#include <c10/macros/Macros.h>

template <int log2_elements>
__global__ void row_max(const float *in, float *out, int rows) {
    constexpr int next_pow2 = 1 << log2_elements;
    constexpr int kRowWarp = (next_pow2 < C10_WARP_SIZE) ? next_pow2 : C10_WARP_SIZE;
    static_assert(kRowWarp <= C10_WARP_SIZE, "row fits a warp");
    float m = in[blockIdx.x * next_pow2 + threadIdx.x % kRowWarp];
    for (int o = kRowWarp / 2; o > 0; o /= 2)
        m = fmaxf(m, __shfl_xor(m, o, kRowWarp));
    if (threadIdx.x % kRowWarp == 0)
        out[blockIdx.x] = m;
}

int rows_per_block(int cols) {
    constexpr int kMaxRowWarp = C10_WARP_SIZE;  // expect: H7 expect-col: 33
    int warp = C10_WARP_SIZE;  // expect: H6 expect-col: 16
    return cols < warp ? 128 / kMaxRowWarp : 128 / warp;
}
