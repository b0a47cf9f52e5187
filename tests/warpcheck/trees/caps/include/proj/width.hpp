#pragma once
// The width of the device the host runs on, asked at run time.
namespace proj {
int device_warp_size(int device);
}  // namespace proj

#define LOGICAL_WARP_SIZE 32
