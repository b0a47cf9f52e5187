#include <proj/width.cuh>

__global__ void lane_sum(const float *in, float *out)
{
    const int lane = threadIdx.x % PROJ_DEV_WAVE;
    float v = in[threadIdx.x];
    for (int o = PROJ_DEV_WAVE / 2; o > 0; o /= 2)
        v += __shfl_down(v, o, PROJ_DEV_WAVE);
    if (lane == 0)
        out[threadIdx.x / PROJ_DEV_WAVE] = v;
}
