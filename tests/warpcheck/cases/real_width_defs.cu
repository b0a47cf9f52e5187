// How ports pick the warp width: some right, some not. A width of 64 for
// every AMD target is wrong on RDNA; the compiler's wavefront-size macro
// is deprecated; warpSize (or a macro for it) cannot size an array; a
// per-target macro belongs in the device pass.
#include <stdint.h>
#if defined(USE_ROCM)
#include <hip/hip_runtime.h>
#define C10_WARP_SIZE warpSize
#else
#include <cuda_runtime.h>
#define C10_WARP_SIZE 32
// The mask-less HIP names, for the CUDA build.
#define __shfl(v, src) __shfl_sync(0xffffffffu, v, src)
#define __shfl_xor(v, m) __shfl_xor_sync(0xffffffffu, v, m)
#define __shfl_down(v, d) __shfl_down_sync(0xffffffffu, v, d)
#endif

namespace gpu {

#if defined(USE_ROCM)
constexpr int kWarpSize = 64;  // expect: H8
#else
constexpr int kWarpSize = 32;
#endif

#if defined(__HIP_DEVICE_COMPILE__) && (defined(__GFX9__) || defined(__GFX8__))
#define DEVICE_WAVE 64
#else
#define DEVICE_WAVE 32
#endif

static_assert(kWarpSize == 32 || kWarpSize == 64, "unexpected warp width");

__device__ inline int wave_lanes() {
#if defined(USE_ROCM)
  return __AMDGCN_WAVEFRONT_SIZE;  // expect: H7
#else
  return 32;
#endif
}

template <typename T>
__global__ void block_max(const T* __restrict__ in, T* __restrict__ out, int n) {
  __shared__ T partial[C10_WARP_SIZE];  // expect: H7
  const int lane = threadIdx.x % C10_WARP_SIZE;
  const int warp = threadIdx.x / C10_WARP_SIZE;
  T v = threadIdx.x < n ? in[threadIdx.x] : T(0);
  for (int o = C10_WARP_SIZE / 2; o > 0; o /= 2) {
    v = max(v, __shfl_down(v, o));
  }
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / C10_WARP_SIZE ? partial[lane] : T(0);
    for (int o = DEVICE_WAVE / 2; o > 0; o /= 2) {
      v = max(v, __shfl_down(v, o));
    }
    if (lane == 0) out[blockIdx.x] = v;
  }
}

// The host never sees __GFX9__: DEVICE_WAVE is 32 here on every target.
inline size_t block_max_smem(int threads) {
  return (size_t)(threads / DEVICE_WAVE) * sizeof(float);  // expect: H8
}

inline int host_lanes() {
  return kWarpSize;
}

}  // namespace gpu

void run_block_max(const float* in, float* out, int n) {
  gpu::block_max<float><<<1, 256, gpu::block_max_smem(256)>>>(in, out, n);
}
