// H11: shuffles with no width whose lane index wraps at 32.
__device__ float rotate(float v) {
    int lane = threadIdx.x & 31;  // expect: H3
    float a = __shfl(v, (lane + 1) & 31);  // expect: H11 H3
    int src = (lane + 31) % 32;  // expect: H3
    float b = __shfl(v, src);  // expect: H11
    float c = __shfl_sync(~0ull, v, lane);  // expect: H11 expect-col: 15
    return a + b + c;
}
