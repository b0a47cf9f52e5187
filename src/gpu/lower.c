/* lower.c: tile IR to SIMT IR, for one warp width.
 *
 * All tiles of a kernel share one blocked layout, the frame (place.c says
 * which frame dimension each tile dimension uses). A tile becomes an array
 * of registers in each thread, indexed row-major by the thread's local
 * indices along the frame dimensions the tile varies in; an element-wise
 * op is a loop nest over that array. Three things cross threads:
 *
 *  - coordinates: thread t holds, along frame dimension d, the elements
 *    first_d + r * cta_d + s (r repetitions, s < size_per_thread), where
 *    first_d comes from t's lane and warp bits (layout.h). When the block
 *    is wider than the tile, coordinates wrap and threads hold copies;
 *  - stores: each element is written once, by the thread that owns it (no
 *    wrapped copy, coordinate 0 along dimensions the tile does not span);
 *  - reductions: fold in the thread (copies along the axis skipped), then
 *    a butterfly of xor shuffles over exactly the lane bits that move along
 *    the axis, then one partial per warp through shared memory. Every
 *    count here comes from the layout, and so from the warp width W: this
 *    is the only place that knows it.
 */
#include "gpu/lower_internal.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <string.h>

/* ---- errors and comments ---- */

static size_t line_offset(const Source *src, int line)
{
	int want = line - src->line_base;
	size_t off = 0;
	for (int cur = 1; cur < want && off < src->len; off++)
		if (src->text[off] == '\n')
			cur++;
	while (off < src->len && (src->text[off] == ' ' || src->text[off] == '\t'))
		off++;
	return off;
}

void lower_error(Lower *L, const TValue *v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (L->src && v && v->line > 0)
		diag_vfatal(L->diag, L->src, line_offset(L->src, v->line), fmt, ap);
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_plain(L->diag, DIAG_ERROR, "%s: %s", L->tk->name, msg);
	longjmp(*L->diag->jump, 1);
}

/* A comment with the source line, before the first statement of each line. */
static void comment_line(Lower *L, const TValue *v)
{
	if (!L->src || v->line <= 0 || v->line == L->line)
		return;
	L->line = v->line;
	size_t start = line_offset(L->src, v->line), end = start;
	while (end < L->src->len && L->src->text[end] != '\n' && L->src->text[end] != '\r')
		end++;
	SStmt *s = simt_stmt(L->k, SS_COMMENT, v->line);
	s->text = arena_strndup(L->arena, L->src->text + start, end - start);
}

/* ---- integer index expressions, folded where constant ---- */

static SExpr *ic(Lower *L, int64_t v)
{
	return simt_int(L->k, DT_I32, v);
}

static bool is_const(const SExpr *e, int64_t v)
{
	return e->kind == SE_INT && e->ival == v;
}

static SExpr *index_op(SExpr *e)
{
	e->plain = true;
	return e;
}

static SExpr *iadd(Lower *L, SExpr *a, SExpr *b)
{
	if (a->kind == SE_INT && b->kind == SE_INT)
		return ic(L, a->ival + b->ival);
	if (is_const(a, 0))
		return b;
	if (is_const(b, 0))
		return a;
	return index_op(simt_binary(L->k, TOP_ADD, DT_I32, a, b));
}

static SExpr *imul(Lower *L, SExpr *a, int64_t c)
{
	if (c == 0 || is_const(a, 0))
		return ic(L, 0);
	if (a->kind == SE_INT)
		return ic(L, a->ival * c);
	return c == 1 ? a : index_op(simt_binary(L->k, TOP_MUL, DT_I32, a, ic(L, c)));
}

static SExpr *ibin(Lower *L, TOp op, SExpr *a, int64_t c)
{
	if ((op == TOP_IDIV && c == 1) || (op == TOP_SHR && c == 0))
		return a;
	if (op == TOP_MOD && c == 1)
		return ic(L, 0);
	if (a->kind == SE_INT) {
		int64_t x = a->ival;
		switch (op) {
		case TOP_IDIV: return ic(L, x / c);
		case TOP_MOD: return ic(L, x % c);
		case TOP_SHR: return ic(L, x >> c);
		case TOP_AND: return ic(L, x & c);
		default: break;
		}
	}
	return index_op(simt_binary(L->k, op, DT_I32, a, ic(L, c)));
}

/* ---- loop nests ---- */

typedef struct Nest {
	int n;
	int dim[TC_MAX_RANK];     /* the frame dimension of each loop */
	int step[TC_MAX_RANK];    /* local elements per iteration (the vector width on the last dim) */
} Nest;

static int extent_of(Lower *L, int d)
{
	return layout_local_extent(&L->frame, d);
}

static int count_of(Lower *L, unsigned vary)
{
	int n = 1;
	for (int d = 0; d < L->rank; d++)
		if (vary & (1u << d))
			n *= extent_of(L, d);
	return n;
}

static Nest nest_over(Lower *L, unsigned dims, int vec)
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
static void set_loops(Lower *L, SStmt *s, const Nest *n)
{
	s->nloops = n->n;
	for (int i = 0; i < n->n; i++)
		s->extent[i] = extent_of(L, n->dim[i]) / n->step[i];
}

/* The local index along frame dim d of the nest's current (first) element. */
static SExpr *local_index(Lower *L, const Nest *n, int d)
{
	for (int i = 0; i < n->n; i++)
		if (n->dim[i] == d)
			return imul(L, simt_leaf(L->k, SE_LOOP, DT_I32, i), n->step[i]);
	return ic(L, 0);
}

/* Row-major index into registers that vary along `vary`. */
static SExpr *index_in(Lower *L, const Nest *n, unsigned vary)
{
	SExpr *idx = ic(L, 0);
	for (int d = 0; d < L->rank; d++)
		if (vary & (1u << d))
			idx = iadd(L, imul(L, idx, extent_of(L, d)), local_index(L, n, d));
	return idx;
}

/* The value of `v` at the nest's current element. */
static SExpr *read(Lower *L, const Nest *n, const TValue *v)
{
	Place *p = &L->place[v->id];
	if (!p->lowered)
		lower_error(L, v, "internal error: %%%d used before it is lowered", v->id);
	if (p->expr)
		return p->expr;
	return simt_ref(L->k, p->reg, index_in(L, n, p->regs_vary));
}

static unsigned vary_of(Lower *L, const TValue *v)
{
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
	return L->first[d] ? simt_ref(L->k, L->first[d], NULL) : ic(L, 0);
}

/* The tile coordinate along d, before wrapping, of local index `li`. */
static SExpr *raw_coord(Lower *L, int d, SExpr *li)
{
	int spt = L->frame.size_per_thread[d];
	if (extent_of(L, d) <= spt)
		return iadd(L, li, first_of(L, d));
	SExpr *rep = imul(L, ibin(L, TOP_IDIV, li, spt), cta_of(L, d));
	return iadd(L, iadd(L, rep, first_of(L, d)), ibin(L, TOP_MOD, li, spt));
}

static SExpr *coord(Lower *L, int d, SExpr *li)
{
	SExpr *raw = raw_coord(L, d, li);
	return cta_of(L, d) > L->frame_shape[d] ? ibin(L, TOP_MOD, raw, L->frame_shape[d]) : raw;
}

/* True (NULL) unless the block is wider than the tile along d; then the
 * test that local index `li` is not a wrapped copy. */
static SExpr *not_wrapped(Lower *L, int d, SExpr *li)
{
	if (cta_of(L, d) <= L->frame_shape[d])
		return NULL;
	return simt_cmp(L->k, CMP_LT, DT_I32, raw_coord(L, d, li), ic(L, L->frame_shape[d]));
}

/* For a tile that does not span frame dim d: whether this thread is the one
 * of the threads holding the same element that writes it. */
static SExpr *owner_along(Lower *L, int d)
{
	if (!L->first[d])
		return NULL;
	return simt_cmp(L->k, CMP_EQ, DT_I32, simt_ref(L->k, L->first[d], NULL), ic(L, 0));
}

/* lane, warp, and the first coordinate of each frame dimension */
static void lower_thread_coords(Lower *L)
{
	SKernel *k = L->k;
	L->lane = simt_reg(k, SR_THREAD, DT_I32, DT_I32, 1, "lane");
	L->warp = simt_reg(k, SR_THREAD, DT_I32, DT_I32, 1, "warp");
	SStmt *s = simt_stmt(k, SS_ASSIGN, 0);
	s->dst = simt_ref(k, L->lane, NULL);
	s->value = simt_leaf(k, SE_LANE, DT_I32, 0);
	s = simt_stmt(k, SS_ASSIGN, 0);
	s->dst = simt_ref(k, L->warp, NULL);
	s->value = simt_leaf(k, SE_WARP, DT_I32, 0);
	const Layout *f = &L->frame;
	for (int d = 0; d < L->rank; d++) {
		int spt = f->size_per_thread[d], tpw = f->threads_per_warp[d], wpc = f->warps_per_cta[d];
		SExpr *first = ic(L, 0);
		if (tpw > 1) {
			SExpr *lane = simt_ref(k, L->lane, NULL);
			SExpr *bits = ibin(L, TOP_AND, ibin(L, TOP_SHR, lane, layout_lane_shift(f, d)), tpw - 1);
			first = imul(L, bits, spt);
		}
		if (wpc > 1) {
			SExpr *warp = simt_ref(k, L->warp, NULL);
			SExpr *bits = ibin(L, TOP_AND, ibin(L, TOP_SHR, warp, layout_warp_shift(f, d)), wpc - 1);
			first = iadd(L, first, imul(L, bits, (int64_t)spt * tpw));
		}
		if (is_const(first, 0))
			continue;
		L->first[d] = simt_reg(k, SR_THREAD, DT_I32, DT_I32, 1, arena_printf(L->arena, "first%d", d));
		s = simt_stmt(k, SS_ASSIGN, 0);
		s->dst = simt_ref(k, L->first[d], NULL);
		s->value = first;
	}
}

/* ---- values ---- */

/* Registers for `v`: uniform when it varies along no dimension and no
 * operand is held per thread (a reduction's result is the same in every
 * thread, but each holds its own copy). */
static SReg *new_reg(Lower *L, const TValue *v, DType dt, unsigned vary)
{
	DType elem = dt == DT_PTR ? v->type.elem : dt;
	bool per_thread = vary != 0;
	for (int i = 0; i < v->nargs && !per_thread; i++) {
		const SReg *r = L->place[v->args[i]->id].reg;
		per_thread = r && r->kind == SR_THREAD;
	}
	if (!per_thread)
		return simt_reg(L->k, SR_UNIFORM, dt, elem, 1, v->name);
	return simt_reg(L->k, SR_THREAD, dt, elem, count_of(L, vary), v->name);
}

static void set_reg(Lower *L, const TValue *v, SReg *r, unsigned vary)
{
	Place *p = &L->place[v->id];
	p->reg = r;
	p->regs_vary = vary;
	p->lowered = true;
}

static void set_expr(Lower *L, const TValue *v, SExpr *e)
{
	Place *p = &L->place[v->id];
	p->expr = e;
	p->lowered = true;
}

/* dst = value over the nest of `vary`; uniform when it varies in nothing */
static SStmt *assign(Lower *L, const TValue *v, const Nest *n, SReg *dst, unsigned vary, SExpr *value)
{
	SStmt *s = simt_stmt(L->k, SS_ASSIGN, v->line);
	set_loops(L, s, n);
	s->dst = simt_ref(L->k, dst, index_in(L, n, vary));
	s->value = value;
	s->uniform = dst->kind == SR_UNIFORM;
	return s;
}

static void lower_arange(Lower *L, const TValue *v)
{
	if (v->type.shape[0] == 1) {
		set_expr(L, v, ic(L, v->iconst));
		return;
	}
	int d = L->place[v->id].map[0];
	unsigned vary = 1u << d;
	SReg *r = new_reg(L, v, DT_I32, vary);
	Nest n = nest_over(L, vary, 1);
	assign(L, v, &n, r, vary, iadd(L, ic(L, v->iconst), coord(L, d, local_index(L, &n, d))));
	set_reg(L, v, r, vary);
}

static void lower_const(Lower *L, const TValue *v)
{
	DType dt = v->type.dtype;
	set_expr(L, v, dtype_is_float(dt) ? simt_float(L->k, dt, v->fconst) : simt_int(L->k, dt, v->iconst));
}

/* A shape change that keeps every element where it is. */
static void lower_alias(Lower *L, const TValue *v)
{
	Place *from = &L->place[v->args[0]->id], *p = &L->place[v->id];
	p->reg = from->reg;
	p->expr = from->expr;
	p->regs_vary = from->regs_vary;
	p->lowered = true;
}

static SExpr *elementwise_expr(Lower *L, const TValue *v, const Nest *n)
{
	SKernel *k = L->k;
	DType dt = v->type.dtype;
	SExpr *a = read(L, n, v->args[0]);
	SExpr *e;
	switch (v->op) {
	case TOP_CMP:
		return simt_cmp(k, (CmpKind)v->aux, v->args[0]->type.dtype, a, read(L, n, v->args[1]));
	case TOP_WHERE:
		e = simt_leaf(k, SE_SELECT, dt, 0);
		e->a[0] = a;
		e->a[1] = read(L, n, v->args[1]);
		e->a[2] = read(L, n, v->args[2]);
		return e;
	case TOP_CAST:
		return simt_cast(k, v->args[0]->type.dtype, dt, a);
	case TOP_MATH:
		e = simt_leaf(k, SE_MATH, dt, v->aux);
		e->a[0] = a;
		return e;
	case TOP_NEG:
	case TOP_NOT:
		e = simt_leaf(k, SE_UNARY, dt, v->op);
		e->a[0] = a;
		return e;
	default:
		e = simt_binary(k, v->op, dt, a, read(L, n, v->args[1]));
		if (dt == DT_PTR)
			e->from = v->type.elem;
		return e;
	}
}

static void lower_elementwise(Lower *L, const TValue *v)
{
	unsigned vary = 0;
	for (int i = 0; i < v->nargs; i++)
		vary |= vary_of(L, v->args[i]);
	SReg *r = new_reg(L, v, v->type.dtype, vary);
	Nest n = nest_over(L, vary, 1);
	assign(L, v, &n, r, vary, elementwise_expr(L, v, &n));
	set_reg(L, v, r, vary);
}

/* Elements per access along the last frame dim: from the pointer's
 * contiguity and alignment (axis analysis), the mask's constancy, the
 * target's widest access and what one thread holds consecutively. */
static int access_width(Lower *L, const TValue *ptr, const TValue *mask, unsigned vary)
{
	int last = L->rank - 1;
	if (L->rank == 0 || !(vary & (1u << last)) || !(vary_of(L, ptr) & (1u << last)))
		return 1;
	int w = tir_vector_width(ptr, mask, L->target->max_vector_bytes);
	return imin(w, L->frame.size_per_thread[last]);
}

static void lower_load(Lower *L, const TValue *v)
{
	const TValue *ptr = v->args[0];
	const TValue *mask = v->nargs > 1 ? v->args[1] : NULL;
	const TValue *other = v->nargs > 2 ? v->args[2] : NULL;
	unsigned vary = vary_of(L, ptr) | vary_of(L, mask) | vary_of(L, other);
	int vec = access_width(L, ptr, mask, vary);
	if (other && (vary_of(L, other) & (1u << (L->rank - 1))))
		vec = 1;
	SReg *r = new_reg(L, v, v->type.dtype, vary);
	Nest n = nest_over(L, vary, vec);
	SStmt *s = simt_stmt(L->k, SS_LOAD, v->line);
	set_loops(L, s, &n);
	s->dst = simt_ref(L->k, r, index_in(L, &n, vary));
	s->ptr = read(L, &n, ptr);
	s->guard = mask ? read(L, &n, mask) : NULL;
	if (other)
		s->other = read(L, &n, other);
	else if (mask)   /* Triton leaves them undefined; zero keeps runs reproducible */
		s->other = dtype_is_float(v->type.dtype) ? simt_float(L->k, v->type.dtype, 0)
							 : simt_int(L->k, v->type.dtype, 0);
	s->vec = vec;
	s->evict = (EvictionPolicy)v->aux;
	s->uniform = r->kind == SR_UNIFORM;
	set_reg(L, v, r, vary);
}

static void lower_store(Lower *L, const TValue *v)
{
	const TValue *ptr = v->args[0], *value = v->args[1];
	const TValue *mask = v->nargs > 2 ? v->args[2] : NULL;
	unsigned present = L->place[ptr->id].present;
	int vec = access_width(L, ptr, mask, present);
	Nest n = nest_over(L, present, vec);
	SStmt *s = simt_stmt(L->k, SS_STORE, v->line);
	set_loops(L, s, &n);
	s->ptr = read(L, &n, ptr);
	s->value = read(L, &n, value);
	s->value_stride = vary_of(L, value) & (1u << (L->rank - 1)) ? 1 : 0;
	s->vec = vec;
	SExpr *guard = mask ? read(L, &n, mask) : NULL;
	for (int d = 0; d < L->rank; d++) {
		if (present & (1u << d))
			guard = simt_and(L->k, guard, not_wrapped(L, d, local_index(L, &n, d)));
		else
			guard = simt_and(L->k, guard, owner_along(L, d));
	}
	if (L->rank == 0)   /* every thread holds the scalar; one writes it */
		guard = simt_and(L->k, guard,
				 simt_cmp(L->k, CMP_EQ, DT_I32, simt_leaf(L->k, SE_THREAD, DT_I32, 0), ic(L, 0)));
	s->guard = guard;
}

/* ---- reductions ---- */

typedef struct Combine {
	TOp op;
	SExpr *identity;
} Combine;

static Combine combine_of(Lower *L, const TValue *v)
{
	DType dt = v->type.dtype;
	bool fl = dtype_is_float(dt);
	int bits = 8 * dtype_bytes(dt);
	bool sig = dtype_is_signed(dt);
	int64_t imax_v = bits >= 64 ? (sig ? INT64_MAX : -1) : sig ? (int64_t)((1ull << (bits - 1)) - 1)
								     : (int64_t)((1ull << bits) - 1);
	int64_t imin_v = !sig ? 0 : bits >= 64 ? INT64_MIN : -(int64_t)(1ull << (bits - 1));
	switch ((ReduceKind)v->aux) {
	case RED_SUM:
		return (Combine){TOP_ADD, fl ? simt_float(L->k, dt, 0) : simt_int(L->k, dt, 0)};
	case RED_PROD:
		return (Combine){TOP_MUL, fl ? simt_float(L->k, dt, 1) : simt_int(L->k, dt, 1)};
	case RED_MAX:
		return (Combine){TOP_MAXIMUM, fl ? simt_float(L->k, dt, -INFINITY) : simt_int(L->k, dt, imin_v)};
	case RED_MIN:
		return (Combine){TOP_MINIMUM, fl ? simt_float(L->k, dt, INFINITY) : simt_int(L->k, dt, imax_v)};
	case RED_ANY:
		return (Combine){TOP_OR, simt_int(L->k, dt, 0)};
	default:
		lower_error(L, v, "this reduction is not lowered yet");
	}
}

/* Registers of `x` indexed by `want` dims (a broadcast made real). */
static SReg *materialize(Lower *L, const TValue *x, unsigned want)
{
	SReg *r = simt_reg(L->k, SR_THREAD, x->type.dtype, x->type.elem, count_of(L, want), x->name);
	Nest n = nest_over(L, want, 1);
	assign(L, x, &n, r, want, read(L, &n, x));
	return r;
}

static SStmt *fold_into(Lower *L, const TValue *v, const Nest *n, SReg *acc, unsigned vary, TOp op, SExpr *x)
{
	SExpr *a = simt_ref(L->k, acc, index_in(L, n, vary));
	return assign(L, v, n, acc, vary, simt_binary(L->k, op, v->type.dtype, a, x));
}

static void lower_reduce(Lower *L, const TValue *v)
{
	const TValue *x = v->args[0];
	int axis = v->aux2;
	if (x->type.shape[axis] == 1) {
		lower_alias(L, v);
		return;
	}
	int d = L->place[x->id].map[axis];
	unsigned bit = 1u << d;
	unsigned xvary = vary_of(L, x);
	SReg *xreg = L->place[x->id].reg;
	if (!(xvary & bit) || !xreg) {   /* the same element repeated along the axis */
		xvary |= bit;
		xreg = materialize(L, x, xvary);
	}
	unsigned vary = xvary & ~bit;
	Combine c = combine_of(L, v);
	DType dt = v->type.dtype;
	SKernel *k = L->k;

	/* 1. In each thread: fold its elements along the axis, skipping copies. */
	SReg *acc = new_reg(L, v, dt, vary);
	if (acc->kind == SR_UNIFORM)   /* uniform only if nothing varies: make it per-thread */
		acc->kind = SR_THREAD;
	Nest outer = nest_over(L, vary, 1);
	assign(L, v, &outer, acc, vary, c.identity)->uniform = false;
	Nest all = nest_over(L, xvary, 1);
	SExpr *xe = simt_cast(k, x->type.dtype, dt, simt_ref(k, xreg, index_in(L, &all, xvary)));
	SStmt *s = fold_into(L, v, &all, acc, vary, c.op, xe);
	s->guard = not_wrapped(L, d, local_index(L, &all, d));
	s->uniform = false;

	/* 2. Across the lanes that share the axis: log2(lanes along it) xor steps. */
	int masks[8];
	int nmasks = layout_lane_masks(&L->frame, d, masks);
	SReg *other = nmasks ? simt_reg(k, SR_THREAD, dt, dt, acc->count, arena_printf(L->arena, "%s_lane", acc->name))
			     : NULL;
	for (int i = 0; i < nmasks; i++) {
		s = simt_stmt(k, SS_SHUFFLE, v->line);
		s->src = acc;
		s->shuffled = other;
		s->lane_xor = masks[i];
		fold_into(L, v, &outer, acc, vary, c.op, simt_ref(k, other, index_in(L, &outer, vary)))->uniform = false;
	}

	/* 3. Across the warps that share the axis: one partial per thread slot in
	 * shared memory, then every thread folds the partials of its warp group
	 * in the same order. */
	int wpc = L->frame.warps_per_cta[d];
	if (wpc > 1) {
		int cnt = acc->count;
		SReg *smem = simt_reg(k, SR_SHARED, dt, dt, k->threads * cnt, arena_printf(L->arena, "%s_warps", acc->name));
		SExpr *thread = simt_leaf(k, SE_THREAD, DT_I32, 0);
		SExpr *slot = iadd(L, imul(L, thread, cnt), index_in(L, &outer, vary));
		s = simt_stmt(k, SS_ASSIGN, v->line);
		set_loops(L, s, &outer);
		s->dst = simt_ref(k, smem, slot);
		s->value = simt_ref(k, acc, index_in(L, &outer, vary));
		simt_stmt(k, SS_BARRIER, v->line);
		assign(L, v, &outer, acc, vary, c.identity)->uniform = false;
		/* partner = thread with its warp bits along d replaced by j (the last loop) */
		int shift = ilog2(k->warp_size) + layout_warp_shift(&L->frame, d);
		Nest with_j = outer;
		SExpr *j = simt_leaf(k, SE_LOOP, DT_I32, with_j.n);
		SExpr *cleared = ibin(L, TOP_AND, thread, ~((int64_t)(wpc - 1) << shift));
		SExpr *partner = index_op(simt_binary(k, TOP_OR, DT_I32, cleared, index_op(simt_binary(k, TOP_SHL, DT_I32, j, ic(L, shift)))));
		SExpr *pslot = iadd(L, imul(L, partner, cnt), index_in(L, &outer, vary));
		s = fold_into(L, v, &outer, acc, vary, c.op, simt_ref(k, smem, pslot));
		s->extent[s->nloops++] = wpc;
		s->uniform = false;
		if (L->loop_depth)   /* the next iteration writes the same slots */
			simt_stmt(k, SS_BARRIER, v->line);
	}
	set_reg(L, v, acc, vary);
}

/* ---- control flow: uniform in every program, as Triton's is ---- */

static void lower_value(Lower *L, const TValue *v);

/* Lowers a block's ops; returns its closing yield (not lowered), or NULL. */
static const TValue *lower_block(Lower *L, const TBlock *b)
{
	for (const TValue *v = b->first; v; v = v->next) {
		if (v->op == TOP_YIELD)
			return v;
		if (v->op == TOP_ARG)
			continue;
		comment_line(L, v);
		lower_value(L, v);
	}
	return NULL;
}

/* Registers that hold tile `v` across iterations or branches: per thread,
 * indexed by every dimension the tile spans. */
static SReg *state_reg(Lower *L, const TValue *v, const char *name)
{
	unsigned vary = L->place[v->id].present;
	return simt_reg(L->k, SR_THREAD, v->type.dtype, v->type.elem, count_of(L, vary), name);
}

/* dst (a state register of `like`) = x, element by element */
static void copy_state(Lower *L, const TValue *like, SReg *dst, const TValue *x)
{
	unsigned vary = L->place[like->id].present;
	Nest n = nest_over(L, vary, 1);
	assign(L, x, &n, dst, vary, read(L, &n, x))->uniform = false;
}

/* A scalar operand of a control op: its value in any thread. */
static SExpr *scalar(Lower *L, const TValue *x)
{
	Nest none = {0};
	return read(L, &none, x);
}

/* The values a body yields go to the state registers, through temporaries
 * when one of them is itself a state register (a yield that swaps). */
static void yield_into(Lower *L, const TValue *y, SReg **state, const TValue *const *like)
{
	int n = y->nargs;
	SReg **tmp = arena_alloc(L->arena, sizeof *tmp * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		bool aliased = false;
		for (int j = 0; j < n; j++)
			aliased |= L->place[y->args[i]->id].reg == state[j];
		if (!aliased)
			continue;
		tmp[i] = state_reg(L, like[i], arena_printf(L->arena, "%s_next", state[i]->name));
		copy_state(L, like[i], tmp[i], y->args[i]);
	}
	for (int i = 0; i < n; i++) {
		if (!tmp[i]) {
			copy_state(L, like[i], state[i], y->args[i]);
			continue;
		}
		unsigned vary = L->place[like[i]->id].present;
		Nest nn = nest_over(L, vary, 1);
		assign(L, y, &nn, state[i], vary, simt_ref(L->k, tmp[i], index_in(L, &nn, vary)))->uniform = false;
	}
}

/* for iv in range(lo, hi, step) with carried values: the carried values
 * are state registers, set from the initial values before the loop and from
 * the yield at the end of each iteration; the results are those registers. */
static void lower_for(Lower *L, const TValue *v)
{
	const TBlock *body = v->body;
	int n = v->nargs - 3;
	const TValue *ivv = body->params[0];
	SReg *iv = simt_reg(L->k, SR_UNIFORM, ivv->type.dtype, ivv->type.dtype, 1, ivv->name);
	set_reg(L, ivv, iv, 0);
	SReg **state = arena_alloc(L->arena, sizeof *state * (size_t)(n + 1));
	const TValue **like = arena_alloc(L->arena, sizeof *like * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		like[i] = body->params[i + 1];
		state[i] = state_reg(L, like[i], like[i]->name);
		copy_state(L, like[i], state[i], v->args[3 + i]);
		set_reg(L, like[i], state[i], L->place[like[i]->id].present);
	}
	SStmt *f = simt_stmt(L->k, SS_FOR, v->line);
	f->uniform = true;
	f->iv = iv;
	f->lo = scalar(L, v->args[0]);
	f->hi = scalar(L, v->args[1]);
	f->step = scalar(L, v->args[2]);
	L->loop_depth++;
	const TValue *y = lower_block(L, body);
	if (y && n)
		yield_into(L, y, state, like);
	L->loop_depth--;
	simt_stmt(L->k, SS_END, v->line)->uniform = true;
	L->place[v->id].results = state;
	L->place[v->id].lowered = true;
}

/* if on a scalar: each branch writes the results' state registers. */
static void lower_if(Lower *L, const TValue *v)
{
	int n = 0;
	for (const TValue *r = v->next; r && r->op == TOP_RESULT && r->args[0] == v; r = r->next)
		n++;
	SReg **state = arena_alloc(L->arena, sizeof *state * (size_t)(n + 1));
	const TValue **like = arena_alloc(L->arena, sizeof *like * (size_t)(n + 1));
	const TValue *r = v->next;
	for (int i = 0; i < n; i++, r = r->next) {
		like[i] = r;
		state[i] = state_reg(L, r, r->name);
	}
	SStmt *s = simt_stmt(L->k, SS_IF, v->line);
	s->uniform = true;
	s->guard = scalar(L, v->args[0]);
	const TValue *y = lower_block(L, v->body);
	if (y && n)
		yield_into(L, y, state, like);
	simt_stmt(L->k, SS_ELSE, v->line)->uniform = true;
	y = lower_block(L, v->orelse);
	if (y && n)
		yield_into(L, y, state, like);
	simt_stmt(L->k, SS_END, v->line)->uniform = true;
	L->place[v->id].results = state;
	L->place[v->id].lowered = true;
}

static void lower_result(Lower *L, const TValue *v)
{
	const Place *op = &L->place[v->args[0]->id];
	set_reg(L, v, op->results[v->aux], L->place[v->id].present);
}

static void lower_value(Lower *L, const TValue *v)
{
	switch (v->op) {
	case TOP_ARG: {
		SExpr *e = simt_leaf(L->k, SE_ARG, v->type.dtype, (int)v->iconst);
		e->from = v->type.elem;
		set_expr(L, v, e);
		return;
	}
	case TOP_CONST: lower_const(L, v); return;
	case TOP_PROGRAM_ID:
	case TOP_NUM_PROGRAMS:
		set_expr(L, v, simt_leaf(L->k, v->op == TOP_PROGRAM_ID ? SE_PROGRAM_ID : SE_NUM_PROGRAMS, DT_I32, v->aux));
		return;
	case TOP_ARANGE: lower_arange(L, v); return;
	case TOP_SPLAT:
	case TOP_BROADCAST:
	case TOP_EXPAND:
	case TOP_RESHAPE:
		lower_alias(L, v);
		return;
	case TOP_ADD: case TOP_SUB: case TOP_MUL: case TOP_DIV: case TOP_IDIV: case TOP_MOD: case TOP_FMOD:
	case TOP_AND: case TOP_OR: case TOP_XOR: case TOP_SHL: case TOP_SHR: case TOP_NEG: case TOP_NOT:
	case TOP_CMP: case TOP_WHERE: case TOP_CAST: case TOP_MATH: case TOP_MAXIMUM: case TOP_MINIMUM:
	case TOP_PTR_ADD:
		lower_elementwise(L, v);
		return;
	case TOP_LOAD: lower_load(L, v); return;
	case TOP_STORE: lower_store(L, v); return;
	case TOP_REDUCE: lower_reduce(L, v); return;
	case TOP_FOR: lower_for(L, v); return;
	case TOP_IF: lower_if(L, v); return;
	case TOP_RESULT: lower_result(L, v); return;
	case TOP_BARRIER: simt_stmt(L->k, SS_BARRIER, v->line); return;
	default:
		lower_error(L, v, "'%s' is not lowered to %s code yet", tir_op_name(v->op), L->target->spec);
	}
}

/* The narrowest element that global memory is accessed with decides how
 * many consecutive elements a thread holds (16 bytes of them). */
static int access_elem_bytes(const TKernel *tk, int rank)
{
	int bytes = 0;
	for (const TValue *v = tk->body->first; v; v = v->next) {
		if ((v->op != TOP_LOAD && v->op != TOP_STORE) || v->args[0]->type.rank != rank)
			continue;
		int b = dtype_bytes(v->args[0]->type.elem);
		bytes = bytes ? imin(bytes, b) : b;
	}
	return bytes ? bytes : 4;
}

static int shared_bytes(const SKernel *k)
{
	int total = 0;
	for (int i = 0; i < k->nregs; i++) {
		const SReg *r = k->regs[i];
		if (r->kind == SR_SHARED)
			total += r->count * (r->dtype == DT_F16 || r->dtype == DT_BF16 ? 4 : dtype_bytes(r->dtype));
	}
	return total;
}

static void lower_kernel(Lower *L)
{
	TKernel *tk = (TKernel *)L->tk;
	SKernel *k = L->k;
	if (k->threads > L->target->max_threads)
		lower_error(L, NULL, "num_warps=%d gives %d threads a block, more than %s allows (%d)", k->num_warps,
			    k->threads, L->target->spec, L->target->max_threads);
	L->place = arena_alloc(L->arena, sizeof(Place) * (size_t)(tir_value_count(tk) + 1));
	lower_place(L);
	if (L->rank > 0)
		L->frame = layout_blocked(L->rank, L->frame_shape, access_elem_bytes(tk, L->rank),
					  L->target->max_vector_bytes, k->warp_size, k->num_warps);
	lower_thread_coords(L);
	for (int i = 0; i < tk->nargs; i++)
		lower_value(L, tk->args[i]);
	lower_block(L, tk->body);
	k->shared_bytes = shared_bytes(k);
	if (k->shared_bytes > L->target->shared_bytes)
		lower_error(L, NULL, "the reductions need %d bytes of shared memory, more than %s gives a block (%d)",
			    k->shared_bytes, L->target->spec, L->target->shared_bytes);
}

SKernel *simt_lower(Arena *a, Diag *diag, const Source *src, TKernel *tk, const Target *target,
		    const int64_t *arg_div)
{
	if (!arg_div) {
		int64_t *div = arena_alloc(a, sizeof(int64_t) * (size_t)(tk->nargs + 1));
		for (int i = 0; i < tk->nargs; i++)
			div[i] = tk->args[i]->type.dtype == DT_PTR ? 16 : 1;
		arg_div = div;
	}
	tir_axis_analysis(tk, arg_div);

	SKernel *k = arena_alloc(a, sizeof *k);
	k->name = tk->name;
	k->tile = tk;
	k->target = *target;
	k->warp_size = target->warp_size;
	k->num_warps = tk->num_warps > 0 ? tk->num_warps : 4;
	k->threads = k->warp_size * k->num_warps;
	k->arena = a;
	Lower L = {.arena = a, .diag = diag, .src = src, .tk = tk, .target = target, .k = k};

	jmp_buf jb, *saved = diag->jump;
	diag->jump = &jb;
	if (setjmp(jb)) {
		diag->jump = saved;
		return NULL;
	}
	lower_kernel(&L);
	diag->jump = saved;
	return k;
}
