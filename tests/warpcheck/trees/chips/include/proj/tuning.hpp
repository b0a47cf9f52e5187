#pragma once
// Launch limits per chip, in the style of a primitives library's configs.
#define PROJ_WARP_SIZE_32 32u
#define PROJ_WARP_SIZE_64 64u

namespace proj {
template <unsigned Block, unsigned Lanes> struct limit_block { static constexpr unsigned value = Block; };
template <unsigned Block> struct sort_params { static constexpr unsigned block = Block; };

template <class T> struct sort_config_90a {
    using type = sort_params<limit_block<256, PROJ_WARP_SIZE_32>::value>;  // expect: H8 expect-col: 47
};
template <class T> struct sort_config_gfx942 {
    static constexpr unsigned lanes = PROJ_WARP_SIZE_32;  // expect: H8 expect-col: 39
};
template <class T> struct sort_config_908 {
    using type = sort_params<limit_block<256, PROJ_WARP_SIZE_64>::value>;
};
template <class T> struct sort_config_1100 {
    using type = sort_params<limit_block<256, PROJ_WARP_SIZE_32>::value>;
};
// 64 for a wave32 chip: blocks limited in 64s are whole wavefronts there too.
template <class T> struct sort_config_1030 {
    using type = sort_params<limit_block<256, PROJ_WARP_SIZE_64>::value>;
};
// Not a chip's number, and a declaration with no body.
template <class T> struct sort_config_2048 {
    using type = sort_params<limit_block<256, PROJ_WARP_SIZE_32>::value>;
};
template <class T> struct sort_config_906;
}  // namespace proj
