// Mixed-precision training helpers in the style of an extension library:
// a block reduction that leaves its result in the first `lanes` threads,
// written for 32-lane warps (the first warp finishes with a shuffle from
// 16 under "if (tid < 32)"), and a functor class with member functions.
#if defined(USE_ROCM)
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#else
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#endif

template <typename T>
__device__ __forceinline__ T reduce_block_into_lanes(T* x, T val, int lanes = 1, bool share_result = false) {
  int tid = threadIdx.x + threadIdx.y * blockDim.x;
  int blockSize = blockDim.x * blockDim.y;  // a multiple of 32

  if (blockSize >= 64) {
    x[tid] = val;
    __syncthreads();
  }

#pragma unroll
  for (int i = (blockSize >> 1); i >= 64; i >>= 1) {
    if (tid < i) x[tid] = x[tid] + x[tid + i];
    __syncthreads();
  }

  T final;

  if (tid < 32) {  // expect: H3
    if (blockSize >= 64)
      final = x[tid] + x[tid + 32];
    else
      final = val;
#pragma unroll
    for (int i = 16; i >= lanes; i >>= 1)  // expect: H1
      final = final + __shfl_down_sync(0xffffffff, final, i);  // expect: H2 H10
  }

  if (share_result) {
    if (tid < lanes) x[tid] = final;
    __syncthreads();
  }
  return final;
}

// Functors with member functions and an operator(), as reductions take them.
template <typename T, int kWarpSize = 32>
struct WarpSum {
  static_assert(kWarpSize == 32 || kWarpSize == 64, "a warp has 32 or 64 lanes");
  __device__ __forceinline__ T operator()(T v) const {
    for (int o = kWarpSize / 2; o > 0; o /= 2)  // expect: H1
      v += __shfl_xor_sync(0xffffffff, v, o);  // expect: H2
    return v;
  }
  __device__ __forceinline__ int lane() const { return threadIdx.x % kWarpSize; }  // expect: H3
};

template <typename T>
class RowStats {
 public:
  __device__ RowStats() : sum_(0), sq_(0) {}
  __device__ void add(T v) {
    sum_ += v;
    sq_ += v * v;
  }
  __device__ void reduce() {
    WarpSum<T> ws;
    sum_ = ws(sum_);
    sq_ = ws(sq_);
  }
  __device__ T mean(int n) const { return sum_ / n; }

 private:
  T sum_, sq_;
};

// half2 arithmetic and a vectorised load; the reduction is in float.
__global__ void __launch_bounds__(256) layer_norm_stats(const __half2* __restrict__ in, float2* __restrict__ stats,
                                                        int n2) {
  __shared__ float s_red[256];
  RowStats<float> st;
  const __half2* row = in + (size_t)blockIdx.x * n2;
  for (int i = threadIdx.x; i < n2; i += blockDim.x) {
    const __half2 h = row[i];
    const float2 f = __half22float2(__hmul2(h, h));
    st.add(f.x + f.y);
  }
  st.reduce();
  float m = st.mean(n2);
  m = reduce_block_into_lanes(s_red, m, 1, true);
  if (threadIdx.x == 0) {
    stats[blockIdx.x] = make_float2(m, 0.f);
  }
}

__global__ void scale_rows(float4* __restrict__ out, const float4* __restrict__ in, const float* scale, int n4) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  float4 v = in[i];
  const float s = scale[blockIdx.y];
  v.x *= s; v.y *= s; v.z *= s; v.w *= s;
  out[i] = v;
}

void launch_scale(float4* out, const float4* in, const float* scale, int n4, int rows) {
  dim3 block(256);
  dim3 grid((n4 + 255) / 256, rows);
  scale_rows<<<grid, block>>>(out, in, scale, n4);
}
