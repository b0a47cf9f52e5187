// --target names the chips the build targets: this list covers them all.
#if defined(__gfx90a__) || defined(__gfx942__)
#define WARP_W 64
#else
#define WARP_W 32
#endif

// ...but not this one: gfx942 takes 32.
#if defined(__gfx90a__)  // expect: H8 expect-col: 13
#define WAVE_WIDTH 64
#else
#define WAVE_WIDTH 32
#endif

__global__ void k(float *p) { p[threadIdx.x] = WARP_W + WAVE_WIDTH; }
