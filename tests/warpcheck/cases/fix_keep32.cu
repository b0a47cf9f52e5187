// One 32-thread column per warp, blocks of 4 * 32 threads: lanes and warps
// counted in 32s, no warpSize, ballot or vote, only shuffles with no width.
// Rewriting the ids to warpSize would leave half of the columns undone on a
// 64-lane wavefront (the launch still counts 32s); --fix leaves them and
// widens the masks only. The width 32 on the shuffles is the rewrite to make.
#define COLUMNS_PER_BLOCK 4

__global__ void __launch_bounds__(COLUMNS_PER_BLOCK * 32) column_sums(const float *a, float *c, int n, int k) {
    const int lane_id = threadIdx.x & 31;  // expect: H3
    const int warp_id = threadIdx.x >> 5;  // expect: H3
    const int col = blockIdx.x * COLUMNS_PER_BLOCK + warp_id;
    float lut = lane_id < 16 ? a[lane_id] : 0.0f;
    float acc = 0.0f;
    for (int i = lane_id; i < k; i += 32)
        acc += a[col * k + i] * __shfl_sync(0xffffffff, lut, i & 15);  // expect: H2 H10
    for (int offset = 16; offset > 0; offset >>= 1)  // expect: H1
        acc += __shfl_down_sync(0xffffffff, acc, offset);  // expect: H2
    if (lane_id == 0 && col < n)
        c[col] = acc;
}
