#include <proj/config.hpp>

// Each row is read by one warp of proj::config::warp_size lanes.
__global__ void match_rows(unsigned rows, const int *ptrs, bool *out)
{
    const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned row = tid / proj::config::warp_size;
    const unsigned lane = tid % proj::config::warp_size;
    if (row >= rows)
        return;
    bool same = ptrs[row] + lane == ptrs[row + 1];
    same = __all(same);
    if (lane == 0)
        out[row] = same;
}

__global__ void sum_rows(unsigned rows, const float *in, float *out)
{
    const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[tid];
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_down(v, o);
    if (tid % warpSize == 0)
        out[tid / warpSize] = v;
}
