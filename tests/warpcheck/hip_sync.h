/* hip_sync.h: the warp-sync API of HIP 6.2 and later (__shfl_*_sync,
 * __ballot_sync, __any_sync, __all_sync, __syncwarp, __activemask), for
 * compiling the fixed test cases with an older hipcc (suite.sh passes it
 * with -include). Like HIP 6.2 it takes only 64-bit masks, so a 32-bit
 * mask that a fix left behind fails to compile here too. */
#include <hip/hip_runtime.h>

#if HIP_VERSION_MAJOR < 6 || (HIP_VERSION_MAJOR == 6 && HIP_VERSION_MINOR < 2)
#define WC_MASK64(m) static_assert(sizeof(m) == 8, "the mask must be a 64-bit integer")

__device__ inline unsigned long long __activemask() { return __ballot(1); }

template <typename M, typename T>
__device__ T __shfl_sync(M mask, T v, int src, int width = warpSize)
{ WC_MASK64(mask); return __shfl(v, src, width); }
template <typename M, typename T>
__device__ T __shfl_up_sync(M mask, T v, unsigned d, int width = warpSize)
{ WC_MASK64(mask); return __shfl_up(v, d, width); }
template <typename M, typename T>
__device__ T __shfl_down_sync(M mask, T v, unsigned d, int width = warpSize)
{ WC_MASK64(mask); return __shfl_down(v, d, width); }
template <typename M, typename T>
__device__ T __shfl_xor_sync(M mask, T v, int m, int width = warpSize)
{ WC_MASK64(mask); return __shfl_xor(v, m, width); }
template <typename M>
__device__ unsigned long long __ballot_sync(M mask, int p)
{ WC_MASK64(mask); return __ballot(p) & mask; }
template <typename M>
__device__ int __any_sync(M mask, int p) { WC_MASK64(mask); return __any(p); }
template <typename M>
__device__ int __all_sync(M mask, int p) { WC_MASK64(mask); return __all(p); }
template <typename M>
__device__ void __syncwarp(M mask) { WC_MASK64(mask); __builtin_amdgcn_wave_barrier(); }
#endif
