// The seed's reduction with an xor butterfly: offsets 16..1 and 32-bit
// masks, a slot per 32 threads written by threadIdx.x % 32 == 0, and the
// slots summed by the first 32 threads (if (threadIdx.x < 32)). The 32-lane
// scheme is consistent, so --fix leaves it (notes) and fixes the masks.
#include "common.h"

#define BLOCK 512
#define GRID 48

__device__ float warp_reduce(float val) {
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_xor_sync(0xffffffff, val, offset);
    return val;
}

__global__ void block_sum(const float *in, float *out) {
    __shared__ float warp_sums[32];
    float v = warp_reduce(in[blockIdx.x * blockDim.x + threadIdx.x]);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        float s = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2)
            s += __shfl_xor_sync(0xffffffff, s, offset);
        if (threadIdx.x == 0)
            out[blockIdx.x] = s;
    }
}

int main(void) {
    const int n = GRID * BLOCK;
    float *x = (float *)malloc(n * sizeof *x), out[GRID];
    for (int i = 0; i < n; i++)
        x[i] = rng_float();
    float *dx = (float *)to_device(x, n * sizeof *x), *dout = (float *)poisoned(sizeof out);
    block_sum<<<GRID, BLOCK>>>(dx, dout);
    to_host(out, dout, sizeof out);
    CHECK(cudaFree(dx));
    int bad = 0;
    for (int b = 0; b < GRID; b++) {
        double ref = 0;
        for (int i = b * BLOCK; i < (b + 1) * BLOCK; i++)
            ref += x[i];
        bad += !(fabs(out[b] - ref) <= 1e-4 * (1 + fabs(ref)));
    }
    print_floats("out", out, GRID);
    free(x);
    return finish(bad);
}
