// The width of the chip the header is compiled for: two values.
#pragma once
#if defined(__GFX9__)
constexpr int warp_size = 64;
#else
constexpr int warp_size = 32;
#endif
