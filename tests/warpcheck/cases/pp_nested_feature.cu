// A test of an AMD feature (AMD_MFMA_AVAILABLE, ROCM_VERSION) nested in an
// AMD branch: both of its branches are AMD code, the #else too (AMD chips
// without the feature, RDNA among them), so rules read both.
#include <hip/hip_runtime.h>

#if defined(PROJ_USE_HIP)
__device__ float row_sum(float v) {
#if defined(AMD_MFMA_AVAILABLE)
    return v;
#else
    for (int o = 16; o > 0; o >>= 1)  // expect: H1 expect-col: 18
        v += __shfl_xor(v, o);
    return v;
#endif
}
#endif

static constexpr __device__ int tile_nwarps_device() {
#if defined(PROJ_USE_HIP)
#if defined(AMD_MFMA_AVAILABLE)
    return 8;
#else
    return 4;  // expect: H8 expect-col: 12
#endif
#else
    return 8;
#endif
}

#ifdef __HIP_PLATFORM_AMD__
#if ROCM_VERSION >= 60000
__device__ unsigned long long vote(bool p) { return __ballot(p); }
#else
__device__ void vote_old(unsigned *out, bool p) { unsigned b = __ballot(p); out[0] = b; }  // expect: H4 expect-col: 51
#endif
#endif

// Not reported: the #else of a platform test nested in an AMD branch (HIP on
// NVIDIA: __HIPCC__ is defined there too), and the #else of a feature test
// at the top level (CUDA's code, as before).
#if defined(__HIPCC__)
#if defined(__HIP_PLATFORM_AMD__)
__device__ unsigned long long vote2(bool p) { return __ballot(p); }
#else
__device__ void vote2_nv(unsigned *out, bool p) { unsigned b = __ballot(p); out[0] = b; }
#endif
#endif

#if defined(AMD_MFMA_AVAILABLE)
__device__ unsigned long long vote3(bool p) { return __ballot(p); }
#else
__device__ void vote3_cuda(unsigned *out, bool p) { unsigned b = __ballot(p); out[0] = b; }
#endif
