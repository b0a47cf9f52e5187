// Host code sizing buffers with the device's per-target width.
#include <proj/defs.cuh>
#include <cstddef>

size_t encoded_bytes(size_t nvecs, int bits) {
    size_t per_block = bits * kWarpSize / 8;  // expect: H8 expect-col: 31
    size_t blocks = (nvecs + kWarpSize - 1) / kWarpSize;
    return per_block * blocks;
}

size_t tile_bytes(size_t n) {
    return n * kTileRows * sizeof(float);
}

int query_width(int device) {
    int w = 0;
    hipDeviceGetAttribute(&w, hipDeviceAttributeWarpSize, device);
    return w;
}
