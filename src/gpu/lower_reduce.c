/* lower_reduce.c: tl.sum, tl.max, tl.argmax and the other reductions of
 * one tensor along an axis, in three steps (docs/lowering.md, section 4):
 * fold in each thread (copies along the axis skipped), a butterfly of xor
 * shuffles over exactly the lane bits that move along the axis, then one
 * partial per warp through shared memory. The butterfly is written once
 * here (reduce_lanes) for these and for tl.reduce with a combine function
 * (lower_scan.c), which brings its own combine. */
#include "gpu/lower_ops.h"

#include <math.h>

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
	int count = lower_count_of(L, vary);
	f.val = simt_reg(k, SR_THREAD, f.vt, f.vt, count, f.pair ? arena_printf(L->arena, "%s_value", v->name ? v->name : "arg") : v->name);
	if (f.pair) {
		f.idx = simt_reg(k, SR_THREAD, f.it, f.it, count, v->name);
		f.take = simt_reg(k, SR_THREAD, DT_I1, DT_I1, count, arena_printf(L->arena, "%s_wins", f.idx->name));
	}
	return f;
}

/* Registers of `x` indexed by `want` dims (a broadcast made real). */
static SReg *spec_materialize(Lower *L, const TValue *x, unsigned want)
{
	SReg *r = simt_reg(L->k, SR_THREAD, x->type.dtype, x->type.elem, lower_count_of(L, want), x->name);
	Nest n = lower_nest_over(L, want, 1);
	lower_assign_value(L, x, &n, r, want, lower_read_value(L, &n, x));
	return r;
}

static SStmt *fold_assign(Lower *L, const Fold *f, const Nest *n, SReg *dst, SExpr *value)
{
	SStmt *s = lower_assign_value(L, f->v, n, dst, f->vary, value);
	s->uniform = false;
	return s;
}

static SExpr *acc_ref(Lower *L, const Fold *f, const Nest *n, SReg *r)
{
	return simt_ref(L->k, r, lower_index_in(L, n, f->vary));
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

void lower_reduce_lanes(Lower *L, int line, int nregs, SReg *const *acc, SReg *const *got, const int *masks, int nmasks,
		  unsigned vary, LaneCombine combine, void *ctx)
{
	for (int m = nmasks - 1; m >= 0; m--) {
		for (int r = 0; r < nregs; r++) {
			SStmt *s = simt_stmt(L->k, SS_SHUFFLE, line);
			s->src = acc[r];
			s->shuffled = got[r];
			s->lane_xor = masks[m];
		}
		Nest n = lower_nest_over(L, vary, 1);
		combine(L, ctx, &n, got);
	}
}

/* acc = combine(acc, what came in from the partner lane) */
static void fold_incoming(Lower *L, void *ctx, const Nest *n, SReg *const *got)
{
	const Fold *f = ctx;
	fold_in(L, f, n, acc_ref(L, f, n, got[0]), f->pair ? acc_ref(L, f, n, got[1]) : NULL, NULL);
}

/* Across the lanes that share the axis: log2(lanes along it) xor steps,
 * the farthest lanes first, as Triton's reductions shuffle (its rounding,
 * for combines that only nearly associate, such as Welford's). */
static void fold_lanes(Lower *L, Fold *f, int d)
{
	SKernel *k = L->k;
	int masks[8];
	int nmasks = layout_lane_masks(&L->frame, d, masks);
	if (!nmasks)
		return;
	SReg *acc[2] = {f->val, f->idx}, *got[2] = {NULL, NULL};
	got[0] = simt_reg(k, SR_THREAD, f->vt, f->vt, f->val->count, arena_printf(L->arena, "%s_lane", f->val->name));
	if (f->pair)
		got[1] = simt_reg(k, SR_THREAD, f->it, f->it, f->idx->count, arena_printf(L->arena, "%s_lane", f->idx->name));
	lower_reduce_lanes(L, f->v->line, f->pair ? 2 : 1, acc, got, masks, nmasks, f->vary, fold_incoming, f);
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
	SExpr *low = at ? lower_ibin(L, TOP_AND, x, lower_ic(L, ((int64_t)1 << at) - 1)) : NULL;
	if (at + n >= bits)   /* nothing above */
		return low ? low : lower_ic(L, 0);
	SExpr *high = lower_ibin(L, TOP_SHR, x, lower_ic(L, at + n));
	if (at)
		high = lower_index_op(simt_binary(L->k, TOP_SHL, DT_I32, high, lower_ic(L, at)));
	return low ? lower_index_op(simt_binary(L->k, TOP_OR, DT_I32, high, low)) : high;
}

/* The first of the wpc slots of the thread's result at local index `r`:
 * its thread number without the lane and warp bits that move along d
 * (threads differing only there share the rows), times wpc. */
static SExpr *warp_slots(Lower *L, const WarpFold *w, SExpr *r)
{
	int wpc = L->frame.warps_per_cta[w->d], cnt = w->f.val->count;
	int lane_at = layout_lane_shift(&L->frame, w->d), lane_bits = base_ilog2(L->frame.threads_per_warp[w->d]);
	int warp_at = base_ilog2(L->k->warp_size) + layout_warp_shift(&L->frame, w->d);
	int bits = base_ilog2(L->k->threads);
	SExpr *key = drop_bits(L, simt_leaf(L->k, SE_THREAD, DT_I32, 0), bits, warp_at, base_ilog2(wpc));
	key = drop_bits(L, key, bits - base_ilog2(wpc), lane_at, lane_bits);
	return lower_imul(L, lower_iadd(L, lower_imul(L, key, lower_ic(L, cnt)), r), lower_ic(L, wpc));
}

static void read_warps(Lower *L, const WarpFold *w)
{
	SKernel *k = L->k;
	const Fold *f = &w->f;
	lower_use_frame(L, w->frame);
	SExpr *j = simt_leaf(k, SE_LOOP, DT_I32, w->outer.n);
	SExpr *base = warp_slots(L, w, lower_index_in(L, &w->outer, f->vary));
	fold_first(L, f, &w->outer, simt_ref(k, w->sv, base), w->si ? simt_ref(k, w->si, base) : NULL);
	SExpr *pslot = lower_iadd(L, lower_iadd(L, base, j), lower_ic(L, 1));
	SStmt *s = fold_in(L, f, &w->outer, simt_ref(k, w->sv, pslot), w->si ? simt_ref(k, w->si, pslot) : NULL, NULL);
	s->extent[s->nloops++] = L->frame.warps_per_cta[w->d] - 1;   /* the loop over j, innermost */
}

/* The barrier the waiting reductions need, and their reads. */
void lower_flush_folds(Lower *L)
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
	lower_use_frame(L, cur);
}

static void fold_warps(Lower *L, const Fold *f, const Nest *outer, int d)
{
	SKernel *k = L->k;
	int wpc = L->frame.warps_per_cta[d], tpw = L->frame.threads_per_warp[d];
	if (wpc <= 1)
		return;
	if (L->nwaiting == MAX_WAITING)
		lower_flush_folds(L);
	if (!L->waiting)
		L->waiting = arena_alloc(L->arena, sizeof *L->waiting * MAX_WAITING);
	WarpFold *w = &L->waiting[L->nwaiting++];
	*w = (WarpFold){.f = *f, .outer = *outer, .d = d, .frame = L->cur};
	int count = k->threads / tpw * f->val->count;
	w->sv = simt_reg(k, SR_SHARED, f->vt, f->vt, count, arena_printf(L->arena, "%s_warps", f->val->name));
	if (f->pair)
		w->si = simt_reg(k, SR_SHARED, f->it, f->it, count, arena_printf(L->arena, "%s_warps", f->idx->name));
	SExpr *thread = simt_leaf(k, SE_THREAD, DT_I32, 0);
	SExpr *warp_d = lower_ibin(L, TOP_AND, lower_ibin(L, TOP_SHR, thread, lower_ic(L, base_ilog2(k->warp_size) + layout_warp_shift(&L->frame, d))), lower_ic(L, wpc - 1));
	SExpr *slot = lower_iadd(L, warp_slots(L, w, lower_index_in(L, outer, f->vary)), warp_d);
	SExpr *lane_d = lower_ibin(L, TOP_AND, lower_ibin(L, TOP_SHR, thread, lower_ic(L, layout_lane_shift(&L->frame, d))), lower_ic(L, tpw - 1));
	SExpr *first_lane = tpw > 1 ? simt_cmp(k, CMP_EQ, DT_I32, lane_d, lower_ic(L, 0)) : NULL;
	for (int r = 0; r < (f->pair ? 2 : 1); r++) {
		SStmt *s = simt_stmt(k, SS_ASSIGN, f->v->line);
		lower_set_loops(L, s, outer);
		s->dst = simt_ref(k, r ? w->si : w->sv, slot);
		s->value = acc_ref(L, f, outer, r ? f->idx : f->val);
		s->guard = first_lane;
	}
}

/* Whether `v` may be lowered while reductions wait for their barrier: it
 * reads none of them and touches no shared memory and no barrier. */
bool lower_folds_may_wait(const Lower *L, const TValue *v)
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

void lower_reduce(Lower *L, const TValue *v)
{
	const TValue *x = v->args[0];
	const TValue *xi = v->nargs > 1 ? v->args[1] : NULL;
	int axis = v->aux2;
	int d = L->vp[x->id].map[axis];
	unsigned bit = d >= 0 ? 1u << d : 0;
	unsigned xvary = L->vp[x->id].present;   /* every element of the tile, made real */
	unsigned vary = xvary & ~bit;
	SReg *xreg = lower_vary_of(L, x) == xvary && L->place[x->id].reg ? L->place[x->id].reg : spec_materialize(L, x, xvary);
	SReg *ireg = NULL;
	if (xi)
		ireg = lower_vary_of(L, xi) == xvary && L->place[xi->id].reg ? L->place[xi->id].reg : spec_materialize(L, xi, xvary);
	Fold f = fold_of(L, v, vary);
	SKernel *k = L->k;

	/* 1. In each thread: fold its elements along the axis, skipping copies. */
	Nest outer = lower_nest_over(L, vary, 1);
	Nest all = lower_nest_over(L, xvary, 1);
	SExpr *guard = d >= 0 ? lower_not_wrapped(L, d, lower_local_index(L, &all, d)) : NULL;
	if (d >= 0 && !guard && layout_local_extent(&L->frame, d) > 1) {
		/* no wrapped copies along d: start from the element of local index 0 */
		fold_first(L, &f, &outer, simt_ref(k, xreg, lower_index_in(L, &outer, xvary)),
			   ireg ? simt_ref(k, ireg, lower_index_in(L, &outer, xvary)) : NULL);
		guard = simt_cmp(k, CMP_NE, DT_I32, lower_local_index(L, &all, d), lower_ic(L, 0));
	} else {
		fold_reset(L, &f, &outer);
	}
	SExpr *xe = simt_ref(k, xreg, lower_index_in(L, &all, xvary));
	SExpr *ie = ireg ? simt_ref(k, ireg, lower_index_in(L, &all, xvary)) : NULL;
	fold_in(L, &f, &all, xe, ie, guard);
	if (d >= 0) {
		fold_lanes(L, &f, d);
		fold_warps(L, &f, &outer, d);
	}
	lower_set_reg(L, v, f.pair ? f.idx : f.val, vary);
}

