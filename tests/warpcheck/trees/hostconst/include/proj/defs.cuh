// The width chosen per target by a wave-size test: the host pass does not
// define __AMDGCN_WAVEFRONT_SIZE, so on the host kWarpSize is always 64.
#pragma once
#ifdef USE_ROCM
#if __AMDGCN_WAVEFRONT_SIZE == 32u  // expect: H7 expect-col: 5
constexpr int kWarpSize = 32;
#else
constexpr int kWarpSize = 64;
#endif
#else
constexpr int kWarpSize = 32;
#endif

// One value everywhere: fine on the host.
constexpr int kTileRows = 32;
