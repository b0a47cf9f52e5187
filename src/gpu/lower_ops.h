/* lower_ops.h: the op lowerings in files of their own, which lower.c
 * calls; they build on lower_index.h alone. */
#ifndef TC_LOWER_OPS_H
#define TC_LOWER_OPS_H

#include "gpu/lower_index.h"

/* ---- lower_convert.c: layout conversions ---- */

/* TOP_CONVERT: its operand's elements, from wherever its place holds them,
 * to the threads its own place gives them, through shared memory. */
void lower_convert(Lower *L, const TValue *v);

/* ---- lower_store.c: stores of accumulator layouts ---- */

/* A 16-bit store from a matrix unit's accumulator layout, 16 bytes a
 * thread after the quad's lanes transpose their runs; false where the
 * layout or the pointers do not allow it (the store is then as planned). */
bool lower_store_quads(Lower *L, const TValue *v);

/* ---- lower_shape.c: reshapes ---- */

/* Whether TOP_RESHAPE `v` only adds or drops dims of extent 1 (an alias
 * of its operand); any other moves elements through shared memory. */
bool lower_reshape_is_alias(const TValue *v);
void lower_reshape(Lower *L, const TValue *v);
void lower_gather(Lower *L, const TValue *v);   /* tl.gather, through shared memory */

/* ---- lower_dot.c: tl.dot ---- */

/* Chooses each dot's strategy and gives the frames of matrix-unit dots the
 * instruction's accumulator layout; before the other frames get theirs. */
void lower_plan_dots(Lower *L);
void lower_dot(Lower *L, const TValue *v);
/* wgmma's bookkeeping on the accumulator registers `acc`: SS_MMA_FENCE,
 * SS_MMA_COMMIT, or SS_MMA_WAIT until at most `pending` groups are in flight. */
SStmt *lower_mma_group_stmt(Lower *L, SStmtKind kind, int line, SReg *acc, int pending);
/* Plans the pipeline of loop `v` with at most `room` bytes of shared
 * memory for its operands' stages: NULL when it is not pipelined, because
 * it has no matrix dot, num_stages < 1, or its body does not split into
 * copies and their consumers. */
Pipeline *lower_plan_pipeline(Lower *L, const TValue *v, int room);
/* K of dot `v`'s operands that the threads stage at a time (not a
 * pipeline's): the whole K, or, where the two side by side do not fit
 * the target's block, a power-of-two part of it (chunks one after
 * another, lower_dot.c "K in chunks"). */
int lower_dot_k_chunk(const Lower *L, const TValue *v);
/* The packed shared operands of the matrix dots no pipeline stages. */
void lower_plan_operands(Lower *L, const TBlock *b);
/* Emission: a pipeline's shared operands and slot registers (before its loop). */
void lower_pipeline_regs(Lower *L, const Pipeline *pp);
/* Writes the operands of pipeline pp's wgmma dots made before its loop
 * (Operand.once) to shared memory, before the loop. */
void lower_stage_once(Lower *L, const Pipeline *pp);
/* A pipelined load: its tile copied asynchronously to the operand's slot. */
void lower_copy_async(Lower *L, const TValue *v);
/* The bulk tensor copies of a pipeline (Pipeline.tma): the issuing
 * thread's arrival before a stage's copies, the consumer's wait, and the
 * parity's flip after use_slot moved on. */
void lower_tma_expect(Lower *L, const Pipeline *pp);
void lower_tma_wait(Lower *L, const Pipeline *pp);
void lower_tma_next_phase(Lower *L, const Pipeline *pp);

/* ---- lower_reduce.c: reductions along an axis ---- */

void lower_reduce(Lower *L, const TValue *v);
/* Reductions whose partials wait in shared memory for one barrier: it and
 * their reads (lower_flush_folds), and whether `v` may be lowered while
 * they wait (it reads none of them and touches no shared memory). */
void lower_flush_folds(Lower *L);
bool lower_folds_may_wait(const Lower *L, const TValue *v);
/* The lane step of every reduction: for each of masks[nmasks - 1] down to
 * masks[0], `acc[r]` of the partner lane (lane ^ mask) shuffled into
 * `got[r]` (r < nregs), then `combine` folds `got` into `acc` over the
 * nest of `vary`. */
typedef void (*LaneCombine)(Lower *L, void *ctx, const Nest *n, SReg *const *got);
void lower_reduce_lanes(Lower *L, int line, int nregs, SReg *const *acc, SReg *const *got, const int *masks, int nmasks,
		  unsigned vary, LaneCombine combine, void *ctx);

/* ---- lower_scan.c: tl.cumsum, tl.cumprod, tl.associative_scan ---- */

void lower_scan(Lower *L, const TValue *v);
/* tl.reduce with a combine function of one or more tensors (RED_COMBINE). */
void lower_reduce_combine(Lower *L, const TValue *v);
/* Tests only: every scan through shared memory, one thread a row (the
 * path for layouts the shuffle-based scan does not know). */
extern bool lower_scan_in_shared_memory;

/* ---- lower.c ---- */

/* An empty SIMT kernel of `target` for `tk` (its warps and threads). */
SKernel *lower_new_kernel(Arena *a, const TKernel *tk, const Target *target);

#endif
