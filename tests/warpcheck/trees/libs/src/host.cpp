#include <hip/hip_runtime.h>
#include <lib/platform.h>

__global__ void kern(float *p);

void launch(float *p, int dev) {
    int threads = C10_WARP_SIZE * 4;  // expect: H6 expect-col: 19
    int lanes = rocprim::warp_size();  // expect: H6 expect-col: 26
    hipDeviceProp_t prop;
    hipGetDeviceProperties(&prop, dev);
    if (prop.warpSize != 32 && prop.warpSize != 64)
        return;
    kern<<<1, threads + lanes>>>(p);
}
