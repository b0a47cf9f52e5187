/* driver.h: the compiler's stages in order, for every caller (the library,
 * `tritonc compile`, `tritonc run`). driver_compile is the one place that
 * chains them; each stage's text can be kept for --dump. */
#ifndef TC_DRIVER_H
#define TC_DRIVER_H

#include "base/base.h"
#include "gpu/plan.h"
#include "gpu/simt.h"
#include "gpu/target.h"
#include "ir/tir.h"
#include "triton/triton.h"

/* The stages, in the order driver_compile runs them; each names a --dump. */
typedef enum Stage {
	STAGE_KERNELS,   /* discover: the kernels of the source, their parameters */
	STAGE_AST,       /* pick: the chosen kernel's syntax tree */
	STAGE_TIR,       /* specialize: the tile IR, signature and constexprs bound */
	STAGE_PASSES,    /* tile-IR passes: dead values gone, axis info on every value */
	STAGE_PLAN,      /* plan: frames, layouts, matrix units, pipelines (src/gpu/plan.c) */
	STAGE_SIMT,      /* lower: the per-thread SIMT IR */
	STAGE_CODE,      /* print: CUDA C, HIP C or C (the tile IR for "interp") */
	STAGE_COUNT
} Stage;

typedef struct DriverOptions {
	const char *kernel;              /* NULL: the only one in the source */
	const char *signature;           /* "*fp32,i32:16"; NULL: an Inductor kernel's own */
	const char *const *defines;      /* "NAME=VALUE" */
	int ndefines;
	int num_warps;                   /* 0: Inductor's choice, else 4 */
	int num_stages;                  /* 0: 3 */
	Target target;
	unsigned keep;                   /* 1u << STAGE_X: keep that stage's text in Driver.text */
	Stage last;                      /* the stage to stop after */
	bool pointer_hints;              /* pointers 16-byte aligned only where the signature says ':16'
	                                    (else to their element); false: every pointer */
	bool drop_trees;                 /* the caller reads only the texts: the syntax trees' memory goes to
	                                    the stages after the tile-IR passes, and `kernels` and `kernel`
	                                    are left empty */
	/* Optional, for a caller that knows the argument values (tritonc run):
	 * called after specialization with each argument's divisibility from
	 * the signature in div[0..tk->nargs); it may change them (Triton
	 * specializes on the values) and returns false, having said why, to
	 * stop. */
	bool (*bind)(void *ctx, const Kernel *k, const TKernel *tk, int64_t *div);
	void *ctx;
} DriverOptions;

typedef struct Driver {
	/* in */
	Arena *arena;                    /* everything below lives here */
	Diag *diag;
	const Source *src;
	DriverOptions opt;
	/* out, stage by stage */
	KernelList kernels;              /* discover */
	const Kernel *kernel;            /* pick */
	Buf notes;                       /* defaults: "KERNEL: no -D XBLOCK given, using XBLOCK=1024\n" */
	const char **defines;            /* defaults: the given ones, then the defaults */
	int ndefines;
	int num_warps;
	const char *signature;           /* specialize: without its hints */
	int64_t *hints;                  /* each signature entry's ":16" (0: none) */
	int nhints;
	TKernel *tir;
	int64_t *arg_div;                /* what divides each argument (bytes for pointers) */
	Plan *plan;                      /* plan */
	SKernel *simt;                   /* emit + allocate */
	Buf text[STAGE_COUNT];           /* the kept stages' text */
	bool have[STAGE_COUNT];          /* which of them were made */
} Driver;

/* Runs the stages from discovery through opt.last: discover, pick,
 * defaults, specialize, tile-IR passes, plan, emit SIMT (with shared memory allocated), print. False
 * after an error reported to d->diag (d->diag->jump need not be set). */
bool driver_compile(Driver *d);

/* Frees what driver_compile allocated outside the arena (the texts). */
void driver_free(Driver *d);

/* The tile-IR passes, in order: dead values dropped (tir_dce), then axis
 * analysis from each argument's divisibility (`div`, bytes for pointers;
 * NULL: pointers 16-byte aligned, integers unknown). driver_compile runs
 * them; tests that lower a kernel of their own call them before
 * simt_lower. */
void driver_passes(Arena *a, TKernel *tk, const int64_t *div);

/* "tir", "simt", ...: a stage's --dump name; STAGE_COUNT for an unknown name. */
const char *driver_stage_name(Stage s);
Stage driver_stage_parse(const char *name, size_t len);

/* Parses "tir" or "tir,passes,simt" into a mask of 1u << STAGE_X; false
 * with a message in `err` for an unknown name. */
bool driver_parse_dump(const char *list, unsigned *mask, char *err, size_t errlen);

/* The output of `--dump LIST`: one stage's text alone, several each after a
 * "// ---- NAME ----" line, in stage order. One stage's text moves into an
 * empty `out` (d keeps none of it). */
void driver_dump_text(Driver *d, unsigned mask, Buf *out);

/* The kernels of a source as `tritonc list` prints them. */
void driver_list_kernels(Buf *b, const Source *src, const KernelList *kl);

#endif
