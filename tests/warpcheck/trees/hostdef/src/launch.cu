#include <proj/width.cuh>

__global__ void pack(const float *in, float *out);

void launch_pack(const float *in, float *out, int n)
{
    if (PROJ_WARP_SIZE == 64) {  // expect: H8 expect-col: 9
        pack<<<n / 64, 64>>>(in, out);
    } else {
        pack<<<n / 32, 32>>>(in, out);
    }
}
