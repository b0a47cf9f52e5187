// Flags from compile_commands.json: -Iinclude finds <proj/width.h>, whose
// PROJ_WARP is 32; -isystem sys is a system folder and is not read.
#include <proj/width.h>
#include <sysdep.h>

__device__ float sum_down(float v) {
    for (int o = PROJ_WARP / 2; o > 0; o /= 2)  // expect: H1 expect-col: 18
        v += __shfl_down(v, o);
    return v;
}

__device__ float sum_sys(float v) {
    for (int o = SYS_WARP_SIZE / 2; o > 0; o /= 2)
        v += __shfl_down(v, o);
    return v;
}

// -DPROJ_LANES=32 from the command line is a constant too.
__global__ void lanes(float *out) {
    int lane = threadIdx.x % PROJ_LANES;  // expect: H3 expect-col: 28
    out[threadIdx.x] = __shfl_down(out[lane], 1);
}
