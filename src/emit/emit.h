/* emit.h: the printers, SIMT IR to source text.
 *
 * One printer per target spells the same statements: CUDA C (NVRTC or
 * nvcc), HIP C (hipcc) and C for the CPU, where each statement runs for all
 * threads of a block in lockstep. Printers decide nothing: every count,
 * mask and index comes from the lowering.
 *
 * The generated CUDA and HIP kernels are `extern "C" __global__` functions
 * named after the Triton kernel, taking its non-constexpr arguments in
 * order (pointers as typed pointers, i32 as int, fp32 as float), launched
 * with grid = the program grid and block = warp_size * num_warps threads.
 * The C file exports `void NAME_launch(void **args, const int grid[3],
 * long first, long count)`, which runs programs first .. first+count-1
 * (axis 0 fastest); args[i] points at argument i's value. The macro
 * TC_RUN_W sets the warp width the C code simulates (by default the one it
 * was lowered for), so code lowered for one width can be run at another. */
#ifndef TC_EMIT_H
#define TC_EMIT_H

#include "gpu/simt.h"

void emit_kernel(Buf *out, const SKernel *k);

/* The launcher's symbol in the C output: NAME_launch. */
#define EMIT_C_LAUNCH_SUFFIX "_launch"

#endif
