/* lower_shape.c: tl.reshape (TOP_RESHAPE) where it moves elements.
 *
 * A reshape that only adds or drops dims of extent 1 is an alias of its
 * operand (place.c shares the places; lower.c reads the same registers).
 * Any other reshape keeps the row-major order of the elements and changes
 * which thread holds which: the operand and the result are placed apart
 * (each in a frame of its own shape) and the elements cross through shared
 * memory in row-major order, as a layout conversion does: every element
 * written once by a thread that holds it (not a wrapped copy), a barrier,
 * every thread reading the elements of its place in the result. Inside a
 * run-time loop a barrier first keeps one iteration's writes from
 * overtaking the reads of the one before. tl.split, tl.join, tl.interleave
 * and tl.cat are built from reshapes, permutes and element-wise ops by the
 * specializer. */
#include "gpu/lower_ops.h"

/* The extents above 1 of `v`, in order; their count. */
static int wide_extents(const TValue *v, int *ext)
{
	int n = 0;
	for (int k = 0; k < v->type.rank; k++)
		if (v->type.shape[k] > 1)
			ext[n++] = v->type.shape[k];
	return n;
}

bool lower_reshape_is_alias(const TValue *v)
{
	int a[TC_MAX_RANK], b[TC_MAX_RANK];
	int n = wide_extents(v, a);
	if (wide_extents(v->args[0], b) != n)
		return false;
	for (int i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* The frame dims `v`'s wide dims lie on. */
static unsigned wide_frame_dims(Lower *L, const TValue *v)
{
	const ValuePlan *p = &L->vp[v->id];
	unsigned dims = 0;
	for (int k = 0; k < v->type.rank; k++)
		if (v->type.shape[k] > 1 && p->map[k] >= 0)
			dims |= 1u << p->map[k];
	return dims;
}

/* The row-major position of the nest's current element of `v` (placed by
 * its place's map, in the frame in use). */
static SExpr *row_major(Lower *L, const TValue *v, const Nest *n)
{
	const int8_t *map = L->vp[v->id].map;
	SExpr *at = lower_ic(L, 0);
	int64_t stride = 1;
	for (int k = v->type.rank - 1; k >= 0; k--) {
		if (v->type.shape[k] > 1) {
			int d = map[k];
			at = lower_iadd(L, at, lower_imul(L, lower_coord(L, d, lower_local_index(L, n, d)), lower_ic(L, stride)));
		}
		stride *= v->type.shape[k];
	}
	return at;
}

/* x written once into a shared array in row-major order (each element by
 * the thread holding it), between barriers, for v to read back in its own
 * placement: a reshape's and a gather's crossing. */
static SReg *to_shared_row_major(Lower *L, const TValue *v, const TValue *x, const char *suffix)
{
	SKernel *k = L->k;
	int64_t count = 1;
	for (int i = 0; i < x->type.rank; i++)
		count *= x->type.shape[i];
	if (L->loop_depth)
		simt_stmt(k, SS_BARRIER, v->line);
	lower_use_frame(L, L->vp[x->id].frame);
	const char *name = arena_printf(L->arena, "%s_%s", v->name ? v->name : "t", suffix);
	SReg *smem = simt_reg(k, SR_SHARED, x->type.dtype, x->type.elem, (int)count, name);
	unsigned wide = wide_frame_dims(L, x);
	Nest nx = lower_nest_over(L, wide, 1);
	SStmt *st = simt_stmt(k, SS_ASSIGN, v->line);
	lower_set_loops(L, st, &nx);
	st->dst = simt_ref(k, smem, row_major(L, x, &nx));
	st->value = lower_read_value(L, &nx, x);
	st->guard = lower_write_guard(L, &nx, wide, NULL);
	simt_stmt(k, SS_BARRIER, v->line);
	return smem;
}

void lower_reshape(Lower *L, const TValue *v)
{
	const TValue *x = v->args[0];
	if (lower_share_uniform(L, v, x))
		return;
	SKernel *k = L->k;
	SReg *smem = to_shared_row_major(L, v, x, "reshaped");

	lower_use_frame(L, L->vp[v->id].frame);
	unsigned vary = wide_frame_dims(L, v);
	Nest nv = lower_nest_over(L, vary, 1);
	SReg *r = simt_reg(k, SR_THREAD, x->type.dtype, x->type.elem, lower_count_of(L, vary), v->name);
	lower_assign_value(L, v, &nv, r, vary, simt_ref(k, smem, row_major(L, v, &nv)))->uniform = false;
	lower_set_reg(L, v, r, vary);
}

/* tl.gather (TOP_GATHER): the source crosses through shared memory as a
 * reshape's operand does (row-major, each element written once); each
 * element of the result, placed as the index, then reads the source at its
 * own coordinates but the axis's, which the index gives (modulo the
 * extent: Triton leaves an index outside it undefined). */
void lower_gather(Lower *L, const TValue *v)
{
	const TValue *x = v->args[0], *ix = v->args[1];
	SKernel *k = L->k;
	int axis = v->aux;
	SReg *smem = to_shared_row_major(L, v, x, "gathered");

	lower_use_frame(L, L->vp[v->id].frame);
	unsigned vary = wide_frame_dims(L, v) | lower_vary_of(L, ix);
	Nest nv = lower_nest_over(L, vary, 1);
	const int8_t *map = L->vp[v->id].map;
	SExpr *at = lower_ic(L, 0);
	int64_t stride = 1;
	for (int d = v->type.rank - 1; d >= 0; d--) {
		SExpr *c = NULL;
		if (d == axis) {
			c = simt_cast(k, ix->type.dtype, DT_I32, lower_read_value(L, &nv, ix));
			c = lower_ibin(L, TOP_AND, c, lower_ic(L, x->type.shape[d] - 1));
		} else if (v->type.shape[d] > 1) {
			c = lower_coord(L, map[d], lower_local_index(L, &nv, map[d]));
		}
		if (c)
			at = lower_iadd(L, at, lower_imul(L, c, lower_ic(L, stride)));
		stride *= x->type.shape[d];
	}
	SReg *r = simt_reg(k, SR_THREAD, x->type.dtype, x->type.elem, lower_count_of(L, vary), v->name);
	lower_assign_value(L, v, &nv, r, vary, simt_ref(k, smem, at))->uniform = false;
	lower_set_reg(L, v, r, vary);
}
