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

SExpr *ic(Lower *L, int64_t v)
{
	return simt_int(L->k, DT_I32, v);
}

bool is_int_const(const SExpr *e, int64_t v)
{
	return e->kind == SE_INT && e->ival == v;
}

SExpr *index_op(SExpr *e)
{
	e->plain = true;
	return e;
}

SExpr *iadd(Lower *L, SExpr *a, SExpr *b)
{
	if (a->kind == SE_INT && b->kind == SE_INT)
		return ic(L, a->ival + b->ival);
	if (is_int_const(a, 0))
		return b;
	if (is_int_const(b, 0))
		return a;
	return index_op(simt_binary(L->k, TOP_ADD, DT_I32, a, b));
}

SExpr *imul(Lower *L, SExpr *a, int64_t c)
{
	if (c == 0 || is_int_const(a, 0))
		return ic(L, 0);
	if (a->kind == SE_INT)
		return ic(L, a->ival * c);
	return c == 1 ? a : index_op(simt_binary(L->k, TOP_MUL, DT_I32, a, ic(L, c)));
}

SExpr *ibin(Lower *L, TOp op, SExpr *a, int64_t c)
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

int extent_of(Lower *L, int d)
{
	return layout_local_extent(&L->frame, d);
}

int count_of(Lower *L, unsigned vary)
{
	int n = 1;
	for (int d = 0; d < L->rank; d++)
		if (vary & (1u << d))
			n *= extent_of(L, d);
	return n;
}

Nest nest_over(Lower *L, unsigned dims, int vec)
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
void set_loops(Lower *L, SStmt *s, const Nest *n)
{
	s->nloops = n->n;
	for (int i = 0; i < n->n; i++)
		s->extent[i] = extent_of(L, n->dim[i]) / n->step[i];
}

/* The local index along frame dim d of the nest's current (first) element. */
SExpr *local_index(Lower *L, const Nest *n, int d)
{
	for (int i = 0; i < n->n; i++) {
		if (n->dim[i] != d)
			continue;
		SExpr *li = imul(L, simt_leaf(L->k, SE_LOOP, DT_I32, i), n->step[i]);
		if (n->run > 1 && d == L->rank - 1)
			li = imul(L, ibin(L, TOP_IDIV, li, n->run), n->run);
		return li;
	}
	return ic(L, 0);
}

/* Row-major index into registers that vary along `vary`. */
SExpr *index_in(Lower *L, const Nest *n, unsigned vary)
{
	SExpr *idx = ic(L, 0);
	for (int d = 0; d < L->rank; d++)
		if (vary & (1u << d))
			idx = iadd(L, imul(L, idx, extent_of(L, d)), local_index(L, n, d));
	return idx;
}

/* The value of `v` at the nest's current element. */
SExpr *read_value(Lower *L, const Nest *n, const TValue *v)
{
	Place *p = &L->place[v->id];
	if (!p->lowered)
		lower_error(L, v, "internal error: %%%d used before it is lowered", v->id);
	if (p->expr)
		return p->expr;
	return simt_ref(L->k, p->reg, index_in(L, n, p->regs_vary));
}

unsigned vary_of(Lower *L, const TValue *v)
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

SExpr *coord(Lower *L, int d, SExpr *li)
{
	SExpr *raw = raw_coord(L, d, li);
	return cta_of(L, d) > L->frame_shape[d] ? ibin(L, TOP_MOD, raw, L->frame_shape[d]) : raw;
}

/* True (NULL) unless the block is wider than the tile along d; then the
 * test that local index `li` is not a wrapped copy. */
SExpr *not_wrapped(Lower *L, int d, SExpr *li)
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
void use_frame(Lower *L, int f)
{
	const Frame *fr = &L->frames[f];
	L->cur = f;
	L->rank = fr->rank;
	L->frame = fr->layout;
	memcpy(L->frame_shape, fr->shape, sizeof L->frame_shape);
	memcpy(L->first, fr->first, sizeof L->first);
}

/* lane and warp (only where a tile spreads over lanes, and over several
 * warps: nothing reads them otherwise), and the first coordinate of each
 * dimension of each frame */
static void lower_thread_coords(Lower *L)
{
	SKernel *k = L->k;
	SStmt *s;
	bool lanes = false;
	for (int fi = 0; fi < L->nframes; fi++)
		for (int d = 0; L->frames[fi].live && d < L->frames[fi].rank; d++)
			lanes |= L->frames[fi].layout.threads_per_warp[d] > 1;
	if (lanes) {
		L->lane = simt_reg(k, SR_THREAD, DT_I32, DT_I32, 1, "lane");
		s = simt_stmt(k, SS_ASSIGN, 0);
		s->dst = simt_ref(k, L->lane, NULL);
		s->value = simt_leaf(k, SE_LANE, DT_I32, 0);
	}
	if (k->num_warps > 1) {
		L->warp = simt_reg(k, SR_THREAD, DT_I32, DT_I32, 1, "warp");
		s = simt_stmt(k, SS_ASSIGN, 0);
		s->dst = simt_ref(k, L->warp, NULL);
		s->value = simt_leaf(k, SE_WARP, DT_I32, 0);
	}
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
			if (is_int_const(first, 0))
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

void set_reg(Lower *L, const TValue *v, SReg *r, unsigned vary)
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
SStmt *assign_value(Lower *L, const TValue *v, const Nest *n, SReg *dst, unsigned vary, SExpr *value)
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
	assign_value(L, v, &n, r, vary, iadd(L, ic(L, v->iconst), coord(L, d, local_index(L, &n, d))));
	set_reg(L, v, r, vary);
}

static void lower_const(Lower *L, const TValue *v)
{
	DType dt = v->type.dtype;
	set_expr(L, v, dtype_is_float(dt) ? simt_float(L->k, dt, v->fconst) : simt_int(L->k, dt, v->iconst));
}


/* A shape change that keeps every element where it is. A transpose is
 * one: its dims lie on the frame dims of the operand's, permuted (place.c),
 * and registers are indexed by frame dims, so they are the operand's. */
static void lower_alias(Lower *L, const TValue *v)
{
	Place *from = &L->place[v->args[0]->id], *p = &L->place[v->id];
	p->reg = from->reg;
	p->expr = from->expr;
	p->regs_vary = from->regs_vary;
	p->lowered = true;
}

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

SExpr *elementwise_expr(Lower *L, const TValue *v, const Nest *n)
{
	SKernel *k = L->k;
	DType dt = v->type.dtype;
	SExpr *a = read_value(L, n, v->args[0]);
	SExpr *e;
	switch (v->op) {
	case TOP_CMP:
		return simt_cmp(k, (CmpKind)v->aux, v->args[0]->type.dtype, a, read_value(L, n, v->args[1]));
	case TOP_WHERE:
		e = simt_leaf(k, SE_SELECT, dt, 0);
		e->a[0] = a;
		e->a[1] = read_value(L, n, v->args[1]);
		e->a[2] = read_value(L, n, v->args[2]);
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
		e = simt_leaf(k, SE_MATH, dt, v->aux);
		e->from = v->args[0]->type.dtype;
		e->a[0] = a;
		for (int i = 1; i < v->nargs; i++)
			e->a[i] = read_value(L, n, v->args[i]);
		return e;
	case TOP_NEG:
	case TOP_NOT:
		e = simt_leaf(k, SE_UNARY, dt, v->op);
		e->a[0] = a;
		return e;
	case TOP_PHILOX:
		return philox_expr(L, v, a, read_value(L, n, v->args[1]));
	default:
		e = simt_binary(k, v->op, dt, a, read_value(L, n, v->args[1]));
		if (dt == DT_PTR)
			e->from = v->type.elem;
		return e;
	}
}

/* The thread's run along the last frame dim (size_per_thread) when `v` is
 * known the same over each aligned run (axis analysis: constancy), else 1. */
static int constant_run(Lower *L, const TValue *v, unsigned vary)
{
	int last = L->rank - 1, spt = L->rank ? L->frame.size_per_thread[last] : 1;
	if (spt == 1 || !(vary & (1u << last)))
		return 1;
	for (int k = 0; k < v->type.rank; k++)
		if (v->type.shape[k] > 1 && L->place[v->id].map[k] == last)
			return v->axis.constancy[k] % spt == 0 ? spt : 1;
	return 1;
}

static void lower_elementwise(Lower *L, const TValue *v)
{
	unsigned vary = 0;
	for (int i = 0; i < v->nargs; i++)
		vary |= vary_of(L, v->args[i]);
	SReg *r = new_reg(L, v, v->type.dtype, vary);
	Nest n = nest_over(L, vary, 1);
	/* A value the same over a thread's run (x // 128 of consecutive x) is
	 * computed from its operands' elements at the run's start: each element
	 * of the run the same expression, which the C++ compiler computes once,
	 * as Triton's index arithmetic is computed once per run. */
	Nest from = n;
	from.run = constant_run(L, v, vary);
	assign_value(L, v, &n, r, vary, elementwise_expr(L, v, &from));
	set_reg(L, v, r, vary);
}

/* Elements per access along the last frame dim: from the pointer's
 * contiguity and alignment (axis analysis) along the tile dim that lies on
 * it, the mask's constancy, the target's widest access and what one thread
 * holds consecutively. */
int access_width(Lower *L, const TValue *ptr, const TValue *mask, unsigned vary)
{
	int last = L->rank - 1;
	if (L->rank == 0 || !(vary & (1u << last)) || !(vary_of(L, ptr) & (1u << last)))
		return 1;
	int k = ptr->type.rank - 1;
	while (k >= 0 && L->place[ptr->id].map[k] != last)
		k--;
	if (k < 0)
		return 1;
	int w = tir_vector_width_along(ptr, mask, k, L->target->max_vector_bytes);
	return imin(w, L->frame.size_per_thread[last]);
}

/* Consecutive elements along the frame's last dim that a thread loads
 * from one address (the constancy of the pointer, the mask and the fill):
 * loaded once and copied, as an index read by every element of an
 * embedding row is. */
static int splat_width(Lower *L, const TValue *v, unsigned vary)
{
	const TValue *ptr = v->args[0];
	int last = L->rank - 1, d = ptr->type.rank - 1;
	if (L->rank == 0 || d < 0 || !(vary & (1u << last)) || L->place[ptr->id].map[d] != last)
		return 1;
	int64_t k = ptr->axis.constancy[d];
	for (int i = 1; i < v->nargs; i++) {
		int64_t c = v->args[i]->type.rank == ptr->type.rank ? v->args[i]->axis.constancy[d] : 1;
		k = tir_gcd(k, c);   /* runs aligned to both */
	}
	int w = 1;
	while (w * 2 <= k && w * 2 <= L->frame.size_per_thread[last])
		w *= 2;
	return w;
}

static void lower_load(Lower *L, const TValue *v)
{
	const TValue *ptr = v->args[0];
	const TValue *mask = v->nargs > 1 ? v->args[1] : NULL;
	const TValue *other = v->nargs > 2 ? v->args[2] : NULL;
	unsigned vary = vary_of(L, ptr) | vary_of(L, mask) | vary_of(L, other);
	int vec = access_width(L, ptr, mask, vary);
	if (other && L->rank > 0 && (vary_of(L, other) & (1u << (L->rank - 1))))
		vec = 1;
	int same = vec == 1 ? splat_width(L, v, vary) : 1;
	SReg *r = new_reg(L, v, v->type.dtype, vary);
	Nest n = nest_over(L, vary, vec * same);
	SStmt *s = simt_stmt(L->k, SS_LOAD, v->line);
	set_loops(L, s, &n);
	s->dst = simt_ref(L->k, r, index_in(L, &n, vary));
	s->ptr = read_value(L, &n, ptr);
	s->guard = mask ? read_value(L, &n, mask) : NULL;
	if (other)
		s->other = read_value(L, &n, other);
	else if (mask)   /* Triton leaves them undefined; zero keeps runs reproducible */
		s->other = dtype_is_float(v->type.dtype) ? simt_float(L->k, v->type.dtype, 0)
							 : simt_int(L->k, v->type.dtype, 0);
	s->vec = vec;
	s->evict = (EvictionPolicy)v->aux;
	s->uniform = r->kind == SR_UNIFORM;
	if (same > 1) {   /* the copies: element 1 + j of each run of `same` */
		SStmt *c = simt_stmt(L->k, SS_ASSIGN, v->line);
		set_loops(L, c, &n);
		SExpr *first = index_in(L, &n, vary);
		c->extent[c->nloops] = same - 1;
		c->dst = simt_ref(L->k, r, iadd(L, first, iadd(L, ic(L, 1), simt_leaf(L->k, SE_LOOP, DT_I32, c->nloops))));
		c->nloops++;
		c->value = simt_ref(L->k, r, first);
	}
	set_reg(L, v, r, vary);
}

/* What a store writes, typed as its element (lower_stored). */
static SExpr *stored_value(Lower *L, const Nest *n, const TValue *store)
{
	const TValue *x = lower_stored(store);
	if (x == store->args[1])
		return read_value(L, n, x);
	SExpr *e = arena_alloc(L->arena, sizeof *e);
	*e = *read_value(L, n, x);
	e->dtype = store->args[1]->type.dtype;
	return e;
}

static void lower_store(Lower *L, const TValue *v)
{
	const TValue *ptr = v->args[0];
	const TValue *mask = v->nargs > 2 ? v->args[2] : NULL;
	unsigned present = L->place[ptr->id].present;
	int vec = access_width(L, ptr, mask, present);
	Nest n = nest_over(L, present, vec);
	SStmt *s = simt_stmt(L->k, SS_STORE, v->line);
	set_loops(L, s, &n);
	s->ptr = read_value(L, &n, ptr);
	s->value = stored_value(L, &n, v);
	s->value_stride = L->rank > 0 && (vary_of(L, lower_stored(v)) & (1u << (L->rank - 1))) ? 1 : 0;
	s->vec = vec;
	s->guard = write_guard(L, &n, present, mask ? read_value(L, &n, mask) : NULL);
}

/* The guard of a write: `mask`, and each element once (no wrapped copy,
 * coordinate 0 along the frame dimensions the tile does not span). */
SExpr *write_guard(Lower *L, const Nest *n, unsigned present, SExpr *mask)
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

/* tl.atomic_*: each element once, by its owner; the old values. An atomic
 * on one element is done by one thread (thread 0 for a scalar, as in
 * Triton); when its old value is read, that thread hands it to the others
 * through shared memory, since what a program does with it (the condition
 * of a spin-wait on a flag) must be the same in every thread. */
static void lower_atomic(Lower *L, const TValue *v)
{
	SKernel *k = L->k;
	AtomicOp op = (AtomicOp)v->iconst;
	const TValue *ptr = v->args[0], *value = v->args[op == ATOM_CAS ? 2 : 1];
	const TValue *mask = op != ATOM_CAS && v->nargs > 2 ? v->args[2] : NULL;
	DType dt = v->type.dtype;
	if (dtype_bytes(dt) < 4 || dt == DT_I1)
		lower_error(L, v, "atomic_%s on %s is not lowered yet", simt_atomic_name(op), dtype_name(dt));
	unsigned present = L->place[ptr->id].present;
	bool keep = L->uses[v->id] > 0;   /* the old values are read */
	bool handed = keep && present == 0;
	SReg *old = keep ? simt_reg(k, SR_THREAD, dt, dt, count_of(L, present), v->name) : NULL;
	SReg *slot = handed ? simt_reg(k, SR_SHARED, dt, dt, 1, arena_printf(L->arena, "%s_old", v->name ? v->name : "atomic"))
			    : NULL;
	if (handed && L->loop_depth > 0)
		simt_stmt(k, SS_BARRIER, v->line);   /* the slot's last value has been read by every thread */
	Nest n = nest_over(L, present, 1);
	SExpr *guard = write_guard(L, &n, present, NULL);
	if (handed && mask) {   /* a masked-off element's old value is 0 */
		SStmt *z = simt_stmt(k, SS_ASSIGN, v->line);
		z->dst = simt_ref(k, slot, ic(L, 0));
		z->value = dtype_is_float(dt) ? simt_float(k, dt, 0) : simt_int(k, dt, 0);
		z->guard = guard;
	}
	SStmt *s = simt_stmt(k, SS_ATOMIC, v->line);
	set_loops(L, s, &n);
	s->dst = handed ? simt_ref(k, slot, ic(L, 0)) : keep ? simt_ref(k, old, index_in(L, &n, present)) : NULL;
	s->ptr = read_value(L, &n, ptr);
	s->value = read_value(L, &n, value);
	s->expected = op == ATOM_CAS ? read_value(L, &n, v->args[1]) : NULL;
	s->atomic = op;
	s->sem = (MemSem)v->aux;
	s->scope = (MemScope)v->aux2;
	s->guard = mask ? simt_and(k, read_value(L, &n, mask), guard) : guard;
	if (handed) {
		simt_stmt(k, SS_BARRIER, v->line);
		assign_value(L, v, &n, old, present, simt_ref(k, slot, ic(L, 0)));
	}
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
	failed->a[0] = read_value(L, &n, cond);
	s->guard = simt_and(L->k, mask ? read_value(L, &n, mask) : NULL, failed);
	s->text = v->text ? v->text : "";
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
	case RED_COMBINE:   /* lower_reduce_combine */
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
	assign_value(L, x, &n, r, want, read_value(L, &n, x));
	return r;
}

static SStmt *fold_assign(Lower *L, const Fold *f, const Nest *n, SReg *dst, SExpr *value)
{
	SStmt *s = assign_value(L, f->v, n, dst, f->vary, value);
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

/* acc = (xv, xi): a fold that starts from its first element, not from the
 * identity, has one combine less (Triton's reductions have no identity). */
static void fold_first(Lower *L, const Fold *f, const Nest *n, SExpr *xv, SExpr *xi)
{
	fold_assign(L, f, n, f->val, simt_cast(L->k, xv->dtype, f->vt, xv));
	if (f->pair)
		fold_assign(L, f, n, f->idx, simt_cast(L->k, xi->dtype, f->it, xi));
}

/* Across the lanes that share the axis: log2(lanes along it) xor steps,
 * the farthest lanes first, as Triton's reductions shuffle (its rounding,
 * for combines that only nearly associate, such as Welford's). */
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
	for (int m = nmasks - 1; m >= 0; m--) {
		for (int r = 0; r < (f->pair ? 2 : 1); r++) {
			SStmt *s = simt_stmt(k, SS_SHUFFLE, f->v->line);
			s->src = r ? f->idx : f->val;
			s->shuffled = r ? oi : ov;
			s->lane_xor = masks[m];
		}
		fold_in(L, f, outer, acc_ref(L, f, outer, ov), oi ? acc_ref(L, f, outer, oi) : NULL, NULL);
	}
}

/* Across the warps that share the axis: one lane of each warp writes the
 * warp's partials to shared memory, where the partials of the wpc warps
 * along the axis lie next to each other; after a barrier every thread
 * folds those of its rows, all in the same order: wpc consecutive words,
 * which each lane of a warp reads at the same address (one broadcast, in
 * 16-byte reads where they line up). The barrier waits (flush_folds) while
 * the ops that follow do not read the result and touch no shared memory,
 * so independent reductions, such as Welford's count and sum, share one. */
typedef struct WarpFold {
	Fold f;
	Nest outer;
	int d, frame;
	SReg *sv, *si;             /* the partials in shared memory */
} WarpFold;

#define MAX_WAITING 8

/* x, a number of `bits` bits, without its bits [at, at + n), the bits
 * above moved down. */
static SExpr *drop_bits(Lower *L, SExpr *x, int bits, int at, int n)
{
	if (n == 0)
		return x;
	SExpr *low = at ? ibin(L, TOP_AND, x, ((int64_t)1 << at) - 1) : NULL;
	if (at + n >= bits)   /* nothing above */
		return low ? low : ic(L, 0);
	SExpr *high = ibin(L, TOP_SHR, x, at + n);
	if (at)
		high = index_op(simt_binary(L->k, TOP_SHL, DT_I32, high, ic(L, at)));
	return low ? index_op(simt_binary(L->k, TOP_OR, DT_I32, high, low)) : high;
}

/* The first of the wpc slots of the thread's result at local index `r`:
 * its thread number without the lane and warp bits that move along d
 * (threads differing only there share the rows), times wpc. */
static SExpr *warp_slots(Lower *L, const WarpFold *w, SExpr *r)
{
	int wpc = L->frame.warps_per_cta[w->d], cnt = w->f.val->count;
	int lane_at = layout_lane_shift(&L->frame, w->d), lane_bits = ilog2(L->frame.threads_per_warp[w->d]);
	int warp_at = ilog2(L->k->warp_size) + layout_warp_shift(&L->frame, w->d);
	int bits = ilog2(L->k->threads);
	SExpr *key = drop_bits(L, simt_leaf(L->k, SE_THREAD, DT_I32, 0), bits, warp_at, ilog2(wpc));
	key = drop_bits(L, key, bits - ilog2(wpc), lane_at, lane_bits);
	return imul(L, iadd(L, imul(L, key, cnt), r), wpc);
}

static void read_warps(Lower *L, const WarpFold *w)
{
	SKernel *k = L->k;
	const Fold *f = &w->f;
	use_frame(L, w->frame);
	SExpr *j = simt_leaf(k, SE_LOOP, DT_I32, w->outer.n);
	SExpr *base = warp_slots(L, w, index_in(L, &w->outer, f->vary));
	fold_first(L, f, &w->outer, simt_ref(k, w->sv, base), w->si ? simt_ref(k, w->si, base) : NULL);
	SExpr *pslot = iadd(L, iadd(L, base, j), ic(L, 1));
	SStmt *s = fold_in(L, f, &w->outer, simt_ref(k, w->sv, pslot), w->si ? simt_ref(k, w->si, pslot) : NULL, NULL);
	s->extent[s->nloops++] = L->frame.warps_per_cta[w->d] - 1;   /* the loop over j, innermost */
}

/* The barrier the waiting reductions need, and their reads. */
static void flush_folds(Lower *L)
{
	if (!L->nwaiting)
		return;
	int cur = L->cur, line = L->waiting[0].f.v->line;
	simt_stmt(L->k, SS_BARRIER, line);
	for (int i = 0; i < L->nwaiting; i++)
		read_warps(L, &L->waiting[i]);
	if (L->loop_depth)   /* the next iteration writes the same slots */
		simt_stmt(L->k, SS_BARRIER, line);
	L->nwaiting = 0;
	use_frame(L, cur);
}

static void fold_warps(Lower *L, const Fold *f, const Nest *outer, int d)
{
	SKernel *k = L->k;
	int wpc = L->frame.warps_per_cta[d], tpw = L->frame.threads_per_warp[d];
	if (wpc <= 1)
		return;
	if (L->nwaiting == MAX_WAITING)
		flush_folds(L);
	if (!L->waiting)
		L->waiting = arena_alloc(L->arena, sizeof *L->waiting * MAX_WAITING);
	WarpFold *w = &L->waiting[L->nwaiting++];
	*w = (WarpFold){.f = *f, .outer = *outer, .d = d, .frame = L->cur};
	int count = k->threads / tpw * f->val->count;
	w->sv = simt_reg(k, SR_SHARED, f->vt, f->vt, count, arena_printf(L->arena, "%s_warps", f->val->name));
	if (f->pair)
		w->si = simt_reg(k, SR_SHARED, f->it, f->it, count, arena_printf(L->arena, "%s_warps", f->idx->name));
	SExpr *thread = simt_leaf(k, SE_THREAD, DT_I32, 0);
	SExpr *warp_d = ibin(L, TOP_AND, ibin(L, TOP_SHR, thread, ilog2(k->warp_size) + layout_warp_shift(&L->frame, d)), wpc - 1);
	SExpr *slot = iadd(L, warp_slots(L, w, index_in(L, outer, f->vary)), warp_d);
	SExpr *lane_d = ibin(L, TOP_AND, ibin(L, TOP_SHR, thread, layout_lane_shift(&L->frame, d)), tpw - 1);
	SExpr *first_lane = tpw > 1 ? simt_cmp(k, CMP_EQ, DT_I32, lane_d, ic(L, 0)) : NULL;
	for (int r = 0; r < (f->pair ? 2 : 1); r++) {
		SStmt *s = simt_stmt(k, SS_ASSIGN, f->v->line);
		set_loops(L, s, outer);
		s->dst = simt_ref(k, r ? w->si : w->sv, slot);
		s->value = acc_ref(L, f, outer, r ? f->idx : f->val);
		s->guard = first_lane;
	}
}

/* Whether `v` may be lowered while reductions wait for their barrier: it
 * reads none of them and touches no shared memory and no barrier. */
static bool lets_folds_wait(const Lower *L, const TValue *v)
{
	switch (v->op) {
	case TOP_CONVERT: case TOP_SCAN: case TOP_DOT: case TOP_FOR: case TOP_IF: case TOP_YIELD:
	case TOP_RESULT: case TOP_BARRIER: case TOP_ASSERT: case TOP_ATOMIC:
		return false;
	default:
		break;
	}
	for (int w = 0; w < L->nwaiting; w++) {
		const TValue *r = L->waiting[w].f.v;
		for (int i = 0; i < v->nargs; i++)
			if (v->args[i] == r)
				return false;
		if (v->op == TOP_STORE && lower_stored(v) == r)
			return false;
	}
	return true;
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
	Nest all = nest_over(L, xvary, 1);
	SExpr *guard = d >= 0 ? not_wrapped(L, d, local_index(L, &all, d)) : NULL;
	if (d >= 0 && !guard && layout_local_extent(&L->frame, d) > 1) {
		/* no wrapped copies along d: start from the element of local index 0 */
		fold_first(L, &f, &outer, simt_ref(k, xreg, index_in(L, &outer, xvary)),
			   ireg ? simt_ref(k, ireg, index_in(L, &outer, xvary)) : NULL);
		guard = simt_cmp(k, CMP_NE, DT_I32, local_index(L, &all, d), ic(L, 0));
	} else {
		fold_reset(L, &f, &outer);
	}
	SExpr *xe = simt_ref(k, xreg, index_in(L, &all, xvary));
	SExpr *ie = ireg ? simt_ref(k, ireg, index_in(L, &all, xvary)) : NULL;
	fold_in(L, &f, &all, xe, ie, guard);
	if (d >= 0) {
		fold_lanes(L, &f, &outer, d);
		fold_warps(L, &f, &outer, d);
	}
	set_reg(L, v, f.pair ? f.idx : f.val, vary);
}

/* ---- control flow: uniform in every program, as Triton's is ---- */

static void lower_value(Lower *L, const TValue *v);

/* Lowers a block's ops of part `part` (PART_NONE: all); returns its
 * closing yield (not lowered), or NULL. */
static const TValue *lower_part(Lower *L, const TBlock *b, int part)
{
	for (const TValue *v = b->first; v; v = v->next) {
		if (v->op == TOP_YIELD) {
			flush_folds(L);
			return v;
		}
		if (part != PART_NONE && L->place[v->id].part != part)
			continue;
		if (v->op == TOP_ARG || (lower_pure(v) && L->uses && L->uses[v->id] <= 0))
			continue;   /* an argument (lowered first), or a value nothing reads */
		if (!lets_folds_wait(L, v))
			flush_folds(L);
		comment_line(L, v);
		lower_value(L, v);
	}
	flush_folds(L);
	return NULL;
}

static const TValue *lower_block(Lower *L, const TBlock *b)
{
	return lower_part(L, b, PART_NONE);
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
	assign_value(L, x, &n, dst, vary, read_value(L, &n, x))->uniform = false;
}

/* A scalar operand of a control op: its value in any thread. */
static SExpr *scalar(Lower *L, const TValue *x)
{
	Nest none = {0};
	return read_value(L, &none, x);
}

/* The values a body yields go to the state registers, through temporaries
 * when one of them is itself a state register (a yield that swaps). */
static void yield_part(Lower *L, const TValue *y, SReg **state, const TValue *const *like, int part)
{
	int n = y->nargs;
	SReg **tmp = arena_alloc(L->arena, sizeof *tmp * (size_t)(n + 1));
	bool *skip = arena_alloc(L->arena, sizeof *skip * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		const Place *p = &L->place[y->args[i]->id];
		skip[i] = part != PART_NONE && L->place[like[i]->id].part != part;
		/* already in its state register (a wgmma accumulator, in flight) */
		skip[i] |= p->reg == state[i] && p->regs_vary == L->place[like[i]->id].present;
	}
	for (int i = 0; i < n; i++) {
		if (skip[i])
			continue;
		bool aliased = false;
		for (int j = 0; j < n; j++)
			aliased |= L->place[y->args[i]->id].reg == state[j];
		if (!aliased)
			continue;
		tmp[i] = state_reg(L, like[i], arena_printf(L->arena, "%s_next", state[i]->name));
		copy_state(L, like[i], tmp[i], y->args[i]);
	}
	for (int i = 0; i < n; i++) {
		if (skip[i])
			continue;
		if (!tmp[i]) {
			copy_state(L, like[i], state[i], y->args[i]);
			continue;
		}
		use_frame(L, L->place[like[i]->id].frame);
		unsigned vary = L->place[like[i]->id].present;
		Nest nn = nest_over(L, vary, 1);
		assign_value(L, y, &nn, state[i], vary, simt_ref(L->k, tmp[i], index_in(L, &nn, vary)))->uniform = false;
	}
}

static void yield_into(Lower *L, const TValue *y, SReg **state, const TValue *const *like)
{
	yield_part(L, y, state, like, PART_NONE);
}

SStmt *uniform_stmt(Lower *L, SStmtKind kind, int line)
{
	SStmt *s = simt_stmt(L->k, kind, line);
	s->uniform = true;
	return s;
}

/* slot = (slot + 1) % stages */
static void next_slot(Lower *L, SReg *slot, int stages, int line)
{
	SStmt *s = uniform_stmt(L, SS_ASSIGN, line);
	s->dst = simt_ref(L->k, slot, NULL);
	SExpr *up = iadd(L, simt_ref(L->k, slot, NULL), ic(L, 1));
	s->value = index_op(simt_binary(L->k, TOP_MOD, DT_I32, up, ic(L, stages)));
}

/* The consumer of iteration iv - (stages - 1), from iteration stages - 1 on
 * (`ahead`: step * (stages - 1)). */
static void consumer_part(Lower *L, const TValue *v, const Pipeline *pp, const SStmt *f, SExpr *ivr, SExpr *ahead,
			  SReg **state, const TValue **like)
{
	const TBlock *body = v->body;
	SKernel *k = L->k;
	DType dt = body->params[0]->type.dtype;
	uniform_stmt(L, SS_IF, v->line)->guard = simt_cmp(k, CMP_GE, dt, ivr, simt_binary(k, TOP_ADD, dt, f->lo, ahead));
	const TValue *y = lower_part(L, body, PART_CONSUMER);
	if (y)
		yield_part(L, y, state, like, PART_CONSUMER);
	next_slot(L, pp->use_slot, pp->stages, v->line);
	uniform_stmt(L, SS_END, v->line);
}

/* The body of a pipelined loop (lower_dot.c says how it splits): the loop
 * runs stages - 1 more iterations. Iteration i first waits for the copies
 * of iteration i - (stages - 1) and meets the block at a barrier, so those
 * copies are visible and the dots of iteration i - 1 are done with the slot
 * that the producer of iteration i (while iv < hi) fills next; then the
 * consumer of iteration i - (stages - 1) (from the iteration stages - 1 on)
 * computes while the new copies land. One barrier an iteration. With one
 * stage the copies of iteration i are waited for before its dots. */
static void lower_pipelined(Lower *L, const TValue *v, const Pipeline *pp, SStmt *f, SReg *iv, SReg **state,
			    const TValue **like)
{
	const TBlock *body = v->body;
	SKernel *k = L->k;
	DType dt = body->params[0]->type.dtype;
	SExpr *hi = f->hi, *ahead = simt_binary(k, TOP_MUL, dt, f->step, simt_int(k, dt, pp->stages - 1));
	f->hi = simt_binary(k, TOP_ADD, dt, hi, ahead);
	SExpr *ivr = simt_ref(k, iv, NULL);

	bool single = pp->stages == 1;   /* copy, wait, compute: two barriers, no overlap */
	if (!single)
		uniform_stmt(L, SS_COPY_WAIT, v->line)->vec = pp->stages - 2;
	uniform_stmt(L, SS_BARRIER, v->line);
	if (pp->wgmma && !single) {
		/* the consumer first: its instructions stay in flight while the
		 * producer refills the slot the ones before read (waited for) */
		consumer_part(L, v, pp, f, ivr, ahead, state, like);
		uniform_stmt(L, SS_BARRIER, v->line);
	}
	uniform_stmt(L, SS_IF, v->line)->guard = simt_cmp(k, CMP_LT, dt, ivr, hi);
	const TValue *y = lower_part(L, body, PART_PRODUCER);
	if (y)
		yield_part(L, y, state, like, PART_PRODUCER);
	next_slot(L, pp->load_slot, pp->stages, v->line);
	uniform_stmt(L, SS_END, v->line);
	uniform_stmt(L, SS_COPY_COMMIT, v->line);
	if (single) {
		uniform_stmt(L, SS_COPY_WAIT, v->line)->vec = 0;
		uniform_stmt(L, SS_BARRIER, v->line);
	}
	if (!pp->wgmma || single)
		consumer_part(L, v, pp, f, ivr, ahead, state, like);
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
	const TValue *step = v->args[2];
	Pipeline *pp = step->op == TOP_CONST && step->iconst > 0 ? lower_plan_pipeline(L, v) : NULL;
	SStmt *f = simt_stmt(L->k, SS_FOR, v->line);
	f->uniform = true;
	f->iv = iv;
	f->lo = scalar(L, v->args[0]);
	f->hi = scalar(L, v->args[1]);
	f->step = scalar(L, step);
	L->loop_depth++;
	if (pp) {
		lower_pipelined(L, v, pp, f, iv, state, like);
	} else {
		const TValue *y = lower_block(L, body);
		if (y && n)
			yield_into(L, y, state, like);
	}
	L->loop_depth--;
	simt_stmt(L->k, SS_END, v->line)->uniform = true;
	for (int i = 0; pp && i < pp->nacc; i++)     /* the last wgmma groups in flight */
		mma_group_stmt(L, SS_MMA_WAIT, v->line, pp->acc[i], 0);
	L->place[v->id].results = state;
	L->place[v->id].lowered = true;
}

/* while cond: body. The carried values are state registers as in a for
 * loop; the body's ops run in an endless loop that its TOP_CONDITION
 * leaves (SS_BREAK), before the rest of the body and the yield. */
static void lower_while(Lower *L, const TValue *v)
{
	const TBlock *body = v->body;
	int n = v->nargs;
	SReg **state = arena_alloc(L->arena, sizeof *state * (size_t)(n + 1));
	const TValue **like = arena_alloc(L->arena, sizeof *like * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		like[i] = body->params[i];
		state[i] = state_reg(L, like[i], like[i]->name);
		copy_state(L, like[i], state[i], v->args[i]);
		set_reg(L, like[i], state[i], L->place[like[i]->id].present);
	}
	simt_stmt(L->k, SS_WHILE, v->line)->uniform = true;
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
	case TOP_RESHAPE:
		if (!lower_reshape_is_alias(v)) {
			lower_reshape(L, v);
			return;
		}
		lower_alias(L, v);
		return;
	case TOP_SPLAT:
	case TOP_BROADCAST:
	case TOP_EXPAND:
	case TOP_TRANS:
	case TOP_HINT:   /* tl.multiple_of and the like: the axis analysis read it; the value is its operand */
		lower_alias(L, v);
		return;
	case TOP_CONVERT: lower_convert(L, v); return;
	case TOP_ADD: case TOP_SUB: case TOP_MUL: case TOP_DIV: case TOP_IDIV: case TOP_MOD: case TOP_FMOD:
	case TOP_AND: case TOP_OR: case TOP_XOR: case TOP_SHL: case TOP_SHR: case TOP_NEG: case TOP_NOT:
	case TOP_CMP: case TOP_WHERE: case TOP_CAST: case TOP_MATH: case TOP_MAXIMUM: case TOP_MINIMUM:
	case TOP_PTR_ADD: case TOP_BITCAST: case TOP_PHILOX:
		lower_elementwise(L, v);
		return;
	case TOP_LOAD:
		if (L->place[v->id].staged)
			lower_copy_async(L, v);
		else
			lower_load(L, v);
		return;
	case TOP_STORE: lower_store(L, v); return;
	case TOP_REDUCE:
		if (v->aux == RED_COMBINE)
			lower_reduce_combine(L, v);
		else
			lower_reduce(L, v);
		return;
	case TOP_FOR: lower_for(L, v); return;
	case TOP_WHILE: lower_while(L, v); return;
	case TOP_CONDITION: {
		SStmt *s = simt_stmt(L->k, SS_BREAK, v->line);
		s->uniform = true;
		s->guard = simt_cmp(L->k, CMP_EQ, DT_I1, scalar(L, v->args[0]), simt_int(L->k, DT_I1, 0));
		return;
	}
	case TOP_IF: lower_if(L, v); return;
	case TOP_RESULT: lower_result(L, v); return;
	case TOP_BARRIER: simt_stmt(L->k, SS_BARRIER, v->line); return;
	case TOP_ATOMIC: lower_atomic(L, v); return;
	case TOP_ASSERT: lower_assert(L, v); return;
	case TOP_DOT: lower_dot(L, v); return;
	case TOP_SCAN: lower_scan(L, v); return;
	default:
		lower_error(L, v, "'%s' is not lowered to %s code yet", tir_op_name(v->op), L->target->spec);
	}
}

/* What a frame's accesses along its last dim allow, for the layout. */
typedef struct FrameAccess {
	int elem_bytes;    /* the narrowest element accessed in global memory, 0 if none */
	int width;         /* the widest load or store along the last dim, in elements, 0 if none */
	int store_width;   /* the narrowest store along it, 0 if none */
} FrameAccess;

static void frame_access(const Lower *L, const TBlock *b, int frame, FrameAccess *fa)
{
	int last = L->frames[frame].rank - 1;
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		frame_access(L, v->body, frame, fa);
		if (v->op == TOP_IF)
			frame_access(L, v->orelse, frame, fa);
		if (v->op != TOP_LOAD && v->op != TOP_STORE && v->op != TOP_ATOMIC)
			continue;
		const TValue *ptr = v->args[0];
		if (L->place[ptr->id].frame != frame || ptr->type.rank != L->frames[frame].rank)
			continue;
		int e = dtype_bytes(ptr->type.elem);
		fa->elem_bytes = fa->elem_bytes ? imin(fa->elem_bytes, e) : e;
		int k = ptr->type.rank - 1;
		while (k >= 0 && !(ptr->type.shape[k] > 1 && L->place[ptr->id].map[k] == last))
			k--;
		if (k < 0 || v->op == TOP_ATOMIC)
			continue;
		/* the pointer's contiguity and alignment, not the mask's: a mask
		 * that splits the access still leaves a thread's run in one warp
		 * access after another (Triton's coalescing reads no mask) */
		int w = tir_vector_width_along(ptr, NULL, k, L->target->max_vector_bytes);
		fa->width = imax(fa->width, w);
		if (v->op == TOP_STORE)
			fa->store_width = fa->store_width ? imin(fa->store_width, w) : w;
	}
}

/* Consecutive elements a thread of frame f holds along its last dim, as
 * Triton's coalescing chooses them: as many as the widest of its loads and
 * stores could move at once by its pointer (contiguity and alignment), so
 * that gathers feeding a contiguous store get the store's run and share
 * the index arithmetic of its elements; but no more than any of its stores
 * could (a thread's run longer than its store leaves gaps in each warp's
 * writes, 4 times the memory transactions for fp32 stores one at a time),
 * nor more than the frame's elements shared out over the block's threads
 * (more would leave warps holding copies). With no access along that dim,
 * 16 bytes of the narrowest element the frame accesses. Returns the
 * element size too. */
static int frame_vector(const Lower *L, int f, int *elem_bytes)
{
	FrameAccess fa = {0};
	frame_access(L, L->tk->body, f, &fa);
	*elem_bytes = fa.elem_bytes ? fa.elem_bytes : 4;
	int vec = fa.width ? fa.width : L->target->max_vector_bytes / *elem_bytes;
	if (fa.store_width)
		vec = imin(vec, fa.store_width);
	int64_t elems = 1;
	for (int d = 0; d < L->frames[f].rank; d++)
		elems *= L->frames[f].shape[d];
	int64_t per_thread = elems / L->k->threads;
	return per_thread < vec ? (int)imax((int)per_thread, 1) : vec;
}

int lower_shared_bytes(const SKernel *k)
{
	int total = 0;
	for (int i = 0; i < k->nregs; i++) {
		const SReg *r = k->regs[i];
		if (r->kind == SR_SHARED)
			total += r->count * simt_shared_elem_bytes(r);
	}
	return total;
}

/* Beyond 48 KiB (or when an array must be aligned beyond 16 bytes) a CUDA
 * kernel takes its shared memory dynamically: the arrays are laid out one
 * after another, each aligned as it asks, from a base rounded up to the
 * largest alignment (the slack is part of the block). */
static int dynamic_layout(SKernel *k)
{
	int total = 0;
	for (int i = 0; i < k->nregs; i++) {
		const SReg *r = k->regs[i];
		if (r->kind != SR_SHARED)
			continue;
		int align = simt_shared_align(r);
		total = (total + align - 1) / align * align + r->count * simt_shared_elem_bytes(r);
	}
	total = (total + 15) / 16 * 16;
	return k->shared_align > 16 ? total + k->shared_align - 16 : total;
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
	lower_plan_dots(L);
	for (int f = 0; f < L->nframes; f++) {
		Frame *fr = &L->frames[f];
		if (fr->rank == 0 || fr->unit != MATRIX_NONE)
			continue;
		int bytes, vec = frame_vector(L, f, &bytes);
		fr->layout = layout_blocked(fr->rank, fr->shape, bytes, vec * bytes, k->warp_size, k->num_warps);
	}
	lower_thread_coords(L);
	for (int i = 0; i < tk->nargs; i++)
		lower_value(L, tk->args[i]);
	lower_block(L, tk->body);
	k->shared_bytes = lower_shared_bytes(k);
	if (k->shared_bytes > L->target->shared_bytes)
		lower_error(L, NULL, "the kernel needs %d bytes of shared memory, more than %s gives a block (%d)",
			    k->shared_bytes, L->target->spec, L->target->shared_bytes);
	for (int i = 0; i < k->nregs; i++)
		if (k->regs[i]->kind == SR_SHARED)
			k->shared_align = imax(k->shared_align, simt_shared_align(k->regs[i]));
	if (L->target->kind == TARGET_CUDA && (k->shared_bytes > 48 * 1024 || k->shared_align > 16))
		k->dynamic_bytes = dynamic_layout(k);
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
