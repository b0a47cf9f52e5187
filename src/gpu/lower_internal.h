/* lower_internal.h: the state of one lowering (frames, each value's
 * place), what place.c gives it. The layers above it, one way:
 *   lower_index.h  index arithmetic, nests, values (lower_index.c)
 *   lower_ops.h    tl.dot, scans, conversions (lower_dot.c, lower_scan.c,
 *                  lower_convert.c), on lower_index.h
 *   lower.c        the other ops, control flow and the kernel, on both. */
#ifndef TC_LOWER_INTERNAL_H
#define TC_LOWER_INTERNAL_H

#include "gpu/simt.h"

#include <stdio.h>

/* A run-time loop whose matrix dots read operands copied asynchronously
 * num_stages - 1 iterations ahead (lower_dot.c plans it, lower.c lowers it). */
typedef struct Pipeline {
	int stages;
	SReg *load_slot, *use_slot;   /* uniform: the slot the copies write, and the one the dots read */
	/* wgmma dots run asynchronously: the consumer comes first in an
	 * iteration, leaves its group in flight, and the copies then refill
	 * the slot of the group before; after the loop, all groups are waited
	 * for and the accumulators `acc` may be read. */
	bool wgmma;
	SReg *acc[4];
	int nacc;
} Pipeline;

/* A tl.dot operand in shared memory: 16-bit elements, rows of `width`
 * elements whose 16-byte chunks are swizzled (lower_dot.c); `slots` copies
 * one after another when a pipeline fills them. */
typedef struct Operand {
	SReg *smem;
	int inner;                 /* 1: the tile's second dimension runs along a row, 0: its first */
	int width;
	int elems;                 /* of one slot */
	const Pipeline *pipe;      /* NULL: one slot */
	/* wgmma's layout: rows cut into blocks of 64 elements (128-byte rows,
	 * the swizzle the instruction reads), block after block; the result's
	 * rows permuted (lower_dot.c, wgmma_row) when m_warps > 0. */
	bool wgmma;
	int m_warps;
} Operand;

/* Which part of a pipelined loop's body an op belongs to. */
enum { PART_NONE, PART_PRODUCER, PART_CONSUMER };

/* What the lowering knows of one tile-IR value. A value lives either in
 * registers (`reg`, holding one element for each combination of the local
 * indices along the frame dimensions in `regs_vary`) or is a uniform
 * expression with no registers (`expr`: a constant, an argument, a program
 * id). `regs_vary` can be smaller than `present`: a broadcast keeps its
 * operand's registers and is indexed as the operand. */
typedef struct Place {
	int frame;                 /* which of the kernel's frames the tile is spread by */
	int8_t map[TC_MAX_RANK];   /* frame dimension of each tile dimension of extent > 1, else -1 */
	unsigned present;          /* frame dims of the tile's extents > 1 */
	bool lowered;
	SReg *reg;
	SExpr *expr;
	unsigned regs_vary;        /* frame dims the registers are indexed by */
	SReg **results;            /* TOP_FOR, TOP_IF: the registers of each result */
	bool matrix;               /* TOP_DOT: lowered to its frame's matrix instruction */
	bool wgmma;                /* TOP_DOT: by wgmma, operands copied in its layout */
	bool in_place;             /* TOP_DOT: accumulates in its accumulator's (loop-carried) registers */
	int8_t part;               /* PART_*: in the body of a pipelined loop */
	Operand *staged;           /* TOP_LOAD: copied asynchronously to this operand; TOP_DOT: a's */
	Operand *staged_b;         /* TOP_DOT: b's */
	Pipeline *pipe;            /* TOP_FOR: pipelined */
} Place;

/* A blocked layout shared by the tiles of one connected part of a kernel:
 * tl.dot's operands and result each have their own. */
typedef struct Frame {
	int rank;
	int shape[TC_MAX_RANK];
	Layout layout;
	SReg *first[TC_MAX_RANK];        /* per-thread: the first coordinate along each dim, or NULL if 0 */
	bool live;                       /* some value in it is lowered */
	/* MATRIX_MMA or MATRIX_MFMA: the frame holds a tl.dot's accumulator in
	 * that instruction's layout, warps arranged wm x wn (lower_dot.c) */
	MatrixUnit unit;
	int wm, wn;
} Frame;

#define LOWER_MAX_FRAMES 32

typedef struct Lower {
	Arena *arena;
	Diag *diag;
	const Source *src;
	const TKernel *tk;
	const Target *target;
	SKernel *k;
	Frame frames[LOWER_MAX_FRAMES];
	int nframes;
	int scalar_frame;                /* the frame of parts with scalars only, or -1 */
	int cur;                         /* the frame now in use; the next four are copies of it */
	int rank;
	int frame_shape[TC_MAX_RANK];
	Layout frame;
	SReg *first[TC_MAX_RANK];
	Place *place;                    /* by value id */
	int nvalues;                     /* ids are below this */
	int *parent;                     /* place.c: union-find over value ids */
	int *uses;                       /* how many live ops read each value; -1: dead */
	bool linking;                    /* place.c: unify only links values into frames */
	SReg *lane, *warp;               /* per-thread scalars */
	int line;                        /* of the last comment */
	int loop_depth;                  /* run-time loops around the op being lowered */
	/* reductions whose partials are in shared memory, waiting for the
	 * barrier that lets every warp read them (lower.c: one for them all) */
	struct WarpFold *waiting;
	int nwaiting;
} Lower;

/* place.c: gives every value a frame and fills place[].map and .present,
 * inserting TOP_CONVERT where a tile is needed in two places and for loads
 * and stores that are coalesced only in a frame of their own. Frames'
 * layouts are left to the caller. */
void lower_place(Lower *L);
/* place.c: copies cheap tiles (aranges and arithmetic on them) that are
 * made rows in one place and columns in another, or transposed in one and
 * not in another, one copy a use, so each can be placed. Returns the new
 * value count. */
int lower_remat(Lower *L, TKernel *tk);
/* place.c: ops whose only effect is their value (dropped when unused). */
bool lower_pure(const TValue *v);
/* The value a store writes, as the lowering reads it: the operand of an
 * fp32 cast to the store's 16-bit float element (the store rounds as it
 * packs, and rounding twice is rounding once), else its value operand. */
const TValue *lower_stored(const TValue *store);

/* lower_index.c: reports an error at the source line of `v` and leaves the lowering. */
TC_NORETURN void lower_error(Lower *L, const TValue *v, const char *fmt, ...) TC_PRINTF(3, 4);

#endif
