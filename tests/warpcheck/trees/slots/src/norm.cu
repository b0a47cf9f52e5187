// Per-warp partial sums in shared memory, then one more reduction.
#include "proj/defs.cuh"

__device__ float warp_sum(float v) {
    for (int o = WARP_SIZE / 2; o > 0; o /= 2)
        v += __shfl_xor(v, o);
    return v;
}

__global__ void norm(const float *x, float *y) {
    __shared__ float sums[NUM_WARPS];  // expect: H7 expect-col: 27
    int warp_id = threadIdx.x / WARP_SIZE;
    int lane_id = threadIdx.x % WARP_SIZE;
    float v = warp_sum(x[threadIdx.x]);
    if (lane_id == 0) sums[warp_id] = v;
    __syncthreads();
    v = sums[lane_id];  // expect: H3 expect-col: 14
    v = warp_sum(v);
    y[threadIdx.x] = x[threadIdx.x] / v;
}

__global__ void norm_guarded(const float *x, float *y) {
    __shared__ float sums[NUM_WARPS];  // expect: H7 expect-col: 27
    int warp_id = threadIdx.x / WARP_SIZE;
    int lane_id = threadIdx.x % WARP_SIZE;
    float v = warp_sum(x[threadIdx.x]);
    if (lane_id == 0) sums[warp_id] = v;
    __syncthreads();
    v = lane_id < NUM_WARPS ? sums[lane_id] : 0.0f;
    v = warp_sum(v);
    y[threadIdx.x] = x[threadIdx.x] / v;
}

__global__ void norm_if(const float *x, float *y) {
    __shared__ float sums[NUM_WARPS];  // expect: H7 expect-col: 27
    int warp_id = threadIdx.x / WARP_SIZE;
    int lane_id = threadIdx.x % WARP_SIZE;
    float v = warp_sum(x[threadIdx.x]);
    if (lane_id == 0) sums[warp_id] = v;
    __syncthreads();
    float w = 0.0f;
    if (lane_id < NUM_WARPS)
        w = sums[lane_id];
    w = warp_sum(w);
    y[threadIdx.x] = x[threadIdx.x] / w;
}
