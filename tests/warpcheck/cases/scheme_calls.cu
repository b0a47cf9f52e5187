// Which functions of the file count together for the logical-warp schemes.

// A helper from elsewhere whose name speaks of warps: its width is not
// known, so the 32-lane ids beside it stay warnings, whatever functions the
// file defines after it.
__global__ void uses_outside_helper(const float *in, float *out) {
    __shared__ float partial[32];  // expect: H3
    const float v = warp_reduce_outside(in[threadIdx.x]);
    if (threadIdx.x % 32 == 0)  // expect: H3
        partial[threadIdx.x / 32] = v;  // expect: H3
    __syncthreads();
    out[blockIdx.x] = partial[0];
}

__device__ float defined_later(float v) { return v * 2.0f; }

// A kernel with no warp-level operation that shares an index helper with a
// kernel that shuffles: its tile arithmetic is plain arithmetic (notes).
__device__ int flat_index(int n, int c, int w) { return (n * c) * w; }

__global__ void tile_copy(const float *in, float *out, int c, int w) {
    const int pixel = threadIdx.x / 32;  // expect-note: H3
    const int part = threadIdx.x % 32;  // expect-note: H3
    out[flat_index(pixel, c, w) + part] = in[flat_index(pixel, c, w) + part];
}

__global__ void tile_reduce(const float *in, float *out, int c, int w) {
    float v = in[flat_index(blockIdx.x, c, w) + threadIdx.x];
    v += __shfl_down(v, 1);
    out[blockIdx.x] = v;
}

// A block reduction two calls away from its 32-lane butterfly: still a
// consistent logical warp (notes).
__device__ float butterfly(float v) {
    for (int o = 16; o > 0; o /= 2)  // expect-note: H1
        v += __shfl_xor(v, o);
    return v;
}

__device__ float through_policy(float v) { return butterfly(v); }

__device__ float block_reduce(float v, float *slots) {
    const int lane = threadIdx.x & 31;  // expect-note: H3
    const int warp = threadIdx.x >> 5;  // expect-note: H3
    v = through_policy(v);
    if (lane == 0)
        slots[warp] = v;
    __syncthreads();
    return through_policy(lane < blockDim.x / 32 ? slots[lane] : 0.0f);
}

// Code only NVIDIA compilers see does not make a function physical.
__device__ float sum32(float v) {
#ifndef USE_ROCM
    return __reduce_add_sync(0xffffffff, (int)v);
#else
    for (int o = 16; o > 0; o /= 2)  // expect-note: H1
        v += __shfl_xor(v, o);
    return v;
#endif
}

__global__ void slots_of_sum32(const float *in, float *out) {
    __shared__ float s[32];  // expect-note: H3
    const float v = sum32(in[threadIdx.x]);
    if ((threadIdx.x & 31) == 0)  // expect-note: H3
        s[threadIdx.x >> 5] = v;  // expect-note: H3
    __syncthreads();
    out[blockIdx.x] = s[0];
}
