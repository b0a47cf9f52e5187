#pragma once
// Widths given under no condition at all.
struct HipTraits {
    static constexpr int WarpSize = 64;  // expect: H8 expect-col: 37
    static constexpr int BlockSize = 64;
};

#if PROJ_WAVE64
#define WAVE_WIDTH 64
#else
#define WAVE_WIDTH 32
#endif

#ifdef __GFX9__
constexpr int kWaveSize = 64;
#else
constexpr int kWaveSize = 32;
#endif
