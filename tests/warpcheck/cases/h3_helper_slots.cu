// A __shared__ array of 32 handed to a helper that indexes it by the lane
// of the wavefront: lanes 32..63 of a 64-lane wavefront write past it.
__device__ void put_lane(float *slots, float v) {
    slots[__lane_id()] = v;
}

__device__ void put_at(int where, float *slots, float v) {
    slots[where] = v;
}

__global__ void gather(const float *in, float *out) {
    __shared__ float per_lane[32];  // expect: H3 expect-col: 31
    put_lane(per_lane, in[blockIdx.x * blockDim.x + threadIdx.x]);
    __syncthreads();
    out[blockIdx.x] = per_lane[0];
}

// Room for every lane of a wavefront: fine.
__global__ void gather64(const float *in, float *out) {
    __shared__ float per_lane[64];
    put_lane(per_lane, in[blockIdx.x * blockDim.x + threadIdx.x]);
    __syncthreads();
    out[blockIdx.x] = per_lane[1];
}

// The helper's index is not a lane: fine.
__global__ void by_block(const float *in, float *out) {
    __shared__ float rows[32];
    put_at(blockIdx.x % 8, rows, in[blockIdx.x]);
    __syncthreads();
    out[blockIdx.x] = rows[2];
}
