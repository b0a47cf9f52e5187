// H3: lane and warp ids derived from 32, followed through locals, in a
// kernel with a shuffle (without one they would be notes).
#define WARP_SIZE 32
__global__ void k(float *out) {
    int tid = threadIdx.x;
    int lane = tid & 31;  // expect: H3
    int warp = tid >> 5;  // expect: H3
    int w2 = (threadIdx.x + blockDim.x * threadIdx.y) / 32;  // expect: H3
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int l2 = idx % 32;  // expect: H3
    __shared__ float partial[32];  // expect: H3
    partial[warp] = lane;
    int l3 = threadIdx.x & (WARP_SIZE - 1);  // expect: H3
    int planes = blockDim.x;
    int p2 = planes & 31;
    out[w2 + l2 + l3 + p2] = __shfl_down(partial[0], 1);
}
