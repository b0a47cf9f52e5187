#include "proj/hip_defs.h"
#include "proj/traits.hpp"

__global__ void scale(float *v) {
    int lane = threadIdx.x % kWaveSize;
    v[blockIdx.x * blockDim.x + threadIdx.x] *= (float)lane;
}
