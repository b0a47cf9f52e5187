// Shared-memory sizes per block, written once per platform: the AMD branch
// is the CUDA text with 64 for 32, which is wrong on RDNA (wave32).
#pragma once

struct Occupancy {
    static int reduction_bytes(int threads, int per_pixel) {
#ifdef __HIP_PLATFORM_AMD__
        int bytes = per_pixel * (threads / 64) * sizeof(float);  // expect: H8 expect-col: 44
#else
        int bytes = per_pixel * (threads / 32) * sizeof(float);
#endif
        return bytes;
    }
    // Per target: each chip compiles its own branch.
    __device__ static int slots(int threads) {
#if defined(__GFX9__)
        return threads / 64;
#else
        return threads / 32;
#endif
    }
};
