#include <hip/hip_runtime.h>
#include <lib/platform.h>
#include <lib/helpers.cuh>

__device__ int votes(bool p) {
    unsigned long long b = __ballot(p);
    unsigned m = __activemask();  // expect: H4 expect-col: 5
    return count_lanes(b) + (int)m;
}

// A template parameter named warpSize is the project's, not the device's.
template <int warpSize = 32>
__device__ float group_sum(float v) {
    __shared__ float s[warpSize];
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_xor(v, o, warpSize);
    s[0] = v;
    return s[0];
}

// rocprim's width is a constant per target in device code.
__global__ void tiles(float *out) {
    __shared__ float t[HIPCUB_WARP_THREADS];
    t[threadIdx.x % rocprim::warp_size()] = out[threadIdx.x];
    out[threadIdx.x] = group_sum(t[0]);
}

// A consistent 32-lane logical warp, its width through a macro: notes.
__device__ float logical_sum(float v) {
    int lane = threadIdx.x % 32;  // expect-note: H3 expect-col: 28
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_xor(v, o, LOGICAL_WIDTH);
    return lane == 0 ? v : 0.0f;
}

// Half of a 32-lane warp, then a shuffle that crosses it.
__device__ float halves(float v) {
    int lane = threadIdx.x % warpSize;
    if (lane < 16)  // expect: H5 expect-col: 16
        v *= 2.0f;
    return v + __shfl_xor(v, 16);
}
