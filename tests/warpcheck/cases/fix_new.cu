// Fix fixture (CUDA, cub) for H3 "first warp", H8, H9, H10 and H11: every
// fix must still compile.
#include <cub/cub.cuh>
#define BLOCK 256

#if defined(__gfx908__) || defined(__gfx90a__)  // expect: H8
#define WAVE_WIDTH 64
#else
#define WAVE_WIDTH 32
#endif

__global__ void reduce(const float *in, float *out) {
    typedef cub::WarpReduce<float, 32> WR;  // expect: H9
    __shared__ typename WR::TempStorage temp[BLOCK / 32];
    __shared__ float partial[BLOCK / 32];
    int tid = threadIdx.x;
    int warp = tid / warpSize;
    float v = WR(temp[warp]).Sum(in[tid]);
    if (tid % warpSize == 0)
        partial[warp] = v;
    __syncthreads();
    if (tid < 32) {  // expect: H3
        v = tid < BLOCK / warpSize ? partial[tid] : 0.0f;
        v += __shfl_xor_sync(~0ull, v, 1);  // expect: H10
    }
    int lane = tid % warpSize;
    int rot = __shfl_sync(__activemask(), lane, (lane + 1) & 31);  // expect: H11 H3
    out[blockIdx.x] = v + rot + WAVE_WIDTH;
}
