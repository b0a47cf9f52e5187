/* lower_internal.h: what place.c and lower.c share. */
#ifndef TC_LOWER_INTERNAL_H
#define TC_LOWER_INTERNAL_H

#include "gpu/simt.h"

#include <stdio.h>

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
	bool convert;              /* TOP_EXPAND: its operand reaches it through shared memory */
} Place;

/* A blocked layout shared by the tiles of one connected part of a kernel:
 * tl.dot's operands and result each have their own. */
typedef struct Frame {
	int rank;
	int shape[TC_MAX_RANK];
	Layout layout;
	SReg *first[TC_MAX_RANK];        /* per-thread: the first coordinate along each dim, or NULL if 0 */
	bool live;                       /* some value in it is lowered */
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
} Lower;

/* place.c: gives every value a frame and fills place[].map and .present;
 * errors on tiles that would need a layout conversion. Frames' layouts are
 * left to the caller. */
void lower_place(Lower *L);
/* place.c: copies cheap tiles (aranges and arithmetic on them) that are
 * made rows in one place and columns in another, or transposed in one and
 * not in another, one copy a use, so each can be placed. Returns the new
 * value count. */
int lower_remat(Lower *L, TKernel *tk);
/* place.c: ops whose only effect is their value (dropped when unused). */
bool lower_pure(const TValue *v);

/* Reports an error at the source line of `v` and leaves the lowering. */
TC_NORETURN void lower_error(Lower *L, const TValue *v, const char *fmt, ...) TC_PRINTF(3, 4);

#endif
