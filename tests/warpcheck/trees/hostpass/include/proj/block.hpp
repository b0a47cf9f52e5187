#pragma once
// Asserts on the device's width at class scope: the host pass evaluates
// them too, where the width is not the chip's.
template <unsigned BlockSize>
class block_load {
    static_assert(BlockSize % ::rocprim::device_warp_size() == 0, "a whole number of wavefronts");  // expect: H7 expect-col: 42
    static_assert(BlockSize % 32 == 0, "a literal is the same in every pass");

public:
    __device__ void load(float *p) {
        static_assert(BlockSize % ::rocprim::device_warp_size() == 0, "in device code: the chip's");
        p[threadIdx.x] = 0.0f;
    }
};

#if __HIP_DEVICE_COMPILE__
#define PROJ_DEVICE_STATIC_ASSERT(e, m) static_assert(e, m)
#else
#define PROJ_DEVICE_STATIC_ASSERT(e, m)
#endif

template <unsigned WarpSize>
struct warp_store {
    PROJ_DEVICE_STATIC_ASSERT(WarpSize <= ::rocprim::device_warp_size(), "device pass only");
#if __HIP_DEVICE_COMPILE__
    static_assert(WarpSize <= ::rocprim::device_warp_size(), "device pass only");
#endif
    static_assert(WarpSize <= __builtin_amdgcn_wavefrontsize(), "every pass");  // expect: H7 expect-col: 31
};
