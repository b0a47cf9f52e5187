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

#endif
