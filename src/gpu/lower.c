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
#include "gpu/lower_ops.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- the thread's coordinates ---- */

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
			SExpr *first = lower_ic(L, 0);
			if (tpw > 1) {
				SExpr *lane = simt_ref(k, L->lane, NULL);
				SExpr *bits = lower_ibin(L, TOP_AND, lower_ibin(L, TOP_SHR, lane, lower_ic(L, layout_lane_shift(f, d))), lower_ic(L, tpw - 1));
				first = lower_imul(L, bits, lower_ic(L, spt));
			}
			if (wpc > 1) {
				SExpr *warp = simt_ref(k, L->warp, NULL);
				SExpr *bits = lower_ibin(L, TOP_AND, lower_ibin(L, TOP_SHR, warp, lower_ic(L, layout_warp_shift(f, d))), lower_ic(L, wpc - 1));
				if (d == 0 && fr->wgmma_rows)   /* 16 (w % 4) + 64 (w / 4): Frame.wgmma_rows */
					first = lower_iadd(L, first, lower_iadd(L, lower_imul(L, lower_ibin(L, TOP_AND, bits, lower_ic(L, 3)), lower_ic(L, 16)),
										lower_imul(L, lower_ibin(L, TOP_SHR, bits, lower_ic(L, 2)), lower_ic(L, 64))));
				else
					first = lower_iadd(L, first, lower_imul(L, bits, lower_ic(L, (int64_t)spt * tpw)));
			}
			if (lower_is_int_const(first, 0))
				continue;
			const char *name = fi ? arena_printf(L->arena, "f%d_first%d", fi, d) : arena_printf(L->arena, "first%d", d);
			L->firsts[fi][d] = simt_reg(k, SR_THREAD, DT_I32, DT_I32, 1, name);
			L->first_defs[fi][d] = first;
			s = simt_stmt(k, SS_ASSIGN, 0);
			s->dst = simt_ref(k, L->firsts[fi][d], NULL);
			s->value = first;
		}
	}
}

/* The first coordinates no expression read (a frame whose tiles never
 * index one of its dims: a wgmma accumulator's rows): their statements,
 * made first (lower_thread_coords), go. */
static void drop_unread_firsts(Lower *L)
{
	int left = 0;
	for (int fi = 0; fi < L->nframes; fi++)
		for (int d = 0; d < TC_MAX_RANK; d++)
			left += L->firsts[fi][d] && !L->firsts[fi][d]->read;
	SStmt **at = &L->k->first, *prev = NULL;
	while (*at && left) {
		SStmt *s = *at;
		const SReg *r = s->kind == SS_ASSIGN && s->dst && s->dst->kind == SE_REF ? s->dst->reg : NULL;
		bool drop = false;
		for (int fi = 0; r && !r->read && fi < L->nframes && !drop; fi++)
			for (int d = 0; d < TC_MAX_RANK && !drop; d++)
				drop = L->firsts[fi][d] == r;
		if (drop) {
			*at = s->next;
			left--;
			if (L->k->last == s)
				L->k->last = prev;
			continue;
		}
		prev = s;
		at = &s->next;
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
	return simt_reg(L->k, SR_THREAD, dt, elem, lower_count_of(L, vary), v->name);
}

static void lower_arange(Lower *L, const TValue *v)
{
	if (v->type.shape[0] == 1) {
		lower_set_expr(L, v, lower_ic(L, v->iconst));
		return;
	}
	int d = L->vp[v->id].map[0];
	unsigned vary = 1u << d;
	SReg *r = new_reg(L, v, DT_I32, vary);
	Nest n = lower_nest_over(L, vary, 1);
	lower_assign_value(L, v, &n, r, vary, lower_iadd(L, lower_ic(L, v->iconst), lower_coord(L, d, lower_local_index(L, &n, d))));
	lower_set_reg(L, v, r, vary);
}

static void lower_const(Lower *L, const TValue *v)
{
	DType dt = v->type.dtype;
	lower_set_expr(L, v, dtype_is_float(dt) ? simt_float(L->k, dt, v->fconst) : simt_int(L->k, dt, v->iconst));
}


/* A shape change that keeps every element where it is. A transpose is
 * one: its dims lie on the frame dims of the operand's, permuted (place.c),
 * and registers are indexed by frame dims, so they are the operand's. */
static void lower_alias(Lower *L, const TValue *v)
{
	const Place *from = &L->place[v->args[0]->id];
	Place *p = &L->place[v->id];
	p->reg = from->reg;
	p->expr = from->expr;
	p->regs_vary = from->regs_vary;
	p->lowered = true;
}

static unsigned vary_of_args(Lower *L, const TValue *v)
{
	unsigned vary = 0;
	for (int i = 0; i < v->nargs; i++)
		vary |= lower_vary_of(L, v->args[i]);
	return vary;
}

static void lower_elementwise(Lower *L, const TValue *v)
{
	unsigned vary = vary_of_args(L, v);
	const ValuePlan *vp = &L->vp[v->id];
	const Place *in = vp->in_place ? &L->place[v->args[vp->in_place_arg]->id] : NULL;
	/* a wgmma accumulator rescaled in its own registers (lower_dot.c): each
	 * element reads only itself there */
	SReg *r = in && in->reg && in->regs_vary == vary ? in->reg : new_reg(L, v, v->type.dtype, vary);
	Nest n = lower_nest_over(L, vary, 1);
	/* A value the same over a thread's run (x // 128 of consecutive x) is
	 * computed from its operands' elements at the run's start: each element
	 * of the run the same expression, which the C++ compiler computes once,
	 * as Triton's index arithmetic is computed once per run. */
	Nest from = n;
	from.run = L->vp[v->id].run;   /* the plan's (plan.c, plan_run) */
	lower_assign_value(L, v, &n, r, vary, lower_elementwise_expr(L, v, &from));
	lower_set_reg(L, v, r, vary);
}

/* tl.inline_asm_elementwise with pack > 1, as Triton packs: each call
 * takes `pack` neighbours of the thread's registers, consecutive along the
 * last dim (its fastest), and each of them takes its own slot's results.
 * That needs runs of `pack` consecutive elements in every thread (the
 * blocked layout's size_per_thread along the last dim, a multiple of
 * pack); the arguments are first broadcast into registers of the
 * result's shape. Returns false where the layout has no such runs:
 * lower_elementwise_expr then gives each element every slot. */
static bool lower_asm(Lower *L, const TValue *v, unsigned vary)
{
	int pack = v->perm[0], last = L->rank - 1, rank = v->type.rank;
	const ValuePlan *vp = &L->vp[v->id];
	const Frame *fr = &L->frames[vp->frame];
	if (pack <= 1 || last < 0 || rank == 0 || vp->map[rank - 1] != last || !(vary & (1u << last)) ||
	    fr->unit != MATRIX_NONE || L->frame.kind != LAYOUT_BLOCKED ||
	    L->frame.size_per_thread[last] % pack || lower_extent_of(L, last) % pack)
		return false;
	SKernel *k = L->k;
	Nest n = lower_nest_over(L, vary, 1);
	SReg **args = arena_alloc(L->arena, sizeof *args * (size_t)v->nargs);
	for (int i = 0; i < v->nargs; i++) {
		const TValue *a = v->args[i];
		args[i] = simt_reg(k, SR_THREAD, a->type.dtype, a->type.dtype, lower_count_of(L, vary), a->name);
		lower_assign_value(L, v, &n, args[i], vary, lower_read_value(L, &n, a));
	}
	SReg *r = new_reg(L, v, v->type.dtype, vary);
	SExpr *slot = lower_ibin(L, TOP_MOD, lower_local_index(L, &n, last), lower_ic(L, pack));
	SExpr **vals = arena_alloc(L->arena, sizeof *vals * (size_t)(v->nargs * pack));
	for (int i = 0; i < v->nargs; i++)
		for (int q = 0; q < pack; q++) {
			SExpr *at = lower_iadd(L, lower_ibin(L, TOP_SUB, lower_index_in(L, &n, vary), slot), lower_ic(L, q));
			vals[i * pack + q] = simt_ref(k, args[i], at);
		}
	lower_assign_value(L, v, &n, r, vary, lower_asm_call(L, v, vals, v->nargs * pack, slot));
	lower_set_reg(L, v, r, vary);
	return true;
}

static void lower_load(Lower *L, const TValue *v)
{
	const TValue *ptr = v->args[0];
	const TValue *mask = v->nargs > 1 ? v->args[1] : NULL;
	const TValue *other = v->nargs > 2 ? v->args[2] : NULL;
	unsigned vary = lower_vary_of(L, ptr) | lower_vary_of(L, mask) | lower_vary_of(L, other);
	int vec = L->vp[v->id].vector, same = L->vp[v->id].splat;   /* the plan's (plan_access_width) */
	SReg *r = new_reg(L, v, v->type.dtype, vary);
	Nest n = lower_nest_over(L, vary, vec * same);
	SStmt *s = simt_stmt(L->k, SS_LOAD, v->line);
	lower_set_loops(L, s, &n);
	s->dst = simt_ref(L->k, r, lower_index_in(L, &n, vary));
	s->ptr = lower_read_value(L, &n, ptr);
	s->guard = simt_and(L->k, L->load_guard, mask ? lower_read_value(L, &n, mask) : NULL);
	if (other)
		s->other = lower_read_value(L, &n, other);
	else if (s->guard)   /* Triton leaves them undefined; zero keeps runs reproducible */
		s->other = dtype_is_float(v->type.dtype) ? simt_float(L->k, v->type.dtype, 0)
							 : simt_int(L->k, v->type.dtype, 0);
	s->vec = vec;
	s->evict = (EvictionPolicy)v->aux;
	s->uniform = r->kind == SR_UNIFORM;
	if (same > 1) {   /* the copies: element 1 + j of each run of `same` */
		SStmt *c = simt_stmt(L->k, SS_ASSIGN, v->line);
		lower_set_loops(L, c, &n);
		SExpr *first = lower_index_in(L, &n, vary);
		c->extent[c->nloops] = same - 1;
		c->dst = simt_ref(L->k, r, lower_iadd(L, first, lower_iadd(L, lower_ic(L, 1), simt_leaf(L->k, SE_LOOP, DT_I32, c->nloops))));
		c->nloops++;
		c->value = simt_ref(L->k, r, first);
	}
	lower_set_reg(L, v, r, vary);
}

/* What a store writes, typed as its element (lower_stored). */
static SExpr *stored_value(Lower *L, const Nest *n, const TValue *store)
{
	const TValue *x = lower_stored(store);
	if (x == store->args[1])
		return lower_read_value(L, n, x);
	SExpr *e = arena_alloc(L->arena, sizeof *e);
	*e = *lower_read_value(L, n, x);
	e->dtype = store->args[1]->type.dtype;
	return e;
}

static void lower_store(Lower *L, const TValue *v)
{
	const TValue *ptr = v->args[0];
	const TValue *mask = v->nargs > 2 ? v->args[2] : NULL;
	if (lower_store_quads(L, v))
		return;
	unsigned present = L->vp[ptr->id].present;
	int vec = L->vp[v->id].vector;   /* the plan's */
	Nest n = lower_nest_over(L, present, vec);
	SStmt *s = simt_stmt(L->k, SS_STORE, v->line);
	lower_set_loops(L, s, &n);
	s->ptr = lower_read_value(L, &n, ptr);
	s->value = stored_value(L, &n, v);
	s->value_stride = L->rank > 0 && (lower_vary_of(L, lower_stored(v)) & (1u << (L->rank - 1))) ? 1 : 0;
	s->vec = vec;
	s->guard = lower_write_guard(L, &n, present, mask ? lower_read_value(L, &n, mask) : NULL);
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
	unsigned present = L->vp[ptr->id].present;
	bool keep = L->uses[v->id] > 0;   /* the old values are read */
	bool handed = keep && present == 0;
	SReg *old = keep ? simt_reg(k, SR_THREAD, dt, dt, lower_count_of(L, present), v->name) : NULL;
	SReg *slot = handed ? simt_reg(k, SR_SHARED, dt, dt, 1, arena_printf(L->arena, "%s_old", v->name ? v->name : "atomic"))
			    : NULL;
	if (handed && L->loop_depth > 0)
		simt_stmt(k, SS_BARRIER, v->line);   /* the slot's last value has been read by every thread */
	Nest n = lower_nest_over(L, present, 1);
	SExpr *guard = lower_write_guard(L, &n, present, NULL);
	if (handed && mask) {   /* a masked-off element's old value is 0 */
		SStmt *z = simt_stmt(k, SS_ASSIGN, v->line);
		z->dst = simt_ref(k, slot, lower_ic(L, 0));
		z->value = dtype_is_float(dt) ? simt_float(k, dt, 0) : simt_int(k, dt, 0);
		z->guard = guard;
	}
	SStmt *s = simt_stmt(k, SS_ATOMIC, v->line);
	lower_set_loops(L, s, &n);
	s->dst = handed ? simt_ref(k, slot, lower_ic(L, 0)) : keep ? simt_ref(k, old, lower_index_in(L, &n, present)) : NULL;
	s->ptr = lower_read_value(L, &n, ptr);
	s->value = lower_read_value(L, &n, value);
	s->expected = op == ATOM_CAS ? lower_read_value(L, &n, v->args[1]) : NULL;
	s->atomic = op;
	s->sem = (MemSem)v->aux;
	s->scope = (MemScope)v->aux2;
	s->guard = mask ? simt_and(k, lower_read_value(L, &n, mask), guard) : guard;
	if (handed) {
		simt_stmt(k, SS_BARRIER, v->line);
		lower_assign_value(L, v, &n, old, present, simt_ref(k, slot, lower_ic(L, 0)));
	}
	if (keep)
		lower_set_reg(L, v, old, present);
	else
		L->place[v->id].lowered = true;
}

/* tl.device_assert: where the mask holds and the condition does not, the
 * program fails with the message. */
static void lower_assert(Lower *L, const TValue *v)
{
	const TValue *cond = v->args[0], *mask = v->nargs > 1 ? v->args[1] : NULL;
	unsigned vary = lower_vary_of(L, cond) | lower_vary_of(L, mask);
	Nest n = lower_nest_over(L, vary, 1);
	SStmt *s = simt_stmt(L->k, SS_ASSERT, v->line);
	lower_set_loops(L, s, &n);
	SExpr *failed = simt_leaf(L->k, SE_UNARY, DT_I1, TOP_NOT);
	failed->a[0] = lower_read_value(L, &n, cond);
	s->guard = simt_and(L->k, mask ? lower_read_value(L, &n, mask) : NULL, failed);
	s->text = v->text ? v->text : "";
}

/* The frame dims `x`'s wide dims lie on. */
static unsigned wide_dims_of(Lower *L, const TValue *x)
{
	unsigned dims = 0;
	for (int k = 0; k < x->type.rank; k++)
		if (x->type.shape[k] > 1 && L->vp[x->id].map[k] >= 0)
			dims |= 1u << L->vp[x->id].map[k];
	return dims;
}

/* tl.device_print: each element of each value printed once, by the thread
 * that holds it (not a wrapped copy), with its program id and indices; a
 * scalar by thread 0. */
static void lower_print(Lower *L, const TValue *v)
{
	SKernel *k = L->k;
	for (int i = 0; i < (v->nargs ? v->nargs : 1); i++) {
		const TValue *x = v->nargs ? v->args[i] : NULL;
		if (x)
			lower_use_frame(L, L->vp[x->id].frame);
		unsigned wide = x ? wide_dims_of(L, x) : 0;
		Nest n = lower_nest_over(L, wide, 1);
		SStmt *s = simt_stmt(k, SS_PRINT, v->line);
		lower_set_loops(L, s, &n);
		char *format = tir_print_format(v, i);   /* on the heap: the statement's copy is in the arena */
		s->text = arena_strdup(L->arena, format);
		free(format);
		int rank = x ? x->type.rank : 0;
		s->items = arena_alloc(L->arena, sizeof *s->items * (size_t)(4 + rank));
		for (int a = 0; a < 3; a++)
			s->items[s->nitems++] = simt_leaf(k, SE_PROGRAM_ID, DT_I32, a);
		for (int d = 0; d < rank; d++) {
			int fd = L->vp[x->id].map[d];
			s->items[s->nitems++] = x->type.shape[d] > 1 && fd >= 0 ? lower_coord(L, fd, lower_local_index(L, &n, fd))
								     : lower_ic(L, 0);
		}
		if (x)
			s->items[s->nitems++] = lower_read_value(L, &n, x);
		if (x && x->type.rank > 0)
			s->guard = lower_write_guard(L, &n, wide, NULL);
		else
			s->guard = simt_cmp(k, CMP_EQ, DT_I32, simt_leaf(k, SE_THREAD, DT_I32, 0), lower_ic(L, 0));
	}
}

/* ---- control flow: uniform in every program, as Triton's is ---- */

static void lower_value(Lower *L, const TValue *v);

/* Lowers a block's ops of part `part` (PART_NONE: all); returns its
 * closing yield (not lowered), or NULL. */
static const TValue *lower_part(Lower *L, const TBlock *b, int part)
{
	for (const TValue *v = b->first; v; v = v->next) {
		if (v->op == TOP_YIELD) {
			lower_flush_folds(L);
			return v;
		}
		if (part != PART_NONE && L->vp[v->id].part != part && L->vp[v->id].part != PART_BOTH)
			continue;
		if (L->vp[v->id].ahead == AHEAD_ONLY)
			continue;   /* lowered for the iteration ahead only (loads_ahead) */
		if (v->op == TOP_ARG || (lower_pure(v) && L->uses && L->uses[v->id] <= 0))
			continue;   /* an argument (lowered first), or a value nothing reads */
		if (!lower_folds_may_wait(L, v))
			lower_flush_folds(L);
		lower_comment_line(L, v);
		lower_value(L, v);
	}
	lower_flush_folds(L);
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
	lower_use_frame(L, L->vp[v->id].frame);
	unsigned vary = L->vp[v->id].present;
	return simt_reg(L->k, SR_THREAD, v->type.dtype, v->type.elem, lower_count_of(L, vary), name);
}

/* dst (a state register of `like`) = x, element by element */
static void copy_state(Lower *L, const TValue *like, SReg *dst, const TValue *x)
{
	lower_use_frame(L, L->vp[like->id].frame);
	unsigned vary = L->vp[like->id].present;
	Nest n = lower_nest_over(L, vary, 1);
	lower_assign_value(L, x, &n, dst, vary, lower_read_value(L, &n, x))->uniform = false;
}

/* A scalar operand of a control op: its value in any thread. */
static SExpr *scalar(Lower *L, const TValue *x)
{
	Nest none = {0};
	return lower_read_value(L, &none, x);
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
		skip[i] = (part != PART_NONE && L->vp[like[i]->id].part != part && L->vp[like[i]->id].part != PART_BOTH) ||
			  L->vp[like[i]->id].unread;
		/* already in its state register (a wgmma accumulator, in flight) */
		skip[i] |= p->reg == state[i] && p->regs_vary == L->vp[like[i]->id].present;
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
		lower_use_frame(L, L->vp[like[i]->id].frame);
		unsigned vary = L->vp[like[i]->id].present;
		Nest nn = lower_nest_over(L, vary, 1);
		lower_assign_value(L, y, &nn, state[i], vary, simt_ref(L->k, tmp[i], lower_index_in(L, &nn, vary)))->uniform = false;
	}
}

static void yield_into(Lower *L, const TValue *y, SReg **state, const TValue *const *like)
{
	yield_part(L, y, state, like, PART_NONE);
}

/* slot = (slot + 1) % stages, as slot == stages - 1 ? 0 : slot + 1 (a
 * compare and a select: the remainder by 3 is a multiply-high and more). */
static void next_slot(Lower *L, SReg *slot, int stages, int line)
{
	SStmt *s = lower_uniform_stmt(L, SS_ASSIGN, line);
	s->dst = simt_ref(L->k, slot, NULL);
	SExpr *sel = simt_leaf(L->k, SE_SELECT, DT_I32, 0);
	sel->a[0] = simt_cmp(L->k, CMP_EQ, DT_I32, simt_ref(L->k, slot, NULL), lower_ic(L, stages - 1));
	sel->a[1] = lower_ic(L, 0);
	sel->a[2] = lower_iadd(L, simt_ref(L->k, slot, NULL), lower_ic(L, 1));
	s->value = sel;
}

/* The carried values of both parts (PART_BOTH) read `state`: the
 * producer's registers or the consumer's own (Lower.cstate). */
static void both_read(Lower *L, const TValue *v, SReg **state, const TValue **like)
{
	for (int i = 0; i < v->nargs - 3; i++)
		if (L->vp[like[i]->id].part == PART_BOTH)
			lower_set_reg(L, like[i], state[i], L->vp[like[i]->id].present);
}

/* The consumer of iteration iv - (stages - 1), from iteration stages - 1 on
 * (`ahead`: step * (stages - 1)). */
static void consumer_part(Lower *L, const TValue *v, const Pipeline *pp, const SStmt *f, SExpr *ivr, SExpr *ahead,
			  SReg **pstate, const TValue **like)
{
	SReg **state = L->cstate ? L->cstate : pstate;
	const TBlock *body = v->body;
	SKernel *k = L->k;
	DType dt = body->params[0]->type.dtype;
	SStmt *g = lower_uniform_stmt(L, SS_IF, v->line);
	g->guard = simt_cmp(k, CMP_GE, dt, ivr, simt_binary(k, TOP_ADD, dt, f->lo, ahead));
	g->peel = PEEL_CONSUMER;
	if (pp->tma)   /* its slot's bulk copies have landed */
		lower_tma_wait(L, pp);
	const TValue *ivv = body->params[0];
	bool reads_iv = false;   /* then it reads its own iteration's: iv - ahead */
	for (const TValue *x = body->first; x; x = x->next)
		for (int i = 0; i < x->nargs; i++)
			reads_iv |= x->args[i] == ivv && (L->vp[x->id].part == PART_CONSUMER || L->vp[x->id].part == PART_BOTH);
	if (reads_iv) {
		SReg *own = simt_reg(k, SR_UNIFORM, dt, dt, 1, arena_printf(L->arena, "%s_used", ivv->name ? ivv->name : "iv"));
		SStmt *s = lower_uniform_stmt(L, SS_ASSIGN, v->line);
		s->dst = simt_ref(k, own, NULL);
		s->value = simt_binary(k, TOP_SUB, dt, ivr, ahead);
		lower_set_reg(L, ivv, own, 0);
	}
	both_read(L, v, state, like);
	const TValue *y = lower_part(L, body, PART_CONSUMER);
	if (reads_iv)
		lower_set_reg(L, ivv, f->iv, 0);
	if (y)
		yield_part(L, y, state, like, PART_CONSUMER);
	both_read(L, v, pstate, like);
	next_slot(L, L->pipe_regs[pp->id].use_slot, pp->stages, v->line);
	if (pp->tma)
		lower_tma_next_phase(L, pp);
	lower_uniform_stmt(L, SS_END, v->line);
}

static void next_tile_copies(Lower *L, const TValue *v, const Pipeline *pp, SReg *iv, SExpr *lo, SExpr *hi);

/* The producer of a pipelined loop's iteration (iv < hi): the stage's
 * bulk copies expected on its mbarrier, the copies, the next slot; in the
 * drain iterations of a pipeline carried across tiles, the next tile's. */
static void producer_step(Lower *L, const TValue *v, const Pipeline *pp, SStmt *f, SReg *iv, SExpr *hi,
			  SReg **state, const TValue **like)
{
	SKernel *k = L->k;
	DType dt = v->body->params[0]->type.dtype;
	SStmt *g = lower_uniform_stmt(L, SS_IF, v->line);
	g->guard = simt_cmp(k, CMP_LT, dt, simt_ref(k, iv, NULL), hi);
	g->peel = PEEL_PRODUCER;
	if (pp->tma)
		lower_tma_expect(L, pp);
	const TValue *y = lower_part(L, v->body, PART_PRODUCER);
	if (y)
		yield_part(L, y, state, like, PART_PRODUCER);
	next_slot(L, L->pipe_regs[pp->id].load_slot, pp->stages, v->line);
	if (pp->tiles) {
		lower_uniform_stmt(L, SS_ELSE, v->line);
		next_tile_copies(L, v, pp, iv, f->lo, hi);
	}
	lower_uniform_stmt(L, SS_END, v->line);
}

/* Two stages of wgmma dots: the copies of iteration i into the slot that
 * the dots of iteration i - 2 read go out first, once those dots are done
 * (waited for: the last group of the consumer before stays in flight over
 * the back edge) and the copies of iteration i - 1 have landed (one
 * barrier); then the consumer of iteration i - 1 computes while they fly.
 * Issued after the consumer, the copies would be waited for at the top of
 * the next iteration with nothing between to hide them. */
static void producer_first(Lower *L, const TValue *v, const Pipeline *pp, SStmt *f, SReg *iv, SExpr *hi,
			   SExpr *ahead, SReg **state, const TValue **like)
{
	SKernel *k = L->k;
	SExpr *ivr = simt_ref(k, iv, NULL);
	bool cp_async = !pp->tma || pp->cp_async;   /* bulk tensor copies alone: the consumer waits on mbarriers */
	for (int i = 0; i < pp->nacc; i++)
		if (L->place[pp->acc[i]->id].reg)
			lower_mma_group_stmt(L, SS_MMA_WAIT, v->line, L->place[pp->acc[i]->id].reg, 0);
	if (cp_async)
		lower_uniform_stmt(L, SS_COPY_WAIT, v->line)->vec = 0;
	lower_uniform_stmt(L, SS_BARRIER, v->line);
	producer_step(L, v, pp, f, iv, hi, state, like);
	if (cp_async)
		lower_uniform_stmt(L, SS_COPY_COMMIT, v->line);
	consumer_part(L, v, pp, f, ivr, ahead, state, like);
}

static SExpr *loop_runs(Lower *L, DType dt, SExpr *at, SExpr *hi, SExpr *step);

/* ---- a pipeline carried across a loop of tiles (plan.c, plan_across_tiles) ---- */

/* Iterations of K loop `v` that one tile runs, times its step (hi - lo > 0). */
static SExpr *tile_span(Lower *L, const TValue *v, SExpr *lo, SExpr *hi)
{
	SKernel *k = L->k;
	DType dt = v->body->params[0]->type.dtype;
	int64_t s = v->args[2]->iconst;
	SExpr *span = simt_binary(k, TOP_SUB, dt, hi, lo);
	if (s == 1)
		return span;
	SExpr *n = simt_binary(k, TOP_IDIV, dt, simt_binary(k, TOP_ADD, dt, span, simt_int(k, dt, s - 1)), simt_int(k, dt, s));
	return simt_binary(k, TOP_MUL, dt, n, simt_int(k, dt, s));
}

/* Whether K loop `v` runs at least stages - 1 iterations a tile: then the
 * drain of one tile issues the next one's first copies. */
static SExpr *tile_crosses(Lower *L, const TValue *v, const Pipeline *pp, SExpr *lo, SExpr *hi)
{
	DType dt = v->body->params[0]->type.dtype;
	SExpr *span = simt_binary(L->k, TOP_SUB, dt, hi, lo);
	return simt_cmp(L->k, CMP_GT, dt, span, simt_int(L->k, dt, v->args[2]->iconst * (pp->stages - 2)));
}

/* Before the tile loop `outer`: the pipeline's slots and shared arrays
 * (once for all tiles: the slots run on from tile to tile), and the K
 * loop's start, 0 for the first tile. */
static void tiles_before(Lower *L, const Pipeline *pp, const TValue *outer, SReg *iv, SExpr *hi, SExpr *step)
{
	SKernel *k = L->k;
	DType dt = outer->body->params[0]->type.dtype, kdt = pp->loop->body->params[0]->type.dtype;
	lower_pipeline_regs(L, pp);
	PipeRegs *pr = &L->pipe_regs[pp->id];
	pr->start = simt_reg(k, SR_UNIFORM, kdt, kdt, 1, "k_start");
	SStmt *s = lower_uniform_stmt(L, SS_ASSIGN, outer->line);
	s->dst = simt_ref(k, pr->start, NULL);
	s->value = simt_int(k, kdt, 0);
	pr->tile_next = simt_binary(k, TOP_ADD, dt, simt_ref(k, iv, NULL), step);
	pr->tile_runs = loop_runs(L, dt, pr->tile_next, hi, step);
}

/* In a drain iteration of K loop `v` (iv past hi): the copies of the next
 * tile's iteration iv - span, when the next tile runs and this one has
 * stages - 1 iterations at least, with the ops of the tile loop's body
 * they read lowered again for the next tile. What the lowering knows of
 * every value is as it was afterwards. */
static void next_tile_copies(Lower *L, const TValue *v, const Pipeline *pp, SReg *iv, SExpr *lo, SExpr *hi)
{
	SKernel *k = L->k;
	PipeRegs *pr = &L->pipe_regs[pp->id];
	const TBlock *ob = pp->tiles->body, *body = v->body;
	const TValue *tiv = ob->params[0], *kiv = body->params[0];
	DType dt = kiv->type.dtype, tdt = tiv->type.dtype;
	lower_uniform_stmt(L, SS_IF, v->line)->guard = tile_crosses(L, v, pp, lo, hi);
	lower_uniform_stmt(L, SS_IF, v->line)->guard = pr->tile_runs;
	Place *saved = arena_alloc(L->arena, sizeof *saved * (size_t)(L->nvalues + 1));
	memcpy(saved, L->place, sizeof *saved * (size_t)(L->nvalues + 1));
	SReg *tn = simt_reg(k, SR_UNIFORM, tdt, tdt, 1, arena_printf(L->arena, "%s_next", tiv->name ? tiv->name : "tile"));
	SStmt *s = lower_uniform_stmt(L, SS_ASSIGN, v->line);
	s->dst = simt_ref(k, tn, NULL);
	s->value = pr->tile_next;
	lower_set_reg(L, tiv, tn, 0);
	for (const TValue *x = ob->first; x && x != v; x = x->next)
		if (L->vp[x->id].next_tile && !(L->uses && L->uses[x->id] <= 0))
			lower_value(L, x);
	SReg *kn = simt_reg(k, SR_UNIFORM, dt, dt, 1, arena_printf(L->arena, "%s_next", kiv->name ? kiv->name : "iv"));
	s = lower_uniform_stmt(L, SS_ASSIGN, v->line);
	s->dst = simt_ref(k, kn, NULL);
	s->value = simt_binary(k, TOP_SUB, dt, simt_ref(k, iv, NULL), tile_span(L, v, lo, hi));
	lower_set_reg(L, kiv, kn, 0);
	if (pp->tma)
		lower_tma_expect(L, pp);
	lower_part(L, body, PART_PRODUCER);   /* it carries nothing (plan_across_loop) */
	memcpy(L->place, saved, sizeof *saved * (size_t)(L->nvalues + 1));
	next_slot(L, pr->load_slot, pp->stages, v->line);
	lower_uniform_stmt(L, SS_END, v->line);
	lower_uniform_stmt(L, SS_END, v->line);
}

/* The body of a pipelined loop (lower_dot.c says how it splits): the loop
 * runs stages - 1 more iterations. Iteration i first waits for the copies
 * of iteration i - (stages - 1) and meets the block at a barrier, so those
 * copies are visible and the dots of iteration i - 1 are done with the slot
 * that the producer of iteration i (while iv < hi) fills next; then the
 * consumer of iteration i - (stages - 1) (from the iteration stages - 1 on)
 * computes while the new copies land. One barrier an iteration. With one
 * stage the copies of iteration i are waited for before its dots. */
static SExpr *lower_pipelined(Lower *L, const TValue *v, const Pipeline *pp, SStmt *f, SReg *iv, SReg **state,
			      const TValue **like)
{
	const TBlock *body = v->body;
	SKernel *k = L->k;
	DType dt = body->params[0]->type.dtype;
	SExpr *hi = f->hi, *ahead = simt_binary(k, TOP_MUL, dt, f->step, simt_int(k, dt, pp->stages - 1));
	f->hi = simt_binary(k, TOP_ADD, dt, hi, ahead);
	SExpr *ivr = simt_ref(k, iv, NULL);

	bool single = pp->stages == 1;   /* copy, wait, compute: two barriers, no overlap */
	if (pp->wgmma && pp->stages == 2) {
		producer_first(L, v, pp, f, iv, hi, ahead, state, like);
		return ahead;
	}
	/* bulk tensor copies: the consumer waits on its slot's mbarrier; the
	 * barrier after it still tells the producer that the slot is read */
	bool cp_async = !pp->tma || pp->cp_async;   /* some operand by cp.async */
	if (!single && cp_async)
		lower_uniform_stmt(L, SS_COPY_WAIT, v->line)->vec = pp->stages - 2;
	if (single || cp_async || !pp->wgmma)
		lower_uniform_stmt(L, SS_BARRIER, v->line);
	if (pp->wgmma && !single) {
		/* the consumer first: its instructions stay in flight while the
		 * producer refills the slot the ones before read (waited for) */
		consumer_part(L, v, pp, f, ivr, ahead, state, like);
		lower_uniform_stmt(L, SS_BARRIER, v->line);
	}
	producer_step(L, v, pp, f, iv, hi, state, like);
	if (cp_async)
		lower_uniform_stmt(L, SS_COPY_COMMIT, v->line);
	if (single && cp_async) {
		lower_uniform_stmt(L, SS_COPY_WAIT, v->line)->vec = 0;
		lower_uniform_stmt(L, SS_BARRIER, v->line);
	}
	if (!pp->wgmma || single)
		consumer_part(L, v, pp, f, ivr, ahead, state, like);
	return ahead;
}

/* ---- loads issued an iteration ahead (plan.c, plan_ahead) ---- */

typedef struct Ahead {
	int nloads;
	const TValue **loads;     /* the body's AHEAD_LOADs, in order */
	SReg **next;              /* [load]: the next iteration's, loaded ahead */
	SReg **cur;               /* [load]: this iteration's */
	SReg *at;                 /* uniform: the induction variable of the iteration ahead */
} Ahead;

/* Whether the loop runs iteration `at`: step > 0 ? at < hi : at > hi. */
static SExpr *loop_runs(Lower *L, DType dt, SExpr *at, SExpr *hi, SExpr *step)
{
	SKernel *k = L->k;
	SExpr *lt = simt_cmp(k, CMP_LT, dt, at, hi), *gt = simt_cmp(k, CMP_GT, dt, at, hi);
	if (step->kind == SE_INT)
		return step->ival > 0 ? lt : gt;
	SExpr *e = simt_leaf(k, SE_SELECT, DT_I1, 0);
	e->a[0] = simt_cmp(k, CMP_GT, dt, step, simt_int(k, dt, 0));
	e->a[1] = lt;
	e->a[2] = gt;
	return e;
}

/* dst = src, element by element over `vary` (like's frame) */
static void copy_regs(Lower *L, const TValue *like, SReg *dst, SReg *src, unsigned vary)
{
	lower_use_frame(L, L->vp[like->id].frame);
	Nest n = lower_nest_over(L, vary, 1);
	lower_assign_value(L, like, &n, dst, vary, simt_ref(L->k, src, lower_index_in(L, &n, vary)));
}

/* The loads of the iteration at `at` (= `value`) into A->next, those ops
 * that compute their addresses lowered again for it, every access guarded
 * by the loop's running that iteration. */
static void loads_ahead(Lower *L, const TValue *loop, Ahead *A, SExpr *value, SExpr *hi, SExpr *step)
{
	const TBlock *body = loop->body;
	const TValue *ivv = body->params[0];
	SStmt *s = lower_uniform_stmt(L, SS_ASSIGN, loop->line);
	s->dst = simt_ref(L->k, A->at, NULL);
	s->value = value;
	lower_set_reg(L, ivv, A->at, 0);
	L->loading_ahead = true;
	L->load_guard = loop_runs(L, ivv->type.dtype, simt_ref(L->k, A->at, NULL), hi, step);
	int l = 0;
	for (const TValue *x = body->first; x; x = x->next) {
		int8_t ahead = L->vp[x->id].ahead;
		if (ahead == AHEAD_NONE || (L->uses && L->uses[x->id] <= 0))
			continue;
		lower_value(L, x);
		if (ahead != AHEAD_LOAD)
			continue;
		const Place *p = &L->place[x->id];
		if (!A->next[l])
			A->next[l] = simt_reg(L->k, p->reg->kind, p->reg->dtype, p->reg->elem, p->reg->count,
					      arena_printf(L->arena, "%s_next", x->name ? x->name : "t"));
		copy_regs(L, x, A->next[l], p->reg, p->regs_vary);
		l++;
	}
	L->loading_ahead = false;
	L->load_guard = NULL;
}

/* Before the loop: the loads of its first iteration. */
static Ahead *ahead_before(Lower *L, const TValue *loop, SExpr *lo, SExpr *hi, SExpr *step)
{
	Ahead *A = arena_alloc(L->arena, sizeof *A);
	const TBlock *body = loop->body;
	const TValue *ivv = body->params[0];
	for (const TValue *x = body->first; x; x = x->next)
		A->nloads += L->vp[x->id].ahead == AHEAD_LOAD && !(L->uses && L->uses[x->id] <= 0);
	A->loads = arena_alloc(L->arena, sizeof *A->loads * (size_t)(A->nloads + 1));
	A->cur = arena_alloc(L->arena, sizeof *A->cur * (size_t)(A->nloads + 1));
	A->next = arena_alloc(L->arena, sizeof *A->next * (size_t)(A->nloads + 1));
	int l = 0;
	for (const TValue *x = body->first; x; x = x->next)
		if (L->vp[x->id].ahead == AHEAD_LOAD && !(L->uses && L->uses[x->id] <= 0))
			A->loads[l++] = x;
	A->at = simt_reg(L->k, SR_UNIFORM, ivv->type.dtype, ivv->type.dtype, 1,
			 arena_printf(L->arena, "%s_next", ivv->name ? ivv->name : "iv"));
	loads_ahead(L, loop, A, lo, hi, step);
	return A;
}

/* At the top of the body: this iteration's loads from A->next, then the
 * loads of iteration iv + step into it; the body reads this iteration's.
 * (One iteration ahead: more would move registers whose loads are still
 * in flight at every back edge, which waits for them.) */
static void ahead_in_body(Lower *L, const TValue *loop, Ahead *A, SReg *iv, SExpr *hi, SExpr *step)
{
	DType dt = loop->body->params[0]->type.dtype;
	for (int l = 0; l < A->nloads; l++) {
		const TValue *x = A->loads[l];
		SReg *n = A->next[l];
		A->cur[l] = simt_reg(L->k, n->kind, n->dtype, n->elem, n->count, x->name ? x->name : n->name);
		copy_regs(L, x, A->cur[l], n, L->place[x->id].regs_vary);
	}
	loads_ahead(L, loop, A, simt_binary(L->k, TOP_ADD, dt, simt_ref(L->k, iv, NULL), step), hi, step);
	lower_set_reg(L, loop->body->params[0], iv, 0);
	for (int l = 0; l < A->nloads; l++)
		lower_set_reg(L, A->loads[l], A->cur[l], L->place[A->loads[l]->id].regs_vary);
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
	lower_set_reg(L, ivv, iv, 0);
	SReg **state = arena_alloc(L->arena, sizeof *state * (size_t)(n + 1));
	const TValue **like = arena_alloc(L->arena, sizeof *like * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		like[i] = body->params[i + 1];
		state[i] = state_reg(L, like[i], like[i]->name);
		/* a name assigned in the loop and read only before it (a loop's
		 * rows made again in each iteration) is carried but never read:
		 * its registers are not kept (place.c, drop_dead) */
		bool read = lower_carried_read(L, v, i);
		L->vp[like[i]->id].unread = !read;
		if (read)
			copy_state(L, like[i], state[i], v->args[3 + i]);
		lower_set_reg(L, like[i], state[i], L->vp[like[i]->id].present);
	}
	const TValue *step = v->args[2];
	const Pipeline *pp = L->vp[v->id].pipe, *tiles = NULL;
	for (int i = 0; i < L->plan->npipes; i++)
		if (L->plan->pipes[i]->tiles == v)
			tiles = L->plan->pipes[i];
	if (pp) {
		if (!pp->tiles)   /* else made before the tile loop */
			lower_pipeline_regs(L, pp);
		lower_stage_once(L, pp);
	}
	SReg **cstate = NULL;   /* the consumer's own registers of values both parts carry */
	for (int i = 0; pp && i < n; i++) {
		if (L->vp[like[i]->id].part != PART_BOTH)
			continue;
		if (!cstate) {
			cstate = arena_alloc(L->arena, sizeof *cstate * (size_t)(n + 1));
			memcpy(cstate, state, sizeof *cstate * (size_t)n);
		}
		cstate[i] = state_reg(L, like[i], arena_printf(L->arena, "%s_used", like[i]->name ? like[i]->name : "t"));
		copy_state(L, like[i], cstate[i], v->args[3 + i]);
	}
	SExpr *lo = scalar(L, v->args[0]), *hi = scalar(L, v->args[1]), *st = scalar(L, step);
	if (tiles)
		tiles_before(L, tiles, v, iv, hi, st);
	Ahead *A = L->vp[v->id].ahead_iters && !pp ? ahead_before(L, v, lo, hi, st) : NULL;
	SStmt *f = simt_stmt(L->k, SS_FOR, v->line);
	f->uniform = true;
	f->iv = iv;
	f->lo = lo;
	f->hi = hi;
	f->step = st;
	L->loop_depth++;
	if (A)
		ahead_in_body(L, v, A, iv, hi, st);
	SExpr *ahead = NULL;   /* a pipeline's iterations ahead, times the step */
	if (pp) {
		SReg **outer = L->cstate;
		L->cstate = cstate;
		ahead = lower_pipelined(L, v, pp, f, iv, state, like);
		L->cstate = outer;
		if (pp->tiles)   /* the tile before may have issued the first stages - 1 iterations */
			f->lo = simt_binary(L->k, TOP_ADD, ivv->type.dtype, lo, simt_ref(L->k, L->pipe_regs[pp->id].start, NULL));
	} else {
		const TValue *y = lower_block(L, body);
		if (y && n)
			yield_into(L, y, state, like);
	}
	L->loop_depth--;
	simt_stmt(L->k, SS_END, v->line)->uniform = true;
	/* fill, steady and drain loops without guards (peel.c), where an
	 * operand comes by cp.async: measured there (bench/merge/2026-12-04c.md);
	 * pipelines of bulk tensor copies alone keep the one loop */
	if (pp && pp->stages > 1 && (!pp->tma || pp->cp_async))
		simt_peel_pipeline(L->k, f, simt_binary(L->k, TOP_ADD, ivv->type.dtype, lo, ahead), hi);
	for (int i = 0; pp && i < pp->nacc; i++)     /* the last wgmma groups in flight */
		lower_mma_group_stmt(L, SS_MMA_WAIT, v->line, L->place[pp->acc[i]->id].reg, 0);
	if (pp && pp->tiles) {   /* the next tile's K loop: past the iterations this one's drain issued */
		DType dt = ivv->type.dtype;
		SExpr *e = simt_leaf(L->k, SE_SELECT, dt, 0);
		e->a[0] = tile_crosses(L, v, pp, lo, hi);
		e->a[1] = simt_int(L->k, dt, v->args[2]->iconst * (pp->stages - 1));
		e->a[2] = simt_int(L->k, dt, 0);
		SStmt *s = lower_uniform_stmt(L, SS_ASSIGN, v->line);
		s->dst = simt_ref(L->k, L->pipe_regs[pp->id].start, NULL);
		s->value = e;
	}
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
		lower_set_reg(L, like[i], state[i], L->vp[like[i]->id].present);
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
	lower_set_reg(L, v, op->results[v->aux], L->vp[v->id].present);
}

static void lower_value(Lower *L, const TValue *v)
{
	lower_use_frame(L, L->vp[v->id].frame);
	switch (v->op) {
	case TOP_ARG: {
		SExpr *e = simt_leaf(L->k, SE_ARG, v->type.dtype, (int)v->iconst);
		e->from = v->type.elem;
		lower_set_expr(L, v, e);
		return;
	}
	case TOP_CONST: lower_const(L, v); return;
	case TOP_PROGRAM_ID:
	case TOP_NUM_PROGRAMS:
		lower_set_expr(L, v, simt_leaf(L->k, v->op == TOP_PROGRAM_ID ? SE_PROGRAM_ID : SE_NUM_PROGRAMS, DT_I32, v->aux));
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
	case TOP_GATHER: lower_gather(L, v); return;
	case TOP_ADD: case TOP_SUB: case TOP_MUL: case TOP_DIV: case TOP_IDIV: case TOP_MOD: case TOP_FMOD:
	case TOP_AND: case TOP_OR: case TOP_XOR: case TOP_SHL: case TOP_SHR: case TOP_NEG: case TOP_NOT:
	case TOP_CMP: case TOP_WHERE: case TOP_CAST: case TOP_MATH: case TOP_MAXIMUM: case TOP_MINIMUM:
	case TOP_PTR_ADD: case TOP_BITCAST: case TOP_PHILOX:
		lower_elementwise(L, v);
		return;
	case TOP_ASM:
		if (L->target->kind != TARGET_CUDA)
			lower_error(L, v, "tl.inline_asm_elementwise: inline PTX runs on CUDA targets only, not on %s",
				    L->target->spec);
		if (!lower_asm(L, v, vary_of_args(L, v)))
			lower_elementwise(L, v);
		return;
	case TOP_LOAD:
		if (L->vp[v->id].ahead == AHEAD_LOAD && !L->loading_ahead)
			return;   /* in the registers loaded ahead (loop_ahead) */
		if (L->vp[v->id].staged)
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
	case TOP_PRINT: lower_print(L, v); return;
	case TOP_DOT: lower_dot(L, v); return;
	case TOP_SCAN: lower_scan(L, v); return;
	default:
		lower_error(L, v, "'%s' is not lowered to %s code yet", tir_op_name(v->op), L->target->spec);
	}
}

/* The kernel's statements, by the plan: thread coordinates, the arguments,
 * the body. */
static void emit_kernel_body(Lower *L)
{
	const TKernel *tk = L->tk;
	lower_thread_coords(L);
	for (int i = 0; i < tk->nargs; i++)
		lower_value(L, tk->args[i]);
	lower_block(L, tk->body);
}

/* An empty SIMT kernel of `target` for `tk`. */
SKernel *lower_new_kernel(Arena *a, const TKernel *tk, const Target *target)
{
	SKernel *k = arena_alloc(a, sizeof *k);
	k->name = tk->name;
	k->tile = tk;
	k->target = *target;
	k->warp_size = target->warp_size;
	k->num_warps = tk->num_warps > 0 ? tk->num_warps : 4;
	k->threads = k->warp_size * k->num_warps;
	k->arena = a;
	return k;
}

SKernel *simt_emit(Arena *a, Diag *diag, const Source *src, const Plan *plan)
{
	Plan *p = (Plan *)plan;   /* read only: the emission's state is its own */
	SKernel *k = lower_new_kernel(a, p->tk, &p->target);
	k->min_blocks = p->min_blocks;
	k->src = src;
	k->tmaps = p->tmaps;
	k->ntmaps = p->ntmaps;
	Lower L = {.arena = a, .diag = diag, .src = src, .tk = p->tk, .target = &p->target, .k = k, .plan = p,
		   .frames = p->frames, .nframes = p->nframes, .scalar_frame = p->scalar_frame, .vp = p->values,
		   .nvalues = p->nvalues, .uses = p->uses};
	L.place = arena_alloc(a, sizeof(Place) * (size_t)(p->nvalues + 1));
	L.firsts = arena_alloc(a, sizeof *L.firsts * (size_t)(p->nframes + 1));
	L.first_defs = arena_alloc(a, sizeof *L.first_defs * (size_t)(p->nframes + 1));
	L.operand_smem = arena_alloc(a, sizeof *L.operand_smem * (size_t)(p->noperands + 1));
	L.copy_at = arena_alloc(a, sizeof *L.copy_at * (size_t)(p->noperands + 1));
	L.copy_base = arena_alloc(a, sizeof *L.copy_base * (size_t)(p->noperands + 1));
	L.pipe_regs = arena_alloc(a, sizeof *L.pipe_regs * (size_t)(p->npipes + 1));
	jmp_buf jb, *saved = diag->jump;
	diag->jump = &jb;
	if (setjmp(jb)) {
		diag->jump = saved;
		return NULL;
	}
	emit_kernel_body(&L);
	diag->jump = saved;
	drop_unread_firsts(&L);
	return k;
}

SKernel *simt_lower(Arena *a, Diag *diag, const Source *src, TKernel *tk, const Target *target)
{
	Plan *p = simt_plan(a, diag, src, tk, target);
	SKernel *k = p ? simt_emit(a, diag, src, p) : NULL;
	return k && simt_allocate(diag, k) ? k : NULL;
}
