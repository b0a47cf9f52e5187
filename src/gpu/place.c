/* place.c: which dimension of the kernel's layout each tile dimension uses.
 *
 * A kernel's tiles share one blocked layout, the "frame": its rank is the
 * largest rank of any tile and its extents are those of the largest tiles.
 * Every dimension of extent > 1 of every tile is placed on one frame
 * dimension of the same extent; dimensions of extent 1 need no place (the
 * tile is collapsed there, Triton's slice layout). Tiles of full rank are
 * placed trivially; the others (a 1-D `tl.arange` that becomes a column by
 * `[:, None]`, the result of a reduction) take their places from the ops
 * that connect them to placed tiles, in both directions, until nothing
 * changes. A tile that would need two places at once needs a layout
 * conversion, which is not lowered yet: that is an error, never a guess. */
#include "gpu/lower_internal.h"

#include <string.h>

/* The dims of `v` with extent > 1, in order. */
static int wide_dims(const TValue *v, int *dims)
{
	int n = 0;
	for (int k = 0; k < v->type.rank; k++)
		if (v->type.shape[k] > 1)
			dims[n++] = k;
	return n;
}

/* Gives dimension `k` of `v` the place `d`; false on a conflict. */
static bool set_place(Lower *L, const TValue *v, int k, int d, bool *changed)
{
	int8_t *m = L->place[v->id].map;
	if (d < 0 || m[k] == d)
		return true;
	if (m[k] >= 0)
		return false;
	m[k] = (int8_t)d;
	*changed = true;
	return true;
}

/* Makes the wide dims of `x` and `y` (which must correspond one to one, in
 * order) share places. */
static bool unify_wide(Lower *L, const TValue *x, const TValue *y, bool *changed)
{
	int dx[TC_MAX_RANK], dy[TC_MAX_RANK];
	int n = wide_dims(x, dx);
	if (wide_dims(y, dy) != n)
		return true;   /* not an alias: nothing to share */
	for (int i = 0; i < n; i++) {
		int px = L->place[x->id].map[dx[i]], py = L->place[y->id].map[dy[i]];
		if (!set_place(L, x, dx[i], py, changed) || !set_place(L, y, dy[i], px, changed))
			return false;
	}
	return true;
}

/* Same-shaped operands and results share every place. */
static bool unify_same(Lower *L, const TValue *x, const TValue *y, bool *changed)
{
	if (x->type.rank != y->type.rank)
		return true;
	for (int k = 0; k < x->type.rank; k++) {
		if (x->type.shape[k] <= 1 || y->type.shape[k] <= 1)
			continue;
		int px = L->place[x->id].map[k], py = L->place[y->id].map[k];
		if (!set_place(L, x, k, py, changed) || !set_place(L, y, k, px, changed))
			return false;
	}
	return true;
}

/* A reduction's result has its operand's places without the reduced axis. */
static bool unify_reduce(Lower *L, const TValue *v, bool *changed)
{
	const TValue *x = v->args[0];
	int axis = v->aux2;
	for (int k = 0, j = 0; k < x->type.rank; k++) {
		if (k == axis)
			continue;
		if (x->type.shape[k] > 1) {
			int px = L->place[x->id].map[k], pv = L->place[v->id].map[j];
			if (!set_place(L, v, j, px, changed) || !set_place(L, x, k, pv, changed))
				return false;
		}
		j++;
	}
	return true;
}

/* The yield that ends a block. */
static const TValue *yield_of(const TBlock *b)
{
	return b && b->last && b->last->op == TOP_YIELD ? b->last : NULL;
}

/* A loop's carried values, its initial values, what the body yields and
 * the loop's results are one tile each: they share places. */
static bool unify_control(Lower *L, const TValue *v, bool *changed)
{
	if (v->op == TOP_FOR) {
		const TValue *y = yield_of(v->body);
		for (int i = 0; i + 3 < v->nargs && i + 1 < v->body->nparams; i++) {
			const TValue *param = v->body->params[i + 1];
			if (!unify_same(L, v->args[3 + i], param, changed))
				return false;
			if (y && i < y->nargs && !unify_same(L, param, y->args[i], changed))
				return false;
		}
		return true;
	}
	if (v->op == TOP_IF) {
		const TValue *a = yield_of(v->body), *b = yield_of(v->orelse);
		for (int i = 0; a && b && i < a->nargs && i < b->nargs; i++)
			if (!unify_same(L, a->args[i], b->args[i], changed))
				return false;
		return true;
	}
	/* TOP_RESULT */
	const TValue *op = v->args[0];
	if (op->op == TOP_FOR)
		return v->aux + 1 >= op->body->nparams || unify_same(L, v, op->body->params[v->aux + 1], changed);
	const TValue *y = yield_of(op->body);
	return !y || v->aux >= y->nargs || unify_same(L, v, y->args[v->aux], changed);
}

static bool propagate(Lower *L, const TValue *v, bool *changed)
{
	switch (v->op) {
	case TOP_EXPAND:
	case TOP_RESHAPE:
		return unify_wide(L, v, v->args[0], changed);
	case TOP_REDUCE:
		return unify_reduce(L, v, changed);
	case TOP_BROADCAST:
		return unify_same(L, v, v->args[0], changed);
	case TOP_STORE:
		for (int i = 1; i < v->nargs; i++)
			if (!unify_same(L, v->args[0], v->args[i], changed))
				return false;
		return true;
	case TOP_FOR:
	case TOP_IF:
	case TOP_RESULT:
		return unify_control(L, v, changed);
	case TOP_YIELD:
	case TOP_SCAN:
		return true;
	default:
		for (int i = 0; i < v->nargs; i++)
			if (!unify_same(L, v, v->args[i], changed))
				return false;
		return true;
	}
}

/* Calls fn on every value of a block and of the blocks nested in it (a
 * scan's combine excepted: it works on scalars), parameters first. */
typedef void (*ValueFn)(Lower *L, const TValue *v, void *ctx);

static void each_value(Lower *L, const TBlock *b, ValueFn fn, void *ctx)
{
	for (int i = 0; i < b->nparams; i++)
		fn(L, b->params[i], ctx);
	for (const TValue *v = b->first; v; v = v->next) {
		fn(L, v, ctx);
		if (v->op == TOP_FOR || v->op == TOP_IF)
			each_value(L, v->body, fn, ctx);
		if (v->op == TOP_IF)
			each_value(L, v->orelse, fn, ctx);
	}
}

static void place_error(Lower *L, const TValue *v, const char *what)
{
	char shape[64];
	int n = 0;
	shape[0] = 0;
	for (int k = 0; k < v->type.rank; k++)
		n += snprintf(shape + n, sizeof shape - (size_t)n, "%s%d", k ? "," : "", v->type.shape[k]);
	lower_error(L, v, "a tile of shape [%s] %s (layout conversions are not lowered yet)", shape, what);
}

/* Places the tiles that no op connects to a placed one: right-aligned, as
 * numpy broadcasting would place them. */
static void place_default(Lower *L, const TValue *v)
{
	int8_t *m = L->place[v->id].map;
	for (int k = 0; k < v->type.rank; k++)
		if (v->type.shape[k] > 1 && m[k] < 0)
			m[k] = (int8_t)(L->rank - v->type.rank + k);
}

static void check_place(Lower *L, const TValue *v)
{
	const int8_t *m = L->place[v->id].map;
	unsigned used = 0;
	for (int k = 0; k < v->type.rank; k++) {
		if (v->type.shape[k] <= 1)
			continue;
		int d = m[k];
		if (d < 0 || d >= L->rank || L->frame_shape[d] != v->type.shape[k])
			place_error(L, v, "does not fit the kernel's other tiles");
		if (used & (1u << d))
			place_error(L, v, "spreads two dimensions over one");
		used |= 1u << d;
	}
	L->place[v->id].present = used;
}

static void measure_rank(Lower *L, const TValue *v, void *ctx)
{
	L->rank = imax(L->rank, v->type.rank);
}

static void measure_shape(Lower *L, const TValue *v, void *ctx)
{
	for (int k = 0; k < TC_MAX_RANK; k++)
		L->place[v->id].map[k] = -1;
	if (v->type.rank != L->rank)
		return;
	for (int k = 0; k < v->type.rank; k++) {
		L->frame_shape[k] = imax(L->frame_shape[k], v->type.shape[k]);
		if (v->type.shape[k] > 1)
			L->place[v->id].map[k] = (int8_t)k;
	}
}

static void propagate_one(Lower *L, const TValue *v, void *changed)
{
	if (!propagate(L, v, changed))
		place_error(L, v, "is used along two different dimensions");
}

static void finish_one(Lower *L, const TValue *v, void *ctx)
{
	place_default(L, v);
	check_place(L, v);
}

void lower_place(Lower *L)
{
	const TBlock *body = L->tk->body;
	L->rank = 0;
	each_value(L, body, measure_rank, NULL);
	for (int d = 0; d < L->rank; d++)
		L->frame_shape[d] = 1;
	each_value(L, body, measure_shape, NULL);
	for (bool changed = true; changed;) {
		changed = false;
		each_value(L, body, propagate_one, &changed);
	}
	each_value(L, body, finish_one, NULL);
}
