// Quantization and top-k helpers in the style of an 8-bit optimizer
// library, not yet ported: 32-lane butterflies with 32-bit masks, ballots
// counted with __popc, lane bits built in 32 bits, per-warp partials at
// threadIdx.x / 32, a block of 96 threads.
#include <stdint.h>
#if defined(USE_ROCM)
#include <hip/hip_runtime.h>
#define cudaDeviceProp hipDeviceProp_t
#define cudaGetDeviceProperties hipGetDeviceProperties
#define cudaStream_t hipStream_t
#else
#include <cuda_runtime.h>
#endif

#define FULL_MASK 0xffffffff
#define NUM_WARPS_MAX 32

__device__ __forceinline__ float warp_absmax(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)  // expect: H1 expect-col: 21
    v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, offset));  // expect: H2 expect-col: 34
  return v;
}

// absmax per block, partials stored per 32 threads, then reduced by the
// first warp, which the physical-width reduction above reads wrongly.
__global__ void __launch_bounds__(1024) kQuantizeBlockwise(const float* __restrict__ A, float* __restrict__ absmax,
                                                           int8_t* __restrict__ out, int n) {
  __shared__ float smem_absmax[NUM_WARPS_MAX];  // expect: H3
  const int tid = threadIdx.x;
  const int lane = tid & 31;  // expect: H3 expect-col: 24
  const int warp = tid / 32;  // expect: H3
  const int i = blockIdx.x * blockDim.x + tid;
  float v = i < n ? fabsf(A[i]) : 0.f;
  v = warp_absmax(v);
  if (lane == 0) smem_absmax[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / warpSize ? smem_absmax[lane] : 0.f;
    v = warp_absmax(v);  // expect: H10 expect-col: 9
    if (lane == 0) smem_absmax[0] = v;
  }
  __syncthreads();
  const float scale = smem_absmax[0];
  if (tid == 0) absmax[blockIdx.x] = scale;
  if (i < n) out[i] = (int8_t)rintf(127.f * A[i] / scale);
}

// Keeps the values above a threshold, in order, per warp.
__global__ void kCompactAbove(const float* __restrict__ in, float* __restrict__ out, int* __restrict__ warp_counts,
                              float thresh, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;  // expect: H3
  const bool keep = i < n && in[i] > thresh;
  uint32_t ballot = __ballot_sync(FULL_MASK, keep);  // expect: H4 H2
  const int rank = __popc(ballot & ((1u << lane) - 1));  // expect: H4 H4
  const int leader = __ffs(ballot) - 1;  // expect: H4
  if (keep) out[(i / 32) * 32 + rank] = in[i];  // expect: H3
  if (lane == leader) warp_counts[i / 32] = __popc(ballot);  // expect: H3 H4
}

// The last lane of each warp publishes an inclusive scan.
__device__ int warp_inclusive_scan(int v, int* totals) {
  const int lane = threadIdx.x & 31;  // expect: H3
  for (int d = 1; d < 32; d <<= 1) {  // expect: H1
    const int t = __shfl_up_sync(0xffffffff, v, d);  // expect: H2
    if (lane >= d) v += t;
  }
  if (lane == 31) totals[threadIdx.x >> 5] = v;  // expect: H5 H3
  return v;
}

__global__ void kScan(const int* in, int* out, int* totals) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = warp_inclusive_scan(in[i], totals);
}

void quantize(const float* A, float* absmax, int8_t* out, int n, cudaStream_t stream) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  const int threads = prop.maxThreadsPerBlock < 1024 ? prop.maxThreadsPerBlock : 1024;
  kQuantizeBlockwise<<<(n + threads - 1) / threads, threads, 0, stream>>>(A, absmax, out, n);
  kScan<<<n / 96, 96, 0, stream>>>(nullptr, nullptr, nullptr);  // expect: H12
}
