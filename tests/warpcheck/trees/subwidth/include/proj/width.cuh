// The device's width, per target.
#pragma once
#if defined(__HIP_PLATFORM_AMD__) && __AMDGCN_WAVEFRONT_SIZE == 64  // expect: H7
constexpr int kWarpSize = 64;
#else
constexpr int kWarpSize = 32;
#endif

template <typename T>
__device__ T xor_shfl(T v, int mask) {
    return __shfl_xor(v, mask);
}
