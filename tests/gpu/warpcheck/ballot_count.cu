// The seed's ballot pattern: a ballot kept in 32 bits and counted with
// __popc, __ffs for the first lane, and a warp-aggregated compaction that
// ranks each kept element with __popc(ballot & ((1u << lane) - 1)).
#include "common.h"

#define BLOCK 256
#define GRID 40

__global__ void count_positive(const int *data, int *counts, int *firsts) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool pred = data[i] > 0;
    unsigned int active = __ballot_sync(0xffffffff, pred);
    int lane = threadIdx.x % 32;
    if (lane == 0) {
        counts[i / 32] = __popc(active);
        firsts[i / 32] = __ffs(active) - 1;
    }
}

__global__ void compact(const int *data, int *out, int *kept) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = i >> 5;
    int x = data[i];
    unsigned int keep = __ballot_sync(0xffffffff, x > 0);
    int rank = __popc(keep & ((1u << lane) - 1));
    if (x > 0)
        out[warp * warpSize + rank] = x;
    if (lane == 0)
        kept[warp] = __popc(keep);
}

int main(void) {
    const int n = GRID * BLOCK, warps = n / 32;
    int *x = (int *)malloc(n * sizeof *x), *out = (int *)malloc(n * sizeof *out);
    int counts[GRID * BLOCK / 32], firsts[GRID * BLOCK / 32], kept[GRID * BLOCK / 32];
    for (int i = 0; i < n; i++)
        x[i] = rng_int(-1000, 300);  /* some warps keep nothing */
    int *dx = (int *)to_device(x, n * sizeof *x);
    int *dcounts = (int *)poisoned(sizeof counts), *dfirsts = (int *)poisoned(sizeof firsts);
    int *dout = (int *)poisoned(n * sizeof *out), *dkept = (int *)poisoned(sizeof kept);
    count_positive<<<GRID, BLOCK>>>(dx, dcounts, dfirsts);
    compact<<<GRID, BLOCK>>>(dx, dout, dkept);
    to_host(counts, dcounts, sizeof counts);
    to_host(firsts, dfirsts, sizeof firsts);
    to_host(kept, dkept, sizeof kept);
    to_host(out, dout, n * sizeof *out);
    CHECK(cudaFree(dx));
    int bad = 0;
    for (int w = 0; w < warps; w++) {
        int c = 0, first = -1;
        for (int l = 0; l < 32; l++) {
            int v = x[w * 32 + l];
            if (v > 0) {
                bad += out[w * 32 + c] != v;
                first = first < 0 ? l : first;
                c++;
            }
        }
        for (int l = c; l < 32; l++)
            bad += out[w * 32 + l] != -1;  /* still poison */
        bad += counts[w] != c || kept[w] != c || firsts[w] != first;
    }
    print_ints("counts", counts, warps);
    print_ints("firsts", firsts, warps);
    print_ints("kept", kept, warps);
    print_ints("out", out, n);
    free(x);
    free(out);
    return finish(bad);
}
