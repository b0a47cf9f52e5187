#include "proj/kernels.cuh"

__global__ void local_vote(const int *in, unsigned long long *out) {
    unsigned long long b = __ballot(in[blockIdx.x * blockDim.x + threadIdx.x] > 0);
    if (threadIdx.x == 0)
        out[blockIdx.x] = b;
}

int host_warp_size(int device);

void run(const float *in, float *out, const int *flags, unsigned long long *votes, int nb, hipStream_t s) {
    block_sum<<<nb, 64, 0, s>>>(in, out);  // expect: H6 expect-col: 21
    warp_sums<<<nb, 64, 0, s>>>(in, out);
    scale<<<nb, 64, 0, s>>>(out, 2.0f);
    local_vote<<<nb, 64>>>(flags, votes);  // expect: H6 expect-col: 22
    block_sum<<<nb, dim3(64), 0, s>>>(in, out);  // expect: H6 expect-col: 26
    dim3 rows(32, 4);  // expect: H6 expect-col: 15
    row_roll<<<nb, rows, 0, s>>>(in, out);
    dim3 rows2(32, 4, 1);
    row_max<<<nb, rows2, 0, s>>>(in, out);
    dim3 flat(32, 1);
    row_roll<<<nb, flat, 0, s>>>(in, out);
}

// The host picks the block from the width it queried: fine.
void run_queried(const float *in, float *out, int nb, hipStream_t s) {
    if (host_warp_size(0) == 64) {
        block_sum<<<nb, 64, 0, s>>>(in, out);
    } else {
        block_sum<<<nb, 32, 0, s>>>(in, out);
    }
    int w = 0;
    hipDeviceGetAttribute(&w, hipDeviceAttributeWarpSize, 0);
    block_sum<<<nb, w, 0, s>>>(in, out);
}
