// A warp width picked under a macro that tests per-target macros (#if
// IS_CDNA) is per target, like #if defined(__gfx90a__): not a width for
// every AMD target, and not something host code can see (the host pass
// defines none of them). A template host function with all-capitals
// parameter names is still host code.
#define IS_CDNA (defined(__gfx908__) || defined(__gfx90a__) || defined(__gfx942__) || defined(__gfx950__))
#if defined(__HIP_PLATFORM_AMD__)
#if IS_CDNA
#define ROW_WARP 64
#else
#define ROW_WARP 32
#endif
#else
#define ROW_WARP 32
#endif

template <typename T, int BITS>
__global__ void rows(int m) {}

template <typename T, int BITS>
void launch_rows(int m) {
    int blocks = (m + 3) / 4;
    if (ROW_WARP == 64)  // expect: H8 expect-col: 9
        blocks = (m + 1) / 2;
    rows<T, BITS><<<blocks, 128>>>(m);
}

__device__ int row_lanes() {
    return ROW_WARP;
}
