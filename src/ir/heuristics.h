/* heuristics.h: block sizes for Inductor kernels given none (heuristics.c). */
#ifndef TC_HEURISTICS_H
#define TC_HEURISTICS_H

#include "triton/triton.h"

#include <stdint.h>

#define BLOCK_DEFAULTS_MAX 4

typedef struct BlockDefaults {
	char text[BLOCK_DEFAULTS_MAX][48];   /* "XBLOCK=1024" */
	int count;
	int num_warps;                       /* 0: no opinion */
} BlockDefaults;

/* The constexprs an Inductor kernel `k` needs that `defines` does not give,
 * and a warp count; nothing for other kernels. */
BlockDefaults inductor_block_defaults(const Kernel *k, const char *const *defines, int ndefines);

/* Whether Inductor launches `k` on a SplitScanGrid: cdiv(r0_numel, R0_BLOCK)
 * programs along axis 0 (the scan's blocks, each waiting for those before
 * it) for each of xnumel rows along axis 1. */
bool inductor_split_scan_grid(const Kernel *k);

/* Whether parameter `param` of `k` is the workspace of an Inductor split
 * scan (`ws_ptr`): scratch the module's call() allocates and zeroes before
 * each launch, and no output. The kernel keeps one slot there for each
 * program: a u64 (exclusive_scan_decoupled_lookback), or three
 * (exclusive_scan_decoupled_lookback_64). */
bool inductor_workspace(const Kernel *k, const char *param);

/* The workspace's bytes for a launch of `programs` programs: three u64
 * words each, enough for either lookback. */
#define INDUCTOR_WORKSPACE_BYTES_PER_PROGRAM 24

#endif
