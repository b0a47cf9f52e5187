// A width of 64 under an all-AMD guard is H8 only when nothing inside picks
// it per target: here a test of the wavefront size does (itself H7, the
// macro being deprecated), so 64 is not claimed for RDNA.
#ifdef __HIP_PLATFORM_AMD__
#if __AMDGCN_WAVEFRONT_SIZE == 32u  // expect: H7 expect-col: 5
constexpr int kWarpSize = 32;
#else
constexpr int kWarpSize = 64;
#endif
#else
constexpr int kWarpSize = 32;
#endif

#ifdef USE_ROCM
#if DEVICE_WARP_SIZE == 64
#define ROW_WIDTH 64
#else
#define ROW_WIDTH 32
#endif
constexpr int kWaveWidth = 64;  // expect: H8
#endif

__device__ int lane() {
    return threadIdx.x % kWarpSize;
}
