// H10 on run-time bounds, per-lane data, loop conditions and ?:: a full
// mask where part of a wavefront may be missing.
__global__ void bounded(const float *in, float *out, unsigned long long *votes, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 0;
    if (i < n) {
        v = in[i];
        v += __shfl_xor_sync(~0ull, v, 1);  // expect: H10 expect-col: 30
        votes[i] = __ballot_sync(~0ull, v > 0);  // expect: H10 expect-col: 34
    }
    out[i] = v;
}

__global__ void early_return(const float *in, float *out, int n) {
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (row >= n)
        return;
    float v = in[row * 32 + threadIdx.x];
    v += __shfl_down_sync(~0ull, v, 1);  // expect: H10 expect-col: 27
    out[row] = v;
}

__device__ float on_data(const int *flags, float v) {
    int tid = threadIdx.x;
    int f = flags[tid];
    if (f > 0)
        v += __shfl_xor_sync(~0ull, v, 2);  // expect: H10 expect-col: 30
    else
        __syncwarp(-1);  // expect: H10 expect-col: 20
    bool keep = v > 0.5f;
    if (keep && tid < 64)
        __syncwarp(~0ull);  // expect: H10
    return v;
}

__device__ float loops(const float *in, float v, int n) {
    int tid = threadIdx.x;
    for (int i = tid; i < n; i += blockDim.x)
        v += __shfl_xor_sync(~0ull, in[i], 1);  // expect: H10 expect-col: 30
    int k = (int)in[tid];
    while (k-- > 0)
        __syncwarp(~0ull);  // expect: H10
    do {
        v += __shfl_up_sync(~0ull, v, 1);  // expect: H10
    } while (v < in[tid]);
    int lane = tid % warpSize;
    for (int j = lane; j < n; j += warpSize)
        v += __any_sync(~0ull, in[j] > 0);  // expect: H10
    return v;
}

__device__ float choices(float v, int n, int m) {
    int tid = threadIdx.x;
    v = tid < n ? __shfl_xor_sync(~0ull, v, 1) : 0.0f;  // expect: H10 expect-col: 35
    v += v > 0 ? 1.0f : __shfl_sync(~0ull, v, 0);  // expect: H10 expect-col: 37
    int lane = tid % warpSize;
    if (lane < m)
        v = __shfl_sync(0xffffffffffffffffull, v, 0);  // expect: H10
    int warp32 = tid / 32;  // expect: H3
    if (warp32 < n)
        __syncwarp(~0ull);  // expect: H10
    for (int i = tid; i < 1000; i += blockDim.x)
        v += __shfl_xor_sync(~0ull, v, 1);  // expect: H10
    switch (lane) {
    case 0:
        __syncwarp(~0ull);  // expect: H10
    }
    return v;
}
