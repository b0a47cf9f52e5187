/* lower_internal.h: what place.c and lower.c share. */
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

typedef struct Lower {
	Arena *arena;
	Diag *diag;
	const Source *src;
	const TKernel *tk;
	const Target *target;
	SKernel *k;
	Frame *frames;                   /* frames_cap of them: a frame per connected part at most */
	int frames_cap;
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

/* Reports an error at the source line of `v` and leaves the lowering. */
TC_NORETURN void lower_error(Lower *L, const TValue *v, const char *fmt, ...) TC_PRINTF(3, 4);

/* ---- lower.c: what the op lowerings share ---- */

/* A loop nest over the local elements of a frame's tile. */
typedef struct Nest {
	int n;
	int dim[TC_MAX_RANK];     /* the frame dimension of each loop */
	int step[TC_MAX_RANK];    /* local elements per iteration (the vector width on the last dim) */
	int run;                  /* > 1: along the last dim, each element is read as the first of its
	                             aligned run of `run` (a value the same over the run) */
} Nest;

/* Integer index arithmetic, folded where constant. */
SStmt *uniform_stmt(Lower *L, SStmtKind kind, int line);   /* a statement all threads run alike */
SExpr *ic(Lower *L, int64_t v);
bool is_int_const(const SExpr *e, int64_t v);
SExpr *index_op(SExpr *e);                    /* marks `e` as index arithmetic */
SExpr *iadd(Lower *L, SExpr *a, SExpr *b);
SExpr *imul(Lower *L, SExpr *a, int64_t c);
SExpr *ibin(Lower *L, TOp op, SExpr *a, int64_t c);

/* The frame in use and its loop nests. */
void use_frame(Lower *L, int f);
int extent_of(Lower *L, int d);              /* local elements along frame dim d */
int count_of(Lower *L, unsigned vary);       /* registers of a tile varying along `vary` */
Nest nest_over(Lower *L, unsigned dims, int vec);
void set_loops(Lower *L, SStmt *s, const Nest *n);
SExpr *local_index(Lower *L, const Nest *n, int d);
SExpr *index_in(Lower *L, const Nest *n, unsigned vary);
/* The tile coordinate along frame dim d of local index `li`, and whether it is not a wrapped copy. */
SExpr *coord(Lower *L, int d, SExpr *li);
SExpr *not_wrapped(Lower *L, int d, SExpr *li);
SExpr *write_guard(Lower *L, const Nest *n, unsigned present, SExpr *mask);

/* Values. */
SExpr *read_value(Lower *L, const Nest *n, const TValue *v);
void set_reg(Lower *L, const TValue *v, SReg *r, unsigned vary);
SStmt *assign_value(Lower *L, const TValue *v, const Nest *n, SReg *dst, unsigned vary, SExpr *value);
/* The value of element-wise op `v` at the nest's current element, its operands read with read_value. */
SExpr *elementwise_expr(Lower *L, const TValue *v, const Nest *n);

/* ---- lower_convert.c: layout conversions ---- */

/* TOP_CONVERT: its operand's elements, from wherever its place holds them,
 * to the threads its own place gives them, through shared memory. */
void lower_convert(Lower *L, const TValue *v);

/* ---- lower_shape.c: reshapes ---- */

/* Whether TOP_RESHAPE `v` only adds or drops dims of extent 1 (an alias
 * of its operand); any other moves elements through shared memory. */
bool lower_reshape_is_alias(const TValue *v);
void lower_reshape(Lower *L, const TValue *v);

/* ---- lower_dot.c: tl.dot ---- */

/* Chooses each dot's strategy and gives the frames of matrix-unit dots the
 * instruction's accumulator layout; before the other frames get theirs. */
void lower_plan_dots(Lower *L);
void lower_dot(Lower *L, const TValue *v);
/* wgmma's bookkeeping on the accumulator registers `acc`: SS_MMA_FENCE,
 * SS_MMA_COMMIT, or SS_MMA_WAIT until at most `pending` groups are in flight. */
SStmt *mma_group_stmt(Lower *L, SStmtKind kind, int line, SReg *acc, int pending);
/* Plans the pipeline of loop `v` (before its body is lowered; emits the
 * slots' initial values): NULL when it is not pipelined, because it has
 * no matrix dot, num_stages < 2, or its body does not split into copies
 * and their consumers. */
Pipeline *lower_plan_pipeline(Lower *L, const TValue *v);
/* A pipelined load: its tile copied asynchronously to the operand's slot. */
void lower_copy_async(Lower *L, const TValue *v);
/* lower.c: the vector width of an access (elements along the frame's last dim) */
int access_width(Lower *L, const TValue *ptr, const TValue *mask, unsigned vary);
unsigned vary_of(Lower *L, const TValue *v);
/* lower.c: the shared memory of the registers made so far */
int lower_shared_bytes(const SKernel *k);

/* ---- lower_scan.c: tl.cumsum, tl.cumprod, tl.associative_scan ---- */

void lower_scan(Lower *L, const TValue *v);
/* tl.reduce with a combine function of one or more tensors (RED_COMBINE). */
void lower_reduce_combine(Lower *L, const TValue *v);
/* Tests only: every scan through shared memory, one thread a row (the
 * path for layouts the shuffle-based scan does not know). */
extern bool lower_scan_in_shared_memory;

#endif
