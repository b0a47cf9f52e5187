#pragma once
// The project's name for the device's width, and a helper that counts warps in 32s.
#define PROJ_WAVE warpSize

__device__ inline int proj_row_of(const float *rows, int stride, int i)
{
    const int wid = threadIdx.x >> 5;  // expect-note: H3
    return (int)rows[(PROJ_WAVE * wid + i) * stride];  // expect: H3 expect-col: 35
}
