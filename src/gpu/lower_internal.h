/* lower_internal.h: the state of one planning or emission (Lower): the
 * plan's frames and values (plan.h), and while emitting, what each value
 * has become (Place). The layers above it, one way:
 *   lower_index.h  index arithmetic, nests, values (lower_index.c)
 *   lower_ops.h    tl.dot, reductions, scans, conversions (lower_dot.c,
 *                  lower_reduce.c, lower_scan.c, lower_convert.c), on
 *                  lower_index.h
 *   lower.c        the other ops, control flow and simt_emit, on both;
 *   plan.c         simt_plan, on place.c and lower_dot.c's planning. */
#ifndef TC_LOWER_INTERNAL_H
#define TC_LOWER_INTERNAL_H

#include "gpu/plan.h"

#include <stdio.h>

/* What the emission knows of one tile-IR value. A value lives either in
 * registers (`reg`, holding one element for each combination of the local
 * indices along the frame dimensions in `regs_vary`) or is a uniform
 * expression with no registers (`expr`: a constant, an argument, a program
 * id). `regs_vary` can be smaller than the plan's `present`: a broadcast
 * keeps its operand's registers and is indexed as the operand. */
typedef struct Place {
	bool lowered;
	SReg *reg;
	SExpr *expr;
	unsigned regs_vary;        /* frame dims the registers are indexed by */
	SReg **results;            /* TOP_FOR, TOP_IF: the registers of each result */
} Place;

/* The registers of a pipeline while its loop is emitted. */
typedef struct PipeRegs {
	SReg *load_slot, *use_slot;   /* uniform: the slot the copies write, and the one the dots read */
	/* carried across tiles (Pipeline.tiles, lower.c): where the K loop
	 * starts (0, or step * (stages - 1) when the tile before issued the
	 * first copies), the tile loop's next induction variable and whether
	 * the loop runs it */
	SReg *start;
	SExpr *tile_next, *tile_runs;
	SReg *bars, *use_phase;       /* bulk tensor copies: an mbarrier a slot; the parity use_slot's waits for */
	SStmt *before;                /* the last statement before the loop: what is computed once goes after it */
} PipeRegs;

typedef struct Lower {
	Arena *arena;
	Diag *diag;
	const Source *src;
	LineTable *lines;     /* of src, made when first needed */
	const TKernel *tk;
	const Target *target;
	SKernel *k;
	Plan *plan;
	Frame *frames;                   /* the plan's: room for frames_cap, a frame per connected part at most */
	int frames_cap;
	int nframes;
	int scalar_frame;                /* the frame of parts with scalars only, or -1 */
	ValuePlan *vp;                   /* the plan's, by value id */
	SReg *(*firsts)[TC_MAX_RANK];    /* emit: by frame, the first coordinate along each dim, or NULL if 0 */
	SExpr *(*first_defs)[TC_MAX_RANK]; /* emit: what each of firsts holds (of lane and warp) */
	SReg **operand_smem;             /* emit: by operand id, its shared array */
	SReg **copy_at;                  /* by operand id: each copy's place in a slot, made before the loop */
	SExpr **copy_base;               /* by operand id: where copy_at is one register, its value (a thread's
	                                    place at the copy's first element) */
	PipeRegs *pipe_regs;             /* emit: by pipeline id */
	int cur;                         /* the frame now in use; the next four are copies of it */
	int rank;
	int frame_shape[TC_MAX_RANK];
	Layout frame;
	SReg *first[TC_MAX_RANK];
	Place *place;                    /* emit: by value id */
	int nvalues;                     /* ids are below this */
	int *parent;                     /* place.c: union-find over value ids */
	int *uses;                       /* how many live ops read each value; -1: dead (the plan's) */
	bool linking;                    /* place.c: unify only links values into frames */
	int refits;                      /* place.c: times tiles broadcast two ways were split apart */
	const TValue **order;            /* place.c: every value in the order its walks visit them (each_value) */
	int norder, order_cap;
	bool order_ok;                   /* place.c: order holds the kernel as it is (no value inserted since) */
	SReg *lane, *warp;               /* per-thread scalars */
	int line;                        /* of the last comment */
	int loop_depth;                  /* run-time loops around the op being lowered */
	/* reductions whose partials are in shared memory, waiting for the
	 * barrier that lets every warp read them (lower_reduce.c: one for them all) */
	struct WarpFold *waiting;
	int nwaiting;
	/* emit: while the loads of an iteration ahead are lowered (lower.c,
	 * loads_ahead): they are, and a guard of all their accesses (the
	 * iteration is one the loop runs) */
	bool loading_ahead;
	/* In a pipelined loop whose parts both carry a value (PART_BOTH): the
	 * consumer's registers of its carried values (the producer's are the
	 * loop's state registers), or NULL. */
	SReg **cstate;
	SExpr *load_guard;
} Lower;

/* place.c: gives every value a frame and fills vp[].frame, .map and
 * .present (a new L->vp), inserting TOP_CONVERT where a tile is needed in
 * two places and for loads and stores that are coalesced only in a frame
 * of their own. Frames' layouts are left to plan.c. */
void lower_place(Lower *L);
/* place.c: copies cheap tiles (aranges and arithmetic on them) that are
 * made rows in one place and columns in another, or transposed in one and
 * not in another, one copy a use, so each can be placed. Returns the new
 * value count. */
int lower_remat(Lower *L, TKernel *tk);
/* place.c: ops whose only effect is their value (dropped when unused). */
bool lower_pure(const TValue *v);
/* Whether carried value i of for loop `loop` is read: by its body (its
 * parameter) or after the loop (its result). */
bool lower_carried_read(const Lower *L, const TValue *loop, int i);
/* The value a store writes, as the lowering reads it: the operand of an
 * fp32 cast to the store's 16-bit float element (the store rounds as it
 * packs, and rounding twice is rounding once), else its value operand. */
const TValue *lower_stored(const TValue *store);

/* lower_index.c: reports an error at the source line of `v` and leaves the lowering. */
TC_NORETURN void lower_error(Lower *L, const TValue *v, const char *fmt, ...) TC_PRINTF(3, 4);

#endif
