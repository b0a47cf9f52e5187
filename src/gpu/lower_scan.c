/* lower_scan.c: tl.cumsum, tl.cumprod and tl.associative_scan. */
#include "gpu/lower_internal.h"

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
void lower_scan(Lower *L, const TValue *v)
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
	s->value = simt_cast(k, x->type.dtype, dt, read_value(L, &n, x));
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
	assign_value(L, v, &n, res, present, simt_ref(k, smem, iadd(L, imul(L, row, R), pos)))->uniform = false;
	if (L->loop_depth)
		simt_stmt(k, SS_BARRIER, v->line);
	set_reg(L, v, res, present);
}
