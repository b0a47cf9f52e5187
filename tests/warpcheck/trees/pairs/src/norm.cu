#include "proj/occupancy.h"

__device__ void reduce_slots(float *smem, float v) {
#ifndef USE_ROCM
    const int THREADS_PER_WARP = 32;
#else
    const int THREADS_PER_WARP = 64;  // expect: H8 expect-col: 34
#endif
    smem[threadIdx.x / THREADS_PER_WARP] = v;
}

// Not only the width differs: not a pair.
int tile_rows(int n) {
#ifdef USE_ROCM
    return n / 64 + 1;
#else
    return n / 32;
#endif
}

// 64 against 128: not the warp widths.
int chunk(int n) {
#ifdef USE_ROCM
    return n * 64;
#else
    return n * 128;
#endif
}
