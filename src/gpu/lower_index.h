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
SStmt *uniform_stmt(Lower *L, SStmtKind kind, int line);   /* a statement all threads run alike */
SExpr *ic(Lower *L, int64_t v);
bool is_int_const(const SExpr *e, int64_t v);
SExpr *index_op(SExpr *e);                    /* marks `e` as index arithmetic */
/* One shape: two integer expressions, constants folded (lower_index.c). */
SExpr *iadd(Lower *L, SExpr *a, SExpr *b);
SExpr *imul(Lower *L, SExpr *a, SExpr *b);
SExpr *ibin(Lower *L, TOp op, SExpr *a, SExpr *b);   /* folded: TOP_IDIV, TOP_MOD, TOP_SHR, TOP_AND */

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
void set_expr(Lower *L, const TValue *v, SExpr *e);   /* a uniform expression, no registers */
SStmt *assign_value(Lower *L, const TValue *v, const Nest *n, SReg *dst, unsigned vary, SExpr *value);
/* The value of element-wise op `v` at the nest's current element, its operands read with read_value. */
SExpr *elementwise_expr(Lower *L, const TValue *v, const Nest *n);

/* The frame dims the registers of `v` are indexed by (0 for none). */
unsigned vary_of(Lower *L, const TValue *v);
/* The vector width of an access: elements along the frame's last dim. */
int access_width(Lower *L, const TValue *ptr, const TValue *mask, unsigned vary);
/* A comment with the source line of `v`, before its first statement. */
void lower_comment_line(Lower *L, const TValue *v);

#endif
