// Normalisation kernels in the style of a quantized-inference CUDA backend.
// WARP_SIZE stays 32 and every shuffle passes the width 32, so on a 64-lane
// wavefront each kernel runs as two independent 32-lane halves: the lane
// and warp ids in 32s are notes, not bugs. The shims drop the 32-bit masks
// on HIP. The vote in count_nonzero is not shimmed and keeps 32 bits. A
// block of WARP_SIZE threads for such a kernel only leaves half of a
// 64-lane wavefront idle: a note.
#include <stdint.h>
#define WARP_SIZE 32
#if defined(GGML_USE_HIP)
#include <hip/hip_runtime.h>
#define __shfl_sync(mask, var, srcLane, width) __shfl(var, srcLane, width)
#define __shfl_xor_sync(mask, var, laneMask, width) __shfl_xor(var, laneMask, width)
#define cudaStream_t hipStream_t
#else
#include <cuda_runtime.h>
#endif

static constexpr __device__ int ggml_physical_warp_size() {
#if defined(GGML_USE_HIP) && (defined(__GFX9__) || defined(__GFX8__))
    return 64;
#else
    return 32;
#endif
}

template <int width = WARP_SIZE>
static __device__ __forceinline__ float warp_reduce_sum(float x) {
#pragma unroll
    for (int offset = width / 2; offset > 0; offset >>= 1) {
        x += __shfl_xor_sync(0xffffffff, x, offset, width);
    }
    return x;
}

template <int width = WARP_SIZE>
static __device__ __forceinline__ float warp_reduce_max(float x) {
#pragma unroll
    for (int offset = width / 2; offset > 0; offset >>= 1) {
        x = fmaxf(x, __shfl_xor_sync(0xffffffff, x, offset, width));
    }
    return x;
}

template <int block_size>
static __global__ void rms_norm_f32(const float * x, float * dst, const int ncols, const float eps) {
    const int row = blockIdx.x*blockDim.y + threadIdx.y;
    const int tid = threadIdx.x;

    float tmp = 0.0f;
    for (int col = tid; col < ncols; col += block_size) {
        const float xi = x[row*ncols + col];
        tmp += xi * xi;
    }

    tmp = warp_reduce_sum(tmp);
    if (block_size > WARP_SIZE) {
        __shared__ float s_sum[32];  // expect-note: H3
        const int warp_id = threadIdx.x / WARP_SIZE;  // expect-note: H3
        const int lane_id = threadIdx.x % WARP_SIZE;  // expect-note: H3
        if (lane_id == 0) {
            s_sum[warp_id] = tmp;
        }
        __syncthreads();
        tmp = s_sum[lane_id];
        tmp = warp_reduce_sum(tmp);
    }

    const float mean = tmp / ncols;
    const float scale = rsqrtf(mean + eps);
    for (int col = tid; col < ncols; col += block_size) {
        dst[row*ncols + col] = scale * x[row*ncols + col];
    }
}

static __global__ void soft_max_f32(const float * x, float * dst, const int ncols) {
    const int tid = threadIdx.x;
    const int rowx = blockIdx.x;
    const int warp_id = threadIdx.x / WARP_SIZE;  // expect-note: H3
    const int lane_id = threadIdx.x % WARP_SIZE;  // expect-note: H3
    extern __shared__ float buf_iw[];

    float max_val = -INFINITY;
    for (int col = tid; col < ncols; col += blockDim.x) {
        max_val = fmaxf(max_val, x[rowx*ncols + col]);
    }
    max_val = warp_reduce_max(max_val);
    if (blockDim.x > WARP_SIZE) {
        if (warp_id == 0) {
            buf_iw[lane_id] = -INFINITY;
        }
        __syncthreads();
        if (lane_id == 0) {
            buf_iw[warp_id] = max_val;
        }
        __syncthreads();
        max_val = warp_reduce_max(buf_iw[lane_id]);
    }
    float sum = 0.0f;
    for (int col = tid; col < ncols; col += blockDim.x) {
        const float v = expf(x[rowx*ncols + col] - max_val);
        sum += v;
        dst[rowx*ncols + col] = v;
    }
    sum = warp_reduce_sum(sum);
    const float inv = 1.0f / sum;
    for (int col = tid; col < ncols; col += blockDim.x) {
        dst[rowx*ncols + col] *= inv;
    }
}

// One count per 32 threads, from a vote the shims do not cover.
static __global__ void count_nonzero(const float * x, int * counts, const int n) {
    const int i = blockIdx.x*blockDim.x + threadIdx.x;
    const bool nz = i < n && x[i] != 0.0f;
    const unsigned int vote = __ballot_sync(0xffffffff, nz);  // expect: H4 H2
    if ((threadIdx.x & (WARP_SIZE - 1)) == 0) {  // expect: H3
        atomicAdd(counts + blockIdx.x, __popc(vote));  // expect: H4
    }
}

static void rms_norm_f32_cuda(const float * x, float * dst, const int ncols, const int nrows, const float eps,
                              cudaStream_t stream) {
    if (ncols < 1024) {
        const dim3 block_dims(WARP_SIZE, 1, 1);  // expect-note: H6
        rms_norm_f32<WARP_SIZE><<<nrows, block_dims, 0, stream>>>(x, dst, ncols, eps);
    } else {
        const dim3 block_dims(1024, 1, 1);
        rms_norm_f32<1024><<<nrows, block_dims, 0, stream>>>(x, dst, ncols, eps);
    }
}
