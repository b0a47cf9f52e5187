/* lower_scan.c: tl.cumsum, tl.cumprod and tl.associative_scan.
 *
 * A scan carries one value per scanned tensor and combines them with the
 * combine function's body (tir.h, TOP_SCAN), applied to expressions: each
 * op of the body becomes an expression of the two sides, all of it one
 * loop body of assignments, so a (value, index) pair or a recurrence of
 * (a, b) pairs costs what its ops cost. The left side is always the part
 * of the row that comes first in scan order (the end of the row first when
 * reverse), so a combine that is associative but not commutative is right.
 *
 * The fast path, along frame dimension d, is right for any warp width by
 * construction, like the reduction: every count comes from the layout.
 *
 *  1. In the thread: each run of size_per_thread consecutive elements, in
 *     order.
 *  2. Across the lanes that move along d (the layout's lane bits of d): an
 *     inclusive Hillis-Steele scan of each run's last element, shuffling
 *     up (down when reverse) by 1, 2, 4 ... lanes along d; a lane combines
 *     only when its partner is that far along its own row, so lanes of
 *     other rows never mix. One more shuffle by one lane gives each lane
 *     the combination of the lanes before it, which it combines into its
 *     run. A run of one element needs neither: the scan of the lanes is
 *     the scan.
 *  3. Across the warps along d and the repetitions (when the row is longer
 *     than the CTA tile): the row falls into pieces of one warp's run of
 *     lanes, in order repetition-major. The last lane of each piece writes
 *     the piece's total to shared memory, one barrier, and every thread
 *     combines, in order, the totals of the pieces before each of its own
 *     (one pass over the row's pieces), then combines that into its
 *     elements.
 *
 * When the block is wider than the tile along d, the lanes (or warps)
 * beyond the tile's extent hold wrapped copies: the scan runs over the
 * low lane and warp bits that the tile needs, so each copy computes the
 * same values as its original, and only originals write shared memory.
 *
 * Through shared memory (layouts the fast path does not know, and the
 * tests): each element is written once as [row][position], one thread
 * scans each row in order, every thread reads its elements back. */
#include "gpu/lower_ops.h"

bool lower_scan_in_shared_memory;

/* ---- the scan and its combine ---- */

typedef struct Scan {
	const TValue *v;
	int n;                          /* values carried: one per scanned tensor */
	DType dt[TIR_MAX_SCAN];
	int axis;                       /* of the tile */
	int d;                          /* the axis's frame dim; -1 when its extent is 1 */
	bool reverse;
	unsigned present;               /* frame dims the tile spans */
	int *uses;                      /* by value id: how often the combine's body reads it */
	SReg **temp;                    /* by value id: the temporary of a body value read twice */
	SReg *out[TIR_MAX_SCAN];        /* the combine's results, when it has several */
	bool divides;                   /* the combine divides integers */
} Scan;

static const char *scan_name(const Scan *sc, const char *what)
{
	return sc->v->name ? sc->v->name : what;
}

/* The name of result i: the Triton variable of the scan or of its TOP_RESULT. */
static const char *result_name(const Scan *sc, int i)
{
	for (const TValue *r = sc->v->next; i > 0 && r && r->op == TOP_RESULT; r = r->next)
		if (r->args[0] == sc->v && r->aux == i)
			return r->name ? r->name : "scanned";
	return scan_name(sc, "scanned");
}

/* The scan (or tl.reduce) `v` of its tensors along tile axis `axis` of
 * `spread` (the value whose frame dims it runs over), its combine's body
 * counted: how often each value is read, whether it divides integers. */
static Scan scan_of(Lower *L, const TValue *v, int axis, const TValue *spread, const char *what)
{
	Scan sc = {.v = v, .n = v->nargs, .axis = axis};
	if (sc.n > TIR_MAX_SCAN)
		lower_error(L, v, "too many tensors in one %s (limit is %d)", what, TIR_MAX_SCAN);
	sc.d = L->vp[spread->id].map[axis];
	sc.present = L->vp[spread->id].present;
	sc.uses = arena_alloc(L->arena, sizeof *sc.uses * (size_t)(L->nvalues + 1));
	sc.temp = arena_alloc(L->arena, sizeof *sc.temp * (size_t)(L->nvalues + 1));
	for (const TValue *op = v->body->first; op; op = op->next) {
		for (int i = 0; i < op->nargs; i++)
			sc.uses[op->args[i]->id]++;
		sc.divides |= (op->op == TOP_IDIV || op->op == TOP_MOD) && !dtype_is_float(op->type.dtype);
	}
	for (int i = 0; i < sc.n; i++)
		sc.dt[i] = v->args[i]->type.dtype;
	return sc;
}

/* Registers of each carried value. */
static void value_regs(Lower *L, const Scan *sc, SReg **r, SRegKind kind, int count, const char *what)
{
	for (int i = 0; i < sc->n; i++)
		r[i] = simt_reg(L->k, kind, sc->dt[i], sc->dt[i], count,
				arena_printf(L->arena, "%s_%s", result_name(sc, i), what));
}

/* The combine's body reads `v` as `e`. */
static void bind(Lower *L, const TValue *v, SExpr *e)
{
	Place *p = &L->place[v->id];
	p->expr = e;
	p->reg = NULL;
	p->lowered = true;
}

/* The expression of one op of the combine's body, its operands bound. */
static SExpr *body_expr(Lower *L, const TValue *op)
{
	Nest none = {0};
	switch (op->op) {
	case TOP_CONST:
		return dtype_is_float(op->type.dtype) ? simt_float(L->k, op->type.dtype, op->fconst)
						      : simt_int(L->k, op->type.dtype, op->iconst);
	case TOP_SPLAT: case TOP_BROADCAST: case TOP_EXPAND: case TOP_RESHAPE: case TOP_HINT:
		return lower_read_value(L, &none, op->args[0]);   /* rank 0: the same scalar */
	case TOP_ADD: case TOP_SUB: case TOP_MUL: case TOP_DIV: case TOP_IDIV: case TOP_MOD: case TOP_FMOD:
	case TOP_AND: case TOP_OR: case TOP_XOR: case TOP_SHL: case TOP_SHR: case TOP_NEG: case TOP_NOT:
	case TOP_CMP: case TOP_WHERE: case TOP_CAST: case TOP_MATH: case TOP_MAXIMUM: case TOP_MINIMUM:
	case TOP_BITCAST:
		return lower_elementwise_expr(L, op, &none);
	default:
		lower_error(L, op, "'%s' in a scan's combine function is not lowered yet", tir_op_name(op->op));
	}
}

/* One more assignment in the loop body that `*head` starts (or the start). */
static SStmt *chain(Lower *L, SStmt **head, SExpr *dst, SExpr *value, SExpr *guard, int line)
{
	SStmt *s = *head ? simt_also(L->k, *head) : simt_stmt(L->k, SS_ASSIGN, line);
	if (!*head)
		*head = s;
	s->dst = dst;
	s->value = value;
	s->guard = guard;
	return s;
}

/* dst[i] = combine(lhs, rhs)[i] for every carried value: the body's ops
 * as expressions, appended to the loop body of `head` (a new statement if
 * NULL), which is returned. A body value read twice goes through a
 * temporary; with several results all of them do, since dst may be lhs or
 * rhs. Where `when` is false, dst keeps its value: the ops are computed
 * anyway and the results selected, which keeps the GPU compilers' control
 * flow flat (a branch per element can take hipcc minutes), unless the
 * combine divides integers (a division by a value nobody uses could trap
 * on the CPU); then, as where `guard` is false, nothing is computed. */
static SStmt *combine(Lower *L, Scan *sc, SStmt *head, SExpr *const *lhs, SExpr *const *rhs, SExpr *const *dst,
		      SExpr *when, SExpr *guard)
{
	const TBlock *b = sc->v->body;
	int n = sc->n, line = sc->v->line;
	if (when && sc->divides) {
		guard = simt_and(L->k, guard, when);
		when = NULL;
	}
	for (int i = 0; i < n; i++) {
		bind(L, b->params[i], lhs[i]);
		bind(L, b->params[n + i], rhs[i]);
	}
	const TValue *y = NULL;
	for (const TValue *op = b->first; op && !y; op = op->next) {
		if (op->op == TOP_YIELD) {
			y = op;
			continue;
		}
		SExpr *e = body_expr(L, op);
		if (sc->uses[op->id] > 1) {
			if (!sc->temp[op->id])
				sc->temp[op->id] = simt_reg(L->k, SR_THREAD, op->type.dtype, op->type.dtype, 1,
							    arena_printf(L->arena, "%s_c", scan_name(sc, "scan")));
			chain(L, &head, simt_ref(L->k, sc->temp[op->id], NULL), e, guard, line);
			e = simt_ref(L->k, sc->temp[op->id], NULL);
		}
		bind(L, op, e);
	}
	Nest none = {0};
	SExpr *value[TIR_MAX_SCAN];
	for (int i = 0; i < n; i++) {
		value[i] = lower_read_value(L, &none, y->args[i]);
		if (n > 1) {
			if (!sc->out[i])
				sc->out[i] = simt_reg(L->k, SR_THREAD, sc->dt[i], sc->dt[i], 1,
						      arena_printf(L->arena, "%s_next", result_name(sc, i)));
			chain(L, &head, simt_ref(L->k, sc->out[i], NULL), value[i], guard, line);
			value[i] = simt_ref(L->k, sc->out[i], NULL);
		}
	}
	for (int i = 0; i < n; i++) {
		if (when) {
			SExpr *e = simt_leaf(L->k, SE_SELECT, sc->dt[i], 0);
			e->a[0] = when;
			e->a[1] = value[i];
			e->a[2] = dst[i];
			value[i] = e;
		}
		chain(L, &head, dst[i], value[i], guard, line);
	}
	return head;
}

/* The row and the position along the axis of the nest's current element,
 * rows numbered row-major over the tile's other dims. */
static void slot_of(Lower *L, const Scan *sc, const Nest *n, SExpr **row, SExpr **pos)
{
	const TValue *v = sc->v;
	*row = lower_ic(L, 0);
	*pos = lower_ic(L, 0);
	for (int k = 0; k < v->type.rank; k++) {
		int d = L->vp[v->id].map[k];
		SExpr *c = d >= 0 ? lower_coord(L, d, lower_local_index(L, n, d)) : lower_ic(L, 0);
		if (k == sc->axis)
			*pos = c;
		else
			*row = lower_iadd(L, lower_imul(L, *row, lower_ic(L, v->type.shape[k])), c);
	}
}

static int rows_of(const Scan *sc)
{
	int rows = 1;
	for (int k = 0; k < sc->v->type.rank; k++)
		rows *= k == sc->axis ? 1 : sc->v->type.shape[k];
	return rows;
}

/* ---- through shared memory, one thread a row ---- */

static void scan_shared(Lower *L, Scan *sc, SReg **res)
{
	SKernel *k = L->k;
	const TValue *v = sc->v;
	int R = v->type.shape[sc->axis], rows = rows_of(sc), line = v->line;
	SReg *smem[TIR_MAX_SCAN];
	value_regs(L, sc, smem, SR_SHARED, rows * R, "rows");
	Nest n = lower_nest_over(L, sc->present, 1);
	SExpr *row, *pos;
	if (L->loop_depth)
		simt_stmt(k, SS_BARRIER, line);
	slot_of(L, sc, &n, &row, &pos);
	SExpr *at = lower_iadd(L, lower_imul(L, row, lower_ic(L, R)), pos);
	SStmt *head = NULL;
	for (int i = 0; i < sc->n; i++)
		chain(L, &head, simt_ref(k, smem[i], at), lower_read_value(L, &n, v->args[i]), lower_write_guard(L, &n, sc->present, NULL),
		      line);
	lower_set_loops(L, head, &n);
	simt_stmt(k, SS_BARRIER, line);

	/* row = thread + i * threads (loop 0), position j + 1 (loop 1), in order */
	if (R > 1) {
		SExpr *thread = simt_leaf(k, SE_THREAD, DT_I32, 0);
		SExpr *i = simt_leaf(k, SE_LOOP, DT_I32, 0), *j = simt_leaf(k, SE_LOOP, DT_I32, 1);
		SExpr *r = lower_iadd(L, thread, lower_imul(L, i, lower_ic(L, k->threads)));
		SExpr *cur = sc->reverse ? lower_iadd(L, lower_imul(L, j, lower_ic(L, -1)), lower_ic(L, R - 2)) : lower_iadd(L, j, lower_ic(L, 1));
		SExpr *prev = lower_iadd(L, cur, lower_ic(L, sc->reverse ? 1 : -1));
		SExpr *base = lower_imul(L, r, lower_ic(L, R));
		SExpr *lhs[TIR_MAX_SCAN], *rhs[TIR_MAX_SCAN], *dst[TIR_MAX_SCAN];
		for (int q = 0; q < sc->n; q++) {
			lhs[q] = simt_ref(k, smem[q], lower_iadd(L, base, prev));
			rhs[q] = dst[q] = simt_ref(k, smem[q], lower_iadd(L, base, cur));
		}
		SStmt *s = combine(L, sc, NULL, lhs, rhs, dst, NULL, simt_cmp(k, CMP_LT, DT_I32, r, lower_ic(L, rows)));
		s->nloops = 2;
		s->extent[0] = (rows + k->threads - 1) / k->threads;
		s->extent[1] = R - 1;
		simt_stmt(k, SS_BARRIER, line);
	}

	head = NULL;
	for (int i = 0; i < sc->n; i++)
		chain(L, &head, simt_ref(k, res[i], lower_index_in(L, &n, sc->present)), simt_ref(k, smem[i], at), NULL, line);
	lower_set_loops(L, head, &n);
	if (L->loop_depth)
		simt_stmt(k, SS_BARRIER, line);
}

/* ---- the fast path ---- */

/* Along the axis each thread holds `reps` runs of `spt` consecutive
 * elements; `lanes` runs side by side make a warp's piece of the row and
 * `warps` pieces one CTA tile. Lanes and warps count only those the tile
 * needs (the others hold wrapped copies); `pieces` is warps * reps. */
typedef struct Geometry {
	int spt, lanes, warps, reps, pieces;
	int lane_shift, warp_shift;
} Geometry;

static Geometry geometry_of(Lower *L, const Scan *sc)
{
	const Layout *f = &L->frame;
	int d = sc->d, S = L->frame_shape[d];
	Geometry g = {.spt = f->size_per_thread[d]};
	int tpw = f->threads_per_warp[d], wpc = f->warps_per_cta[d];
	g.lanes = imin(tpw, S / g.spt);
	g.warps = S > g.spt * tpw ? imin(wpc, S / (g.spt * tpw)) : 1;
	g.reps = lower_extent_of(L, d) / g.spt;
	g.pieces = g.warps * g.reps;
	g.lane_shift = layout_lane_shift(f, d);
	g.warp_shift = layout_warp_shift(f, d);
	return g;
}

/* Position `p` of `count` counted in scan order. */
static SExpr *in_order(Lower *L, const Scan *sc, SExpr *p, int count)
{
	return sc->reverse ? lower_iadd(L, lower_imul(L, p, lower_ic(L, -1)), lower_ic(L, count - 1)) : p;
}

/* This thread's lane (warp) among those along the axis, in scan order. */
static SExpr *lane_along(Lower *L, const Scan *sc, const Geometry *g)
{
	if (g->lanes == 1)
		return lower_ic(L, 0);
	SExpr *lane = simt_ref(L->k, L->lane, NULL);
	return in_order(L, sc, lower_ibin(L, TOP_AND, lower_ibin(L, TOP_SHR, lane, lower_ic(L, g->lane_shift)), lower_ic(L, g->lanes - 1)), g->lanes);
}

static SExpr *warp_along(Lower *L, const Scan *sc, const Geometry *g)
{
	if (g->warps == 1)
		return lower_ic(L, 0);
	SExpr *warp = simt_ref(L->k, L->warp, NULL);
	return in_order(L, sc, lower_ibin(L, TOP_AND, lower_ibin(L, TOP_SHR, warp, lower_ic(L, g->warp_shift)), lower_ic(L, g->warps - 1)), g->warps);
}

/* A statement's loops: a nest over the dims other than the axis, then
 * loops over repetitions and elements of a run. */
typedef struct Loops {
	Nest outer;
	int n;
	int extent[2];
} Loops;

/* Another loop: its variable, or 0 for an extent of 1 (no loop). */
static SExpr *add_loop(Lower *L, Loops *lp, int extent)
{
	if (extent <= 1)
		return lower_ic(L, 0);
	lp->extent[lp->n] = extent;
	return simt_leaf(L->k, SE_LOOP, DT_I32, lp->outer.n + lp->n++);
}

static void give_loops(Lower *L, SStmt *s, const Loops *lp)
{
	lower_set_loops(L, s, &lp->outer);
	for (int i = 0; i < lp->n; i++)
		s->extent[s->nloops++] = lp->extent[i];
}

/* Row-major index into registers spanning the tile's frame dims, the
 * outer nest's index along all but the axis, `at` along it (of `extent`). */
static SExpr *index_at(Lower *L, const Scan *sc, const Nest *outer, SExpr *at, int extent)
{
	SExpr *idx = lower_ic(L, 0);
	for (int k = 0; k < L->rank; k++) {
		if (!(sc->present & (1u << k)))
			continue;
		bool axis = k == sc->d;
		idx = lower_iadd(L, lower_imul(L, idx, lower_ic(L, axis ? extent : lower_extent_of(L, k))), axis ? at : lower_local_index(L, outer, k));
	}
	return idx;
}

static void refs(Lower *L, const Scan *sc, SExpr **out, SReg *const *r, SExpr *index)
{
	for (int i = 0; i < sc->n; i++)
		out[i] = simt_ref(L->k, r[i], index);
}

static void shuffle(Lower *L, const Scan *sc, SReg *const *src, SReg *const *dst, int lanes)
{
	for (int i = 0; i < sc->n; i++) {
		SStmt *s = simt_stmt(L->k, SS_SHUFFLE, sc->v->line);
		s->src = src[i];
		s->shuffled = dst[i];
		s->shuffle = sc->reverse ? SHUFFLE_DOWN : SHUFFLE_UP;
		s->lane_delta = lanes;
	}
}

static SExpr *at_least(Lower *L, SExpr *x, int v)
{
	return simt_cmp(L->k, CMP_GE, DT_I32, x, lower_ic(L, v));
}

/* 1: each run of consecutive elements in order. */
static void scan_runs(Lower *L, Scan *sc, const Geometry *g, SReg **res)
{
	int E = lower_extent_of(L, sc->d);
	Loops lo = {.outer = lower_nest_over(L, sc->present & ~(1u << sc->d), 1)};
	SExpr *r = add_loop(L, &lo, g->reps), *j = add_loop(L, &lo, g->spt - 1);
	SExpr *cur = lower_imul(L, r, lower_ic(L, g->spt)), *prev;
	if (sc->reverse) {
		cur = lower_iadd(L, cur, lower_iadd(L, lower_imul(L, j, lower_ic(L, -1)), lower_ic(L, g->spt - 2)));
		prev = lower_iadd(L, cur, lower_ic(L, 1));
	} else {
		cur = lower_iadd(L, cur, lower_iadd(L, j, lower_ic(L, 1)));
		prev = lower_iadd(L, cur, lower_ic(L, -1));
	}
	SExpr *lhs[TIR_MAX_SCAN], *now[TIR_MAX_SCAN];
	refs(L, sc, lhs, res, index_at(L, sc, &lo.outer, prev, E));
	refs(L, sc, now, res, index_at(L, sc, &lo.outer, cur, E));
	give_loops(L, combine(L, sc, NULL, lhs, now, now, NULL, NULL), &lo);
}

/* 2: across the lanes along the axis. */
static void scan_lanes(Lower *L, Scan *sc, const Geometry *g, SReg **res)
{
	int E = lower_extent_of(L, sc->d), line = sc->v->line;
	int last = sc->reverse ? 0 : g->spt - 1;   /* a run's last element in scan order */
	unsigned others = sc->present & ~(1u << sc->d);
	SExpr *lane = lane_along(L, sc, g);
	SReg *tot[TIR_MAX_SCAN], *got[TIR_MAX_SCAN];
	SExpr *a[TIR_MAX_SCAN], *b[TIR_MAX_SCAN];
	int count = lower_count_of(L, others) * g->reps;
	if (g->spt == 1) {
		for (int i = 0; i < sc->n; i++)
			tot[i] = res[i];
	} else {   /* each run's last element */
		value_regs(L, sc, tot, SR_THREAD, count, "run");
		Loops lo = {.outer = lower_nest_over(L, others, 1)};
		SExpr *r = add_loop(L, &lo, g->reps);
		refs(L, sc, a, tot, index_at(L, sc, &lo.outer, r, g->reps));
		refs(L, sc, b, res, index_at(L, sc, &lo.outer, lower_iadd(L, lower_imul(L, r, lower_ic(L, g->spt)), lower_ic(L, last)), E));
		SStmt *head = NULL;
		for (int i = 0; i < sc->n; i++)
			chain(L, &head, a[i], b[i], NULL, line);
		give_loops(L, head, &lo);
	}
	value_regs(L, sc, got, SR_THREAD, count, "lanes");
	for (int step = 1; step < g->lanes; step *= 2) {
		shuffle(L, sc, tot, got, step << g->lane_shift);
		Loops lo = {.outer = lower_nest_over(L, others, 1)};
		SExpr *idx = index_at(L, sc, &lo.outer, add_loop(L, &lo, g->reps), g->reps);
		refs(L, sc, a, got, idx);
		refs(L, sc, b, tot, idx);
		give_loops(L, combine(L, sc, NULL, a, b, b, at_least(L, lane, step), NULL), &lo);
	}
	if (g->spt == 1)
		return;
	/* the lanes before this one, combined into its runs */
	shuffle(L, sc, tot, got, 1 << g->lane_shift);
	Loops lo = {.outer = lower_nest_over(L, others, 1)};
	SExpr *r = add_loop(L, &lo, g->reps), *s = add_loop(L, &lo, g->spt);
	refs(L, sc, a, got, index_at(L, sc, &lo.outer, r, g->reps));
	refs(L, sc, b, res, index_at(L, sc, &lo.outer, lower_iadd(L, lower_imul(L, r, lower_ic(L, g->spt)), s), E));
	give_loops(L, combine(L, sc, NULL, a, b, b, at_least(L, lane, 1), NULL), &lo);
}

/* 3: across the row's pieces (warps along the axis, then repetitions). */
static void scan_pieces(Lower *L, Scan *sc, const Geometry *g, SReg **res)
{
	SKernel *k = L->k;
	int E = lower_extent_of(L, sc->d), P = g->pieces, line = sc->v->line;
	int last = sc->reverse ? 0 : g->spt - 1;
	unsigned others = sc->present & ~(1u << sc->d);
	SExpr *lane = lane_along(L, sc, g), *warp = warp_along(L, sc, g);
	SExpr *a[TIR_MAX_SCAN], *b[TIR_MAX_SCAN], *c[TIR_MAX_SCAN];
	SReg *total[TIR_MAX_SCAN], *before[TIR_MAX_SCAN], *run[TIR_MAX_SCAN];
	value_regs(L, sc, total, SR_SHARED, rows_of(sc) * P, "pieces");

	/* the last lane of each piece writes its total, once per row */
	Loops lo = {.outer = lower_nest_over(L, others, 1)};
	SExpr *r = add_loop(L, &lo, g->reps), *row, *pos;
	slot_of(L, sc, &lo.outer, &row, &pos);
	SExpr *piece = lower_iadd(L, lower_imul(L, in_order(L, sc, r, g->reps), lower_ic(L, g->warps)), warp);
	SExpr *guard = lower_write_guard(L, &lo.outer, sc->present, NULL);
	if (g->lanes > 1)
		guard = simt_and(k, guard, simt_cmp(k, CMP_EQ, DT_I32, lane, lower_ic(L, g->lanes - 1)));
	refs(L, sc, a, total, lower_iadd(L, lower_imul(L, row, lower_ic(L, P)), piece));
	refs(L, sc, b, res, index_at(L, sc, &lo.outer, lower_iadd(L, lower_imul(L, r, lower_ic(L, g->spt)), lower_ic(L, last)), E));
	SStmt *head = NULL;
	for (int i = 0; i < sc->n; i++)
		chain(L, &head, a[i], b[i], guard, line);
	give_loops(L, head, &lo);
	simt_stmt(k, SS_BARRIER, line);

	/* one pass over the row's pieces: `run` combines the pieces so far;
	 * when the next is one of this thread's, `before` takes it (until then
	 * it holds the first piece, so that it is never read unset) */
	value_regs(L, sc, before, SR_THREAD, lower_count_of(L, others) * g->reps, "before");
	value_regs(L, sc, run, SR_THREAD, lower_count_of(L, others), "pieces_run");
	lo = (Loops){.outer = lower_nest_over(L, others, 1)};
	slot_of(L, sc, &lo.outer, &row, &pos);
	refs(L, sc, a, run, lower_index_in(L, &lo.outer, others));
	refs(L, sc, b, total, lower_imul(L, row, lower_ic(L, P)));
	head = NULL;
	for (int i = 0; i < sc->n; i++)
		chain(L, &head, a[i], b[i], NULL, line);
	give_loops(L, head, &lo);
	lo = (Loops){.outer = lower_nest_over(L, others, 1)};
	refs(L, sc, c, before, index_at(L, sc, &lo.outer, add_loop(L, &lo, g->reps), g->reps));
	head = NULL;
	for (int i = 0; i < sc->n; i++)
		chain(L, &head, c[i], a[i], NULL, line);
	give_loops(L, head, &lo);

	lo = (Loops){.outer = lower_nest_over(L, others, 1)};
	SExpr *j = lower_iadd(L, add_loop(L, &lo, P - 1), lower_ic(L, 1));
	SExpr *rep = in_order(L, sc, lower_ibin(L, TOP_IDIV, j, lower_ic(L, g->warps)), g->reps);
	SExpr *mine = g->warps > 1 ? simt_cmp(k, CMP_EQ, DT_I32, lower_ibin(L, TOP_MOD, j, lower_ic(L, g->warps)), warp) : NULL;
	slot_of(L, sc, &lo.outer, &row, &pos);
	refs(L, sc, a, run, lower_index_in(L, &lo.outer, others));
	refs(L, sc, b, total, lower_iadd(L, lower_imul(L, row, lower_ic(L, P)), j));
	refs(L, sc, c, before, index_at(L, sc, &lo.outer, rep, g->reps));
	head = NULL;
	for (int i = 0; i < sc->n; i++) {
		SExpr *take = a[i];
		if (mine) {
			take = simt_leaf(k, SE_SELECT, sc->dt[i], 0);
			take->a[0] = mine;
			take->a[1] = a[i];
			take->a[2] = c[i];
		}
		chain(L, &head, c[i], take, NULL, line);
	}
	give_loops(L, combine(L, sc, head, a, b, a, NULL, NULL), &lo);

	/* every piece but the first takes what comes before it */
	lo = (Loops){.outer = lower_nest_over(L, others, 1)};
	r = add_loop(L, &lo, g->reps);
	SExpr *s = add_loop(L, &lo, g->spt);
	piece = lower_iadd(L, lower_imul(L, in_order(L, sc, r, g->reps), lower_ic(L, g->warps)), warp);
	refs(L, sc, a, before, index_at(L, sc, &lo.outer, r, g->reps));
	refs(L, sc, b, res, index_at(L, sc, &lo.outer, lower_iadd(L, lower_imul(L, r, lower_ic(L, g->spt)), s), E));
	give_loops(L, combine(L, sc, NULL, a, b, b, at_least(L, piece, 1), NULL), &lo);
	if (L->loop_depth)   /* the next iteration writes the same totals */
		simt_stmt(k, SS_BARRIER, line);
}

/* Whether the fast path knows the layout: blocked, whole runs along the axis. */
void lower_scan(Lower *L, const TValue *v)
{
	Scan sc = scan_of(L, v, v->aux, v, "scan");
	sc.reverse = v->aux2 != 0;
	SReg **res = arena_alloc(L->arena, sizeof *res * (size_t)sc.n);
	for (int i = 0; i < sc.n; i++)
		res[i] = simt_reg(L->k, SR_THREAD, sc.dt[i], sc.dt[i], lower_count_of(L, sc.present), result_name(&sc, i));
	if (sc.d >= 0 && L->vp[v->id].scan_shared) {   /* the plan's choice (plan.c, plan_scan_path) */
		scan_shared(L, &sc, res);
	} else {
		Nest n = lower_nest_over(L, sc.present, 1);
		SStmt *head = NULL;
		for (int i = 0; i < sc.n; i++)
			chain(L, &head, simt_ref(L->k, res[i], lower_index_in(L, &n, sc.present)), lower_read_value(L, &n, v->args[i]), NULL,
			      v->line);
		lower_set_loops(L, head, &n);
		if (sc.d >= 0) {
			Geometry g = geometry_of(L, &sc);
			if (g.spt > 1)
				scan_runs(L, &sc, &g, res);
			if (g.lanes > 1)
				scan_lanes(L, &sc, &g, res);
			if (g.pieces > 1)
				scan_pieces(L, &sc, &g, res);
		}
	}
	lower_set_reg(L, v, res[0], sc.present);
	L->place[v->id].results = res;
}

/* ---- tl.reduce with a combine function (RED_COMBINE) ----
 *
 * The reduction's three steps along frame dimension d (docs/lowering.md,
 * section 4) with the combine's body as the fold, and no identity: each
 * thread starts from its first element along d and folds in the others;
 * then the xor butterfly over the lane bits of d, then the warps along d
 * through shared memory. A combine has no identity to give wrapped copies,
 * so only the lanes and warps the tile needs take part (as in the scan):
 * the copies beyond them hold what their originals hold and compute the
 * same. Lanes and warps combine their own value with their partner's, so
 * the combine must be commutative, as Triton's lowering also takes it. */

/* Registers of the inputs over every element of the tile (a broadcast made real). */
static SReg *input_regs(Lower *L, const TValue *x, unsigned present)
{
	if (L->place[x->id].reg && L->place[x->id].regs_vary == present)
		return L->place[x->id].reg;
	SReg *r = simt_reg(L->k, SR_THREAD, x->type.dtype, x->type.elem, lower_count_of(L, present), x->name);
	Nest n = lower_nest_over(L, present, 1);
	SStmt *s = simt_stmt(L->k, SS_ASSIGN, x->line);
	lower_set_loops(L, s, &n);
	s->dst = simt_ref(L->k, r, lower_index_in(L, &n, present));
	s->value = lower_read_value(L, &n, x);
	return r;
}

/* acc = combine(acc, got): the lane step's combine (reduce_lanes) */
typedef struct LaneStep {
	Scan *sc;
	SReg **acc;
	unsigned vary;
} LaneStep;

static void combine_incoming(Lower *L, void *ctx, const Nest *n, SReg *const *got)
{
	LaneStep *ls = ctx;
	SExpr *a[TIR_MAX_SCAN], *b[TIR_MAX_SCAN];
	Loops lo = {.outer = *n};
	refs(L, ls->sc, a, ls->acc, lower_index_in(L, &lo.outer, ls->vary));
	refs(L, ls->sc, b, got, lower_index_in(L, &lo.outer, ls->vary));
	give_loops(L, combine(L, ls->sc, NULL, a, b, a, NULL, NULL), &lo);
}

/* acc combined with its partner's across lanes: xor shuffles over
 * masks[n - 1] down to masks[0] (the farthest lanes first, Triton's order). */
static void butterfly(Lower *L, Scan *sc, SReg **acc, SReg **got, const int *masks, int n, unsigned vary)
{
	LaneStep ls = {sc, acc, vary};
	lower_reduce_lanes(L, sc->v->line, sc->n, acc, got, masks, n, vary, combine_incoming, &ls);
}

/* acc[i] = x[i] over the nest of `lo` (one loop body) */
static void copy_in(Lower *L, Scan *sc, const Loops *lo, SExpr *const *dst, SExpr *const *x)
{
	SStmt *head = NULL;
	for (int i = 0; i < sc->n; i++)
		chain(L, &head, dst[i], x[i], NULL, sc->v->line);
	give_loops(L, head, lo);
}

/* 1. In the thread: its first element along d, then the others in order. */
static void combine_in_thread(Lower *L, Scan *sc, SReg **acc, SReg *const *in, unsigned vary)
{
	int d = sc->d, E = d >= 0 ? lower_extent_of(L, d) : 1;
	SExpr *a[TIR_MAX_SCAN], *b[TIR_MAX_SCAN];
	Loops lo = {.outer = lower_nest_over(L, vary, 1)};
	refs(L, sc, a, acc, lower_index_in(L, &lo.outer, vary));
	refs(L, sc, b, in, d >= 0 ? index_at(L, sc, &lo.outer, lower_ic(L, 0), E) : lower_index_in(L, &lo.outer, sc->present));
	copy_in(L, sc, &lo, a, b);
	if (d >= 0 && E > 1) {
		lo = (Loops){.outer = lower_nest_over(L, vary, 1)};
		SExpr *j = lower_iadd(L, add_loop(L, &lo, E - 1), lower_ic(L, 1));
		refs(L, sc, a, acc, lower_index_in(L, &lo.outer, vary));
		refs(L, sc, b, in, index_at(L, sc, &lo.outer, j, E));
		give_loops(L, combine(L, sc, NULL, a, b, a, NULL, NULL), &lo);
	}
}

/* 3. Across the warps the tile needs along d: partials through shared
 * memory. Where the lanes along d are at least as many as those warps,
 * lane j of each warp reads the partial of warp j mod warps and the lanes
 * combine in a butterfly (Triton's second stage, its order; no second
 * barrier: every group of lanes holds every partial); else each thread
 * folds those of its group in the same order. `masks` are all nmasks_all
 * lane masks of d. */
static void combine_warps(Lower *L, Scan *sc, const Geometry *g, SReg **acc, SReg **got, const int *masks,
			  int nmasks_all, unsigned vary)
{
	SKernel *k = L->k;
	int d = sc->d, line = sc->v->line, count = lower_count_of(L, vary);
	SExpr *a[TIR_MAX_SCAN], *b[TIR_MAX_SCAN];
	SReg *part[TIR_MAX_SCAN];
	value_regs(L, sc, part, SR_SHARED, k->threads * count, "warps");
	SExpr *thread = simt_leaf(k, SE_THREAD, DT_I32, 0);
	Loops lo = {.outer = lower_nest_over(L, vary, 1)};
	refs(L, sc, a, part, lower_iadd(L, lower_imul(L, thread, lower_ic(L, count)), lower_index_in(L, &lo.outer, vary)));
	refs(L, sc, b, acc, lower_index_in(L, &lo.outer, vary));
	copy_in(L, sc, &lo, a, b);
	simt_stmt(k, SS_BARRIER, line);
	int shift = base_ilog2(k->warp_size) + g->warp_shift;
	SExpr *cleared = lower_ibin(L, TOP_AND, thread, lower_ic(L, ~((int64_t)(L->frame.warps_per_cta[d] - 1) << shift)));
	int wbits = base_ilog2(g->warps);
	if (g->warps <= L->frame.threads_per_warp[d] && wbits <= nmasks_all) {   /* the tree */
		SExpr *lane = simt_ref(k, L->lane, NULL);
		SExpr *j = lower_ibin(L, TOP_AND, lower_ibin(L, TOP_SHR, lane, lower_ic(L, layout_lane_shift(&L->frame, d))), lower_ic(L, g->warps - 1));
		SExpr *partner = lower_index_op(simt_binary(k, TOP_OR, DT_I32, cleared, lower_ibin(L, TOP_SHL, j, lower_ic(L, shift))));
		lo = (Loops){.outer = lower_nest_over(L, vary, 1)};
		refs(L, sc, a, acc, lower_index_in(L, &lo.outer, vary));
		refs(L, sc, b, part, lower_iadd(L, lower_imul(L, partner, lower_ic(L, count)), lower_index_in(L, &lo.outer, vary)));
		copy_in(L, sc, &lo, a, b);
		butterfly(L, sc, acc, got, masks, wbits, vary);
	} else {
		for (int first = 1; first >= 0; first--) {
			lo = (Loops){.outer = lower_nest_over(L, vary, 1)};
			SExpr *j = first ? lower_ic(L, 0) : lower_iadd(L, add_loop(L, &lo, g->warps - 1), lower_ic(L, 1));
			SExpr *partner = lower_index_op(simt_binary(k, TOP_OR, DT_I32, cleared, lower_ibin(L, TOP_SHL, j, lower_ic(L, shift))));
			if (j->kind == SE_INT)
				partner = lower_iadd(L, cleared, lower_ic(L, j->ival << shift));
			refs(L, sc, a, acc, lower_index_in(L, &lo.outer, vary));
			refs(L, sc, b, part, lower_iadd(L, lower_imul(L, partner, lower_ic(L, count)), lower_index_in(L, &lo.outer, vary)));
			if (first)
				copy_in(L, sc, &lo, a, b);
			else
				give_loops(L, combine(L, sc, NULL, a, b, a, NULL, NULL), &lo);
		}
	}
	if (L->loop_depth)   /* the next iteration writes the same slots */
		simt_stmt(k, SS_BARRIER, line);
}

/* 2 and 3. Across the lanes the tile needs along d, then its warps. */
static void combine_across(Lower *L, Scan *sc, SReg **acc, unsigned vary)
{
	int d = sc->d, count = lower_count_of(L, vary);
	Geometry g = geometry_of(L, sc);
	/* the low log2(lanes) masks, the highest first, in the order of
	 * Triton's shuffles (its rounding) */
	int masks[8];
	int nmasks_all = layout_lane_masks(&L->frame, d, masks), nmasks = nmasks_all;
	while (nmasks > 0 && (1 << (nmasks - 1)) >= g.lanes)
		nmasks--;
	SReg *got[TIR_MAX_SCAN];
	if (g.lanes > 1 || (g.warps > 1 && g.warps <= L->frame.threads_per_warp[d]))
		value_regs(L, sc, got, SR_THREAD, count, "lane");
	butterfly(L, sc, acc, got, masks, nmasks, vary);
	if (g.warps > 1)
		combine_warps(L, sc, &g, acc, got, masks, nmasks_all, vary);
}

void lower_reduce_combine(Lower *L, const TValue *v)
{
	Scan sc = scan_of(L, v, v->aux2, v->args[0], "reduction");
	int d = sc.d;
	unsigned vary = sc.present & ~(d >= 0 ? 1u << d : 0);
	int count = lower_count_of(L, vary);
	SReg *in[TIR_MAX_SCAN], **acc = arena_alloc(L->arena, sizeof *acc * (size_t)sc.n);
	for (int i = 0; i < sc.n; i++) {
		in[i] = input_regs(L, v->args[i], sc.present);
		acc[i] = simt_reg(L->k, SR_THREAD, sc.dt[i], sc.dt[i], count, result_name(&sc, i));
	}
	combine_in_thread(L, &sc, acc, in, vary);
	if (d >= 0)
		combine_across(L, &sc, acc, vary);
	lower_set_reg(L, v, acc[0], vary);
	L->place[v->id].results = acc;
}
