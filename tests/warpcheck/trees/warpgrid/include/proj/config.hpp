#pragma once
// The project's width: the device's on HIP, 32 on CUDA.
namespace proj {
struct config {
#if PROJ_HIP_PLATFORM_AMD
    static constexpr unsigned warp_size = warpSize;  // expect: H7
#else
    static constexpr unsigned warp_size = 32;
#endif
    static constexpr unsigned logical_warp_size = 32;
};
}  // namespace proj

inline unsigned ceildiv(unsigned a, unsigned b) { return (a + b - 1) / b; }
