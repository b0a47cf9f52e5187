// Must not flag: collectives whose width matches their TempStorage.
#include <cub/cub.cuh>
#define BLOCK 256

__global__ void physical(const float *in, float *out) {
    typedef cub::WarpReduce<float> WR;
    __shared__ typename WR::TempStorage temp[BLOCK / 32];  // an upper bound for both widths
    int warp = threadIdx.x / warpSize;
    float v = WR(temp[warp]).Sum(in[threadIdx.x]);
    if (threadIdx.x % warpSize == 0)
        out[warp] = v;
}

__device__ float logical(float x, int group) {
    typedef cub::WarpReduce<float, 32> WR32;
    __shared__ typename WR32::TempStorage temp[8];
    return WR32(temp[group]).Sum(x);
}

__device__ float sixteen(float x) {
    typedef hipcub::WarpReduce<float, 16> WR16;
    __shared__ typename WR16::TempStorage temp[BLOCK / 16];
    return WR16(temp[threadIdx.x / 16]).Sum(x);
}
