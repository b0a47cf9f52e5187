#pragma once
#ifdef __HIP_DEVICE_COMPILE__
#if !defined(HIP_VERSION) || HIP_VERSION < 60200000
#define PROJ_SHFL_SHIMS
#elif HIP_VERSION < 70000000 && !defined(HIP_ENABLE_WARP_SYNC_BUILTINS)
#define PROJ_SHFL_SHIMS
#elif defined(HIP_DISABLE_WARP_SYNC_BUILTINS)
#define PROJ_SHFL_SHIMS
#endif
#ifdef PROJ_SHFL_SHIMS
#define __shfl_sync(mask, ...) __shfl(__VA_ARGS__)
#endif
#if HIP_VERSION < 60200000
#define PROJ_OLD_HIP 1
#endif
#endif
