// Must not flag: shuffles with an explicit width, lanes of the physical
// warp, offsets and data that are not lanes modulo 32.
__device__ float ok(float v, int k, int src) {
    int lane = threadIdx.x % warpSize;
    float a = __shfl(v, (lane + 1) % warpSize);
    float b = __shfl(v, src, 32);
    float c = __shfl_xor(v, 16) + __shfl_down(v, k) + __shfl(v, 0);
    float d = __shfl(v, k & 31);
    float e = __shfl(v, lane);
    return a + b + c + d + e;
}
