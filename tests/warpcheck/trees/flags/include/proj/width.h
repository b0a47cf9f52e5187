// The project's warp width, defined once and used in every file.
#pragma once
#define PROJ_WARP 32
#define PROJ_MASK 0xffffffffu
#ifdef PROJ_HAVE_SHIMS
#define __shfl_xor_sync(mask, v, o) __shfl_xor(v, o)
#endif
