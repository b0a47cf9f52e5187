// Bitonic steps over groups of 2 * L lanes, L bounded by the device's width.
#pragma once
#include "proj/width.cuh"

template <typename K, int L, bool Dir>
__device__ void merge_step(K &k) {
    static_assert(L <= kWarpSize / 2, "a step spans at most the warp");
    for (int s = L; s > 0; s /= 2) {
        K other = xor_shfl(k, s);
        k = (Dir == (other < k)) ? other : k;
    }
}

template <typename T, int Width>
__device__ T group_sum(T v) {
    static_assert(Width <= kWarpSize, "a group fits in the warp");
    for (int o = Width / 2; o > 0; o /= 2)
        v += xor_shfl(v, o);
    return v;
}

template <typename K, bool Dir>
__device__ void merge_warp(K &k) {
    // the last step joins two lists of half a warp each
    merge_step<K, 16, Dir>(k);  // expect: H14 expect-col: 19
}

template <typename K, bool Dir>
__device__ void merge_warp_chosen(K &k) {
    if constexpr (kWarpSize == 32) {
        merge_step<K, 16, Dir>(k);
    } else {
        merge_step<K, 32, Dir>(k);
    }
}

template <typename K, bool Dir>
__device__ void merge_quads(K &k) {
    merge_step<K, 4, Dir>(k);  // groups of 8 lanes on purpose
}

template <typename K, bool Dir>
__device__ void sort_warp(K &k) {
    merge_step<K, 1, Dir>(k);
    merge_step<K, 16, Dir>(k);
    if constexpr (kWarpSize == 64) {
        merge_step<K, 32, Dir>(k);  // the wavefront's last step
    }
}
