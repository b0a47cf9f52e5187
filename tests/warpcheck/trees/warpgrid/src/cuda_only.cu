#include <proj/config.hpp>

__global__ void match_rows(unsigned rows, const int *ptrs, bool *out);

// Only the CUDA build compiles this launcher: its block of 32 is one warp there.
#ifndef __HIP_PLATFORM_AMD__
void find_matching_cuda(unsigned rows, const int *ptrs, bool *out)
{
    const dim3 block_size(32, 1, 1);
    const dim3 grid_size(ceildiv(rows * proj::config::warp_size, block_size.x), 1, 1);
    match_rows<<<grid_size, block_size>>>(rows, ptrs, out);
}
#endif
