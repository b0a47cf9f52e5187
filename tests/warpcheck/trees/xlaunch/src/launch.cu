__global__ void row_sum(const float *in, float *out);
__global__ void row_roll(const float *in, float *out);
__global__ void warp_sums(const float *in, float *out);
__global__ void scale(float *x, float a);
__global__ void elsewhere(const float *in, float *out);

int host_warp_size(int device);

void run(const float *in, float *out, int nb, hipStream_t s) {
    row_sum<<<nb, 64, 0, s>>>(in, out);  // expect: H6 expect-col: 19
    row_sum<<<nb, dim3(64), 0, s>>>(in, out);  // expect: H6 expect-col: 24
    dim3 rows(32, 4);  // expect: H6 expect-col: 15
    row_roll<<<nb, rows, 0, s>>>(in, out);
    warp_sums<<<nb, 64, 0, s>>>(in, out);
    scale<<<nb, 64, 0, s>>>(out, 2.0f);
    elsewhere<<<nb, 64, 0, s>>>(in, out);
    row_sum<<<nb, 256, 0, s>>>(in, out);
}

// The host picks the block from the width it queried: fine.
void run_queried(const float *in, float *out, int nb, hipStream_t s) {
    if (host_warp_size(0) == 64) {
        row_sum<<<nb, 64, 0, s>>>(in, out);
    } else {
        row_sum<<<nb, 32, 0, s>>>(in, out);
    }
}

#ifndef __HIP_PLATFORM_AMD__
// Only CUDA compiles this.
void run_cuda(const float *in, float *out, int nb) {
    row_sum<<<nb, 64>>>(in, out);
}
#endif
