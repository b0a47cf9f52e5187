// __CUDA_ARCH__ and __CUDACC__ are not CUDA-only guards: HIP ports define them.
#ifdef __CUDA_ARCH__
__device__ float f(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }  // expect: H2
#endif
#if defined(__CUDACC__)
__device__ float g(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }  // expect: H2
#endif
// HIP on NVIDIA (hipcc over nvcc) is CUDA's toolchain: 32-lane warps.
#if defined(__HIP_PLATFORM_NVIDIA__)
__device__ float h(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }
#endif
#ifdef USE_ROCM
__device__ float r(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }  // expect: H2
#elif defined(SOMETHING_ELSE)
__device__ float s(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }
#else
__device__ float t(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }
#endif
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP__)
__device__ float u(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }  // expect: H2
#else
__device__ float w(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }
#endif
#if !defined(__HIP_PLATFORM_AMD__) && defined(__CUDA_ARCH__)
__device__ float x(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }
#endif
#if !defined(USE_ROCM) || defined(FORCE)
__device__ float y(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }  // expect: H2
#endif
// Only CUDA's toolchain defines CUDA_VERSION and __NVCC__: not taken on HIP.
#if CUDA_VERSION >= 9000
__device__ float c9(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }
#else
__device__ float c8(float v) { return v + __shfl_xor(v, 1); }
#endif
#if defined(__NVCC__) && !defined(__CUDACC_RTC__)
__device__ float nv(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }
#endif
#if !defined(CUDA_VERSION) || CUDA_VERSION < 9000
__device__ float old(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }  // expect: H2
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
__device__ float arch(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }  // expect: H2
#endif
