#include <proj/config.hpp>

// One warp of the device's width per row; the kernels are defined in rows_kernels.hip.cpp.
__global__ void match_rows(unsigned rows, const int *ptrs, bool *out);
__global__ void sum_rows(unsigned rows, const float *in, float *out);

#if PROJ_HIP_PLATFORM_AMD
constexpr int row_block = 16;
#else
constexpr int row_block = 32;
#endif
constexpr int wide_block = 256;

void find_matching(unsigned rows, const int *ptrs, bool *out)
{
    const dim3 block_size(row_block, 1, 1);  // expect: H12 expect-col: 27
    const dim3 grid_size(ceildiv(rows * proj::config::warp_size, block_size.x), 1, 1);
    hipLaunchKernelGGL(match_rows, dim3(grid_size), dim3(block_size), 0, 0, rows, ptrs, out);
}

void sum_all(unsigned rows, const float *in, float *out)
{
    dim3 block(8);  // expect: H12 expect-col: 16
    dim3 grid((rows * warpSize + block.x - 1) / block.x);
    sum_rows<<<grid, block>>>(rows, in, out);
}

// Blocks of whole wavefronts, of the queried width, or a grid that does not count warps: fine.
void find_matching_wide(unsigned rows, const int *ptrs, bool *out)
{
    const dim3 block_size(wide_block, 1, 1);
    const dim3 grid_size(ceildiv(rows * proj::config::warp_size, block_size.x), 1, 1);
    hipLaunchKernelGGL(match_rows, dim3(grid_size), dim3(block_size), 0, 0, rows, ptrs, out);
}

void find_matching_queried(unsigned rows, const int *ptrs, bool *out, unsigned queried)
{
    const dim3 block_size(queried, 1, 1);
    const dim3 grid_size(ceildiv(rows * proj::config::warp_size, block_size.x), 1, 1);
    hipLaunchKernelGGL(match_rows, dim3(grid_size), dim3(block_size), 0, 0, rows, ptrs, out);
}

void sum_threads(unsigned n, const float *in, float *out)
{
    dim3 block(row_block, 1, 1);
    dim3 grid(ceildiv(n, block.x));
    sum_rows<<<grid, block>>>(n, in, out);
}

// 32-lane logical warps: the width is 32 everywhere, a block of 16 is the code's own choice.
void sum_logical(unsigned rows, const float *in, float *out)
{
    dim3 block(16);
    dim3 grid(ceildiv(rows * proj::config::logical_warp_size, block.x));  // expect: H6 (a named 32 in launch geometry; no H12: the width is fixed)
    sum_rows<<<grid, block>>>(rows, in, out);
}

// Chosen for the width the host found.
void sum_checked(unsigned rows, const float *in, float *out, int warp_size)
{
    if (warp_size == 32) {
        dim3 block(16);
        dim3 grid(ceildiv(rows * warpSize, block.x));
        sum_rows<<<grid, block>>>(rows, in, out);
    }
}
