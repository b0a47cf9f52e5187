#include <algorithm>

#include <proj/reduce.cuh>

// One block per row; each thread takes columns threadIdx.x, +blockDim.x, ...
__global__ void row_norm(const float *in, float *out, int cols)
{
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        s += in[c] * in[c];
    s = proj::wave_sum(s);
    if (threadIdx.x % warpSize == 0)
        atomicAdd(out + blockIdx.x, s);
}

#define LAUNCH_NORM(K) K<<<grid, block, 0, stream>>>(in, out, cols)

void norms(const float *in, float *out, int rows, int cols, int max_threads, hipStream_t stream)
{
    int threads = std::min(cols, max_threads);  // expect: H10 expect-col: 24
    row_norm<<<rows, threads, 0, stream>>>(in, out, cols);
}

void norms_macro(const float *in, float *out, int rows, int cols, hipStream_t stream)
{
    auto n = std::min(cols, 1024);  // expect: H10 expect-col: 19
    dim3 grid(rows);
    dim3 block(n);
    LAUNCH_NORM(row_norm);
}

void norms_ggl(const float *in, float *out, int rows, int cols)
{
    hipLaunchKernelGGL(row_norm, dim3(rows), dim3(min(cols, 512)), 0, 0, in, out, cols);  // expect: H10 expect-col: 51
}

// Whole warps of the device's width: fine.
void norms_rounded(const float *in, float *out, int rows, int cols, int max_threads, int warp_size)
{
    int threads = std::min(proj::round_up(cols, warp_size), max_threads);
    row_norm<<<rows, threads>>>(in, out, cols);
}

void norms_rounded_before(const float *in, float *out, int rows, int cols)
{
    int threads = (cols + 63) / 64 * 64;
    threads = std::min(threads, 1024);
    dim3 block(threads, 1, 1);
    row_norm<<<rows, block>>>(in, out, cols);
}

// Two constants: the block is what it says.
void norms_fixed(const float *in, float *out, int rows, int cols)
{
    row_norm<<<rows, std::min(256, 1024)>>>(in, out, cols);
}

#ifndef __HIP_PLATFORM_AMD__
// Only CUDA compiles this.
void norms_cuda(const float *in, float *out, int rows, int cols)
{
    int threads = std::min(cols, 1024);
    row_norm<<<rows, threads>>>(in, out, cols);
}
#endif
