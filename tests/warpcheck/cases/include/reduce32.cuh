// Included by scheme_header.cu: reductions that keep to 32-lane groups (a
// width of 32 on every shuffle), and one that takes the physical view.
#pragma once
#define WARP_SIZE 32
#if defined(USE_ROCM)
#define __shfl_xor_sync(mask, v, o, w) __shfl_xor(v, o, w)
#endif

template <int width = WARP_SIZE>
__device__ __forceinline__ float warp_sum(float x) {
#pragma unroll
    for (int offset = width / 2; offset > 0; offset >>= 1)
        x += __shfl_xor_sync(0xffffffff, x, offset, width);
    return x;
}

// Goes through a second helper, as block reductions with a policy do.
template <typename T>
__device__ T reduce_policy(T v) {
    return warp_sum(v);
}

__device__ __forceinline__ unsigned long long warp_votes(bool p) {
    return __ballot(p);
}
