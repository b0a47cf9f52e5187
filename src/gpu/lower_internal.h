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
	int8_t map[TC_MAX_RANK];   /* frame dimension of each tile dimension of extent > 1, else -1 */
	unsigned present;          /* frame dims of the tile's extents > 1 */
	bool lowered;
	SReg *reg;
	SExpr *expr;
	unsigned regs_vary;        /* frame dims the registers are indexed by */
	SReg **results;            /* TOP_FOR, TOP_IF: the registers of each result */
} Place;

typedef struct Lower {
	Arena *arena;
	Diag *diag;
	const Source *src;
	const TKernel *tk;
	const Target *target;
	SKernel *k;
	int rank;                        /* the frame: rank and extents */
	int frame_shape[TC_MAX_RANK];
	Layout frame;
	Place *place;                    /* by value id */
	SReg *lane, *warp;               /* per-thread scalars */
	SReg *first[TC_MAX_RANK];        /* per-thread: the first coordinate along each frame dim, or NULL if 0 */
	int line;                        /* of the last comment */
	int loop_depth;                  /* run-time loops around the op being lowered */
} Lower;

/* place.c: fills place[].map and .present for every value; errors on tiles
 * that would need a layout conversion. */
void lower_place(Lower *L);

/* Reports an error at the source line of `v` and leaves the lowering. */
TC_NORETURN void lower_error(Lower *L, const TValue *v, const char *fmt, ...) TC_PRINTF(3, 4);

#endif
