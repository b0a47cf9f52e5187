#pragma once
// The width picked per chip: right in device code, but the host pass defines no __GFX9__.
#ifdef __GFX9__
#define PROJ_WARP_SIZE 64
#else
#define PROJ_WARP_SIZE 32  // expect: H8 expect-col: 9
#endif

// Only device code uses this one: each chip's pass takes its own branch.
#if defined(__GFX9__)
#define PROJ_DEV_WAVE 64
#else
#define PROJ_DEV_WAVE 32
#endif
