// Host code has no warp size of its own: warpSize there is rejected by
// HIP 7 and was 64 for every AMD target before (RDNA runs 32). So is a
// macro defined as it, computed from it, or expanding to it.
#include <hip/hip_runtime.h>
#if defined(USE_ROCM)
#define WARP_SIZE warpSize
#define NUM_THREADS (8 * warpSize)
#define LAUNCH_ROWS(n)               \
    if (WARP_SIZE == 64)             \
        rows<64><<<n, 64>>>();       \
    else                             \
        rows<32><<<n, 32>>>()
#else
#define WARP_SIZE 32
#define NUM_THREADS 256
#define LAUNCH_ROWS(n) rows<32><<<n, 32>>>()
#endif

template <int W>
__global__ void rows() {}

void launch(int n) {
    LAUNCH_ROWS(n);  // expect: H6 expect-col: 5
    LAUNCH_ROWS(n + 1);
    int threads = NUM_THREADS;  // expect: H6
    rows<32><<<n, threads>>>();
    hipDeviceProp_t prop;
    hipGetDeviceProperties(&prop, 0);
    const int w = prop.warpSize;
    auto lane_of = [=] __device__(int i) { return i % warpSize; };
    (void)w;
    (void)lane_of;
}

// Device code may use it.
__device__ int lane() {
    return threadIdx.x % WARP_SIZE;
}

// A host variable of its own named warpSize, read from the device.
void count_warps(int dev) {
    unsigned warpSize, pshift = 0;
    hipDeviceProp_t prop;
    hipGetDeviceProperties(&prop, dev);
    warpSize = prop.warpSize;
    const unsigned warps = 512 / warpSize;
    for (unsigned w = warpSize; w >>= 1;)
        ++pshift;
    (void)warps;
}
