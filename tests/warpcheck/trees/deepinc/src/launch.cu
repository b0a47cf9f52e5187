#include <proj/d0.cuh>

__global__ void fill(float *out);

void launch_fill(float *out, int n)
{
    if (DEEP_WARP_SIZE == 64) {  // expect: H8 expect-col: 9
        fill<<<n / 64, 64>>>(out);
    } else {
        fill<<<n / 32, 32>>>(out);
    }
}
