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

/* Makes frame f the one the index and coordinate helpers use. */
static void use_frame(Lower *L, int f)
{
	const Frame *fr = &L->frames[f];
	L->cur = f;
	L->rank = fr->rank;
	L->frame = fr->layout;
	memcpy(L->frame_shape, fr->shape, sizeof L->frame_shape);
	memcpy(L->first, fr->first, sizeof L->first);
}

/* lane, warp, and the first coordinate of each dimension of each frame */
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
	for (int fi = 0; fi < L->nframes; fi++) {
		Frame *fr = &L->frames[fi];
		const Layout *f = &fr->layout;
		for (int d = 0; fr->live && d < fr->rank; d++) {
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
			const char *name = fi ? arena_printf(L->arena, "f%d_first%d", fi, d) : arena_printf(L->arena, "first%d", d);
			fr->first[d] = simt_reg(k, SR_THREAD, DT_I32, DT_I32, 1, name);
			s = simt_stmt(k, SS_ASSIGN, 0);
			s->dst = simt_ref(k, fr->first[d], NULL);
			s->value = first;
		}
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

static SExpr *write_guard(Lower *L, const Nest *n, unsigned present, SExpr *mask);

/* x[:, None] of a 1-D tile whose elements sit along another dimension of
 * the frame (or in another frame): each element goes to shared memory once,
 * and each thread reads the ones its new place needs. */
static void lower_convert(Lower *L, const TValue *v)
{
	const TValue *x = v->args[0];
	int n = x->type.shape[0];
	SKernel *k = L->k;
	if (L->loop_depth)
		simt_stmt(k, SS_BARRIER, v->line);
	use_frame(L, L->place[x->id].frame);
	SReg *smem = simt_reg(k, SR_SHARED, x->type.dtype, x->type.elem, n, arena_printf(L->arena, "%s_moved", x->name ? x->name : "t"));
	unsigned xp = L->place[x->id].present;
	Nest nx = nest_over(L, xp, 1);
	int dx = L->place[x->id].map[0];
	SStmt *s = simt_stmt(k, SS_ASSIGN, v->line);
	set_loops(L, s, &nx);
	s->dst = simt_ref(k, smem, coord(L, dx, local_index(L, &nx, dx)));
	s->value = read(L, &nx, x);
	s->guard = write_guard(L, &nx, xp, NULL);
	simt_stmt(k, SS_BARRIER, v->line);
	use_frame(L, L->place[v->id].frame);
	unsigned vp = L->place[v->id].present;
	int kdim = v->aux == 0 ? 1 : 0;   /* the tile dimension x's elements take */
	int dv = L->place[v->id].map[kdim];
	Nest nv = nest_over(L, vp, 1);
	SReg *r = simt_reg(k, SR_THREAD, x->type.dtype, x->type.elem, count_of(L, vp), v->name);
	assign(L, v, &nv, r, vp, simt_ref(k, smem, coord(L, dv, local_index(L, &nv, dv))))->uniform = false;
	if (L->loop_depth)
		simt_stmt(k, SS_BARRIER, v->line);
	set_reg(L, v, r, vp);
}

/* A shape change that keeps every element where it is. A transpose is
 * one: its dims lie on the frame dims of the operand's, permuted (place.c),
 * and registers are indexed by frame dims, so they are the operand's. */
static void lower_alias(Lower *L, const TValue *v)
{
	if (L->place[v->id].convert) {
		lower_convert(L, v);
		return;
	}
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
 * target's widest access and what one thread holds consecutively. Axis
 * analysis speaks of the pointer tile's own last dim: a pointer tile
 * placed transposed, another of its dims on the last frame dim, is read
 * one element at a time. */
static int access_width(Lower *L, const TValue *ptr, const TValue *mask, unsigned vary)
{
	int last = L->rank - 1;
	if (L->rank == 0 || !(vary & (1u << last)) || !(vary_of(L, ptr) & (1u << last)))
		return 1;
	if (ptr->type.rank == 0 || L->place[ptr->id].map[ptr->type.rank - 1] != last)
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
	s->guard = write_guard(L, &n, present, mask ? read(L, &n, mask) : NULL);
}

/* The guard of a write: `mask`, and each element once (no wrapped copy,
 * coordinate 0 along the frame dimensions the tile does not span). */
static SExpr *write_guard(Lower *L, const Nest *n, unsigned present, SExpr *mask)
{
	SExpr *guard = mask;
	for (int d = 0; d < L->rank; d++) {
		if (present & (1u << d))
			guard = simt_and(L->k, guard, not_wrapped(L, d, local_index(L, n, d)));
		else
			guard = simt_and(L->k, guard, owner_along(L, d));
	}
	if (L->rank == 0)   /* every thread holds the scalar; one writes it */
		guard = simt_and(L->k, guard,
				 simt_cmp(L->k, CMP_EQ, DT_I32, simt_leaf(L->k, SE_THREAD, DT_I32, 0), ic(L, 0)));
	return guard;
}

/* tl.atomic_add: each element added once, by its owner; the old values. */
static void lower_atomic(Lower *L, const TValue *v)
{
	const TValue *ptr = v->args[0], *value = v->args[1];
	const TValue *mask = v->nargs > 2 ? v->args[2] : NULL;
	DType dt = v->type.dtype;
	if (dt != DT_F32 && dt != DT_I32 && dt != DT_U32 && dt != DT_I64 && dt != DT_U64 && dt != DT_F64)
		lower_error(L, v, "atomic_add on %s is not lowered yet", dtype_name(dt));
	unsigned present = L->place[ptr->id].present;
	bool keep = L->uses[v->id] > 0;   /* the old values are read */
	SReg *old = keep ? simt_reg(L->k, SR_THREAD, dt, dt, count_of(L, present), v->name) : NULL;
	Nest n = nest_over(L, present, 1);
	SStmt *s = simt_stmt(L->k, SS_ATOMIC, v->line);
	set_loops(L, s, &n);
	s->dst = keep ? simt_ref(L->k, old, index_in(L, &n, present)) : NULL;
	s->ptr = read(L, &n, ptr);
	s->value = read(L, &n, value);
	s->guard = write_guard(L, &n, present, mask ? read(L, &n, mask) : NULL);
	if (keep)
		set_reg(L, v, old, present);
	else
		L->place[v->id].lowered = true;
}

/* tl.device_assert: where the mask holds and the condition does not, the
 * program fails with the message. */
static void lower_assert(Lower *L, const TValue *v)
{
	const TValue *cond = v->args[0], *mask = v->nargs > 1 ? v->args[1] : NULL;
	unsigned vary = vary_of(L, cond) | vary_of(L, mask);
	Nest n = nest_over(L, vary, 1);
	SStmt *s = simt_stmt(L->k, SS_ASSERT, v->line);
	set_loops(L, s, &n);
	SExpr *failed = simt_leaf(L->k, SE_UNARY, DT_I1, TOP_NOT);
	failed->a[0] = read(L, &n, cond);
	s->guard = simt_and(L->k, mask ? read(L, &n, mask) : NULL, failed);
	s->text = v->text ? v->text : "";
}

/* ---- tl.dot: through shared memory, one fused multiply-add at a time ---- */

/* Writes tile x (rows x cols, in its own frame) to shared memory, row-major,
 * each element once; fp32 operands of a tf32 dot lose their low 13
 * mantissa bits as the tensor cores drop them. */
static SReg *stage_operand(Lower *L, const TValue *dot, const TValue *x, const char *name)
{
	use_frame(L, L->place[x->id].frame);
	int rows = x->type.shape[0], cols = x->type.shape[1];
	DType dt = x->type.dtype;
	SReg *smem = simt_reg(L->k, SR_SHARED, dt, dt, rows * cols, name);
	unsigned present = L->place[x->id].present;
	Nest n = nest_over(L, present, 1);
	SExpr *coord_of[2];
	for (int k = 0; k < 2; k++) {
		int d = L->place[x->id].map[k];
		coord_of[k] = d >= 0 ? coord(L, d, local_index(L, &n, d)) : ic(L, 0);
	}
	SExpr *value = read(L, &n, x);
	if (dt == DT_F32 && dot->aux == DOT_TF32) {
		SExpr *t = simt_leaf(L->k, SE_MATH, DT_F32, MATH_TF32);
		t->a[0] = value;
		value = t;
	}
	SStmt *s = simt_stmt(L->k, SS_ASSIGN, dot->line);
	set_loops(L, s, &n);
	s->dst = simt_ref(L->k, smem, iadd(L, imul(L, coord_of[0], cols), coord_of[1]));
	s->value = value;
	s->guard = write_guard(L, &n, present, NULL);
	return smem;
}

/* acc[M,N] + a[M,K] b[K,N]: both operands go to shared memory, then each
 * thread computes its own elements of the result with a loop over K. A
 * correct dot for every target; the matrix units come later. */
static void lower_dot(Lower *L, const TValue *v)
{
	const TValue *a = v->args[0], *b = v->args[1], *acc = v->args[2];
	if (v->type.rank != 2 || !dtype_is_float(v->type.dtype))
		lower_error(L, v, "only 2-D floating-point tl.dot is lowered yet");
	int K = a->type.shape[1], N = b->type.shape[1];
	if (L->loop_depth)   /* the previous iteration's reads of the staged operands are done */
		simt_stmt(L->k, SS_BARRIER, v->line);
	SReg *sa = stage_operand(L, v, a, arena_printf(L->arena, "%s_a", v->name ? v->name : "dot"));
	SReg *sb = stage_operand(L, v, b, arena_printf(L->arena, "%s_b", v->name ? v->name : "dot"));
	simt_stmt(L->k, SS_BARRIER, v->line);

	use_frame(L, L->place[v->id].frame);
	unsigned present = L->place[v->id].present;
	SReg *r = simt_reg(L->k, SR_THREAD, v->type.dtype, v->type.dtype, count_of(L, present), v->name);
	Nest n = nest_over(L, present, 1);
	assign(L, v, &n, r, present, read(L, &n, acc))->uniform = false;
	SExpr *row = ic(L, 0), *col = ic(L, 0);
	int dm = L->place[v->id].map[0], dn = L->place[v->id].map[1];
	if (dm >= 0)
		row = coord(L, dm, local_index(L, &n, dm));
	if (dn >= 0)
		col = coord(L, dn, local_index(L, &n, dn));
	SExpr *k = simt_leaf(L->k, SE_LOOP, DT_I32, n.n);   /* the loop over K, innermost */
	SExpr *x = simt_ref(L->k, sa, iadd(L, imul(L, row, K), k));
	SExpr *y = simt_ref(L->k, sb, iadd(L, index_op(simt_binary(L->k, TOP_MUL, DT_I32, k, ic(L, N))), col));
	DType dt = v->type.dtype;
	SExpr *prod = simt_binary(L->k, TOP_MUL, dt, simt_cast(L->k, a->type.dtype, dt, x), simt_cast(L->k, b->type.dtype, dt, y));
	SExpr *sum = simt_binary(L->k, TOP_ADD, dt, simt_ref(L->k, r, index_in(L, &n, present)), prod);
	SStmt *s = assign(L, v, &n, r, present, sum);
	s->uniform = false;
	s->extent[s->nloops++] = K;
	set_reg(L, v, r, present);
}

/* ---- scans: through shared memory, one thread a row ---- */

/* The tile's elements in shared memory as [row][position along the axis],
 * rows numbered row-major over the other dimensions: the row and the
 * position of the nest's current element. */
static void scan_slot(Lower *L, const TValue *x, int axis, const Nest *n, SExpr **row, SExpr **pos)
{
	*row = ic(L, 0);
	*pos = ic(L, 0);
	for (int k = 0; k < x->type.rank; k++) {
		int d = L->place[x->id].map[k];
		SExpr *c = d >= 0 ? coord(L, d, local_index(L, n, d)) : ic(L, 0);
		if (k == axis)
			*pos = c;
		else
			*row = iadd(L, imul(L, *row, x->type.shape[k]), c);
	}
}

/* tl.associative_scan / tl.cumsum along `axis` with a plain combine: each
 * element goes to shared memory once, one thread scans each row in order,
 * every thread reads its elements back. Correct for any layout and warp
 * width; a shuffle-based scan is the faster form still to come. */
static void lower_scan(Lower *L, const TValue *v)
{
	const TValue *x = v->args[0];
	int axis = v->aux, R = x->type.shape[axis];
	bool reverse = v->aux2 != 0;
	TOp op;
	switch ((int)v->iconst) {
	case RED_SUM: op = TOP_ADD; break;
	case RED_PROD: op = TOP_MUL; break;
	case RED_MAX: op = TOP_MAXIMUM; break;
	case RED_MIN: op = TOP_MINIMUM; break;
	default: lower_error(L, v, "a scan whose combine is not a single add, mul, max or min is not lowered yet");
	}
	SKernel *k = L->k;
	int rows = 1;
	for (int i = 0; i < x->type.rank; i++)
		rows *= i == axis ? 1 : x->type.shape[i];
	DType dt = v->type.dtype;
	SReg *smem = simt_reg(k, SR_SHARED, dt, dt, rows * R, arena_printf(L->arena, "%s_rows", v->name ? v->name : "scan"));
	unsigned present = L->place[x->id].present;
	Nest n = nest_over(L, present, 1);
	SExpr *row, *pos;
	if (L->loop_depth)
		simt_stmt(k, SS_BARRIER, v->line);
	scan_slot(L, x, axis, &n, &row, &pos);
	SStmt *s = simt_stmt(k, SS_ASSIGN, v->line);
	set_loops(L, s, &n);
	s->dst = simt_ref(k, smem, iadd(L, imul(L, row, R), pos));
	s->value = simt_cast(k, x->type.dtype, dt, read(L, &n, x));
	s->guard = write_guard(L, &n, present, NULL);
	simt_stmt(k, SS_BARRIER, v->line);

	/* row = thread + i * threads (loop 0), position j + 1 (loop 1), in order */
	if (R > 1) {
		SExpr *thread = simt_leaf(k, SE_THREAD, DT_I32, 0);
		SExpr *i = simt_leaf(k, SE_LOOP, DT_I32, 0), *j = simt_leaf(k, SE_LOOP, DT_I32, 1);
		SExpr *r = iadd(L, thread, imul(L, i, k->threads));
		SExpr *at = reverse ? iadd(L, imul(L, j, -1), ic(L, R - 2)) : iadd(L, j, ic(L, 1));
		SExpr *prev = reverse ? iadd(L, at, ic(L, 1)) : iadd(L, at, ic(L, -1));
		SExpr *base = imul(L, r, R);
		s = simt_stmt(k, SS_ASSIGN, v->line);
		s->nloops = 2;
		s->extent[0] = (rows + k->threads - 1) / k->threads;
		s->extent[1] = R - 1;
		s->dst = simt_ref(k, smem, iadd(L, base, at));
		s->value = simt_binary(k, op, dt, simt_ref(k, smem, iadd(L, base, prev)), simt_ref(k, smem, iadd(L, base, at)));
		s->guard = simt_cmp(k, CMP_LT, DT_I32, r, ic(L, rows));
		simt_stmt(k, SS_BARRIER, v->line);
	}

	SReg *res = simt_reg(k, SR_THREAD, dt, dt, count_of(L, present), v->name);
	assign(L, v, &n, res, present, simt_ref(k, smem, iadd(L, imul(L, row, R), pos)))->uniform = false;
	if (L->loop_depth)
		simt_stmt(k, SS_BARRIER, v->line);
	set_reg(L, v, res, present);
}

/* ---- reductions ---- */

/* What a reduction folds: a value, or for argmax/argmin a value and its
 * index, in registers indexed by `vary`. */
typedef struct Fold {
	const TValue *v;           /* the reduce op */
	ReduceKind kind;
	TOp op;                    /* the combine of a plain reduction */
	DType vt, it;              /* value and index dtypes (it: only for argmax/argmin) */
	SExpr *identity, *no_index;
	SReg *val, *idx;           /* the accumulators */
	SReg *take;                /* argmax/argmin: whether the incoming pair wins */
	unsigned vary;
	bool pair;
} Fold;

static int64_t int_limit(DType dt, bool max)
{
	int bits = 8 * dtype_bytes(dt);
	bool sig = dtype_is_signed(dt);
	if (!sig)
		return max ? (bits >= 64 ? -1 : (int64_t)((1ull << bits) - 1)) : 0;
	if (bits >= 64)
		return max ? INT64_MAX : INT64_MIN;
	return max ? (int64_t)((1ull << (bits - 1)) - 1) : -(int64_t)(1ull << (bits - 1));
}

static SExpr *extreme(Lower *L, DType dt, bool max)
{
	if (dtype_is_float(dt))
		return simt_float(L->k, dt, max ? INFINITY : -INFINITY);
	return simt_int(L->k, dt, int_limit(dt, max));
}

static Fold fold_of(Lower *L, const TValue *v, unsigned vary)
{
	Fold f = {.v = v, .kind = (ReduceKind)v->aux, .vary = vary};
	DType dt = v->type.dtype;
	bool fl = dtype_is_float(dt);
	f.vt = dt;
	switch (f.kind) {
	case RED_SUM:
		f.op = TOP_ADD;
		f.identity = fl ? simt_float(L->k, dt, 0) : simt_int(L->k, dt, 0);
		break;
	case RED_PROD:
		f.op = TOP_MUL;
		f.identity = fl ? simt_float(L->k, dt, 1) : simt_int(L->k, dt, 1);
		break;
	case RED_MAX:
	case RED_MIN:
		f.op = f.kind == RED_MAX ? TOP_MAXIMUM : TOP_MINIMUM;
		f.identity = extreme(L, dt, f.kind == RED_MIN);
		break;
	case RED_ANY:
		f.op = TOP_OR;
		f.identity = simt_int(L->k, dt, 0);
		break;
	case RED_ARGMAX:
	case RED_ARGMIN:
		/* the value starts below (above) everything, its index above every index */
		f.pair = true;
		f.vt = v->args[0]->type.dtype;
		f.it = dt;
		f.identity = extreme(L, f.vt, f.kind == RED_ARGMIN);
		f.no_index = simt_int(L->k, f.it, int_limit(f.it, true));
		break;
	}
	SKernel *k = L->k;
	int count = count_of(L, vary);
	f.val = simt_reg(k, SR_THREAD, f.vt, f.vt, count, f.pair ? arena_printf(L->arena, "%s_value", v->name ? v->name : "arg") : v->name);
	if (f.pair) {
		f.idx = simt_reg(k, SR_THREAD, f.it, f.it, count, v->name);
		f.take = simt_reg(k, SR_THREAD, DT_I1, DT_I1, count, arena_printf(L->arena, "%s_wins", f.idx->name));
	}
	return f;
}

/* Registers of `x` indexed by `want` dims (a broadcast made real). */
static SReg *materialize(Lower *L, const TValue *x, unsigned want)
{
	SReg *r = simt_reg(L->k, SR_THREAD, x->type.dtype, x->type.elem, count_of(L, want), x->name);
	Nest n = nest_over(L, want, 1);
	assign(L, x, &n, r, want, read(L, &n, x));
	return r;
}

static SStmt *fold_assign(Lower *L, const Fold *f, const Nest *n, SReg *dst, SExpr *value)
{
	SStmt *s = assign(L, f->v, n, dst, f->vary, value);
	s->uniform = false;
	return s;
}

static SExpr *acc_ref(Lower *L, const Fold *f, const Nest *n, SReg *r)
{
	return simt_ref(L->k, r, index_in(L, n, f->vary));
}

static SExpr *is_nan(Lower *L, DType dt, SExpr *x)
{
	return simt_cmp(L->k, CMP_NE, dt, x, x);
}

static SExpr *logic_or(Lower *L, SExpr *a, SExpr *b)
{
	return simt_binary(L->k, TOP_OR, DT_I1, a, b);
}

/* Whether (xv, xi) wins over (v, i) in argmax (argmin): a NaN beats any
 * number, then the larger (smaller) value, and among equal values (all NaNs
 * equal) the smaller index: the order of combination does not matter. */
static SExpr *pair_wins(Lower *L, const Fold *f, SExpr *xv, SExpr *xi, SExpr *v, SExpr *i)
{
	SKernel *k = L->k;
	SExpr *better = simt_cmp(k, f->kind == RED_ARGMAX ? CMP_GT : CMP_LT, f->vt, xv, v);
	SExpr *equal = simt_cmp(k, CMP_EQ, f->vt, xv, v);
	SExpr *earlier = simt_cmp(k, CMP_LT, f->it, xi, i);
	if (!dtype_is_float(f->vt))
		return logic_or(L, better, simt_and(k, equal, earlier));
	SExpr *nan_x = is_nan(L, f->vt, xv), *nan_v = is_nan(L, f->vt, v);
	SExpr *not_nan_v = simt_cmp(k, CMP_EQ, f->vt, v, v);
	equal = logic_or(L, equal, simt_and(k, nan_x, nan_v));
	return logic_or(L, logic_or(L, simt_and(k, nan_x, not_nan_v), better), simt_and(k, equal, earlier));
}

/* acc = combine(acc, incoming) over nest `n`, where `guard` (or always):
 * one statement (argmax/argmin: three assignments in one loop body). */
static SStmt *fold_in(Lower *L, const Fold *f, const Nest *n, SExpr *xv, SExpr *xi, SExpr *guard)
{
	SKernel *k = L->k;
	SExpr *v = acc_ref(L, f, n, f->val);
	if (!f->pair) {
		SStmt *s = fold_assign(L, f, n, f->val, simt_binary(k, f->op, f->vt, v, simt_cast(k, xv->dtype, f->vt, xv)));
		s->guard = guard;
		return s;
	}
	SExpr *i = acc_ref(L, f, n, f->idx);
	SStmt *head = fold_assign(L, f, n, f->take, simt_and(k, guard, pair_wins(L, f, xv, xi, v, i)));
	SExpr *take = acc_ref(L, f, n, f->take);
	SExpr *sel_v = simt_leaf(k, SE_SELECT, f->vt, 0), *sel_i = simt_leaf(k, SE_SELECT, f->it, 0);
	sel_v->a[0] = sel_i->a[0] = take;
	sel_v->a[1] = xv;
	sel_v->a[2] = v;
	sel_i->a[1] = simt_cast(k, xi->dtype, f->it, xi);
	sel_i->a[2] = i;
	SStmt *a = simt_also(k, head);
	a->dst = acc_ref(L, f, n, f->val);
	a->value = sel_v;
	a = simt_also(k, head);
	a->dst = acc_ref(L, f, n, f->idx);
	a->value = sel_i;
	return head;
}

static void fold_reset(Lower *L, const Fold *f, const Nest *n)
{
	fold_assign(L, f, n, f->val, f->identity);
	if (f->pair)
		fold_assign(L, f, n, f->idx, f->no_index);
}

/* Across the lanes that share the axis: log2(lanes along it) xor steps. */
static void fold_lanes(Lower *L, const Fold *f, const Nest *outer, int d)
{
	SKernel *k = L->k;
	int masks[8];
	int nmasks = layout_lane_masks(&L->frame, d, masks);
	if (!nmasks)
		return;
	SReg *ov = simt_reg(k, SR_THREAD, f->vt, f->vt, f->val->count, arena_printf(L->arena, "%s_lane", f->val->name));
	SReg *oi = f->pair ? simt_reg(k, SR_THREAD, f->it, f->it, f->idx->count, arena_printf(L->arena, "%s_lane", f->idx->name))
			   : NULL;
	for (int m = 0; m < nmasks; m++) {
		for (int r = 0; r < (f->pair ? 2 : 1); r++) {
			SStmt *s = simt_stmt(k, SS_SHUFFLE, f->v->line);
			s->src = r ? f->idx : f->val;
			s->shuffled = r ? oi : ov;
			s->lane_xor = masks[m];
		}
		fold_in(L, f, outer, acc_ref(L, f, outer, ov), oi ? acc_ref(L, f, outer, oi) : NULL, NULL);
	}
}

/* Across the warps that share the axis: every thread writes its partial to
 * its slot in shared memory, then folds the partials of its warp group in
 * the same order as every other thread of the group. */
static void fold_warps(Lower *L, const Fold *f, const Nest *outer, int d)
{
	SKernel *k = L->k;
	int wpc = L->frame.warps_per_cta[d];
	if (wpc <= 1)
		return;
	int cnt = f->val->count;
	SExpr *thread = simt_leaf(k, SE_THREAD, DT_I32, 0);
	SExpr *slot = iadd(L, imul(L, thread, cnt), index_in(L, outer, f->vary));
	/* partner = this thread with its warp bits along d replaced by j, the extra loop */
	int shift = ilog2(k->warp_size) + layout_warp_shift(&L->frame, d);
	SExpr *j = simt_leaf(k, SE_LOOP, DT_I32, outer->n);
	SExpr *cleared = ibin(L, TOP_AND, thread, ~((int64_t)(wpc - 1) << shift));
	SExpr *partner = index_op(simt_binary(k, TOP_OR, DT_I32, cleared, index_op(simt_binary(k, TOP_SHL, DT_I32, j, ic(L, shift)))));
	SExpr *pslot = iadd(L, imul(L, partner, cnt), index_in(L, outer, f->vary));
	SReg *sv = simt_reg(k, SR_SHARED, f->vt, f->vt, k->threads * cnt, arena_printf(L->arena, "%s_warps", f->val->name));
	SReg *si = f->pair ? simt_reg(k, SR_SHARED, f->it, f->it, k->threads * cnt, arena_printf(L->arena, "%s_warps", f->idx->name))
			   : NULL;
	for (int r = 0; r < (f->pair ? 2 : 1); r++) {
		SStmt *s = simt_stmt(k, SS_ASSIGN, f->v->line);
		set_loops(L, s, outer);
		s->dst = simt_ref(k, r ? si : sv, slot);
		s->value = acc_ref(L, f, outer, r ? f->idx : f->val);
	}
	simt_stmt(k, SS_BARRIER, f->v->line);
	fold_reset(L, f, outer);
	SStmt *s = fold_in(L, f, outer, simt_ref(k, sv, pslot), si ? simt_ref(k, si, pslot) : NULL, NULL);
	s->extent[s->nloops++] = wpc;   /* the loop over j, innermost */
	if (L->loop_depth)   /* the next iteration writes the same slots */
		simt_stmt(k, SS_BARRIER, f->v->line);
}

static void lower_reduce(Lower *L, const TValue *v)
{
	const TValue *x = v->args[0];
	const TValue *xi = v->nargs > 1 ? v->args[1] : NULL;
	int axis = v->aux2;
	int d = L->place[x->id].map[axis];
	unsigned bit = d >= 0 ? 1u << d : 0;
	unsigned xvary = L->place[x->id].present;   /* every element of the tile, made real */
	unsigned vary = xvary & ~bit;
	SReg *xreg = vary_of(L, x) == xvary && L->place[x->id].reg ? L->place[x->id].reg : materialize(L, x, xvary);
	SReg *ireg = NULL;
	if (xi)
		ireg = vary_of(L, xi) == xvary && L->place[xi->id].reg ? L->place[xi->id].reg : materialize(L, xi, xvary);
	Fold f = fold_of(L, v, vary);
	SKernel *k = L->k;

	/* 1. In each thread: fold its elements along the axis, skipping copies. */
	Nest outer = nest_over(L, vary, 1);
	fold_reset(L, &f, &outer);
	Nest all = nest_over(L, xvary, 1);
	SExpr *xe = simt_ref(k, xreg, index_in(L, &all, xvary));
	SExpr *ie = ireg ? simt_ref(k, ireg, index_in(L, &all, xvary)) : NULL;
	fold_in(L, &f, &all, xe, ie, d >= 0 ? not_wrapped(L, d, local_index(L, &all, d)) : NULL);
	if (d >= 0) {
		fold_lanes(L, &f, &outer, d);
		fold_warps(L, &f, &outer, d);
	}
	set_reg(L, v, f.pair ? f.idx : f.val, vary);
}

/* ---- control flow: uniform in every program, as Triton's is ---- */

static void lower_value(Lower *L, const TValue *v);

/* Lowers a block's ops; returns its closing yield (not lowered), or NULL. */
static const TValue *lower_block(Lower *L, const TBlock *b)
{
	for (const TValue *v = b->first; v; v = v->next) {
		if (v->op == TOP_YIELD)
			return v;
		if (v->op == TOP_ARG || (lower_pure(v) && L->uses && L->uses[v->id] <= 0))
			continue;   /* an argument (lowered first), or a value nothing reads */
		comment_line(L, v);
		lower_value(L, v);
	}
	return NULL;
}

/* Registers that hold tile `v` across iterations or branches: per thread,
 * indexed by every dimension the tile spans. */
static SReg *state_reg(Lower *L, const TValue *v, const char *name)
{
	use_frame(L, L->place[v->id].frame);
	unsigned vary = L->place[v->id].present;
	return simt_reg(L->k, SR_THREAD, v->type.dtype, v->type.elem, count_of(L, vary), name);
}

/* dst (a state register of `like`) = x, element by element */
static void copy_state(Lower *L, const TValue *like, SReg *dst, const TValue *x)
{
	use_frame(L, L->place[like->id].frame);
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
		use_frame(L, L->place[like[i]->id].frame);
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
	use_frame(L, L->place[v->id].frame);
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
	case TOP_TRANS:
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
	case TOP_ATOMIC_ADD: lower_atomic(L, v); return;
	case TOP_ASSERT: lower_assert(L, v); return;
	case TOP_DOT: lower_dot(L, v); return;
	case TOP_SCAN: lower_scan(L, v); return;
	default:
		lower_error(L, v, "'%s' is not lowered to %s code yet", tir_op_name(v->op), L->target->spec);
	}
}

/* The narrowest element that a frame's tiles access global memory with
 * decides how many consecutive elements a thread holds (16 bytes of them). */
static int access_elem_bytes(const Lower *L, const TBlock *b, int frame, int bytes)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		bytes = access_elem_bytes(L, v->body, frame, bytes);
		if (v->op == TOP_IF)
			bytes = access_elem_bytes(L, v->orelse, frame, bytes);
		if (v->op != TOP_LOAD && v->op != TOP_STORE && v->op != TOP_ATOMIC_ADD)
			continue;
		const TValue *ptr = v->args[0];
		if (L->place[ptr->id].frame != frame || ptr->type.rank != L->frames[frame].rank)
			continue;
		int e = dtype_bytes(ptr->type.elem);
		bytes = bytes ? imin(bytes, e) : e;
	}
	return bytes;
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
	lower_remat(L, tk);
	L->place = arena_alloc(L->arena, sizeof(Place) * (size_t)(L->nvalues + 1));
	lower_place(L);
	for (int f = 0; f < L->nframes; f++) {
		Frame *fr = &L->frames[f];
		if (fr->rank == 0)
			continue;
		int bytes = access_elem_bytes(L, tk->body, f, 0);
		fr->layout = layout_blocked(fr->rank, fr->shape, bytes ? bytes : 4, L->target->max_vector_bytes,
					    k->warp_size, k->num_warps);
	}
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
