// Warp votes and a lane rotation with 32-bit masks: __any_sync, __all_sync,
// __syncwarp(0xffffffff), and __shfl_sync from lane (lane + 1) & 31.
#include "common.h"

#define BLOCK 192
#define GRID 50

__global__ void votes(const int *in, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int x = in[i];
    int any = __any_sync(0xffffffff, x > 990);
    int all = __all_sync(0xffffffff, x > -990);
    __syncwarp(0xffffffff);
    int next = __shfl_sync(0xffffffff, x, (lane + 1) & 31);
    out[i] = next * 4 + any * 2 + all;
}

int main(void) {
    const int n = GRID * BLOCK;
    int *x = (int *)malloc(n * sizeof *x), *out = (int *)malloc(n * sizeof *out);
    for (int i = 0; i < n; i++)
        x[i] = rng_int(-1000, 1000);
    int *dx = (int *)to_device(x, n * sizeof *x), *dout = (int *)poisoned(n * sizeof *out);
    votes<<<GRID, BLOCK>>>(dx, dout);
    to_host(out, dout, n * sizeof *out);
    CHECK(cudaFree(dx));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        int w = i / 32 * 32, any = 0, all = 1;
        for (int l = 0; l < 32; l++) {
            any |= x[w + l] > 990;
            all &= x[w + l] > -990;
        }
        bad += out[i] != x[w + (i % 32 + 1) % 32] * 4 + any * 2 + all;
    }
    print_ints("out", out, n);
    free(x);
    free(out);
    return finish(bad);
}
