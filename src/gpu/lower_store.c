/* lower_store.c: stores of a matrix unit's accumulator layout, 16 bytes a
 * thread.
 *
 * In the accumulator layouts of mma.sync, wgmma and MFMA a thread holds
 * runs of two consecutive elements along a row, and the four lanes of a
 * quad (lane & 3) hold the four runs of eight consecutive columns: stored
 * as it lies, each run of 16-bit elements is a 4-byte store, and a warp's
 * store touches eight rows with 16 bytes each. Where the pointers allow
 * 16-byte accesses (axis analysis: contiguous and aligned over 8 elements,
 * the mask the same over them), the quad first transposes its runs in
 * registers, four runs at a time: two exchanges with the lane two apart,
 * then one apart (each a shuffle of the whole group and a select), after
 * which lane q holds all eight elements of the group's run q and stores
 * them at once. A quarter of the store instructions, each writing whole
 * 32-byte sectors; no shared memory, no barrier.
 *
 * With M[q][j] the run j (of the group's four) of lane q, the first
 * exchange gives A[q][j] = M[q][j] where bit 1 of j and q agree, else
 * M[q ^ 2][j ^ 2]; the second B[q][j] = A[q][j] where bit 0 agrees, else
 * A[q ^ 1][j ^ 1]; and B[q][j] = M[j][q]. */
#include "gpu/lower_ops.h"

/* A register array of `count` copying `x` over the nest `n`. */
static SReg *gather(Lower *L, const Nest *n, SExpr *x, DType dt, DType elem, int count, const char *name, int line)
{
	SReg *r = simt_reg(L->k, SR_THREAD, dt, elem, count, name);
	SStmt *s = simt_stmt(L->k, SS_ASSIGN, line);
	lower_set_loops(L, s, n);
	s->dst = simt_ref(L->k, r, lower_index_in(L, n, 3u));
	s->value = x;
	return r;
}

/* One exchange of the quad's runs (one 32-bit word each: two 16-bit
 * elements, packed) with the lane `bit` apart (2, then 1): where bit `bit`
 * of the run's place in its group of four and of the lane differ, the
 * partner's run r ^ bit. */
static SReg *exchange(Lower *L, SReg *w, int runs, int rows, int bit, int line)
{
	SKernel *k = L->k;
	int count = rows * runs;
	SExpr *i = simt_leaf(k, SE_LOOP, DT_I32, 0), *r = simt_leaf(k, SE_LOOP, DT_I32, 1);
	SExpr *row = lower_imul(L, i, lower_ic(L, runs));
	SExpr *at = lower_iadd(L, row, r);
	SReg *send = simt_reg(k, SR_THREAD, DT_U32, DT_U32, count, arena_printf(L->arena, "%s_send", w->name));
	SStmt *s = simt_stmt(k, SS_ASSIGN, line);
	s->nloops = 2;
	s->extent[0] = rows;
	s->extent[1] = runs;
	s->dst = simt_ref(k, send, at);
	s->value = simt_ref(k, w, lower_iadd(L, row, lower_index_op(simt_binary(k, TOP_XOR, DT_I32, r, lower_ic(L, bit)))));
	SReg *got = simt_reg(k, SR_THREAD, DT_U32, DT_U32, count, arena_printf(L->arena, "%s_got", w->name));
	SStmt *x = simt_stmt(k, SS_SHUFFLE, line);
	x->src = send;
	x->shuffled = got;
	x->shuffle = SHUFFLE_XOR;
	x->lane_xor = bit;
	SReg *out = simt_reg(k, SR_THREAD, DT_U32, DT_U32, count, arena_printf(L->arena, "%s_x%d", w->name, bit));
	s = simt_stmt(k, SS_ASSIGN, line);
	s->nloops = 2;
	s->extent[0] = rows;
	s->extent[1] = runs;
	s->dst = simt_ref(k, out, at);
	SExpr *lane = simt_ref(k, L->lane, NULL);
	SExpr *sel = simt_leaf(k, SE_SELECT, DT_U32, 0);
	sel->a[0] = simt_cmp(k, CMP_EQ, DT_I32, lower_ibin(L, TOP_AND, r, lower_ic(L, bit)), lower_ibin(L, TOP_AND, lane, lower_ic(L, bit)));
	sel->a[1] = simt_ref(k, w, at);
	sel->a[2] = simt_ref(k, got, at);
	s->value = sel;
	return out;
}

/* The element of run 4 g + (lane & 3), the thread's own, of row i:
 * r[i per_row + 8 g + 2 (lane & 3)], chosen by compares. */
static SExpr *own_run(Lower *L, SReg *r, SExpr *row_at, SExpr *g8)
{
	SKernel *k = L->k;
	SExpr *q = lower_ibin(L, TOP_AND, simt_ref(k, L->lane, NULL), lower_ic(L, 3));
	SExpr *e = simt_ref(k, r, lower_iadd(L, row_at, lower_iadd(L, g8, lower_ic(L, 6))));
	for (int j = 2; j >= 0; j--) {
		SExpr *sel = simt_leaf(k, SE_SELECT, r->dtype, 0);
		sel->a[0] = simt_cmp(k, CMP_EQ, DT_I32, q, lower_ic(L, j));
		sel->a[1] = simt_ref(k, r, lower_iadd(L, row_at, lower_iadd(L, g8, lower_ic(L, 2 * j))));
		sel->a[2] = e;
		e = sel;
	}
	return e;
}

/* The pointer of the first element of lane q's run of the group (loops:
 * rows, groups), plus `l` (NULL: 0): its own element's, minus 2 q. */
static SExpr *run_start(Lower *L, SReg *p, const TValue *ptr, int per_row, SExpr *l)
{
	SKernel *k = L->k;
	SExpr *row_at = lower_imul(L, simt_leaf(k, SE_LOOP, DT_I32, 0), lower_ic(L, per_row));
	SExpr *g8 = lower_imul(L, simt_leaf(k, SE_LOOP, DT_I32, 1), lower_ic(L, 8));
	SExpr *off = lower_imul(L, lower_ibin(L, TOP_AND, simt_ref(k, L->lane, NULL), lower_ic(L, 3)), lower_ic(L, -2));
	if (l)
		off = lower_iadd(L, off, l);
	SExpr *base = simt_binary(k, TOP_ADD, DT_PTR, own_run(L, p, row_at, g8), off);
	base->from = ptr->type.elem;
	return base;
}

bool lower_store_quads(Lower *L, const TValue *v)
{
	SKernel *k = L->k;
	const TValue *ptr = v->args[0], *mask = v->nargs > 2 ? v->args[2] : NULL;
	const TValue *x = lower_stored(v);
	DType dt = v->args[1]->type.dtype;
	const Frame *fr = &L->frames[L->vp[v->id].frame];
	int d = L->rank - 1;
	if (fr->unit == MATRIX_NONE || L->rank != 2 || ptr->type.rank != 2 || (dt != DT_F16 && dt != DT_BF16) || !L->lane ||
	    L->vp[v->id].vector > 2 || L->frame.size_per_thread[d] != 2 || L->frame.threads_per_warp[d] != 4 ||
	    layout_lane_shift(&L->frame, d) != 0 || lower_extent_of(L, d) % 8 != 0)
		return false;
	unsigned present = L->vp[ptr->id].present;
	if (present != 3u || lower_vary_of(L, ptr) != 3u || lower_vary_of(L, x) != 3u ||
	    (mask && lower_vary_of(L, mask) & ~3u))
		return false;
	int kl = ptr->type.rank - 1;
	while (kl >= 0 && L->vp[ptr->id].map[kl] != d)
		kl--;
	if (kl < 0 || tir_vector_width_along(ptr, NULL, kl, 16) < 8)
		return false;
	/* a mask that may differ within a run of 8 (a descriptor's run-time
	 * extent) travels with the runs as bits */
	bool bits = mask && tir_vector_width_along(ptr, mask, kl, 16) < 8;
	Nest n = lower_nest_over(L, present, 1);
	if (lower_write_guard(L, &n, present, NULL))
		return false;   /* some elements are held twice */
	int rows = lower_extent_of(L, 0), per_row = lower_extent_of(L, d), count = rows * per_row;
	const char *name = v->args[1]->name ? v->args[1]->name : "st";
	/* the runs packed, rounded to the element type as the store would */
	Nest n2 = lower_nest_over(L, present, 2);
	SExpr *lo = lower_read_value(L, &n2, x);
	if (lo->kind != SE_REF)
		return false;
	SExpr *hi = simt_ref(k, lo->reg, lower_iadd(L, lo->index, lower_ic(L, 1)));
	SExpr *pack = simt_leaf(k, SE_MATH, DT_U32, dt == DT_BF16 ? MATH_PACK_BF16X2 : MATH_PACK_F16X2);
	pack->from = DT_F32;
	pack->a[0] = lo;
	pack->a[1] = hi;
	SReg *w = simt_reg(k, SR_THREAD, DT_U32, DT_U32, count / 2, arena_printf(L->arena, "%s_runs", name));
	SStmt *ps = simt_stmt(k, SS_ASSIGN, v->line);
	lower_set_loops(L, ps, &n2);
	ps->dst = simt_ref(k, w, lower_iadd(L, lower_imul(L, simt_leaf(k, SE_LOOP, DT_I32, 0), lower_ic(L, per_row / 2)),
					     simt_leaf(k, SE_LOOP, DT_I32, 1)));
	ps->value = pack;
	SReg *p = gather(L, &n, lower_read_value(L, &n, ptr), DT_PTR, ptr->type.elem, count,
			 arena_printf(L->arena, "%s_at", name), v->line);
	SReg *m = mask ? gather(L, &n, lower_read_value(L, &n, mask), DT_I1, DT_I1, count,
				arena_printf(L->arena, "%s_mask", name), v->line)
		       : NULL;
	SReg *mb = NULL;   /* bits: each run's two mask bits, a word */
	if (bits) {
		mb = simt_reg(k, SR_THREAD, DT_U32, DT_U32, count / 2, arena_printf(L->arena, "%s_bits", name));
		SStmt *bs = simt_stmt(k, SS_ASSIGN, v->line);
		bs->nloops = 2;
		bs->extent[0] = rows;
		bs->extent[1] = per_row / 2;
		SExpr *e2 = lower_iadd(L, lower_imul(L, simt_leaf(k, SE_LOOP, DT_I32, 0), lower_ic(L, per_row)),
				       lower_imul(L, simt_leaf(k, SE_LOOP, DT_I32, 1), lower_ic(L, 2)));
		SExpr *b[2];
		for (int e = 0; e < 2; e++) {
			b[e] = simt_leaf(k, SE_SELECT, DT_U32, 0);
			b[e]->a[0] = simt_ref(k, m, e ? lower_iadd(L, e2, lower_ic(L, 1)) : e2);
			b[e]->a[1] = simt_int(k, DT_U32, 1 + e);
			b[e]->a[2] = simt_int(k, DT_U32, 0);
		}
		bs->dst = simt_ref(k, mb, lower_iadd(L, lower_imul(L, simt_leaf(k, SE_LOOP, DT_I32, 0), lower_ic(L, per_row / 2)),
						     simt_leaf(k, SE_LOOP, DT_I32, 1)));
		bs->value = simt_binary(k, TOP_OR, DT_U32, b[0], b[1]);
		mb = exchange(L, mb, per_row / 2, rows, 2, v->line);
		mb = exchange(L, mb, per_row / 2, rows, 1, v->line);
	}
	w = exchange(L, w, per_row / 2, rows, 2, v->line);
	w = exchange(L, w, per_row / 2, rows, 1, v->line);
	/* each lane its run: eight elements, at the run's first column */
	SStmt *s = simt_stmt(k, SS_STORE, v->line);
	s->nloops = 2;
	s->extent[0] = rows;
	s->extent[1] = per_row / 8;
	s->ptr = run_start(L, p, ptr, per_row, NULL);
	SExpr *words_at = lower_iadd(L, lower_imul(L, simt_leaf(k, SE_LOOP, DT_I32, 0), lower_ic(L, per_row / 2)),
				     lower_imul(L, simt_leaf(k, SE_LOOP, DT_I32, 1), lower_ic(L, 4)));
	s->value = simt_ref(k, w, words_at);
	s->value_stride = 1;
	s->vec = 4;
	if (!bits) {
		s->guard = m ? own_run(L, m, lower_imul(L, simt_leaf(k, SE_LOOP, DT_I32, 0), lower_ic(L, per_row)),
				       lower_imul(L, simt_leaf(k, SE_LOOP, DT_I32, 1), lower_ic(L, 8)))
			     : NULL;
		L->place[v->id].lowered = true;
		return true;
	}
	/* bits: the 16-byte store where all eight hold, else element by element */
	SExpr *all = simt_ref(k, mb, words_at);
	for (int j = 1; j < 4; j++)
		all = simt_binary(k, TOP_AND, DT_U32, all, simt_ref(k, mb, lower_iadd(L, words_at, lower_ic(L, j))));
	s->guard = simt_cmp(k, CMP_EQ, DT_U32, all, simt_int(k, DT_U32, 3));
	SStmt *one = simt_stmt(k, SS_STORE, v->line);
	one->nloops = 3;
	one->extent[0] = rows;
	one->extent[1] = per_row / 8;
	one->extent[2] = 8;
	SExpr *l = simt_leaf(k, SE_LOOP, DT_I32, 2);
	one->ptr = run_start(L, p, ptr, per_row, l);
	SExpr *word_at = lower_iadd(L, lower_iadd(L, lower_imul(L, simt_leaf(k, SE_LOOP, DT_I32, 0), lower_ic(L, per_row / 2)),
						 lower_imul(L, simt_leaf(k, SE_LOOP, DT_I32, 1), lower_ic(L, 4))),
				    lower_ibin(L, TOP_SHR, l, lower_ic(L, 1)));
	SExpr *half = lower_imul(L, lower_ibin(L, TOP_AND, l, lower_ic(L, 1)), lower_ic(L, 16));
	one->value = simt_cast(k, DT_U32, DT_U16,
			       simt_binary(k, TOP_SHR, DT_U32, simt_ref(k, w, word_at), simt_cast(k, DT_I32, DT_U32, half)));
	SExpr *bit = simt_binary(k, TOP_AND, DT_U32,
				 simt_binary(k, TOP_SHR, DT_U32, simt_ref(k, mb, word_at),
					     simt_cast(k, DT_I32, DT_U32, lower_ibin(L, TOP_AND, l, lower_ic(L, 1)))),
				 simt_int(k, DT_U32, 1));
	SExpr *not_all = simt_cmp(k, CMP_NE, DT_U32, all, simt_int(k, DT_U32, 3));
	one->guard = simt_and(k, not_all, simt_cmp(k, CMP_NE, DT_U32, bit, simt_int(k, DT_U32, 0)));
	L->place[v->id].lowered = true;
	return true;
}
