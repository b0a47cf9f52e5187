/* target.h: what the lowering knows about a machine, as data.
 *
 * The warp width lives here and nowhere else: every butterfly length, lane
 * mask width and warps-per-block figure is derived from `warp_size`. The
 * passes never ask which vendor they compile for. */
#ifndef TC_TARGET_H
#define TC_TARGET_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
	TARGET_CUDA,   /* CUDA C for NVIDIA, NVRTC or nvcc */
	TARGET_HIP,    /* HIP C for AMD, hipcc */
	TARGET_C,      /* C for the CPU: the block's threads in lockstep */
	TARGET_INTERP, /* the tile-level interpreter: no lowering at all */
} TargetKind;

typedef enum {
	MATRIX_NONE,   /* FMA loops (the CPU, RDNA2) */
	MATRIX_MMA,    /* NVIDIA mma.sync (sm_80+) */
	MATRIX_WGMMA,  /* NVIDIA wgmma (sm_90a) */
	MATRIX_MFMA,   /* AMD CDNA matrix cores */
} MatrixUnit;

typedef struct Target {
	const char *spec;        /* as the user wrote it: "cuda:sm_90", "hip:gfx90a", "c" */
	TargetKind kind;
	const char *arch;        /* "sm_90", "gfx90a", "" */
	int warp_size;           /* 32 or 64 */
	int max_vector_bytes;    /* widest single load or store of one thread */
	int max_threads;         /* per block */
	int shared_bytes;        /* shared memory a block may use by default */
	int static_shared_bytes; /* the most a block may declare statically, and the largest */
	int static_shared_align; /* alignment a static array gets; past either, all of it goes in one
	                            dynamic block (CUDA: 48 KiB, 16); 0: always static */
	MatrixUnit matrix;
	bool cdna3;              /* MATRIX_MFMA: gfx94x's instructions (int8 16x16x32 instead of 16x16x16, xf32
	                            16x16x8 for tf32 dots); else gfx908/gfx90a's */
	bool checked;            /* C, for `tritonc run`: each load, store and atomic checks its bytes lie in
	                            a buffer of the run (emit/c.c's tc_check), naming the first that does not */
	bool no_tensor_maps;     /* the launcher passes no tensor maps (exported launchers): descriptors'
	                            blocks are pointer copies, not the bulk tensor copy engine's */
} Target;

/* Parses "cuda[:sm_NN]", "hip:gfxNNN", "c[:wave32|wave64|cdna3|...]", "interp".
 * Returns false and writes a message into `err` for anything else. */
bool target_parse(const char *spec, Target *t, char *err, size_t errlen);

#endif
