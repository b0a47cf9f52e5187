#include "proj/kernels.cuh"

int host_warp_size(int device);

void partials(const float *in, float *out, int nb, hipStream_t s) {
    int nThreads = 256;
    int nWarps = nThreads / 32;  // expect: H6 expect-col: 29
    float *tmp;
    hipMalloc(&tmp, sizeof(float) * nb * nWarps);
    block_partials<<<nb, nThreads, 0, s>>>(in, tmp);
    dim3 threads(256);
    size_t slots = nb * (threads.x / WARP_SIZE);  // expect: H6 expect-col: 38
    hipMemsetAsync(out, 0, slots * sizeof(float), s);
}

// Warps counted from the queried width, or either width in one statement: fine.
void partials_queried(const float *in, float *out, int nb, hipStream_t s) {
    int nThreads = 256;
    int ws = host_warp_size(0);
    int nWarps = nThreads / ws;
    int most = nThreads / (ws == 64 ? 64 : 32);
    if (host_warp_size(0) == 32) {
        nWarps = nThreads / 32;
    }
    block_partials<<<nb, nThreads, 0, s>>>(in, out + nWarps + most);
}

// Device code: H3's business, not the host's.
__device__ int warps_in(int nthreads) { return nthreads / 64; }

// A consistent 32-lane logical warp: counting its warps in 32s is right
// (a 64-lane wavefront runs two of them), a note.
__global__ void half_sums(const float *in, float *out) {
    int lane = threadIdx.x & 31;  // expect-note: H3
    int warp = threadIdx.x >> 5;  // expect-note: H3
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_xor(v, o, 32);
    if (lane == 0)
        out[blockIdx.x * 8 + warp] = v;
}

void half_partials(const float *in, float *out, int nb, hipStream_t s) {
    int nThreads = 256;
    half_sums<<<nb, nThreads, 0, s>>>(in, out + nb * (nThreads / 32));  // expect-note: H6
}
