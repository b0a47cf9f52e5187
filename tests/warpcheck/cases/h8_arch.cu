// H8: warp widths mapped wrongly from the architecture.
#if defined(__HIP_PLATFORM_AMD__)
#define WARP_SIZE 64  // expect: H8 expect-col: 19
#else
#define WARP_SIZE 32
#endif

#ifdef USE_ROCM
constexpr int kWarpSize = 64;  // expect: H8 expect-col: 27
#else
constexpr int kWarpSize = 32;
#endif

// A chip list that misses gfx940, gfx941, gfx942 and gfx950 (MI300, MI350).
#if defined(__gfx908__) || defined(__gfx90a__)  // expect: H8 expect-col: 13
#define WAVE_WIDTH 64
#else
#define WAVE_WIDTH 32
#endif

// Right for device code, wrong on the host: only the device pass defines __GFX9__.
#if defined(__GFX9__)
#define DEV_WARP 64
#else
#define DEV_WARP 32
#endif

__global__ void k(float *p) { p[threadIdx.x] = DEV_WARP + WAVE_WIDTH + kWarpSize + WARP_SIZE; }

void launch(float *p, int n) {
#ifdef __GFX9__  // expect: H8 expect-col: 8
    int w = 64;
#else
    int w = 32;
#endif
    int threads = 4 * DEV_WARP;  // expect: H8 expect-col: 23
    k<<<n, DEV_WARP * 2>>>(p);  // expect: H8 expect-col: 12
    k<<<n, threads + w>>>(p);
}
