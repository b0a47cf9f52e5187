// Launchers stamped out by a macro: their bodies are host code.
#pragma once
#include "proj/defs.cuh"

template <int Q, int Threads>
__global__ void select_k(const float *in, float *out, int k);

#define SELECT_IMPL(Q)                                                      \
    void run_select_##Q(const float *in, float *out, int k, hipStream_t s) { \
        constexpr int kThreads = 128;                                       \
        select_k<Q, kThreads><<<k, kThreads, 0, s>>>(in, out, k); }
#define SELECT_RUN(Q)                                                       \
    void run_select_rows_##Q(const float *in, float *out, int k, hipStream_t s) { \
        select_k<Q, 128><<<k / (128 / kWarpSize), 128, 0, s>>>(in, out, k); }  // expect: H8 expect-col: 39

// A macro that defines device code may use the per-target width.
#define SELECT_KERNEL(Q)                                                    \
    __global__ void select_small_##Q(float *v) {                            \
        v[threadIdx.x % kWarpSize] += Q;                                    \
    }
