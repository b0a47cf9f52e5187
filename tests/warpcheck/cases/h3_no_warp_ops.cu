// Thread indices taken modulo 32 where no warp-level operation follows: a
// 32-wide tile's coordinates, a bank offset, slots per 32 threads that
// __syncthreads orders. The arithmetic is the same on 64-lane wavefronts:
// notes, not warnings. A helper called from a function that shuffles is
// another matter.
#define TILE 32

__global__ void transpose32(const float *in, float *out, int n) {
    __shared__ float tile[TILE][TILE + 1];  // expect-note: H3
    const int tid = threadIdx.x;
    const int col = tid % 32;  // expect-note: H3
    const int row = tid / 32;  // expect-note: H3
    const int x = blockIdx.x * TILE + col;
    for (int r = row; r < TILE; r += blockDim.x / TILE)
        tile[r][col] = in[(blockIdx.y * TILE + r) * n + x];
    __syncthreads();
    for (int r = row; r < TILE; r += blockDim.x / TILE)
        out[(blockIdx.x * TILE + r) * n + blockIdx.y * TILE + col] = tile[col][r];
}

__global__ void group_sums(const float *in, float *out) {
    __shared__ float sums[32];  // expect-note: H3
    const int group = threadIdx.x >> 5;  // expect-note: H3
    if ((threadIdx.x & 31) == 0)  // expect-note: H3
        sums[group] = 0.f;
    __syncthreads();
    atomicAdd(&sums[group], in[blockIdx.x * blockDim.x + threadIdx.x]);
    __syncthreads();
    if (threadIdx.x < 32)  // expect-note: H3
        out[blockIdx.x * 32 + threadIdx.x] = sums[threadIdx.x];
}

// Connected to a shuffle through a call: warnings.
__device__ int lane_in_warp() {
    return threadIdx.x & 31;  // expect: H3
}

__device__ float spread(float v) {
    return __shfl_down(v, 1) + lane_in_warp();
}

// A member function of a class whose other member shuffles.
struct Reducer {
    __device__ int slot() const { return threadIdx.x / 32; }  // expect: H3
    __device__ float sum(float v) const { return v + __shfl_xor(v, 1); }
};
