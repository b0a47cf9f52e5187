#pragma once
#include <hip/hip_runtime.h>

#define PROJ_WAVE warpSize

namespace proj {

// The width as a constant: warpSize is a run-time value from ROCm 7.
__host__ __device__ constexpr unsigned wave_size()
{
    return warpSize;  // expect: H7 expect-col: 12
}

__device__ constexpr int lanes() { return PROJ_WAVE; }  // expect: H7 expect-col: 43

// Not constexpr: a run-time value is fine.
__device__ inline unsigned wave_size_rt()
{
    return warpSize;
}

// A template: a constexpr one that gives no constant is allowed.
template <typename T>
__device__ constexpr unsigned wave_of()
{
    return warpSize;
}

// Some calls give a constant (arch below 700).
__host__ __device__ constexpr int scratch(int arch)
{
    return arch < 700 ? 0 : 16 * warpSize;
}

}  // namespace proj

#if !defined(__HIP_PLATFORM_AMD__)
// Only CUDA compiles this.
__device__ constexpr int cuda_wave() { return warpSize; }
#endif
