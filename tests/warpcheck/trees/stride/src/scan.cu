#include <proj/layout.cuh>

// Rows of a tile copied by warps: the warp id and the stride must count the same lanes.
template <int Rows>
__global__ void copy_rows(const float *in, float *out, int stride)
{
    const int tid = threadIdx.x;
    const int wid = tid / 32;  // expect-note: H3
    const int wtid = tid % 32;  // expect-note: H3
    for (int i = 0; i < Rows; i += 2) {
        out[(wid * warpSize + i) * stride + wtid] = in[(wid * 32 + i) * stride + wtid];  // expect: H3 expect-col: 14
    }
}

// The same width on both sides, or no warp id at all: fine.
template <int Rows>
__global__ void copy_rows_same(const float *in, float *out, int stride)
{
    const int tid = threadIdx.x;
    const int wid = tid / warpSize;
    const int lane = tid % warpSize;
    const int wid32 = tid / 32;  // expect-note: H3
    constexpr int kTile = 32;
    for (int i = 0; i < Rows; i += 2) {
        out[(wid * warpSize + i) * stride + lane] = in[(blockIdx.x * warpSize + i) * stride + lane];
        out[(wid32 * kTile + i) * stride] = 0.f;
    }
}

template __global__ void copy_rows<8>(const float *, float *, int);
template __global__ void copy_rows_same<8>(const float *, float *, int);
