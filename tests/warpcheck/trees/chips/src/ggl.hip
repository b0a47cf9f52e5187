#include <hip/hip_runtime.h>
#include <proj/kernels.cuh>

// Launches in the form hipify writes them: hipLaunchKernelGGL(kernel, grid, block, shared, stream, ...).
template <typename T, int Bits> __global__ void tile_kernel(const T *in, T *out, int n);

void launch_tiles(const float *in, float *out, int n, int blocks, hipStream_t stream)
{
    hipLaunchKernelGGL((tile_kernel<float, 32>), dim3(blocks), dim3(32), 0, 0, in, out, n);  // expect: H12 expect-col: 69
    hipLaunchKernelGGL((tile_kernel<float, 16>), dim3(blocks), dim3(96, 1, 1), 0, stream, in, out, n);  // expect: H12 expect-col: 69
    fill<float><<<blocks, dim3(160)>>>(out, n);  // expect: H12 expect-col: 32
    // Multiples of 64, a template argument list that is not in parentheses
    // (its commas are not the launch's), and rows of 32 (not a block size).
    hipLaunchKernelGGL((tile_kernel<float, 32>), dim3(blocks), dim3(64), 0, 0, in, out, n);
    hipLaunchKernelGGL(tile_kernel<float, 32>, dim3(32), dim3(128), 0, 0, in, out, n);
    hipLaunchKernelGGL((tile_kernel<float, 8>), dim3(blocks), dim3(32, 4), 0, 0, in, out, n);
    fill<float><<<blocks, dim3(128, 1)>>>(out, n);
}

// A launch sized for 32 lanes in the unbraced body of an if on the queried width is
// fine; in its else branch the width is not 32.
void launch_by_width(const float *in, float *out, int n, int blocks)
{
    int warp_size = proj_host_warp_size();
    if (n > 0 && warp_size == 32)
        hipLaunchKernelGGL((tile_kernel<float, 32>), dim3(blocks), dim3(32), 0, 0, in, out, n);
    else
        hipLaunchKernelGGL((tile_kernel<float, 32>), dim3(blocks), dim3(32), 0, 0, in, out, n);  // expect: H12 expect-col: 73
}
