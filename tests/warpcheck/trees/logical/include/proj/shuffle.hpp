#pragma once
// A shuffle over groups of `width` lanes, the whole wavefront by default.
template <class T>
__device__ T warp_shuffle(T v, int src_lane, int width = warpSize) {
    return __shfl(v, src_lane, width);
}
