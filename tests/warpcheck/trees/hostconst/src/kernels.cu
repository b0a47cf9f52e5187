// Device code may use the per-target width: each chip compiles its own.
#include "proj/defs.cuh"

__global__ void scale(float *v, int n) {
    int lane = threadIdx.x % kWarpSize;
    if (blockIdx.x * blockDim.x + threadIdx.x < n)
        v[blockIdx.x * blockDim.x + threadIdx.x] *= (float)lane;
}

void launch(float *v, int n, hipStream_t s) {
    dim3 block(4 * kWarpSize);  // expect: H8 expect-col: 20
    scale<<<(n + 255) / 256, block, 0, s>>>(v, n);
}
