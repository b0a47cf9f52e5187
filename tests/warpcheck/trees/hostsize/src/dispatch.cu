#include "proj/softmax.cuh"

// Either width, chosen from the device: fine.
int row_warp_queried(int cols, int device) {
    int w = 0;
    hipDeviceGetAttribute(&w, hipDeviceAttributeWarpSize, device);
    int p = next_pow2(cols);
    int warp_size = (p < w) ? p : w;
    return warp_size;
}

// A choice between the two widths in one statement: fine.
int row_warp_pick(bool wave64, int cols) {
    int warp_size = wave64 ? 64 : 32;
    return next_pow2(cols) < warp_size ? next_pow2(cols) : warp_size;
}

// In device code the name is the kernel's own business.
__device__ int lanes_used(int cols) {
    int warp_size = 32;
    return cols < warp_size ? cols : warp_size;
}

void launch(const float *in, float *out, int rows, int cols, hipStream_t s) {
    int warp_size;
    warp_size = cols >= 32 ? 32 : 16;  // expect: H6 expect-col: 25
    if (warp_size == 32)
        row_softmax<32><<<rows, 32, 0, s>>>(in, out, cols);  // expect: H12 expect-col: 33
    else
        row_softmax<16><<<rows, 16, 0, s>>>(in, out, cols);
}

int host_warp_size(int device);

// The host picks the block for the width it queried: 32 threads on wave32.
void launch_queried(const float *in, float *out, int rows, int cols, hipStream_t s) {
    if (host_warp_size(0) == 64) {
        row_softmax<64><<<rows, 64, 0, s>>>(in, out, cols);
    } else {
        row_softmax<32><<<rows, 32, 0, s>>>(in, out, cols);
    }
    if (cols > 1) {
        row_softmax<32><<<rows, 96, 0, s>>>(in, out, cols);  // expect: H12 expect-col: 33
    }
}
