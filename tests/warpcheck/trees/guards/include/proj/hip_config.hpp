#ifndef PROJ_HIP_CONFIG_HPP_
#define PROJ_HIP_CONFIG_HPP_

namespace proj {
struct config {
#if PROJ_HIP_PLATFORM_AMD
    static constexpr unsigned warp_size = warpSize;  // expect: H7 expect-col: 43
#else
    static constexpr unsigned warp_size = 32;
#endif
    static constexpr unsigned max_block_size = 1024;
};
}  // namespace proj

#endif
