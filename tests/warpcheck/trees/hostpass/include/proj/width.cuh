#pragma once
// The width per target: the compiler's macro where it has one, 64 on
// gfx9, 32 elsewhere (the host pass takes the last branch).
#if PROJ_HIP
#ifdef __AMDGCN_WAVEFRONT_SIZE  // expect: H7 expect-col: 8
#define PROJ_WARP_SIZE __AMDGCN_WAVEFRONT_SIZE  // expect: H7 expect-col: 24
#elif defined(__GFX9__)
#define PROJ_WARP_SIZE 64
#else
#define PROJ_WARP_SIZE 32
#endif
#else
#define PROJ_WARP_SIZE 32
#endif

// Names for the two widths, not a choice of the device's.
#define PROJ_WARP_SIZE_32 32u
#define PROJ_WARP_SIZE_64 64u
#define PROJ_MAX_WARP_SIZE 64u
#define PROJ_WAVE_SIZE 64u  // expect: H8 expect-col: 24
