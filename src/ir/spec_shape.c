/* spec_shape.c: Triton's shape functions beyond broadcasting and
 * transposes: tl.reshape / view, expand_dims, split, join, interleave,
 * cat, broadcast, clamp, gather, flip, sort, topk, histogram.
 *
 * A reshape keeps the row-major order of the elements (TOP_RESHAPE; the
 * lowering moves them through shared memory when the wide extents change,
 * lower_shape.c). The others are made of it, of permutes and of
 * element-wise ops, exactly:
 *
 *   split(x)        x's last dim (of extent 2) summed under a mask that
 *                   keeps element 0 (1) and puts -0.0 elsewhere: x + -0.0
 *                   is x for every x, NaNs and signed zeros included;
 *   join(a, b)      where(i == 0, a[..., None], b[..., None]) over i in [0, 2);
 *   interleave      join, then the last two dims merged by a reshape;
 *   cat(a, b)       join, the new dim moved first, merged with dim 0: a's
 *                   rows and then b's (Triton allows any order; this one
 *                   is the concatenation). */
#include "ir/spec.h"

#include <string.h>

/* A shape given spread out (x.reshape(a, b)) or as one list or tuple
 * (tl.reshape(x, (a, b))), from call item `first` on. */
static int shape_items(Spec *s, const Node *call, int first, const char *kw, int *shape)
{
	int n = call->items.len - first;
	SVal *one = n == 1 ? spec_eval(s, call->items.items[first]) : n == 0 ? spec_arg(s, call, -1, kw) : NULL;
	if (n == 0 && !one)
		spec_error(s, call, "missing argument '%s'", kw);
	if (one && one->kind == SV_TUPLE)
		n = one->nitems;
	else if (one)
		n = 1;
	if (n > TC_MAX_RANK)
		spec_error(s, call, "a shape of %d dims: too many dimensions (limit is %d)", n, TC_MAX_RANK);
	for (int i = 0; i < n; i++) {
		SVal *d = one ? (one->kind == SV_TUPLE ? one->items[i] : one) : spec_eval(s, call->items.items[first + i]);
		shape[i] = (int)spec_const_int(s, call, d, "an extent of the shape");
		if (shape[i] < 1)
			spec_error(s, call, "extents must be positive");
	}
	return n;
}

static TValue *reshape(Spec *s, const Node *call, TValue *x, int rank, const int *shape)
{
	return spec_checked(s, call, tir_reshape(&s->b, x, rank, shape));
}

/* arange(0, 2) as a tile of `rank` dims, of extent 2 along the last. */
static TValue *pair_index(Spec *s, int rank)
{
	TValue *i = tir_arange(&s->b, 0, 2);
	for (int k = 0; k < rank - 1; k++)
		i = tir_expand(&s->b, i, 0);
	return i;
}

static SVal *split(Spec *s, const Node *call, TValue *x)
{
	int r = x->type.rank;
	if (r == 0 || x->type.shape[r - 1] != 2)
		spec_error(s, call, "tl.split needs a last dim of extent 2");
	DType dt = x->type.dtype;
	TValue *idx = pair_index(s, r);
	TValue *zero = dtype_is_float(dt) ? tir_const_float(&s->b, dt, -0.0) : tir_const_int(&s->b, dt, 0);
	SVal *halves[2];
	for (int h = 0; h < 2; h++) {
		TValue *keep = tir_cmp(&s->b, CMP_EQ, idx, tir_const_int(&s->b, DT_I32, h));
		TValue *part = spec_checked(s, call, tir_where(&s->b, keep, x, zero));
		TValue *sum = spec_checked(s, call, tir_reduce(&s->b, RED_SUM, part, r - 1));
		if (sum->type.dtype != dt)
			sum = tir_cast(&s->b, sum, dt);
		halves[h] = spec_sv_value(s, call, sum);
	}
	return spec_sv_tuple(s, 2, halves);
}

static TValue *join(Spec *s, const Node *call, SVal *a, SVal *b)
{
	TValue *ta, *tb;
	spec_weak_operands(s, call, a, b, false, &ta, &tb);
	TValue *probe = spec_checked(s, call, tir_binary(&s->b, TOP_ADD, ta, tb));   /* the broadcast shape and type */
	if (probe->type.rank >= TC_MAX_RANK)
		spec_error(s, call, "tl.join of tensors of rank %d: too many dimensions (limit is %d)",
			   probe->type.rank, TC_MAX_RANK);
	ta = tir_broadcast_to(&s->b, tir_cast(&s->b, ta, probe->type.dtype), probe->type.rank, probe->type.shape);
	tb = tir_broadcast_to(&s->b, tir_cast(&s->b, tb, probe->type.dtype), probe->type.rank, probe->type.shape);
	int r = probe->type.rank;
	TValue *ea = spec_checked(s, call, tir_expand(&s->b, ta, r)), *eb = spec_checked(s, call, tir_expand(&s->b, tb, r));
	TValue *first = tir_cmp(&s->b, CMP_EQ, pair_index(s, r + 1), tir_const_int(&s->b, DT_I32, 0));
	return spec_checked(s, call, tir_where(&s->b, first, ea, eb));
}

static SVal *expand_dims(Spec *s, const Node *call, TValue *x)
{
	SVal *ax = spec_need_arg(s, call, 1, "axis");
	int n = ax->kind == SV_TUPLE ? ax->nitems : 1;
	int rank = x->type.rank + n;
	bool taken[TC_MAX_RANK + 8] = {0};
	if (rank > TC_MAX_RANK)
		spec_error(s, call, "expand_dims to %d dims: too many dimensions (limit is %d)", rank, TC_MAX_RANK);
	for (int i = 0; i < n; i++) {
		int64_t a = spec_const_int(s, call, ax->kind == SV_TUPLE ? ax->items[i] : ax, "an axis");
		if (a < 0)
			a += rank;
		if (a < 0 || a >= rank || taken[a])
			spec_error(s, call, "expand_dims: axis %lld is out of range or repeated", (long long)a);
		taken[a] = true;
	}
	for (int a = 0; a < rank; a++)
		if (taken[a])
			x = spec_checked(s, call, tir_expand(&s->b, x, a));
	return spec_sv_value(s, call, x);
}

/* ---- gather, flip, sort, topk, histogram ----
 *
 * tl.gather is TOP_GATHER (the lowering reads the source through shared
 * memory). The others are made of it and element-wise ops:
 *
 *   flip(x, dim)    gather with the index n - 1 - i along dim;
 *   sort(x, dim)    a bitonic sorting network along dim (Triton's own
 *                   algorithm, standard.py): for each block size k = 2 ..
 *                   n and distance j = k/2 .. 1, every element meets its
 *                   partner i ^ j (a gather) and keeps the smaller or the
 *                   larger by Triton's compare-and-swap, where((x > y) !=
 *                   (flip ^ right), y, x); blocks alternate direction until
 *                   the last merge, which goes the asked way;
 *   topk(x, k, dim) the descending sort's first k along dim (a gather);
 *   histogram       (x[:, None] == bins[None, :]) & mask[:, None], counted
 *                   down the columns. */

/* The axis argument: an int in [-rank, rank), or None for the last dim. */
static int dim_arg(Spec *s, const Node *call, SVal *d, int rank, const char *what)
{
	if (!d || d->kind == SV_NONE)
		return rank - 1;
	int64_t a = spec_const_int(s, call, d, what);
	if (a < 0)
		a += rank;
	if (a < 0 || a >= rank)
		spec_error(s, call, "%s %lld is outside the tensor's %d dims", what, (long long)d->i, rank);
	return (int)a;
}

/* arange(0, n) along dim `d` of a tile of x's shape (broadcast over the others). */
static TValue *index_along(Spec *s, const TValue *x, int d)
{
	TValue *i = tir_arange(&s->b, 0, x->type.shape[d]);
	for (int k = 0; k < d; k++)
		i = tir_expand(&s->b, i, 0);
	for (int k = d + 1; k < x->type.rank; k++)
		i = tir_expand(&s->b, i, k);
	return tir_broadcast_to(&s->b, i, x->type.rank, x->type.shape);
}

static TValue *gather(Spec *s, const Node *call, TValue *src, TValue *index, int axis)
{
	return spec_checked(s, call, tir_gather(&s->b, src, index, axis));
}

static TValue *ic(Spec *s, int64_t v)
{
	return tir_const_int(&s->b, DT_I32, v);
}

static TValue *flip(Spec *s, const Node *call, TValue *x, int d)
{
	TValue *i = index_along(s, x, d);
	return gather(s, call, x, tir_binary(&s->b, TOP_SUB, ic(s, x->type.shape[d] - 1), i), d);
}

static TValue *sort(Spec *s, const Node *call, TValue *x, int d, bool descending)
{
	int n = x->type.shape[d];
	if (x->type.dtype == DT_PTR)
		spec_error(s, call, "tl.sort of pointers");
	TValue *i = index_along(s, x, d);
	for (int k = 2; k <= n; k *= 2) {
		/* flip: the block sorts descending (the last merge: as asked) */
		TValue *fl = k < n ? tir_cmp(&s->b, CMP_NE, tir_binary(&s->b, TOP_AND, i, ic(s, k)), ic(s, 0))
				   : tir_const_int(&s->b, DT_I1, descending);
		for (int j = k / 2; j >= 1; j /= 2) {
			TValue *y = gather(s, call, x, tir_binary(&s->b, TOP_XOR, i, ic(s, j)), d);
			TValue *right = tir_cmp(&s->b, CMP_NE, tir_binary(&s->b, TOP_AND, i, ic(s, j)), ic(s, 0));
			TValue *gt = tir_cmp(&s->b, CMP_GT, x, y);
			TValue *swap = tir_cmp(&s->b, CMP_NE, gt, tir_binary(&s->b, TOP_XOR, fl, right));
			x = spec_checked(s, call, tir_where(&s->b, swap, y, x));
		}
	}
	return x;
}

/* Triton 3.6 sorts along the last dim only (its static_assert: "only minor
 * dimension is currently supported"). */
static int minor_dim(Spec *s, const Node *call, const TValue *x, int d, const char *fn)
{
	if (d != x->type.rank - 1)
		spec_error(s, call, "tl.%s sorts along the last dimension only (%d here), as Triton does; dim is %d", fn,
			   x->type.rank - 1, d);
	return d;
}

static SVal *call_sorting(Spec *s, const Node *call, const char *fn)
{
	TValue *x = spec_need_value(s, call, 0, !strcmp(fn, "histogram") ? "input" : "x");
	if (x->type.rank == 0)
		spec_error(s, call, "tl.%s needs a tensor", fn);
	if (!strcmp(fn, "flip"))
		return spec_sv_value(s, call, flip(s, call, x, dim_arg(s, call, spec_arg(s, call, 1, "dim"), x->type.rank, "dim")));
	if (!strcmp(fn, "sort")) {
		int d = minor_dim(s, call, x, dim_arg(s, call, spec_arg(s, call, 1, "dim"), x->type.rank, "dim"), fn);
		SVal *desc = spec_arg(s, call, 2, "descending");
		bool down = desc && spec_const_int(s, call, desc, "descending");
		return spec_sv_value(s, call, sort(s, call, x, d, down));
	}
	if (!strcmp(fn, "topk")) {
		int64_t k = spec_const_int(s, call, spec_need_arg(s, call, 1, "k"), "k");
		int d = minor_dim(s, call, x, dim_arg(s, call, spec_arg(s, call, 2, "dim"), x->type.rank, "dim"), fn);
		if (k < 1 || k > x->type.shape[d] || (k & (k - 1)))
			spec_error(s, call, "tl.topk: k must be a power of two no larger than the dim (%d); it is %lld",
				   x->type.shape[d], (long long)k);
		TValue *sorted = sort(s, call, x, d, true);
		int shape[TC_MAX_RANK];
		memcpy(shape, x->type.shape, sizeof shape);
		shape[d] = (int)k;
		TValue *i = tir_arange(&s->b, 0, (int)k);
		for (int a = 0; a < d; a++)
			i = tir_expand(&s->b, i, 0);
		for (int a = d + 1; a < x->type.rank; a++)
			i = tir_expand(&s->b, i, a);
		i = tir_broadcast_to(&s->b, i, x->type.rank, shape);
		return spec_sv_value(s, call, gather(s, call, sorted, i, d));
	}
	/* histogram */
	if (x->type.rank != 1 || dtype_is_float(x->type.dtype) || x->type.dtype == DT_PTR)
		spec_error(s, call, "tl.histogram needs a 1-D integer tensor");
	int64_t bins = spec_const_int(s, call, spec_need_arg(s, call, 1, "num_bins"), "num_bins");
	if (bins < 1 || (bins & (bins - 1)) || bins > (1 << 20))
		spec_error(s, call, "tl.histogram: num_bins must be a power of two; it is %lld", (long long)bins);
	TValue *col = tir_expand(&s->b, x, 1);
	TValue *row = tir_expand(&s->b, tir_arange(&s->b, 0, (int)bins), 0);
	TValue *hit = spec_checked(s, call, tir_cmp(&s->b, CMP_EQ, col, row));
	SVal *mask = spec_arg(s, call, 2, "mask");
	if (mask && mask->kind != SV_NONE) {
		TValue *m = spec_to_value(s, call, mask);
		if (m->type.rank != 1 || m->type.shape[0] != x->type.shape[0])
			spec_error(s, call, "tl.histogram: the mask must have the input's shape");
		hit = spec_checked(s, call, tir_binary(&s->b, TOP_AND, hit, tir_expand(&s->b, tir_cast(&s->b, m, DT_I1), 1)));
	}
	return spec_sv_value(s, call, spec_checked(s, call, tir_reduce(&s->b, RED_SUM, tir_cast(&s->b, hit, DT_I32), 0)));
}

SVal *spec_call_shape(Spec *s, const Node *call, const char *fn)
{
	if (!strcmp(fn, "gather")) {
		TValue *src = spec_need_value(s, call, 0, "src"), *index = spec_need_value(s, call, 1, "index");
		int axis = dim_arg(s, call, spec_need_arg(s, call, 2, "axis"), src->type.rank, "axis");
		return spec_sv_value(s, call, gather(s, call, src, index, axis));
	}
	if (!strcmp(fn, "flip") || !strcmp(fn, "sort") || !strcmp(fn, "topk") || !strcmp(fn, "histogram"))
		return call_sorting(s, call, fn);
	if (!strcmp(fn, "reshape") || !strcmp(fn, "view")) {
		TValue *x = spec_need_value(s, call, 0, "input");
		int shape[TC_MAX_RANK];
		int rank = shape_items(s, call, 1, "shape", shape);
		return spec_sv_value(s, call, reshape(s, call, x, rank, shape));
	}
	if (!strcmp(fn, "expand_dims"))
		return expand_dims(s, call, spec_need_value(s, call, 0, "input"));
	if (!strcmp(fn, "split"))
		return split(s, call, spec_need_value(s, call, 0, "a"));
	if (!strcmp(fn, "join"))
		return spec_sv_value(s, call, join(s, call, spec_need_arg(s, call, 0, "a"), spec_need_arg(s, call, 1, "b")));
	if (!strcmp(fn, "interleave")) {
		TValue *j = join(s, call, spec_need_arg(s, call, 0, "a"), spec_need_arg(s, call, 1, "b"));
		int r = j->type.rank, shape[TC_MAX_RANK];
		memcpy(shape, j->type.shape, sizeof shape);
		shape[r - 2] *= 2;
		return spec_sv_value(s, call, reshape(s, call, j, r - 1, shape));
	}
	if (!strcmp(fn, "cat")) {
		TValue *a = spec_need_value(s, call, 0, "input"), *b = spec_need_value(s, call, 1, "other");
		if (a->type.rank == 0 || a->type.rank != b->type.rank ||
		    memcmp(a->type.shape, b->type.shape, sizeof(int) * (size_t)a->type.rank))
			spec_error(s, call, "tl.cat needs two tensors of one shape");
		TValue *j = join(s, call, spec_sv_value(s, call, a), spec_sv_value(s, call, b));
		int r = j->type.rank, perm[TC_MAX_RANK], shape[TC_MAX_RANK];
		perm[0] = r - 1;
		for (int k = 1; k < r; k++)
			perm[k] = k - 1;
		TValue *t = spec_checked(s, call, tir_trans(&s->b, j, r, perm));
		memcpy(shape, a->type.shape, sizeof shape);
		shape[0] *= 2;
		return spec_sv_value(s, call, reshape(s, call, t, r - 1, shape));
	}
	if (!strcmp(fn, "broadcast")) {
		SVal *a = spec_need_arg(s, call, 0, "input"), *b = spec_need_arg(s, call, 1, "other");
		TValue *ta = spec_to_value(s, call, a), *tb = spec_to_value(s, call, b);
		TValue *probe = spec_checked(s, call, tir_binary(&s->b, TOP_ADD, tir_cast(&s->b, ta, DT_F64),
							    tir_cast(&s->b, tb, DT_F64)));
		SVal *both[2] = {
			spec_sv_value(s, call, tir_broadcast_to(&s->b, ta, probe->type.rank, probe->type.shape)),
			spec_sv_value(s, call, tir_broadcast_to(&s->b, tb, probe->type.rank, probe->type.shape)),
		};
		return spec_sv_tuple(s, 2, both);
	}
	if (!strcmp(fn, "clamp")) {
		SVal *x = spec_need_arg(s, call, 0, "x"), *lo = spec_need_arg(s, call, 1, "min"), *hi = spec_need_arg(s, call, 2, "max");
		TValue *tx, *tl;
		spec_weak_operands(s, call, x, lo, false, &tx, &tl);
		SVal *m = spec_sv_value(s, call, spec_checked(s, call, tir_binary(&s->b, TOP_MAXIMUM, tx, tl)));
		TValue *tm, *th;
		spec_weak_operands(s, call, m, hi, false, &tm, &th);
		return spec_sv_value(s, call, spec_checked(s, call, tir_binary(&s->b, TOP_MINIMUM, tm, th)));
	}
	return NULL;
}
