/* lower_index.h: what every op lowering builds on (lower_index.c): index
 * arithmetic, the frame in use and its loop nests, coordinates, values.
 * It calls no op lowering. */
#ifndef TC_LOWER_INDEX_H
#define TC_LOWER_INDEX_H

#include "gpu/lower_internal.h"


/* A loop nest over the local elements of a frame's tile. */
typedef struct Nest {
	int n;
	int dim[TC_MAX_RANK];     /* the frame dimension of each loop */
	int step[TC_MAX_RANK];    /* local elements per iteration (the vector width on the last dim) */
	int run;                  /* > 1: along the last dim, each element is read as the first of its
	                             aligned run of `run` (a value the same over the run) */
} Nest;

/* Integer index arithmetic, folded where constant. */
SStmt *lower_uniform_stmt(Lower *L, SStmtKind kind, int line);   /* a statement all threads run alike */
SExpr *lower_ic(Lower *L, int64_t v);
bool lower_is_int_const(const SExpr *e, int64_t v);
SExpr *lower_index_op(SExpr *e);                    /* marks `e` as index arithmetic */
/* One shape: two integer expressions, constants folded (lower_index.c). */
SExpr *lower_iadd(Lower *L, SExpr *a, SExpr *b);
SExpr *lower_imul(Lower *L, SExpr *a, SExpr *b);
SExpr *lower_ibin(Lower *L, TOp op, SExpr *a, SExpr *b);   /* folded: TOP_IDIV, TOP_MOD, TOP_SHR, TOP_AND */

/* The frame in use and its loop nests. */
void lower_use_frame(Lower *L, int f);
int lower_extent_of(Lower *L, int d);              /* local elements along frame dim d */
int lower_count_of(Lower *L, unsigned vary);       /* registers of a tile varying along `vary` */
Nest lower_nest_over(Lower *L, unsigned dims, int vec);
void lower_set_loops(Lower *L, SStmt *s, const Nest *n);
SExpr *lower_local_index(Lower *L, const Nest *n, int d);
SExpr *lower_index_in(Lower *L, const Nest *n, unsigned vary);
/* The tile coordinate along frame dim d of local index `li`, and whether it is not a wrapped copy. */
SExpr *lower_coord(Lower *L, int d, SExpr *li);
SExpr *lower_not_wrapped(Lower *L, int d, SExpr *li);
SExpr *lower_write_guard(Lower *L, const Nest *n, unsigned present, SExpr *mask);

/* Values. */
SExpr *lower_read_value(Lower *L, const Nest *n, const TValue *v);
void lower_set_reg(Lower *L, const TValue *v, SReg *r, unsigned vary);
/* When `x` is one value for the whole tile (every thread has it), `v` moving
 * its elements shares it: true after making it v's. */
bool lower_share_uniform(Lower *L, const TValue *v, const TValue *x);
void lower_set_expr(Lower *L, const TValue *v, SExpr *e);   /* a uniform expression, no registers */
SStmt *lower_assign_value(Lower *L, const TValue *v, const Nest *n, SReg *dst, unsigned vary, SExpr *value);
/* The value of element-wise op `v` at the nest's current element, its operands read with read_value. */
SExpr *lower_elementwise_expr(Lower *L, const TValue *v, const Nest *n);
SExpr *lower_asm_call(Lower *L, const TValue *v, SExpr *const *vals, int nv, SExpr *slot);

/* The frame dims the registers of `v` are indexed by (0 for none). */
unsigned lower_vary_of(Lower *L, const TValue *v);
/* A comment with the source line of `v`, before its first statement. */
void lower_comment_line(Lower *L, const TValue *v);

#endif
