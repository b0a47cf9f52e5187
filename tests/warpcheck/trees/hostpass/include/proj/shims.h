#pragma once
#ifdef __HIP_DEVICE_COMPILE__
// Skipped from HIP 6.2 on: ROCm 6.2 to 6.4 have no _sync shuffles by default.
#if (HIP_VERSION < 60200000) || defined(HIP_DISABLE_WARP_SYNC_BUILTINS)  // expect: H2 expect-col: 6
#define __shfl_sync(mask, ...) __shfl(__VA_ARGS__)
#define __shfl_xor_sync(mask, ...) __shfl_xor(__VA_ARGS__)
#endif
#endif
