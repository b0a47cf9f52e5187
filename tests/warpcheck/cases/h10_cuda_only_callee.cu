// A shuffle wrapper whose full mask only CUDA's branch has: on HIP it
// shuffles with no mask, so calling it in the first warp is fine there.
template <typename T>
__device__ T shfl_any(T v, int src) {
#ifdef __HIP_PLATFORM_AMD__
    return __shfl(v, src);
#else
    return __shfl_sync(0xFFFFFFFFU, v, src);
#endif
}

template <typename T>
__device__ T shfl_all(T v, int src) {
    return __shfl_sync(0xFFFFFFFFU, v, src);  // expect: H2
}

__global__ void first_warp(float *x) {
    int warp_id = threadIdx.x / warpSize;
    int lane = threadIdx.x % warpSize;
    float v = x[threadIdx.x];
    if (threadIdx.x < 32) {  // expect: H3
        v += shfl_any(v, lane + 1);
        v += shfl_all(v, lane + 2);  // expect: H10 expect-col: 14
    }
    if (warp_id == 0)
        x[threadIdx.x] = v;
}
