// 6-bit codes packed across the warp: 32 lanes' codes fill 24 bytes, but
// 64 lanes' fill 48, so "the first 24 lanes write" is a 32-lane count.
#include <proj/shfl.cuh>

__device__ void pack6(int laneId, unsigned v, unsigned char *out) {
    int from = (laneId * 8) / 6;
    unsigned lo = PROJ_SHFL(v, from, kWarpWidth);
    unsigned hi = PROJ_SHFL(v, from + 1, kWarpWidth);
    if (laneId < 24) {  // expect: H5 expect-col: 18
        out[laneId] = (unsigned char)(lo | (hi << 6));
    }
}

__device__ void pack4(int laneId, unsigned v, unsigned char *out) {
    unsigned nb = __shfl(v, laneId * 2 + 1);
    if (laneId < 16) {  // expect: H5 expect-col: 18
        out[laneId] = (unsigned char)((v & 0xf) | (nb << 4));
    }
}

// A 32-lane group's own shuffle: explicit width 32, correct in halves.
__device__ void pack6_group(int laneId, unsigned v, unsigned char *out) {
    int from = (laneId * 8) / 6;
    unsigned lo = __shfl(v, from, 32);
    if (laneId < 24) {
        out[laneId] = (unsigned char)lo;
    }
}

// A broadcast from lane 0 before the test: no packing across the warp.
__device__ void first_half(int laneId, unsigned v, unsigned *out) {
    unsigned b = __shfl(v, 0, kWarpWidth);
    if (laneId < 16) {
        out[laneId] = b + v;
    }
}
