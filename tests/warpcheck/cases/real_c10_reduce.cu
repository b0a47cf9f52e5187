// Warp and block reductions in the style of a tensor library's CUDA
// utilities, already ported: the width is warpSize on ROCm, shuffles go
// through a wrapper whose 32-bit mask only the CUDA branch uses, functors
// carry the combine, the host asks the device for its warp size.
#include <stdint.h>
#if defined(USE_ROCM)
#include <hip/hip_runtime.h>
#define C10_WARP_SIZE warpSize
#define cudaDeviceProp hipDeviceProp_t
#define cudaGetDevice hipGetDevice
#define cudaGetDeviceProperties hipGetDeviceProperties
#define cudaStream_t hipStream_t
#else
#include <cuda_runtime.h>
#define C10_WARP_SIZE 32
#endif

namespace at {
namespace native {

template <typename T>
__device__ __forceinline__ T WARP_SHFL_DOWN(T value, unsigned int delta, int width = warpSize,
                                            unsigned int mask = 0xffffffff) {
#if !defined(USE_ROCM)
  return __shfl_down_sync(mask, value, delta, width);
#else
  return __shfl_down(value, delta, width);
#endif
}

template <typename T>
__device__ __forceinline__ T WARP_SHFL(T value, int src, int width = warpSize, unsigned int mask = 0xffffffff) {
#if !defined(USE_ROCM)
  return __shfl_sync(mask, value, src, width);
#else
  return __shfl(value, src, width);
#endif
}

template <typename T>
struct SumOp {
  __device__ __forceinline__ T combine(T a, T b) const { return a + b; }
  __device__ __forceinline__ T warp_shfl_down(T v, int offset) const { return WARP_SHFL_DOWN(v, offset); }
  __device__ __forceinline__ T operator()(T a, T b) const { return combine(a, b); }
};

template <typename T, class ReduceOp>
__device__ __forceinline__ T WarpReduce(T val, const ReduceOp& op) {
#pragma unroll
  for (int offset = (C10_WARP_SIZE >> 1); offset > 0; offset >>= 1) {
    val = op.combine(val, op.warp_shfl_down(val, offset));
  }
  return val;
}

// Every warp reduces; lane 0 of each stores its partial; the first warp
// reduces the partials. `shared` has a slot per warp.
template <typename T, class ReduceOp>
__device__ T BlockReduce(T val, const ReduceOp& op, T identity, T* shared) {
  const int tid = threadIdx.x + threadIdx.y * blockDim.x;
  const int lid = tid % C10_WARP_SIZE;
  const int wid = tid / C10_WARP_SIZE;
  val = WarpReduce(val, op);
  __syncthreads();
  if (lid == 0) {
    shared[wid] = val;
  }
  __syncthreads();
  val = (tid < blockDim.x * blockDim.y / C10_WARP_SIZE) ? shared[lid] : identity;
  if (wid == 0) {
    val = WarpReduce(val, op);
  }
  return val;
}

template <typename T>
__device__ T BlockBroadcast(T val, T* shared) {
  if (threadIdx.x == 0) {
    shared[0] = val;
  }
  __syncthreads();
  return shared[0];
}

template <typename scalar_t, typename acc_t>
__global__ void __launch_bounds__(512) row_sum_kernel(const scalar_t* __restrict__ in, acc_t* __restrict__ out,
                                                      int64_t cols) {
  extern __shared__ unsigned char smem[];
  acc_t* partials = reinterpret_cast<acc_t*>(smem);
  const int64_t row = blockIdx.x;
  acc_t acc = acc_t(0);
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
    acc += static_cast<acc_t>(in[row * cols + c]);
  }
  SumOp<acc_t> op;
  acc = BlockReduce(acc, op, acc_t(0), partials);
  if (threadIdx.x == 0) {
    out[row] = acc;
  }
}

// The width the device reports, not a compile-time 32.
inline int device_warp_size() {
  int dev = 0;
  cudaGetDevice(&dev);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  return prop.warpSize;
}

template <typename scalar_t, typename acc_t>
void launch_row_sum(const scalar_t* in, acc_t* out, int64_t rows, int64_t cols, cudaStream_t stream) {
  const int warp = device_warp_size();
  int threads = (int)((cols + warp - 1) / warp * warp);
  threads = threads > 512 ? 512 : threads;
  const size_t smem = (size_t)(threads / warp) * sizeof(acc_t);
  row_sum_kernel<scalar_t, acc_t><<<(unsigned)rows, threads, smem, stream>>>(in, out, cols);
}

template void launch_row_sum<float, float>(const float*, float*, int64_t, int64_t, cudaStream_t);

}  // namespace native
}  // namespace at
