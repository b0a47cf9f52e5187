/* lower_index.c: the layer every op lowering builds on.
 *
 * Index arithmetic on integer expressions (folded where constant), the
 * frame in use and the loop nests over a thread's local elements, the tile
 * coordinate of a local index and whether it is a wrapped copy, reading
 * and setting a value's registers, the expression of an element-wise op
 * and the guard of a write (an access's vector width is the plan's). lower.c,
 * lower_dot.c, lower_scan.c and lower_convert.c call it; it calls none of
 * them (lower_index.h).
 */
#include "gpu/lower_index.h"

#include <setjmp.h>
#include <stdarg.h>
#include <string.h>

/* ---- errors and comments ---- */

static size_t line_offset(Lower *L, int line)
{
	const Source *src = L->src;
	if (!L->lines)
		L->lines = base_line_table(L->arena, src);
	size_t off = base_line_table_start(L->lines, line);
	while (off < src->len && (src->text[off] == ' ' || src->text[off] == '\t'))
		off++;
	return off;
}

void lower_error(Lower *L, const TValue *v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (L->src && v && v->line > 0)
		diag_vfatal(L->diag, L->src, line_offset(L, v->line), fmt, ap);
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_plain(L->diag, DIAG_ERROR, "%s: %s", L->tk->name, msg);
	longjmp(*L->diag->jump, 1);
}

/* A comment with the source line, before the first statement of each line. */
void lower_comment_line(Lower *L, const TValue *v)
{
	if (!L->src || v->line <= 0 || v->line == L->line)
		return;
	L->line = v->line;
	size_t start = line_offset(L, v->line), end = start;
	while (end < L->src->len && L->src->text[end] != '\n' && L->src->text[end] != '\r')
		end++;
	SStmt *s = simt_stmt(L->k, SS_COMMENT, v->line);
	s->text = arena_strndup(L->arena, L->src->text + start, end - start);
}

/* ---- integer index expressions, folded where constant ---- */

SExpr *lower_ic(Lower *L, int64_t v)
{
	return simt_int(L->k, DT_I32, v);
}

bool lower_is_int_const(const SExpr *e, int64_t v)
{
	return e->kind == SE_INT && e->ival == v;
}

SExpr *lower_index_op(SExpr *e)
{
	e->plain = true;
	return e;
}

/* Each helper takes two integer expressions and folds what is constant:
 * a + b, a * b, and `op` (TOP_IDIV, TOP_MOD, TOP_SHR, TOP_AND folded; any
 * other integer op built as it is) of a and b. */
SExpr *lower_iadd(Lower *L, SExpr *a, SExpr *b)
{
	if (a->kind == SE_INT && b->kind == SE_INT)
		return lower_ic(L, a->ival + b->ival);
	if (lower_is_int_const(a, 0))
		return b;
	if (lower_is_int_const(b, 0))
		return a;
	return lower_index_op(simt_binary(L->k, TOP_ADD, DT_I32, a, b));
}

SExpr *lower_imul(Lower *L, SExpr *a, SExpr *b)
{
	if (a->kind == SE_INT && b->kind != SE_INT)
		return lower_imul(L, b, a);
	if (b->kind != SE_INT)
		return lower_index_op(simt_binary(L->k, TOP_MUL, DT_I32, a, b));
	int64_t c = b->ival;
	if (c == 0 || lower_is_int_const(a, 0))
		return lower_ic(L, 0);
	if (a->kind == SE_INT)
		return lower_ic(L, a->ival * c);
	return c == 1 ? a : lower_index_op(simt_binary(L->k, TOP_MUL, DT_I32, a, b));
}

SExpr *lower_ibin(Lower *L, TOp op, SExpr *a, SExpr *b)
{
	if (b->kind != SE_INT)
		return lower_index_op(simt_binary(L->k, op, DT_I32, a, b));
	int64_t c = b->ival;
	if ((op == TOP_IDIV && c == 1) || (op == TOP_SHR && c == 0))
		return a;
	if (op == TOP_MOD && c == 1)
		return lower_ic(L, 0);
	if (a->kind == SE_INT) {
		int64_t x = a->ival;
		switch (op) {
		case TOP_IDIV: return lower_ic(L, x / c);
		case TOP_MOD: return lower_ic(L, x % c);
		case TOP_SHR: return lower_ic(L, x >> c);
		case TOP_AND: return lower_ic(L, x & c);
		default: break;
		}
	}
	return lower_index_op(simt_binary(L->k, op, DT_I32, a, b));
}

/* ---- the frame in use and its loop nests ---- */

int lower_extent_of(Lower *L, int d)
{
	return layout_local_extent(&L->frame, d);
}

int lower_count_of(Lower *L, unsigned vary)
{
	int n = 1;
	for (int d = 0; d < L->rank; d++)
		if (vary & (1u << d))
			n *= lower_extent_of(L, d);
	return n;
}

Nest lower_nest_over(Lower *L, unsigned dims, int vec)
{
	Nest n = {0};
	for (int d = 0; d < L->rank; d++) {
		if (!(dims & (1u << d)))
			continue;
		n.dim[n.n] = d;
		n.step[n.n] = d == L->rank - 1 ? vec : 1;
		n.n++;
	}
	return n;
}

/* Gives statement `s` the loops of `n`. */
void lower_set_loops(Lower *L, SStmt *s, const Nest *n)
{
	s->nloops = n->n;
	for (int i = 0; i < n->n; i++)
		s->extent[i] = lower_extent_of(L, n->dim[i]) / n->step[i];
}

/* The local index along frame dim d of the nest's current (first) element. */
SExpr *lower_local_index(Lower *L, const Nest *n, int d)
{
	for (int i = 0; i < n->n; i++) {
		if (n->dim[i] != d)
			continue;
		SExpr *li = lower_imul(L, simt_leaf(L->k, SE_LOOP, DT_I32, i), lower_ic(L, n->step[i]));
		if (n->run > 1 && d == L->rank - 1)
			li = lower_imul(L, lower_ibin(L, TOP_IDIV, li, lower_ic(L, n->run)), lower_ic(L, n->run));
		return li;
	}
	return lower_ic(L, 0);
}

/* Row-major index into registers that vary along `vary`. */
SExpr *lower_index_in(Lower *L, const Nest *n, unsigned vary)
{
	SExpr *idx = lower_ic(L, 0);
	for (int d = 0; d < L->rank; d++)
		if (vary & (1u << d))
			idx = lower_iadd(L, lower_imul(L, idx, lower_ic(L, lower_extent_of(L, d))), lower_local_index(L, n, d));
	return idx;
}

/* ---- values ---- */

/* The value of `v` at the nest's current element. */
SExpr *lower_read_value(Lower *L, const Nest *n, const TValue *v)
{
	Place *p = &L->place[v->id];
	if (!p->lowered)
		lower_error(L, v, "internal error: %%%d used before it is lowered", v->id);
	if (p->expr)
		return p->expr;
	return simt_ref(L->k, p->reg, lower_index_in(L, n, p->regs_vary));
}

unsigned lower_vary_of(Lower *L, const TValue *v)
{
	if (!L->place)   /* planning: registers span at most the tile's dims */
		return v ? L->vp[v->id].present : 0;
	return v ? L->place[v->id].regs_vary : 0;
}

/* ---- coordinates ---- */

static int cta_of(Lower *L, int d)
{
	const Layout *f = &L->frame;
	return f->size_per_thread[d] * f->threads_per_warp[d] * f->warps_per_cta[d];
}

static SExpr *first_of(Lower *L, int d)
{
	if (!L->first[d])
		return lower_ic(L, 0);
	L->first[d]->read = true;
	return simt_ref(L->k, L->first[d], NULL);
}

/* The tile coordinate along d, before wrapping, of local index `li`. */
static SExpr *raw_coord(Lower *L, int d, SExpr *li)
{
	const Frame *fr = &L->frames[L->cur];
	if (d == 0 && fr->wgmma_rows) {
		/* repetition r at 8 (r % 2) + 16 wm (r / 2); the thread's own part,
		 * g + 16 (w % 4) + 64 (w / 4), is its first (Frame.wgmma_rows) */
		SExpr *r = lower_ibin(L, TOP_IDIV, li, lower_ic(L, L->frame.size_per_thread[0]));
		SExpr *at = lower_iadd(L, lower_imul(L, lower_ibin(L, TOP_AND, r, lower_ic(L, 1)), lower_ic(L, 8)),
				       lower_imul(L, lower_ibin(L, TOP_SHR, r, lower_ic(L, 1)), lower_ic(L, 16 * fr->wm)));
		return lower_iadd(L, at, first_of(L, d));
	}
	int spt = L->frame.size_per_thread[d];
	if (lower_extent_of(L, d) <= spt)
		return lower_iadd(L, li, first_of(L, d));
	SExpr *rep = lower_imul(L, lower_ibin(L, TOP_IDIV, li, lower_ic(L, spt)), lower_ic(L, cta_of(L, d)));
	return lower_iadd(L, lower_iadd(L, rep, first_of(L, d)), lower_ibin(L, TOP_MOD, li, lower_ic(L, spt)));
}

SExpr *lower_coord(Lower *L, int d, SExpr *li)
{
	SExpr *raw = raw_coord(L, d, li);
	return cta_of(L, d) > L->frame_shape[d] ? lower_ibin(L, TOP_MOD, raw, lower_ic(L, L->frame_shape[d])) : raw;
}

/* True (NULL) unless the block is wider than the tile along d; then the
 * test that local index `li` is not a wrapped copy. */
SExpr *lower_not_wrapped(Lower *L, int d, SExpr *li)
{
	if (cta_of(L, d) <= L->frame_shape[d])
		return NULL;
	return simt_cmp(L->k, CMP_LT, DT_I32, raw_coord(L, d, li), lower_ic(L, L->frame_shape[d]));
}

/* For a tile that does not span frame dim d: whether this thread is the one
 * of the threads holding the same element that writes it. */
static SExpr *owner_along(Lower *L, int d)
{
	if (!L->first[d])
		return NULL;
	L->first[d]->read = true;
	return simt_cmp(L->k, CMP_EQ, DT_I32, simt_ref(L->k, L->first[d], NULL), lower_ic(L, 0));
}

/* Makes frame f the one the index and coordinate helpers use. */
void lower_use_frame(Lower *L, int f)
{
	const Frame *fr = &L->frames[f];
	L->cur = f;
	L->rank = fr->rank;
	L->frame = fr->layout;
	memcpy(L->frame_shape, fr->shape, sizeof L->frame_shape);
	if (L->firsts)
		memcpy(L->first, L->firsts[f], sizeof L->first);
	else   /* planning: no coordinates yet */
		memset(L->first, 0, sizeof L->first);
}

/* ---- registers and assignments ---- */

bool lower_share_uniform(Lower *L, const TValue *v, const TValue *x)
{
	const Place *from = &L->place[x->id];
	Place *to = &L->place[v->id];
	if (!from->expr && from->regs_vary != 0)
		return false;
	to->reg = from->reg;
	to->expr = from->expr;
	to->regs_vary = 0;
	to->lowered = true;
	return true;
}

void lower_set_reg(Lower *L, const TValue *v, SReg *r, unsigned vary)
{
	Place *p = &L->place[v->id];
	p->reg = r;
	p->regs_vary = vary;
	p->lowered = true;
}

void lower_set_expr(Lower *L, const TValue *v, SExpr *e)
{
	Place *p = &L->place[v->id];
	p->expr = e;
	p->lowered = true;
}

/* dst = value over the nest of `vary`; uniform when it varies in nothing */
SStmt *lower_assign_value(Lower *L, const TValue *v, const Nest *n, SReg *dst, unsigned vary, SExpr *value)
{
	SStmt *s = simt_stmt(L->k, SS_ASSIGN, v->line);
	lower_set_loops(L, s, n);
	s->dst = simt_ref(L->k, dst, lower_index_in(L, n, vary));
	s->value = value;
	s->uniform = dst->kind == SR_UNIFORM;
	return s;
}

/* ---- element-wise expressions ---- */

/* Philox on the key (the seed as u64: sign-extended from a signed type) and
 * the counter (offset mod 2^32, offset >> 32 for 64-bit offsets else 0,
 * 0, 0), as the interpreter does. */
static SExpr *philox_expr(Lower *L, const TValue *v, SExpr *seed, SExpr *offset)
{
	SKernel *k = L->k;
	DType st = v->args[0]->type.dtype, ot = v->args[1]->type.dtype;
	SExpr *e = simt_leaf(k, SE_PHILOX, DT_U32, v->aux);
	e->ival = v->aux2;
	e->a[0] = simt_cast(k, st, DT_U64, seed);
	if (dtype_bytes(ot) == 8) {
		SExpr *wide = simt_cast(k, ot, DT_U64, offset);
		e->a[1] = simt_cast(k, DT_U64, DT_U32, wide);
		e->a[2] = simt_cast(k, DT_U64, DT_U32, simt_binary(k, TOP_SHR, DT_U64, wide, simt_int(k, DT_U64, 32)));
	} else {
		e->a[1] = simt_cast(k, ot, DT_U32, offset);
		e->a[2] = simt_int(k, DT_U32, 0);
	}
	return e;
}

/* A call of asm v's lambda on `nv` argument values (each argument's
 * `pack` elements in turn), then the slot whose results it gives (pack > 1). */
SExpr *lower_asm_call(Lower *L, const TValue *v, SExpr *const *vals, int nv, SExpr *slot)
{
	SKernel *k = L->k;
	int pack = v->perm[0] > 1 ? v->perm[0] : 1;
	SExpr *e = simt_leaf(k, SE_ASM, v->type.dtype, 0);
	e->origin = v;
	SExpr **at = &e->a[0];
	for (int j = 0; j <= nv; j++) {
		if (j == nv && !slot)
			break;
		SExpr *arg = simt_leaf(k, SE_ASM_ARG, j < nv ? v->args[j / pack]->type.dtype : DT_I32, 0);
		arg->a[0] = j < nv ? vals[j] : slot;
		*at = arg;
		at = &arg->a[1];
	}
	return e;
}

SExpr *lower_elementwise_expr(Lower *L, const TValue *v, const Nest *n)
{
	SKernel *k = L->k;
	DType dt = v->type.dtype;
	SExpr *a = lower_read_value(L, n, v->args[0]);
	SExpr *e;
	switch (v->op) {
	case TOP_CMP:
		return simt_cmp(k, (CmpKind)v->aux, v->args[0]->type.dtype, a, lower_read_value(L, n, v->args[1]));
	case TOP_WHERE:
		e = simt_leaf(k, SE_SELECT, dt, 0);
		e->a[0] = a;
		e->a[1] = lower_read_value(L, n, v->args[1]);
		e->a[2] = lower_read_value(L, n, v->args[2]);
		return e;
	case TOP_CAST:
		return simt_cast(k, v->args[0]->type.dtype, dt, a);
	case TOP_BITCAST:
		if (dt != DT_PTR && !dtype_is_float(dt) && !dtype_is_float(v->args[0]->type.dtype))
			return simt_cast(k, v->args[0]->type.dtype, dt, a);   /* integers: C's conversion keeps the bits */
		e = simt_leaf(k, SE_BITCAST, dt, dt == DT_PTR ? (int)v->type.elem : 0);
		e->from = v->args[0]->type.dtype;
		e->a[0] = a;
		return e;
	case TOP_MATH:
		e = simt_leaf(k, SE_MATH, dt, v->aux == MATH_EXP2 && v->aux2 && dt != DT_F64 ? MATH_EXP2_FAST : v->aux);
		e->from = v->args[0]->type.dtype;
		e->a[0] = a;
		for (int i = 1; i < v->nargs; i++)
			e->a[i] = lower_read_value(L, n, v->args[i]);
		return e;
	case TOP_NEG:
	case TOP_NOT:
		e = simt_leaf(k, SE_UNARY, dt, v->op);
		e->a[0] = a;
		return e;
	case TOP_PHILOX:
		return philox_expr(L, v, a, lower_read_value(L, n, v->args[1]));
	case TOP_ASM: {
		/* with pack > 1 (when lower_asm cannot pack neighbours): the
		 * element in every slot, slot 0's results */
		int pack = v->perm[0] > 1 ? v->perm[0] : 1;
		SExpr **vals = arena_alloc(L->arena, sizeof *vals * (size_t)(v->nargs * pack + 1));
		int nv = 0;
		for (int i = 0; i < v->nargs; i++) {
			SExpr *x = i ? lower_read_value(L, n, v->args[i]) : a;
			for (int q = 0; q < pack; q++)
				vals[nv++] = x;
		}
		return lower_asm_call(L, v, vals, nv, pack > 1 ? lower_ic(L, 0) : NULL);
	}
	default:
		e = simt_binary(k, v->op, dt, a, lower_read_value(L, n, v->args[1]));
		if (dt == DT_PTR)
			e->from = v->type.elem;
		return e;
	}
}

/* ---- accesses ---- */

/* The guard of a write: `mask`, and each element once (no wrapped copy,
 * coordinate 0 along the frame dimensions the tile does not span). */
SExpr *lower_write_guard(Lower *L, const Nest *n, unsigned present, SExpr *mask)
{
	SExpr *guard = mask;
	for (int d = 0; d < L->rank; d++) {
		if (present & (1u << d))
			guard = simt_and(L->k, guard, lower_not_wrapped(L, d, lower_local_index(L, n, d)));
		else
			guard = simt_and(L->k, guard, owner_along(L, d));
	}
	if (L->rank == 0)   /* every thread holds the scalar; one writes it */
		guard = simt_and(L->k, guard,
				 simt_cmp(L->k, CMP_EQ, DT_I32, simt_leaf(L->k, SE_THREAD, DT_I32, 0), lower_ic(L, 0)));
	return guard;
}

SStmt *lower_uniform_stmt(Lower *L, SStmtKind kind, int line)
{
	SStmt *s = simt_stmt(L->k, kind, line);
	s->uniform = true;
	return s;
}
