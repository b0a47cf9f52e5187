// Code already made wave-size generic: warpSize, __lane_id(), 64-bit
// ballots, cooperative-groups tiles of an explicit size, a lane id from PTX
// only on CUDA, per-platform mask types, host code that asks the device.
// Nothing here may be flagged.
#include <stdint.h>
#if defined(USE_ROCM) || defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
typedef uint64_t lane_mask_t;
#define cudaDeviceProp hipDeviceProp_t
#define cudaGetDeviceProperties hipGetDeviceProperties
#define cudaDevAttrWarpSize hipDeviceAttributeWarpSize
#define cudaDeviceGetAttribute hipDeviceGetAttribute
#else
#include <cuda_runtime.h>
#include <cooperative_groups.h>
typedef uint32_t lane_mask_t;
// The mask-less HIP names, for the CUDA build.
#define __shfl(v, src) __shfl_sync(0xffffffffu, v, src)
#define __shfl_xor(v, m) __shfl_xor_sync(0xffffffffu, v, m)
#define __shfl_down(v, d) __shfl_down_sync(0xffffffffu, v, d)
#endif

namespace cg = cooperative_groups;

namespace faisslike {

__device__ __forceinline__ int getLaneId() {
#if defined(USE_ROCM) || defined(__HIP_PLATFORM_AMD__)
  return __lane_id();
#else
  int laneId;
  asm("mov.u32 %0, %%laneid;" : "=r"(laneId));
  return laneId;
#endif
}

__device__ __forceinline__ lane_mask_t getLaneMaskLt() {
#if defined(USE_ROCM) || defined(__HIP_PLATFORM_AMD__)
  return (lane_mask_t(1) << __lane_id()) - 1;
#else
  unsigned mask;
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
#endif
}

// Stream compaction within a wavefront: the ballot is kept in 64 bits on
// HIP, the rank counts the set bits below this lane.
__device__ int warp_compact(const float* in, float* out, int n, int* total) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool keep = i < n && in[i] > 0.f;
#if defined(USE_ROCM) || defined(__HIP_PLATFORM_AMD__)
  const unsigned long long vote = __ballot(keep);
  const int rank = __popcll(vote & getLaneMaskLt());
  const int count = __popcll(vote);
#else
  const unsigned vote = __ballot_sync(0xffffffff, keep);
  const int rank = __popc(vote & getLaneMaskLt());
  const int count = __popc(vote);
#endif
  int base = 0;
  if (getLaneId() == 0) {
    base = atomicAdd(total, count);
  }
  base = __shfl(base, 0);
  if (keep) {
    out[base + rank] = in[i];
  }
  return count;
}

template <typename T>
__device__ T warp_sum(T v) {
  for (int o = warpSize / 2; o > 0; o /= 2) {
    v += __shfl_xor(v, o);
  }
  return v;
}

template <typename T>
__device__ T block_sum(T v, T* smem) {
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize;
  const int nwarps = (blockDim.x + warpSize - 1) / warpSize;
  v = warp_sum(v);
  if (lane == 0) smem[warp] = v;
  __syncthreads();
  v = threadIdx.x < nwarps ? smem[lane] : T(0);
  if (warp == 0) v = warp_sum(v);
  return v;
}

// Tiles of 32 and 16 threads are logical groups on every target.
__global__ void tile_dot(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float acc = 0.f;
  for (int i = block.thread_rank(); i < n; i += block.size()) {
    acc += a[i] * b[i];
  }
  for (int o = tile.size() / 2; o > 0; o /= 2) {
    acc += tile.shfl_down(acc, o);
  }
  auto half = cg::tiled_partition<16>(block);
  float m = acc;
  for (int o = 8; o > 0; o /= 2) {
    m = fmaxf(m, half.shfl_xor(m, o));
  }
  if (tile.thread_rank() == 0) {
    atomicAdd(out, acc + 0.f * m);
  }
}

__global__ void __launch_bounds__(256) compact_kernel(const float* in, float* out, int n, int* total) {
  auto body = [&](int idx) { return idx < n ? in[idx] : 0.f; };
  __shared__ float smem[64];
  float s = block_sum(body(blockIdx.x * blockDim.x + threadIdx.x), smem);
  warp_compact(in, out, n, total);
  if (threadIdx.x == 0) out[n + blockIdx.x] = s;
}

}  // namespace faisslike

// Host: the warp size comes from the device.
int launch_compact(const float* in, float* out, int n, int* total, int dev) {
  int warp = 0;
  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, dev);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  const int threads = 4 * prop.warpSize;
  const int blocks = (n + threads - 1) / threads;
  faisslike::compact_kernel<<<blocks, threads>>>(in, out, n, total);
  return warp;
}
