/* plan.h: what the lowering decides before it emits a statement.
 *
 * simt_plan places every value of a kernel on a frame (place.c), gives
 * each frame its layout (plan.c: Triton's coalescing, or a matrix
 * instruction's accumulator layout, lower_dot.c) and each load and store
 * its vector width (plan.c), chooses each tl.dot's
 * strategy and plans the pipeline of every loop of matrix dots with a
 * shared-memory estimate of the whole kernel. simt_emit then lowers each op
 * by that plan and decides nothing of layouts or stages; simt_allocate
 * gives the shared arrays their offsets. simt_lower (simt.h) is the three
 * in a row. plan_dump prints a plan (`tritonc compile --dump plan`). */
#ifndef TC_PLAN_H
#define TC_PLAN_H

#include "gpu/simt.h"

/* A run-time loop whose matrix dots read operands copied asynchronously
 * `stages` - 1 iterations ahead (lower_dot.c plans it, lower.c emits it). */
typedef struct Pipeline {
	int id;                    /* of the kernel's pipelines, in program order */
	const TValue *loop;
	int stages;
	int bytes;                 /* of shared memory: all stages of all its operands */
	/* wgmma dots run asynchronously: the consumer comes first in an
	 * iteration, leaves its group in flight, and the copies then refill
	 * the slot of the group before; after the loop, all groups are waited
	 * for and the accumulators `acc` (loop-carried values) may be read. */
	bool wgmma;
	const TValue *acc[4];
	int nacc;
	/* Carried across the tiles of loop `tiles`, the loop right around this
	 * one (plan.c, plan_across_tiles): the iterations that only wait for
	 * the last copies of a tile (stages - 1 of them) issue the copies of
	 * the first stages - 1 iterations of the next tile, whose loop then
	 * starts at its iteration stages - 1; so no iteration goes without
	 * copies or dots at a tile's edge and the epilogue's stores overlap
	 * the next tile's copies. NULL: the pipeline fills and drains in each
	 * run of its loop. */
	const TValue *tiles;
	/* Streamed operands that are host descriptors' blocks are copied by the
	 * bulk tensor copy engine (sm_90a; Operand.tma): one thread issues a
	 * stage's copies after arriving on the stage's mbarrier, which expects
	 * `tx_bytes`; the consumer waits on it (phase parity) instead of
	 * cp.async's groups. */
	bool tma;
	int tx_bytes;
	bool cp_async;             /* with tma: some streamed operands still by cp.async (both waits) */
} Pipeline;

/* A tl.dot operand in shared memory: 16-bit elements, rows of `width`
 * elements whose 16-byte chunks are swizzled (lower_dot.c); `pipe->stages`
 * copies one after another. */
typedef struct Operand {
	int id;                    /* of the kernel's operands, in program order */
	const TValue *tile;        /* the load copied into it */
	const char *name;
	int inner;                 /* 1: the tile's second dimension runs along a row, 0: its first */
	int width;
	int elems;                 /* of one slot */
	const Pipeline *pipe;
	/* Not streamed (pipe NULL) but read by the wgmma dots of pipelined
	 * loop `loop`: a tile made before the loop, written once before it
	 * (`once`), or one the consumer computes, written every iteration
	 * before its dot (lower_dot.c, "Operands the pipeline does not copy"). */
	const Pipeline *loop;
	bool once;
	/* Operand A of such a dot that never goes to shared memory: the
	 * consumer's tile is in the dot's result layout, so each thread packs
	 * its own elements into wgmma's A registers (lower_dot.c, FEED_REGS). */
	bool regs;
	/* wgmma's layout: rows cut into blocks of 64 elements (128-byte rows,
	 * the swizzle the instruction reads), block after block; the result's
	 * rows permuted (lower_dot.c, wgmma_row) when m_warps > 0 (a result
	 * frame without Frame.wgmma_rows). */
	bool wgmma;
	int m_warps;
	/* Copied by the bulk tensor copy engine: tensor map Plan.tmaps[tmap],
	 * boxes of its box_rows x box_cols (8 rows at a time where the rows are
	 * permuted, wgmma_row keeping groups of 8; blocks of 64 columns). */
	bool tma;
	int tmap;
	/* Streamed by the copies of operand `same` (an earlier B of the same
	 * loop): one load read by several wgmma or mma.sync dots as B, itself
	 * or transposed (attention backward's k, read by q k^T and by ds^T q).
	 * Both orientations store element (row, col) of the load at the same
	 * place (operand_index), so the slot is one; each dot reads it by its
	 * own inner and width. */
	const struct Operand *same;
} Operand;

/* What an op of a loop body has to do with loads issued an iteration ahead
 * (plan.c, plan_ahead): a load whose value is read from registers loaded
 * before its iteration, an op that computes the address, mask or `other`
 * of one (lowered again for the iteration ahead), and such an op that
 * nothing else reads (lowered for the iteration ahead only). */
enum { AHEAD_NONE, AHEAD_LOAD, AHEAD_SLICE, AHEAD_ONLY };

/* Which part of a pipelined loop's body an op belongs to; PART_BOTH: a
 * pure value (or a carried one) that each part computes for its own
 * iteration (lower_dot.c, split_by_copies). */
enum { PART_NONE, PART_PRODUCER, PART_CONSUMER, PART_BOTH };

/* The plan of one tile-IR value. */
typedef struct ValuePlan {
	int frame;                 /* which of the kernel's frames the tile is spread by */
	int8_t map[TC_MAX_RANK];   /* frame dimension of each tile dimension of extent > 1, else -1 */
	unsigned present;          /* frame dims of the tile's extents > 1 */
	/* TOP_LOAD, TOP_STORE: elements per access along the frame's last dim
	 * (a vector), and for a load, elements along it loaded once from one
	 * address and copied (plan.c, plan_access_width); 1: one at a time */
	int vector, splat;
	/* TOP_LOAD: elements a thread copies at a time when the load is copied
	 * ahead into a pipeline's operand: the vector, or wider where the mask
	 * holds on a prefix of each copy, cut by cut_x < cut_n (plan.c,
	 * prefix_mask); cut_x NULL: not cut */
	int copy_vector;
	const TValue *cut_x, *cut_n;
	bool scan_shared;          /* TOP_SCAN: through shared memory, one thread a row (lower_scan.c) */
	/* the same over each aligned run of this many elements along the
	 * frame's last dim (the thread's run there, or 1): an element-wise op
	 * computes it from its operands' elements at the run's start */
	int run;
	bool matrix;               /* TOP_DOT: lowered to its frame's matrix instruction */
	bool wgmma;                /* TOP_DOT: by wgmma, operands copied in its layout */
	bool in_place;             /* TOP_DOT: accumulates in its accumulator's (loop-carried) registers;
	                              TOP_MUL: writes its result into the registers of its operand
	                              args[in_place_arg] (a wgmma accumulator rescaled, lower_dot.c) */
	int8_t in_place_arg;
	int8_t part;               /* PART_*: in the body of a pipelined loop */
	bool unread;               /* TOP_PARAM of a for loop: a carried value neither the body nor what follows reads */
	Operand *staged;           /* TOP_LOAD: copied asynchronously to this operand; TOP_DOT: a's */
	Operand *staged_b;         /* TOP_DOT: b's */
	Pipeline *pipe;            /* TOP_FOR: pipelined */
	int8_t ahead;              /* AHEAD_*: in the body of a loop that loads ahead */
	int8_t ahead_iters;        /* TOP_FOR: 1 when its AHEAD_LOADs are issued an iteration ahead */
	/* An op of a tile loop's body (Pipeline.tiles) that the producer of the
	 * pipelined loop in it reads: lowered again, for the next tile, where
	 * that loop issues the next tile's first copies */
	bool next_tile;
} ValuePlan;

/* A blocked layout shared by the tiles of one connected part of a kernel:
 * tl.dot's operands and result each have their own. */
typedef struct Frame {
	int rank;
	int shape[TC_MAX_RANK];
	Layout layout;
	bool live;                       /* some value in it is lowered */
	int vector;                      /* elements a thread holds consecutively along the last dim (coalescing) */
	/* MATRIX_MMA or MATRIX_MFMA: the frame holds a tl.dot's accumulator in
	 * that instruction's layout, warps arranged wm x wn (lower_dot.c) */
	MatrixUnit unit;
	int wm, wn;
	/* MATRIX_WGMMA: the row coordinate (frame dim 0) is the order in which
	 * wgmma's warpgroups hold rows, not the blocked layout's: the thread of
	 * warp w, lane bits g (lane >> 2) holds at its repetition r the row
	 * g + 8 (r % 2) + 16 (w % 4) + 64 (w / 4) + 16 wm (r / 2)
	 * (lower_index.c), so that operand A goes to shared memory in its own
	 * row order, one box for the copy engine (lower_dot.c). Not in a frame
	 * with a scan, whose steps follow the blocked order. */
	bool wgmma_rows;
} Frame;

typedef struct Plan {
	TKernel *tk;                     /* rematerialized and with its conversions (place.c) */
	Target target;
	int warp_size, num_warps, threads;
	Frame *frames;
	int nframes;
	int scalar_frame;                /* the frame of parts with scalars only, or -1 */
	ValuePlan *values;               /* by value id */
	int nvalues;
	int *uses;                       /* how many live ops read each value; -1: dead */
	Pipeline **pipes;
	int npipes;
	Operand **operands;
	int noperands;
	STensorMap *tmaps;               /* of the bulk tensor copies (Operand.tma) */
	int ntmaps;
	int shared_estimate;             /* bytes of shared memory the emitted kernel is planned to need at most */
	int min_blocks;                  /* CUDA: blocks an SM is to hold at once (__launch_bounds__), 0: not said */
} Plan;

/* Plans `tk` for `target`: frames, layouts, dots and pipelines. `tk` has
 * been through the tile-IR passes (its axis info chooses vector widths).
 * NULL after reporting an error through `diag`. */
Plan *simt_plan(Arena *a, Diag *diag, const Source *src, TKernel *tk, const Target *target);
/* The per-op lowering of a plan: statements, registers and shared arrays
 * (their offsets left to simt_allocate). NULL after reporting an error. */
SKernel *simt_emit(Arena *a, Diag *diag, const Source *src, const Plan *plan);
/* Gives every shared array of `k` its byte offset, arrays whose lifetimes
 * do not overlap sharing bytes, and sets k->shared_bytes. False (after an
 * error through `diag`) when the target's block cannot hold them. */
bool simt_allocate(Diag *diag, SKernel *k);
/* The plan as text: frames and their layouts, the dots' strategies, the
 * pipelines, each value's frame dims. */
void plan_dump(Buf *b, const Plan *p);

#endif
