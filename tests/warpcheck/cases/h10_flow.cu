// H10 with values assigned in lane-dependent branches, broadcasts that make
// a value the same in every lane again, and lane ids passed to helpers.
__device__ float leader_flag(const float *in, float v) {
    const int lane = threadIdx.x % warpSize;
    float x = 0.f;
    if (lane == 0)
        x = in[blockIdx.x];  // only lane 0 may hold a non-zero x
    if (x > 0.f)
        v = __shfl_sync(~0ull, v, 0);  // expect: H10 expect-col: 25
    return v;
}

__device__ float uniform_flag(const float *in, float v) {
    float x = 0.f;
    if (blockIdx.x == 0)
        x = in[0];
    if (x > 0.f)
        v = __shfl_sync(~0ull, v, 0);
    return v;
}

// The leader loads, a broadcast gives every lane its value: uniform again.
__device__ unsigned long long leader_broadcast(const float *in, float v) {
    const int lane = threadIdx.x % warpSize;
    float scale = 0.f;
    if (lane == 0)
        scale = in[blockIdx.x];
    scale = __shfl_sync(~0ull, scale, 0);
    unsigned long long votes = 0;
    if (scale > 0.f)
        votes = __ballot_sync(~0ull, v > scale);
    return votes;
}

// Counted in a loop whose trip count differs between lanes.
__device__ void per_lane_count(const int *flags, int n, unsigned long long *out) {
    int count = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        count = count + (flags[i] != 0);
    int again = 0;
    while (again < 4)
        again = again + 1;
    if (again == 4)
        out[0] = __ballot_sync(~0ull, 1);
    if (count == 0)
        __syncwarp(~0ull);  // expect: H10
}

// A thread index passed to a helper is not the same in every lane.
__device__ float guarded_sum(float v, int idx, int limit) {
    if (idx < 16)
        v += __shfl_down_sync(~0ull, v, 16);  // expect: H10
    if (limit > 8)
        v += __shfl_down_sync(~0ull, v, 8);
    return v;
}

__device__ int lane_of(int t) {
    return t & 31;  // expect: H3
}

__device__ float first_half(float v, int r) {
    if (r < 32)
        __syncwarp(~0ull);  // expect: H10
    return v;
}

__global__ void caller(const float *in, float *out, int n) {
    const int tid = threadIdx.x;
    float v = in[blockIdx.x * blockDim.x + tid];
    v = guarded_sum(v, tid, n);
    v = first_half(v, lane_of(tid) + (tid >> 6) * 64);
    out[blockIdx.x * blockDim.x + tid] = v;
}

// Lane ids from helpers: one of this file, whose return value is followed,
// and one from a header, known by its name.
__device__ __forceinline__ int my_lane() {
    return threadIdx.x % warpSize;
}

__device__ int getLaneId();

__device__ float from_helpers(float v) {
    const int l = my_lane();
    if (l < 8)
        v += __shfl_down_sync(~0ull, v, 8);  // expect: H10
    const int k = getLaneId();
    if (k == 0)
        __syncwarp(~0ull);  // expect: H10
    return v;
}
