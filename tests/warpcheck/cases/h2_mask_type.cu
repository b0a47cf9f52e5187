// H2 mask-type: a lane mask of a 32-bit type given to a _sync call. HIP's
// _sync functions take a 64-bit mask (a static_assert from HIP 6.2), so the
// declaration's type is what has to change. Also inside a branch whose guard
// is __HIP_PLATFORM_HCC__, which ROCm 6 no longer defines: HIP compiles the
// branch meant for CUDA.

__device__ float group_sum(float v, int n) {
    unsigned int part = (1u << n) - 1;  // expect: H2 expect-col: 5
    for (int o = 1; o < n; o <<= 1)
        v += __shfl_xor_sync(part, v, o, 32);
    return v;
}

__device__ float tail_sum(float *slots, int nwarps) {
    uint32_t live = (((uint64_t)1) << nwarps) - 1;  // expect: H2 expect-col: 5
    float v = 0.0f;
    if (threadIdx.x < nwarps) {
        v = slots[threadIdx.x];
#ifndef __HIP_PLATFORM_HCC__
        __syncwarp(live);
#endif
    }
    return v;
}

__device__ float stale_full(float v) {
#if !defined(__HIP_PLATFORM_HCC__)
    v += __shfl_down_sync(0xffffffff, v, 1);  // expect: H2 expect-col: 27
#else
    v += __shfl_down(v, 1);
#endif
    return v;
}

__device__ int pick(const unsigned sel, int x) {  // expect: H2 expect-col: 27
    return __shfl_sync(sel, x, 0);
}

// Not reported: 64-bit masks, a ballot kept in 32 bits (H4 says it at the
// declaration), a full mask literal (H2 lane-mask at the call), a branch
// of a live platform test, a project's CUDA switch, a shim that drops the mask.
__device__ float wide(float v, int n) {
    unsigned long long part = (1ull << n) - 1;
    uint64_t all = ~0ull;
    v += __shfl_xor_sync(part, v, 1);
    v += __shfl_xor_sync(all, v, 2);
    return v;
}

__device__ float via_ballot(float v, bool p) {
    unsigned b = __ballot_sync(~0ull, p);  // expect: H4
    v += __shfl_xor_sync(b, v, 1);
    return v;
}

__device__ float literal(float v) {
    unsigned full = 0xffffffff;
    v += __shfl_xor_sync(full, v, 1);  // expect: H2
    return v;
}

__device__ float live_guard(float v, int n) {
    unsigned part = (1u << n) - 1;
#ifndef __HIP_PLATFORM_AMD__
    v += __shfl_xor_sync(part, v, 1);
#endif
    return v;
}

#ifdef PROJ_ENABLE_CUDA
__device__ float backend(float v, int n) {
    unsigned part = (1u << n) - 1;
    v += __shfl_xor_sync(part, v, 1);
    return v;
}
#endif

#define SHFL_DOWN(m, v, o) __shfl_down(v, o)
__device__ float shim(float v, int n) {
    unsigned part = (1u << n) - 1;
    v += SHFL_DOWN(part, v, 1);
    return v;
}
