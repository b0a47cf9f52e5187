// A Welford merge in the style of layer-norm kernels: a project shuffle
// wrapper whose width defaults to warpSize, called with a source lane
// taken modulo 32, in a loop over offsets 1 << l for l = 0..4. The rewrite
// passes the width 32 (each 32-lane row of a blockDim.x == 32 launch stays
// by itself); the loop bound and the & 31 then belong to that logical warp
// and keep their 32s.
#ifdef USE_ROCM
#include <hip/hip_runtime.h>
#else
#include <cuda_runtime.h>
#endif

template <typename T>
__device__ __forceinline__ T WARP_SHFL(T value, int srcLane, int width = warpSize) {
#ifdef USE_ROCM
    return __shfl(value, srcLane, width);
#else
    return __shfl_sync(0xffffffffu, value, srcLane, width);
#endif
}

template <typename U>
__device__ void chan_merge(U muB, U countB, U &mu, U &count) {
    const U n = count + countB;
    if (n > U(0))
        mu = (count * mu + countB * muB) / n;
    count = n;
}

template <typename U>
__device__ void welford_rows(U &mu, U &count) {
    for (int l = 0; l <= 4; ++l) {  // expect: H1 expect-col: 26
        int src = (threadIdx.x + (1 << l)) & 31;  // expect: H3
        U muB = WARP_SHFL(mu, src);  // expect: H11 expect-col: 17
        U countB = WARP_SHFL(count, src);  // expect: H11
        chan_merge(muB, countB, mu, count);
    }
}

__global__ void row_means(const float *x, float *mean, int n) {
    float mu = 0.f, count = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        chan_merge(x[blockIdx.y * n + i], 1.f, mu, count);
    welford_rows(mu, count);
    if (threadIdx.x == 0)
        mean[blockIdx.y * blockDim.y + threadIdx.y] = mu;
}
