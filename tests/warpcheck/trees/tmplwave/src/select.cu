#include <proj/defs.cuh>

// Two templates down: Q reaches WarpQueue's NumQ, which counts it per lane of the device's warp.
template <int Q, int T>
__global__ void select_k(const float *in, float *out, int k) {
    proj::WarpQueue<float, Q, T * kWarpSize> queue;
    out[threadIdx.x] = in[threadIdx.x] + queue.slots[0];
}

template <int Q>
__global__ void rows_k(const float *in, float *out) {
    out[threadIdx.x] = in[threadIdx.x] * proj::Rows32<Q>::kRows;
}

template <int Q>
__global__ void spread_k(const float *in, float *out) {
    out[threadIdx.x] = in[threadIdx.x] * proj::Spread<Q>::kPer;
}

void run_select(const float *in, float *out, int k, int warp_size, hipStream_t s) {
    if (k == 1) {
        select_k<1, 1><<<1, 64, 0, s>>>(in, out, k);
    } else if (k <= 32) {
        select_k<32, 2><<<1, 64, 0, s>>>(in, out, k);  // expect: H15 expect-col: 18
    } else if (k <= 96) {
        select_k<96, 2><<<1, 64, 0, s>>>(in, out, k);  // expect: H15 expect-col: 18
    } else if (k <= 128) {
        select_k<128, 3><<<1, 64, 0, s>>>(in, out, k);
    }
    rows_k<32><<<1, 64, 0, s>>>(in, out);
    spread_k<32><<<1, 64, 0, s>>>(in, out);
    // Chosen for the width the host found: fine.
    if (k <= 32 && warp_size == 32) {
        select_k<32, 2><<<1, 64, 0, s>>>(in, out, k);
    }
}

#ifndef PROJ_HIP
// Only CUDA builds this: 32 lanes there.
void run_select_cuda(const float *in, float *out, int k) {
    select_k<32, 2><<<1, 32>>>(in, out, k);
}
#endif
