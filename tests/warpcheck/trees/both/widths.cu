// Both directions: 32 for every AMD target is wrong on CDNA (wave64), 64 on
// RDNA (wave32); a chip list that misses chips sends them down the wrong branch.
#if defined(__HIP_PLATFORM_AMD__)
#define WAVE_SIZE 32  // expect: H8 expect-col: 19
#endif

#ifdef USE_ROCM
constexpr int kWarpSize = 64;  // expect: H8 expect-col: 27
#endif

#if defined(__HIP_PLATFORM_AMD__)
constexpr int kWaveWidth = 32;  // expect: H8 expect-col: 28
#endif

// RDNA chips listed for 32 but not all of them: gfx1101 and others take 64.
#if defined(__gfx1030__) || defined(__gfx1100__)  // expect: H8 expect-col: 13
#define WARP_W 32
#else
#define WARP_W 64
#endif

// Judged as a whole: the #elif names the chips the #if misses.
#if defined(__gfx908__) || defined(__gfx90a__)
#define WS2 64
#elif defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__) || defined(__gfx950__)
#define WS2 64
#else
#define WS2 32
#endif

#if defined(__GFX9__)
#define WS3 64
#elif defined(__GFX10__) || defined(__GFX11__) || defined(__GFX12__)
#define WS3 32
#endif

#if defined(__HIP_DEVICE_COMPILE__) && defined(__GFX9__)
#define WS4 64
#else
#define WS4 32
#endif

__global__ void k(float *p) { p[threadIdx.x] = WAVE_SIZE + kWarpSize + kWaveWidth + WARP_W + WS2 + WS3 + WS4; }
