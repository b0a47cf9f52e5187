/* lower_convert.c: layout conversions (TOP_CONVERT, which place.c inserts).
 *
 * The operand lies in one place (a frame, and a frame dimension for each
 * of its tile dimensions), the result in another: another frame, or the
 * same frame with the dimensions permuted. The elements cross through
 * shared memory, kept in tile order: every element is written once, by the
 * thread that holds it and not as a wrapped copy; a barrier; every thread
 * reads the elements its new place gives it. Inside a run-time loop a
 * barrier first keeps the writes of one iteration from overtaking the reads
 * of the one before.
 *
 * Only the dimensions the operand's registers vary along travel: a
 * broadcast crosses as what it broadcasts and stays one on the other side.
 * When two or more dimensions travel, each row of the innermost one is one
 * element longer than the tile's, so the elements of a column, which a
 * transposed reader's lanes take side by side, fall in different banks. */
#include "gpu/lower_ops.h"

/* Where the elements of a tile lie in shared memory: row-major over the
 * tile dims in `dim`, `stride` elements apart along each. */
typedef struct Slots {
	int n;
	int dim[TC_MAX_RANK];
	int stride[TC_MAX_RANK];
	int count;
} Slots;

static Slots slots_of(const TValue *x, const ValuePlan *p, unsigned regs_vary)
{
	Slots s = {0};
	for (int k = 0; k < x->type.rank; k++)
		if (x->type.shape[k] > 1 && p->map[k] >= 0 && (regs_vary & (1u << p->map[k])))
			s.dim[s.n++] = k;
	int size = 1;
	for (int i = s.n - 1; i >= 0; i--) {
		s.stride[i] = size;
		size *= x->type.shape[s.dim[i]] + (i == s.n - 1 && s.n >= 2 ? 1 : 0);
	}
	s.count = size;
	return s;
}

/* The slot of the nest's current element of a tile placed by `map`, in the
 * frame in use. */
static SExpr *slot(Lower *L, const Slots *s, const int8_t *map, const Nest *n)
{
	SExpr *at = lower_ic(L, 0);
	for (int i = 0; i < s->n; i++) {
		int d = map[s->dim[i]];
		at = lower_iadd(L, at, lower_imul(L, lower_coord(L, d, lower_local_index(L, n, d)), lower_ic(L, s->stride[i])));
	}
	return at;
}

void lower_convert(Lower *L, const TValue *v)
{
	const TValue *x = v->args[0];
	if (lower_share_uniform(L, v, x))
		return;
	const Place *from = &L->place[x->id];
	SKernel *k = L->k;
	Slots s = slots_of(x, &L->vp[x->id], from->regs_vary);
	if (L->loop_depth)
		simt_stmt(k, SS_BARRIER, v->line);
	lower_use_frame(L, L->vp[x->id].frame);
	const char *name = arena_printf(L->arena, "%s_moved", v->name ? v->name : "t");
	SReg *smem = simt_reg(k, SR_SHARED, x->type.dtype, x->type.elem, s.count, name);
	Nest nx = lower_nest_over(L, from->regs_vary, 1);
	SStmt *st = simt_stmt(k, SS_ASSIGN, v->line);
	lower_set_loops(L, st, &nx);
	st->dst = simt_ref(k, smem, slot(L, &s, L->vp[x->id].map, &nx));
	st->value = lower_read_value(L, &nx, x);
	st->guard = lower_write_guard(L, &nx, from->regs_vary, NULL);
	simt_stmt(k, SS_BARRIER, v->line);

	lower_use_frame(L, L->vp[v->id].frame);
	unsigned vary = 0;
	for (int i = 0; i < s.n; i++)
		vary |= 1u << L->vp[v->id].map[s.dim[i]];
	Nest nv = lower_nest_over(L, vary, 1);
	SReg *r = simt_reg(k, SR_THREAD, x->type.dtype, x->type.elem, lower_count_of(L, vary), v->name);
	lower_assign_value(L, v, &nv, r, vary, simt_ref(k, smem, slot(L, &s, L->vp[v->id].map, &nv)))->uniform = false;
	lower_set_reg(L, v, r, vary);
}
