#pragma once
#define WARP_SIZE (warpSize)
#define NUM_WARPS (1024 / warpSize)
