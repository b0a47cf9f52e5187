// The seed's block reduction as CUDA code writes it: a __shfl_down_sync loop
// from 16 with a 32-bit mask, lane = tid % 32, warp = tid / 32 and one slot
// per warp in shared memory, then the first warp sums the slots.
#include "common.h"

#define BLOCK 256
#define GRID 64

__device__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__global__ void block_sum(const float *in, float *out, int n) {
    __shared__ float warp_sums[32];
    int tid = threadIdx.x;
    int lane = tid % 32;
    int warp = tid / 32;
    int i = blockIdx.x * blockDim.x + tid;
    float v = i < n ? in[i] : 0.0f;
    v = warp_sum(v);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < blockDim.x / warpSize ? warp_sums[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0)
            out[blockIdx.x] = v;
    }
}

int main(void) {
    const int n = GRID * BLOCK - 77;
    float *x = (float *)malloc(n * sizeof *x), out[GRID];
    for (int i = 0; i < n; i++)
        x[i] = rng_float();
    float *dx = (float *)to_device(x, n * sizeof *x), *dout = (float *)poisoned(sizeof out);
    block_sum<<<GRID, BLOCK>>>(dx, dout, n);
    to_host(out, dout, sizeof out);
    CHECK(cudaFree(dx));
    int bad = 0;
    for (int b = 0; b < GRID; b++) {
        double ref = 0;
        for (int i = b * BLOCK; i < (b + 1) * BLOCK && i < n; i++)
            ref += x[i];
        bad += !(fabs(out[b] - ref) <= 1e-4 * (1 + fabs(ref)));
    }
    print_floats("out", out, GRID);
    free(x);
    return finish(bad);
}
