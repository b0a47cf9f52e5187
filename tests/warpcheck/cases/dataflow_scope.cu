// Views are per function: a name holds a thread index only where it is
// assigned one, and an assigned name does not fall back on its spelling.
// No shuffle or vote uses the lane and warp ids here: notes.
__device__ unsigned pick(unsigned word) {
    unsigned idx = word >> 3;
    return idx & 31;
}

__global__ void k(float *out) {
    int idx = threadIdx.x;
    out[idx & 31] = 0;  // expect-note: H3 expect-col: 13
}

__device__ unsigned bits(unsigned word) {
    unsigned lane = word >> 8;
    return (lane & 31) + (1u << lane);
}

__device__ int shifted(int tid) {
    return tid >> 5;  // expect-note: H3
}

__device__ int count(bool p) {
    unsigned long long b = __ballot(p);
    return __popcll(b) + __popc(b);  // expect: H4 expect-col: 26
}

__device__ int other(unsigned b) {
    return __popc(b);
}

__global__ void loads(const int *data, int *out) {
    int x = data[threadIdx.x];
    int g = (threadIdx.x + blockDim.x * threadIdx.y) / 32;  // expect-note: H3
    out[g] = x & 31;
}
