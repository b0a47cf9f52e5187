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
	default:
		for (int i = 0; i < v->nargs; i++)
			if (!unify_same(L, v, v->args[i], changed))
				return false;
		return true;
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

void lower_place(Lower *L)
{
	const TValue *v;
	L->rank = 0;
	for (v = L->tk->body->first; v; v = v->next)
		L->rank = imax(L->rank, v->type.rank);
	for (int d = 0; d < L->rank; d++)
		L->frame_shape[d] = 1;
	for (v = L->tk->body->first; v; v = v->next) {
		for (int k = 0; k < TC_MAX_RANK; k++)
			L->place[v->id].map[k] = -1;
		if (v->type.rank != L->rank)
			continue;
		for (int k = 0; k < v->type.rank; k++) {
			L->frame_shape[k] = imax(L->frame_shape[k], v->type.shape[k]);
			if (v->type.shape[k] > 1)
				L->place[v->id].map[k] = (int8_t)k;
		}
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (v = L->tk->body->first; v; v = v->next)
			if (!propagate(L, v, &changed))
				place_error(L, v, "is used along two different dimensions");
	}
	for (v = L->tk->body->first; v; v = v->next) {
		place_default(L, v);
		check_place(L, v);
	}
}
