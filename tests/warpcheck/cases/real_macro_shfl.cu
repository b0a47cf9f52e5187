// Attention-style kernels whose shuffles go through project macros. The
// first set of macros is per platform and portable; the second hides a
// 32-bit mask and a 32-lane loop behind a macro, which a port must still
// see.
#include <stdint.h>
#ifdef USE_ROCM
#include <hip/hip_runtime.h>
#define WARP_SIZE warpSize
#define VLLM_SHFL_XOR_SYNC(var, lane_mask) __shfl_xor(var, lane_mask)
#define VLLM_SHFL_SYNC(var, src_lane) __shfl(var, src_lane)
#else
#include <cuda_runtime.h>
#define WARP_SIZE 32
#define VLLM_SHFL_XOR_SYNC(var, lane_mask) __shfl_xor_sync(uint32_t(-1), var, lane_mask)
#define VLLM_SHFL_SYNC(var, src_lane) __shfl_sync(uint32_t(-1), var, src_lane)
#endif

#define SHFL_XOR(v, m) __shfl_xor_sync(0xffffffff, v, m)  // expect: H2
#define FULL_WARP_MASK 0xffffffffu

namespace vllm {

// Portable: the width and the shuffles follow the platform.
template <int NUM_WARPS>
inline __device__ float block_sum(float* red_smem, float sum) {
  int warp = threadIdx.x / WARP_SIZE;
  int lane = threadIdx.x % WARP_SIZE;
#pragma unroll
  for (int mask = WARP_SIZE / 2; mask >= 1; mask /= 2) {
    sum += VLLM_SHFL_XOR_SYNC(sum, mask);
  }
  if (lane == 0) {
    red_smem[warp] = sum;
  }
  __syncthreads();
  if (lane < NUM_WARPS) {
    sum = red_smem[lane];
  }
#pragma unroll
  for (int mask = NUM_WARPS / 2; mask >= 1; mask /= 2) {
    sum += VLLM_SHFL_XOR_SYNC(sum, mask);
  }
  return VLLM_SHFL_SYNC(sum, 0);
}

template <int NUM_THREADS>
__global__ void __launch_bounds__(NUM_THREADS) rms_like_kernel(float* __restrict__ out,
                                                               const float* __restrict__ in, int d) {
  constexpr int NUM_WARPS = NUM_THREADS / 64 > 0 ? NUM_THREADS / 64 : 1;
  __shared__ float red_smem[2 * NUM_WARPS];
  float acc = 0.f;
  for (int i = threadIdx.x; i < d; i += NUM_THREADS) {
    const float x = in[blockIdx.x * d + i];
    acc += x * x;
  }
  acc = block_sum<2 * NUM_WARPS>(red_smem, acc);
  for (int i = threadIdx.x; i < d; i += NUM_THREADS) {
    out[blockIdx.x * d + i] = in[blockIdx.x * d + i] * rsqrtf(acc / d + 1e-6f);
  }
}

// Not portable: the macro's mask is 32 bits and the loop covers 32 lanes.
__device__ __forceinline__ float qk_dot_reduce(float qk) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) {  // expect: H1 expect-col: 16
    qk += SHFL_XOR(qk, o);
  }
  return qk;
}

__device__ __forceinline__ float max_reduce(float m, int lane) {
  for (int o = 16; o >= 1; o >>= 1)  // expect: H1
    m = fmaxf(m, __shfl_xor_sync(FULL_WARP_MASK, m, o));  // expect: H2
  return __shfl_sync(FULL_WARP_MASK, m, 0);  // expect: H2
}

__global__ void logits_kernel(const float* __restrict__ q, const float* __restrict__ k, float* __restrict__ out,
                              int head_size) {
  const int lane = threadIdx.x % warpSize;
  float qk = 0.f;
  for (int i = lane; i < head_size; i += warpSize) {
    qk += q[i] * k[blockIdx.x * head_size + i];
  }
  qk = qk_dot_reduce(qk);
  float m = max_reduce(qk, lane);
  if (lane == 0) {
    out[blockIdx.x] = qk - m;
  }
}

}  // namespace vllm

template __global__ void vllm::rms_like_kernel<256>(float*, const float*, int);
