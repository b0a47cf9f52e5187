/* export.h: `tritonc export`, ahead-of-time kernels for C and C++ programs
 * (docs/export.md).
 *
 * One export writes, into a folder, a header and the sources a build needs
 * for each target: a launcher `int NAME(void *stream, <arguments>)` that
 * computes the grid from the arguments, picks the most specialized of the
 * kernel's exported variants and launches it (CUDA through libcuda with
 * embedded cubins and PTX, HIP through the HIP runtime with embedded code
 * objects, or C on the CPU's threads).
 *
 * Exporting the same kernel again into the same folder with another
 * signature, other constexprs or warps adds a variant: the folder keeps the
 * list in NAME.variants and every file is written again from all of them.
 *
 *   export.c     the request: variants list, checks, files
 *   compile.c    the one call into the compiler's stages
 *   grid.c       --grid expressions to C
 *   launcher.c   the header, the dispatch and the error strings (all targets)
 *   target_c.c, target_cuda.c, target_hip.c   each target's files
 *   nvrtc.c      CUDA C to cubin and PTX at export time (NVRTC via dlopen)
 *   rt/          the run-time support copied into the generated files */
#ifndef TC_EXPORT_H
#define TC_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

typedef struct ExportRequest {
	const char *file;            /* the .py file */
	const char *kernel;          /* -k; NULL: the only kernel of the file */
	const char *signature;       /* -s, with ":16" hints; NULL for Inductor kernels */
	const char *const *defines;  /* -D NAME=VALUE */
	int ndefines;
	int num_warps;               /* 0: 4 (or an Inductor kernel's default) */
	int num_stages;              /* 0: 3 */
	const char *targets;         /* "c", "cuda:sm_80,cuda:sm_90", "hip:gfx90a,hip:gfx1100", mixed */
	const char *grid;            /* "EXPR,EXPR,EXPR" over argument names; NULL: Inductor's rule */
	const char *out_dir;
} ExportRequest;

/* Runs one export. Messages ("tritonc: error: ..." or file:line:col
 * diagnostics) go to `errors`. 0 on success, 1 on an error in the input,
 * 2 on a bad request. */
int export_run(const ExportRequest *r, FILE *errors);

#endif
