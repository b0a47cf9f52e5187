// Must not flag: branches that keep whole wavefronts together, masks of the
// active lanes, mask-less intrinsics, block-uniform branches, CUDA-only code.
__device__ float whole_waves(float v) {
    int tid = threadIdx.x;
    if (tid < 64)
        v = __shfl_xor_sync(~0ull, v, 1);
    if (tid < warpSize)
        v += __shfl_xor_sync(~0ull, v, 2);
    int warp = tid / warpSize;
    if (warp == 0)
        v += __shfl_xor_sync(~0ull, v, 4);
    if (blockIdx.x < 3)
        __syncwarp(~0ull);
    int lane = tid % warpSize;
    if (lane < 16)
        v += __shfl_xor_sync(__activemask(), v, 1);
    if (lane < 16)
        v += __shfl_xor(v, 1);
    return v;
}

#ifndef __HIP_PLATFORM_AMD__
__device__ float cuda_only(float v) {
    if (threadIdx.x < 32)
        v = __shfl_xor_sync(0xffffffff, v, 1);
    return v;
}
#endif
