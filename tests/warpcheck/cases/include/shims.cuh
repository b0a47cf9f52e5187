// Included by include_shim.cu: a shim that drops the mask, and a 32 for the host.
#pragma once
#define __shfl_down_sync(mask, v, d) __shfl_down(v, d)
#define HOST_WARP_SIZE 32
#include "shims.cuh"
