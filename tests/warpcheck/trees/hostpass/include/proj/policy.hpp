#pragma once
struct DeviceConstants {
    constexpr DeviceConstants(long warp_size, long max_block_size, long cache_line)
        : WARP_SIZE(warp_size), MAX_BLOCK_SIZE(max_block_size), CACHE_LINE(cache_line) {}
    long WARP_SIZE, MAX_BLOCK_SIZE, CACHE_LINE;
};

#if defined(__HIP_PLATFORM_AMD__)
constexpr DeviceConstants device_constants(64, 1024, 64);  // expect: H8 expect-col: 44
constexpr DeviceConstants old_constants{32, 1024, 64};  // expect: H8 expect-col: 41
#elif defined(__HIP_PLATFORM_NVIDIA__)
constexpr DeviceConstants device_constants(32, 1024, 32);
#endif

#if defined(__GFX9__)
constexpr DeviceConstants chip_constants(64, 1024, 64);
#else
constexpr DeviceConstants chip_constants(32, 1024, 64);
#endif
constexpr DeviceConstants cuda_constants(32, 1024, 32);
