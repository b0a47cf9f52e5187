// Must not flag: widths chosen per target for device code, the host asking
// the device, a chip list that names every CDNA part, chip lists that pick
// something other than a width.
#if defined(__GFX8__) || defined(__GFX9__)
#define WAVE 64
#else
#define WAVE 32
#endif
__global__ void k(float *p) { p[threadIdx.x] = WAVE; }

#if defined(__gfx908__) || defined(__gfx90a__) || defined(__gfx940__) || defined(__gfx941__) || \
    defined(__gfx942__) || defined(__gfx950__)
#define CDNA_WARP 64
#else
#define CDNA_WARP 32
#endif
__device__ int width() { return CDNA_WARP; }

#if defined(__HIP_PLATFORM_AMD__) && defined(__GFX9__)
#define NARROWED_WARP 64
#endif

#ifdef __HIP_PLATFORM_AMD__
#define BLOCK_THREADS 64
#endif

#if defined(__gfx90a__)
#define MFMA_TILE 64
#endif

int host_width(int dev) {
    int ws = 0;
    hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev);
    return ws;
}

void launch(float *p, int n, int dev) {
    k<<<n, 4 * host_width(dev)>>>(p);
}
