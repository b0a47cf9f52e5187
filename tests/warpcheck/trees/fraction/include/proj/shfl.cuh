// The project's width (per target) and its shuffle wrapper.
#pragma once
#if defined(USE_ROCM) && defined(__GFX9__)
constexpr int kLanes = 64;
#else
constexpr int kLanes = 32;
#endif
constexpr int kWarpWidth = kLanes;
#define PROJ_SHFL(VAL, SRC_LANE, WIDTH) __shfl(VAL, SRC_LANE, WIDTH)
