// A call of a function from a header of the same tree counts as what that
// function's body does: here a 32-lane reduction (so the 32-lane slots and
// ids around it are a consistent logical warp: notes) and a ballot (the
// physical view: the same ids are a mix, warnings).
#include "include/reduce32.cuh"

template <int block_size>
__global__ void row_norm(const float *x, float *dst, int ncols) {
    float tmp = 0.0f;
    for (int col = threadIdx.x; col < ncols; col += block_size)
        tmp += x[col] * x[col];
    tmp = warp_sum(tmp);
    if (block_size > WARP_SIZE) {
        __shared__ float s_sum[32];  // expect-note: H3
        const int warp_id = threadIdx.x / WARP_SIZE;  // expect-note: H3 expect-col: 41
        const int lane_id = threadIdx.x % WARP_SIZE;  // expect-note: H3
        if (lane_id == 0)
            s_sum[warp_id] = tmp;
        __syncthreads();
        tmp = reduce_policy(s_sum[lane_id]);
    }
    dst[blockIdx.x] = tmp;
}

__global__ void count_rows(const float *x, unsigned long long *out) {
    const int warp_id = threadIdx.x / WARP_SIZE;  // expect: H3
    const unsigned long long b = warp_votes(x[threadIdx.x] > 0.0f);
    if (threadIdx.x % WARP_SIZE == 0)  // expect: H3
        out[warp_id] = b;
}
