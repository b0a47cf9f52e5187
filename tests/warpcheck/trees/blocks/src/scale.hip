#include <algorithm>

#include <proj/reduce.cuh>

// Groups of four lanes: a block of any multiple of 4 keeps them whole.
__global__ void quad_scale(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = i < n ? v[i] : 0.f;
    float m = proj::quad_max(fabsf(x));
    if (i < n)
        v[i] = x / m;
}

// No warp-level operation at all.
__global__ void scale(float *v, int n, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= k;
}

void scale_all(float *v, int n, float k)
{
    int threads = std::min(n, 1024);
    scale<<<(n + threads - 1) / threads, threads>>>(v, n, k);
    quad_scale<<<(n + threads - 1) / threads, threads>>>(v, n);
}
