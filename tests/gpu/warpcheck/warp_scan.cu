// An inclusive warp scan written for 32 lanes: __shfl_up_sync steps while
// d < 32, the warp's total read from lane 31 and stored by lane == 31.
#include "common.h"

#define BLOCK 128
#define GRID 80

__global__ void warp_scan(const int *in, int *out, int *totals) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = in[i];
    for (int d = 1; d < 32; d *= 2) {
        int t = __shfl_up_sync(0xffffffff, v, d);
        if (lane >= d)
            v += t;
    }
    out[i] = v;
    int total = __shfl_sync(0xffffffff, v, 31);
    if (lane == 31)
        totals[i / 32] = total;
}

int main(void) {
    const int n = GRID * BLOCK, warps = n / 32;
    int *x = (int *)malloc(n * sizeof *x), *out = (int *)malloc(n * sizeof *out);
    int totals[GRID * BLOCK / 32];
    for (int i = 0; i < n; i++)
        x[i] = rng_int(-50000, 50000);
    int *dx = (int *)to_device(x, n * sizeof *x);
    int *dout = (int *)poisoned(n * sizeof *out), *dtotals = (int *)poisoned(sizeof totals);
    warp_scan<<<GRID, BLOCK>>>(dx, dout, dtotals);
    to_host(out, dout, n * sizeof *out);
    to_host(totals, dtotals, sizeof totals);
    CHECK(cudaFree(dx));
    int bad = 0;
    for (int w = 0; w < warps; w++) {
        int s = 0;
        for (int l = 0; l < 32; l++) {
            s += x[w * 32 + l];
            bad += out[w * 32 + l] != s;
        }
        bad += totals[w] != s;
    }
    print_ints("out", out, n);
    print_ints("totals", totals, warps);
    free(x);
    free(out);
    return finish(bad);
}
