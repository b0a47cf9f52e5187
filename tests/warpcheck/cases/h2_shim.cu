// Must not flag: a shim macro that drops the mask, data masks, 64-bit masks,
// and CUDA-only code under HIP guards.
#ifdef __HIP_PLATFORM_AMD__
#define __shfl_xor_sync(m, v, o, w) __shfl_xor(v, o, w)
#endif

__device__ float f(float v, unsigned x) {
    v += __shfl_xor_sync(0xffffffff, v, 1, 32);
    unsigned lo = x & 0xffffffff;
    __syncwarp(~0ull);
    return v + lo;
}

#ifndef __HIP_PLATFORM_AMD__
__device__ float cuda_only(float v) {
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}
#endif

#if !defined(GGML_USE_HIP)
__device__ unsigned g(bool p) { unsigned b = __ballot_sync(0xffffffff, p); return __popc(b); }
#endif

#ifdef USE_ROCM
__device__ float h(float v) { return v; }
#else
__device__ float h(float v) { return __shfl_xor_sync(0xffffffff, v, 1); }
#endif

// Per-platform masks: the 32-bit one is CUDA-only.
#if defined(__HIP_PLATFORM_AMD__)
#define WC_FULL 0xffffffffffffffffull
#define WARP_SIZE 64  // expect: H8
#else
#define WC_FULL 0xffffffff
#define WARP_SIZE 32
#endif
static_assert(WARP_SIZE == 32 || WARP_SIZE == 64, "warp size");
__device__ float p(float v) { return v + __shfl_xor_sync(WC_FULL, v, 1) + WARP_SIZE; }
void launch(float *x, int n) { k<<<n, 2 * WARP_SIZE>>>(x); }
