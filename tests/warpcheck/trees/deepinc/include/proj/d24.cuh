#pragma once
// The width per chip, 25 includes deep: the host pass defines no __GFX9__.
#ifdef __GFX9__
#define DEEP_WARP_SIZE 64
#else
#define DEEP_WARP_SIZE 32  // expect: H8 expect-col: 9
#endif
