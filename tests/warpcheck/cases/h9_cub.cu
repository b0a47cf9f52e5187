// H9: cub/hipcub warp collectives whose width disagrees with their TempStorage.
#include <cub/cub.cuh>
#define BLOCK 256

// No width (the device's warp: 64 lanes on CDNA), storage indexed per 32 lanes.
__global__ void sum_default(const float *in, float *out) {
    typedef cub::WarpReduce<float> WarpReduce;  // expect: H9 expect-col: 18
    __shared__ typename WarpReduce::TempStorage temp[BLOCK / 32];
    int warp = threadIdx.x / 32;  // expect: H3
    float v = WarpReduce(temp[warp]).Sum(in[threadIdx.x]);
    if (threadIdx.x % 32 == 0)  // expect: H3
        out[warp] = v;
}

// No width, storage sized per 32 lanes, indexed by something else.
__global__ void scan_sized(const int *in, int *out, int w) {
    using WarpScan = hipcub::WarpScan<int>;  // expect: H9 expect-col: 30
    __shared__ WarpScan::TempStorage temp[BLOCK >> 5];
    int v;
    WarpScan(temp[w]).InclusiveSum(in[threadIdx.x], v);
    out[threadIdx.x] = v;
}

// 32-lane logical warps, storage indexed by the physical warp: two share one.
__global__ void logical_physical(const float *in, float *out) {
    typedef cub::WarpReduce<float, 32> WR;  // expect: H9 expect-col: 36
    __shared__ typename WR::TempStorage temp[BLOCK / 32];
    int warp = threadIdx.x / warpSize;
    out[warp] = WR(temp[warp]).Sum(in[threadIdx.x]);
}
