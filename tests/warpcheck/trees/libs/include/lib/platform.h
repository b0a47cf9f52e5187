// A platform-select macro, and a width function, as projects write them.
#pragma once
#ifdef USE_ROCM
#define PLATFORM_PICK(cuda, rocm) rocm
#else
#define PLATFORM_PICK(cuda, rocm) cuda
#endif
#define LIB_WARP_SIZE PLATFORM_PICK(32, 64)  // expect: H8 expect-col: 41

__host__ __device__ constexpr int lib_warp_size() {
#if defined(__HIP_PLATFORM_AMD__)
    return 64;  // expect: H8 expect-col: 12
#else
    return 32;
#endif
}

// Per target in the device pass: right on every chip.
__device__ constexpr int dev_warp_size() {
#if defined(__GFX9__)
    return 64;
#else
    return 32;
#endif
}

#define LOGICAL_WIDTH 32
