#include <proj/width.cuh>

// A second host use of the same macro: reported here, and the header's line once for the whole run.
int rows_per_block(int threads)
{
    return threads / PROJ_WARP_SIZE;  // expect: H8 expect-col: 22
}
