// H6 host warp size, H7 compile-time warp size, H12 block sizes.
#include <cstdio>
#define WARP_SIZE 32

__global__ void __launch_bounds__(288) k(float *p) {  // expect: H12
    __shared__ float s[warpSize];  // expect: H7
    p[threadIdx.x] = s[0];
}

#if __AMDGCN_WAVEFRONT_SIZE == 64  // expect: H7
#define WAVE 64
#endif

void launch(float *p, int n, cudaDeviceProp prop) {
    if (prop.warpSize == 32)  // expect: H6
        printf("ok\n");
    k<<<n, 96>>>(p);  // expect: H12
    k<<<n, 4 * WARP_SIZE>>>(p);  // expect: H6
    dim3 block(WARP_SIZE, 4);  // expect: H6
    k<<<n, 256>>>(p);
}
