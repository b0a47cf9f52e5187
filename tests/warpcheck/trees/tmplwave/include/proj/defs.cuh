#pragma once
#include <hipcub/hipcub.hpp>

// The device's width, per target (device code only).
#if defined(__HIP_PLATFORM_AMD__)
#ifdef __GFX9__
#define PROJ_WARP 64
#else
#define PROJ_WARP 32
#endif
#else
#define PROJ_WARP 32
#endif

#if defined(__GFX9__)
constexpr int kWarpSize = 64;
#else
constexpr int kWarpSize = 32;
#endif

namespace proj {
// A queue of NumQ slots kept in registers across the warp: NumQ / kWarpSize each.
template <typename K, int NumQ, int Threads>
struct WarpQueue {
    static constexpr int kPerLane = NumQ / kWarpSize;
    K slots[kPerLane > 0 ? kPerLane : 1];
};

// A fixed logical width: counting in 32s is the code's own choice.
template <int N>
struct Rows32 {
    static constexpr int kRows = N / 32;
};
// Whole warps only where there are some: fine for any N.
template <int N>
struct Spread {
    static constexpr int kPer = (N > kWarpSize) ? N / kWarpSize : 1;
};
}  // namespace proj
