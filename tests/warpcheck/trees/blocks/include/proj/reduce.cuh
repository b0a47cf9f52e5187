#pragma once
#include <hip/hip_runtime.h>

namespace proj {

// Sum over the whole wavefront: every lane takes part.
__device__ inline float wave_sum(float v)
{
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_xor(v, o);
    return v;
}

// Maximum over groups of 4 neighbouring lanes.
__device__ inline float quad_max(float v)
{
    v = fmaxf(v, __shfl_xor(v, 1));
    v = fmaxf(v, __shfl_xor(v, 2));
    return v;
}

inline int round_up(int n, int m) { return (n + m - 1) / m * m; }

}  // namespace proj
