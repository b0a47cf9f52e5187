// H8 warp-count: a count of warps that the AMD branch halves against its
// CUDA branch. 4 warps of 64 lanes are CUDA's 8 warps of 32, but the RDNA
// chips run 32-lane wavefronts, so their blocks get half the threads.

#if defined(PROJ_USE_HIP)
static int tile_nwarps_host(const int cc) {
    return cc_has_matrix_cores(cc) ? 8 : 4;  // expect: H8 expect-col: 42
}
#else
static int tile_nwarps_host(const int cc) {
    return 8;
}
#endif

#ifdef __HIP_PLATFORM_AMD__
constexpr int kNumWarps = 2;  // expect: H8 expect-col: 27
#else
constexpr int kNumWarps = 4;
#endif

// Not reported: counts from the width, the same count on both sides, an
// AMD count that is not half of CUDA's, a count a device pass of 64-lane
// chips alone compiles, a count multiplied by the project's own width
// constant (that constant's definition is where a wrong width shows), and
// widths (not counts).
static int rows_nwarps_host(int warp_size) {
    return 256 / warp_size;
}

#ifdef __HIP_PLATFORM_AMD__
constexpr int kScanWarps = 8;
constexpr int kCopyWarps = 3;
#else
constexpr int kScanWarps = 8;
constexpr int kCopyWarps = 4;
#endif

#if defined(__HIP_DEVICE_COMPILE__) && (defined(__gfx90a__) || defined(__gfx942__))
__device__ constexpr int mfma_nwarps() { return 4; }
#elif !defined(__HIP_PLATFORM_AMD__)
__device__ constexpr int mfma_nwarps() { return 8; }
#endif

namespace cfg { constexpr int warp_size = 64; }  // expect: H8
#ifdef __HIP_PLATFORM_AMD__
constexpr int fill_num_warps = 16;
#else
constexpr int fill_num_warps = 32;
#endif
__global__ __launch_bounds__(fill_num_warps * cfg::warp_size) void fill(float *p) { p[threadIdx.x] = 0.0f; }
