// The device's width where C++ needs a constant: warpSize is a run-time
// value in HIP (ROCm 7), so a macro defined as it, or computed from it,
// cannot be a template argument, a constexpr, a static_assert or a bound.
#if defined(USE_ROCM)
#define WARP_SIZE warpSize
#define NUM_WARPS (1024 / warpSize)
#else
#define WARP_SIZE 32
#define NUM_WARPS 32
#endif

template <typename T, int lanes = WARP_SIZE>  // expect: H7 expect-col: 35
__device__ T reduce(T v) {
    static_assert(lanes <= WARP_SIZE, "too wide");  // expect: H7 expect-col: 28
    for (int m = lanes / 2; m > 0; m /= 2)
        v += __shfl_xor(v, m);
    return v;
}

template <int block>
__device__ float block_sum(float v) {
    if constexpr (block > WARP_SIZE) {  // expect: H7
        constexpr int warps = (block + WARP_SIZE - 1) / WARP_SIZE;  // expect: H7 expect-col: 40
        __shared__ float s[warps];
        __shared__ float t[NUM_WARPS];  // expect: H7
        const int lane = threadIdx.x % WARP_SIZE;
        if (lane == 0)
            s[threadIdx.x / WARP_SIZE] = t[0] + v;
        __syncthreads();
    }
    return reduce<float, WARP_SIZE>(v);  // expect: H7
}

__global__ void __launch_bounds__(4 * WARP_SIZE) rows(float *out) {  // expect: H7
    out[threadIdx.x] = block_sum<256>(out[threadIdx.x]);
}

// Run-time uses of the same macros are what HIP expects.
__device__ bool in_first_warp(int n) {
    return n < WARP_SIZE && n > 0;
}

__device__ int lanes_left(int lane) {
    return (lane < WARP_SIZE) ? WARP_SIZE - lane : 0;
}

constexpr int square(int w) {
    return w * w;
}
