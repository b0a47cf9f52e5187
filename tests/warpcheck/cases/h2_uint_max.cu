// H2: a 32-bit full mask spelt with <stdint.h>'s and <limits.h>'s names.
#include <limits.h>
#include <stdint.h>

__device__ float reduce_down(float val) {
    for (int s = 16; s > 0; s /= 2)  // expect: H1
        val += __shfl_down_sync(UINT32_MAX, val, s);  // expect: H2
    return val;
}

__device__ float reduce_xor(float val) {
    val += __shfl_xor_sync(UINT_MAX, val, 1);  // expect: H2
    val += __shfl_xor_sync(UINT64_MAX, val, 2);
    return val;
}
