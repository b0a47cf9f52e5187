/* spec_lib.c: tl and triton_helpers functions that are more than one op.
 *
 * Where Triton (the .py files of triton/language) or Inductor (torch/_inductor/runtime/
 * triton_helpers.py) define a function in the language itself, it is
 * built here from the same tile ops, in the same order, so its rounding is
 * theirs: online softmax, welford_reduce / welford_combine, the *_with_index
 * combines, div_floor_integer, rand and randn around the Philox core.
 * New ops only where no composition says the same thing: TOP_SCAN
 * (associative_scan), RED_ARGMAX / RED_ARGMIN reductions carrying an index,
 * TOP_ATOMIC (spec_atomic.c), TOP_ASSERT, TOP_BARRIER, TOP_DOT, TOP_PHILOX, TOP_HINT.
 *
 * welford(mean, m2, weight, dim) is Triton's tl.reduce with
 * welford_combine, and is built so: a RED_COMBINE reduction whose body is
 * welford_combine. (Sums -- sum(weight * mean) / sum(weight) -- say the same
 * in exact arithmetic but round far worse where the weights nearly cancel.) */
#include "ir/spec.h"

#include <math.h>
#include <string.h>

/* ---- small builders that report errors at the call ---- */

static TValue *bin(Spec *s, const Node *n, TOp op, TValue *x, TValue *y)
{
	return spec_checked(s, n, tir_binary(&s->b, op, x, y));
}

static TValue *cmp(Spec *s, const Node *n, CmpKind k, TValue *x, TValue *y)
{
	return spec_checked(s, n, tir_cmp(&s->b, k, x, y));
}

static TValue *where(Spec *s, const Node *n, TValue *c, TValue *x, TValue *y)
{
	return spec_checked(s, n, tir_where(&s->b, c, x, y));
}

/* A Python float against tile x: Triton's weak typing makes it x's dtype
 * when x is a float tile. */
static TValue *fnum(Spec *s, const TValue *like, double v)
{
	DType dt = dtype_is_float(like->type.dtype) ? like->type.dtype : DT_F32;
	return tir_const_float(&s->b, dt, v);
}

static TValue *inum(Spec *s, const TValue *like, int64_t v)
{
	return dtype_is_float(like->type.dtype) ? tir_const_float(&s->b, like->type.dtype, (double)v)
						: tir_const_int(&s->b, like->type.dtype, v);
}

static TValue *reduce(Spec *s, const Node *n, ReduceKind k, TValue *x, int axis)
{
	return spec_checked(s, n, tir_reduce(&s->b, k, x, axis));
}

static TValue *expand(Spec *s, const Node *n, TValue *x, int axis)
{
	return spec_checked(s, n, tir_expand(&s->b, x, axis));
}

static int axis_arg(Spec *s, const Node *call, int pos, const char *kw, const TValue *x)
{
	int axis = (int)spec_const_int(s, call, spec_need_arg(s, call, pos, kw), "the axis");
	if (axis < 0)
		axis += x->type.rank;
	if (axis < 0 || axis >= x->type.rank)
		spec_error(s, call, "axis %d is out of range for a tensor of rank %d", axis, x->type.rank);
	return axis;
}

static bool const_flag(Spec *s, const Node *call, int pos, const char *kw, bool dflt)
{
	SVal *v = spec_arg(s, call, pos, kw);
	if (!v || v->kind == SV_NONE)
		return dflt;
	if (v->kind != SV_INT)
		spec_error(s, call, "'%s' must be a compile-time constant", kw);
	return v->i != 0;
}

static const char *const_str(Spec *s, const Node *call, int pos, const char *kw)
{
	SVal *v = spec_arg(s, call, pos, kw);
	if (!v || v->kind == SV_NONE)
		return NULL;
	if (v->kind != SV_STR)
		spec_error(s, call, "'%s' must be a string", kw);
	return v->str;
}

static SVal *pair(Spec *s, const Node *n, TValue *x, TValue *y)
{
	SVal *items[2] = {spec_sv_value(s, n, x), spec_sv_value(s, n, y)};
	return spec_sv_tuple(s, 2, items);
}

/* ---- tl.sum, max, min, argmax, argmin (triton/language/standard.py) ---- */

/* The axis an argument names, wrapped like Python's; -1 for None (every axis). */
static int axis_of(Spec *s, const Node *call, SVal *axis, const TValue *x)
{
	if (!axis || axis->kind == SV_NONE)
		return -1;
	int a = (int)spec_const_int(s, call, axis, "the axis");
	if (a < 0)
		a += x->type.rank;
	if (a < 0 || a >= x->type.rank)
		spec_error(s, call, "axis %d is out of range for a tensor of rank %d", a, x->type.rank);
	return a;
}

/* Reduces x along `axis`, or along every axis when it is -1 (Triton
 * reshapes the tensor to one dim then: here the dims go one at a time, the
 * last first, which is the same up to the rounding of a sum). keep_dims
 * leaves the reduced dims as dims of extent 1. */
static TValue *reduce_axes(Spec *s, const Node *call, ReduceKind k, TValue *x, int axis, bool keep)
{
	if (axis >= 0) {
		TValue *r = reduce(s, call, k, x, axis);
		return keep ? expand(s, call, r, axis) : r;
	}
	int rank = x->type.rank;
	for (int d = rank - 1; d >= 0; d--)
		x = reduce(s, call, k, x, d);
	for (int d = 0; keep && d < rank; d++)
		x = expand(s, call, x, 0);
	return x;
}

/* 0, 1, ... n-1 along `axis` of x's shape, broadcast over the other dims:
 * the index tile of _reduce_with_indices. */
static TValue *index_along(Spec *s, const Node *call, const TValue *x, int axis)
{
	TValue *i = tir_arange(&s->b, 0, x->type.shape[axis]);
	for (int d = 0; d < x->type.rank; d++)
		if (d != axis)
			i = expand(s, call, i, d);
	return spec_checked(s, call, tir_broadcast_to(&s->b, i, x->type.rank, x->type.shape));
}

/* (max, argmax) or (min, argmin) along `axis`. The index is i32, the first
 * of the extreme values (tie_break_left; with tie_break_left=False Triton
 * may return any of them, so the first is right too). Triton's combine
 * ignores NaNs, so where a row holds one its answer depends on the order
 * its reduction tree meets them; here a NaN is the extreme value, the first
 * NaN's index the answer, as torch.argmax has it. */
static SVal *with_indices(Spec *s, const Node *call, bool is_max, TValue *x, int axis, bool keep)
{
	if (axis < 0)
		spec_error(s, call, "an index reduction needs an axis (Triton has none over all axes)");
	if (x->type.dtype == DT_BF16)
		x = tir_cast(&s->b, x, DT_F32);
	TValue *idx = index_along(s, call, x, axis);
	TValue *val = reduce(s, call, is_max ? RED_MAX : RED_MIN, x, axis);
	TValue *arg = spec_checked(s, call, tir_reduce_index(&s->b, is_max ? RED_ARGMAX : RED_ARGMIN, x, idx, axis));
	if (keep) {
		val = expand(s, call, val, axis);
		arg = expand(s, call, arg, axis);
	}
	return pair(s, call, val, arg);
}

/* tl.sum(input, axis=None, keep_dims=False): bf16 summed in fp32, integers
 * narrower than 32 bits in i32 (tir_reduce). tl.max / tl.min(input,
 * axis=None, return_indices=False, return_indices_tie_break_left=True,
 * keep_dims=False): floats narrower than 32 bits in fp32, integers in i32.
 * tl.argmax / argmin(input, axis, tie_break_left=True, keep_dims=False). */
static SVal *call_reduction(Spec *s, const Node *call, const char *fn)
{
	TValue *x = spec_need_value(s, call, 0, "input");
	int axis = axis_of(s, call, spec_arg(s, call, 1, "axis"), x);
	if (!strcmp(fn, "sum")) {
		if (x->type.dtype == DT_BF16)
			x = tir_cast(&s->b, x, DT_F32);
		return spec_sv_value(s, call, reduce_axes(s, call, RED_SUM, x, axis, const_flag(s, call, 2, "keep_dims", false)));
	}
	bool is_max = fn[strlen(fn) - 2] == 'a';
	if (!strncmp(fn, "arg", 3)) {
		if (!spec_arg_node(call, 1, "axis"))
			spec_error(s, call, "missing argument 'axis'");
		const_flag(s, call, 2, "tie_break_left", true);
		SVal *r = with_indices(s, call, is_max, x, axis, const_flag(s, call, 3, "keep_dims", false));
		return r->items[1];
	}
	bool keep = const_flag(s, call, 4, "keep_dims", false);
	if (const_flag(s, call, 2, "return_indices", false)) {
		const_flag(s, call, 3, "return_indices_tie_break_left", true);
		return with_indices(s, call, is_max, x, axis, keep);
	}
	if (dtype_bytes(x->type.dtype) < 4 || x->type.dtype == DT_I1)
		x = tir_cast(&s->b, x, dtype_is_float(x->type.dtype) ? DT_F32 : DT_I32);
	return spec_sv_value(s, call, reduce_axes(s, call, is_max ? RED_MAX : RED_MIN, x, axis, keep));
}

/* ---- scans and generic reductions ---- */

/* Builds the combine block of `scan` by inlining `fn` on its params: the
 * running values, then the next elements, one of each a scanned tensor. */
static void build_combine(Spec *s, const Node *call, TValue *scan, const Node *fn)
{
	int n = scan->nargs;
	TBlock *outer = s->b.block;
	s->b.block = scan->body;
	SVal *params[2 * TIR_MAX_SCAN];
	for (int i = 0; i < 2 * n; i++)
		params[i] = spec_sv_value(s, call, scan->body->params[i]);
	SVal *r = spec_inline_call(s, call, fn, params, 2 * n, NULL, 0);
	if (r->kind == SV_TUPLE && r->nitems == 1)
		r = r->items[0];
	if (n > 1 && (r->kind != SV_TUPLE || r->nitems != n))
		spec_error(s, call, "the combine function '%s' must return %d values, one for each tensor it combines", fn->name, n);
	if (n == 1 && r->kind == SV_TUPLE)
		spec_error(s, call, "the combine function '%s' must return one value, as it combines one tensor", fn->name);
	TValue *out[TIR_MAX_SCAN];
	for (int i = 0; i < n; i++) {
		DType dt = scan->args[i]->type.dtype;
		TValue *v = spec_materialize(s, call, n > 1 ? r->items[i] : r, dt);
		if (v->type.rank != 0)
			spec_error(s, call, "the combine function '%s' must return scalars", fn->name);
		out[i] = tir_cast(&s->b, v, dt);
	}
	tir_yield(&s->b, n, out);
	s->b.block = outer;
	scan->iconst = tir_combine_kind(scan->body);
}

static const Node *combine_fn(Spec *s, const Node *call, int pos)
{
	SVal *f = spec_need_arg(s, call, pos, "combine_fn");
	if (f->kind != SV_FUNC)
		spec_error(s, call, "the combine function must be a @triton.jit function of this module");
	return f->fn;
}

/* tl.associative_scan of a tensor or a tuple of tensors of one shape:
 * a tuple in, a tuple out. */
static SVal *call_associative_scan(Spec *s, const Node *call)
{
	SVal *in = spec_need_arg(s, call, 0, "input");
	int n = in->kind == SV_TUPLE ? in->nitems : 1;
	if (n < 1 || n > TIR_MAX_SCAN)
		spec_error(s, call, "too many tensors in one associative_scan: %d (limit is %d)", n, TIR_MAX_SCAN);
	TValue *xs[TIR_MAX_SCAN];
	for (int i = 0; i < n; i++)
		xs[i] = spec_to_value(s, call, in->kind == SV_TUPLE ? in->items[i] : in);
	int axis = axis_arg(s, call, 1, "axis", xs[0]);
	const Node *fn = combine_fn(s, call, 2);
	TValue *scan = spec_checked(s, call, tir_scan(&s->b, n, xs, axis, const_flag(s, call, 3, "reverse", false)));
	build_combine(s, call, scan, fn);
	TValue *results[TIR_MAX_SCAN];
	s->b.line = scan->line;   /* the combine's lines were the function's */
	tir_results(&s->b, scan, results);
	if (in->kind != SV_TUPLE)
		return spec_sv_value(s, call, scan);
	SVal *items[TIR_MAX_SCAN];
	for (int i = 0; i < n; i++)
		items[i] = spec_sv_value(s, call, results[i]);
	return spec_sv_tuple(s, n, items);
}

/* tl.cumsum / tl.cumprod: a scan whose combine is one add or mul;
 * integers narrower than 32 bits are scanned as i32 and bf16 as fp32, as
 * Triton does. */
static SVal *call_cumulative(Spec *s, const Node *call, TOp op)
{
	TValue *x = spec_need_value(s, call, 0, "input");
	SVal *ax = spec_arg(s, call, 1, "axis");
	int axis = ax ? (int)spec_const_int(s, call, ax, "the axis") : 0;
	if (!dtype_is_float(x->type.dtype) && dtype_bytes(x->type.dtype) < 4)
		x = tir_cast(&s->b, x, DT_I32);
	else if (x->type.dtype == DT_BF16)
		x = tir_cast(&s->b, x, DT_F32);
	TValue *scan = spec_checked(s, call, tir_scan(&s->b, 1, &x, axis, const_flag(s, call, 2, "reverse", false)));
	TBlock *outer = s->b.block;
	s->b.block = scan->body;
	TValue *r = bin(s, call, op, scan->body->params[0], scan->body->params[1]);
	tir_yield(&s->b, 1, &r);
	s->b.block = outer;
	scan->iconst = tir_combine_kind(scan->body);
	return spec_sv_value(s, call, scan);
}

/* One reduction of n tensors along `axis` with the combine `fn`, results
 * in out[0..n-1]: a plain sum / product / maximum / minimum when the
 * combine is exactly that op on one tensor (the traced combine dropped),
 * else a RED_COMBINE reduction carrying the combine's body. */
static void reduce_with(Spec *s, const Node *call, const Node *fn, int n, TValue *const *inputs, int axis, TValue **out)
{
	TValue *xs[TIR_MAX_SCAN];
	memcpy(xs, inputs, sizeof *xs * (size_t)n);
	TValue *mark = s->b.block->last;
	TValue *v = spec_checked(s, call, tir_reduce_combine(&s->b, n, xs, axis));
	build_combine(s, call, v, fn);
	s->b.line = v->line;   /* the combine's lines were the function's */
	if (n == 1 && v->iconst >= 0) {
		tir_truncate(&s->b, mark);
		out[0] = reduce(s, call, (ReduceKind)v->iconst, xs[0], axis);
		return;
	}
	tir_results(&s->b, v, out);
}

/* tl.reduce(input, axis, combine_fn, keep_dims=False) of a tensor or a
 * tuple of tensors of one shape; axis=None reduces every axis, the last
 * first (Triton reshapes to one dim: the same for a combine that is
 * associative and commutative, which Triton's lowering also needs). */
static SVal *call_reduce_fn(Spec *s, const Node *call)
{
	SVal *in = spec_need_arg(s, call, 0, "input");
	int n = in->kind == SV_TUPLE ? in->nitems : 1;
	if (n < 1 || n > TIR_MAX_SCAN)
		spec_error(s, call, "too many tensors in one tl.reduce: %d (limit is %d)", n, TIR_MAX_SCAN);
	TValue *out[TIR_MAX_SCAN];
	for (int i = 0; i < n; i++) {
		out[i] = spec_to_value(s, call, in->kind == SV_TUPLE ? in->items[i] : in);
		const Type *t = &out[i]->type, *t0 = &out[0]->type;
		if (t->rank != t0->rank || memcmp(t->shape, t0->shape, sizeof(int) * (size_t)t->rank))
			spec_error(s, call, "the tensors tl.reduce combines must have one shape");
	}
	int axis = axis_of(s, call, spec_need_arg(s, call, 1, "axis"), out[0]);
	const Node *fn = combine_fn(s, call, 2);
	bool keep = const_flag(s, call, 3, "keep_dims", false);
	int rank = out[0]->type.rank;
	for (int d = rank - 1; d >= 0; d--)
		if (axis < 0 || d == axis)
			reduce_with(s, call, fn, n, out, d, out);
	for (int i = 0; keep && i < n; i++) {
		if (axis >= 0)
			out[i] = expand(s, call, out[i], axis);
		for (int d = 0; axis < 0 && d < rank; d++)
			out[i] = expand(s, call, out[i], 0);
	}
	if (in->kind != SV_TUPLE)
		return spec_sv_value(s, call, out[0]);
	SVal *items[TIR_MAX_SCAN];
	for (int i = 0; i < n; i++)
		items[i] = spec_sv_value(s, call, out[i]);
	return spec_sv_tuple(s, n, items);
}

/* ---- side effects ---- */

static void device_assert(Spec *s, const Node *call, SVal *cond, const char *msg, SVal *mask)
{
	if (cond->kind == SV_INT && cond->i)
		return;                                      /* true at compile time */
	TValue *m = mask && mask->kind != SV_NONE ? spec_to_value(s, call, mask) : NULL;
	spec_checked(s, call, tir_assert(&s->b, spec_to_value(s, call, cond), m, msg));
}

static SVal *call_device_assert(Spec *s, const Node *call)
{
	device_assert(s, call, spec_need_arg(s, call, 0, "cond"), const_str(s, call, 1, "msg"), spec_arg(s, call, 2, "mask"));
	return spec_sv_new(s, SV_NONE);
}

static SVal *call_static_assert(Spec *s, const Node *call)
{
	SVal *c = spec_need_arg(s, call, 0, "cond");
	const char *msg = const_str(s, call, 1, "msg");
	if (c->kind != SV_INT)
		spec_error(s, call, "tl.static_assert needs a condition known at compile time");
	if (!c->i)
		spec_error(s, call, "static assertion failed%s%s", msg ? ": " : "", msg ? msg : "");
	return spec_sv_new(s, SV_NONE);
}

static int name_index(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/* tl.multiple_of / max_contiguous / max_constancy: one value per dim. */
static SVal *call_hint(Spec *s, const Node *call, HintKind kind)
{
	SVal *x = spec_need_arg(s, call, 0, "input");
	SVal *vals = spec_need_arg(s, call, 1, "values");
	if (x->kind != SV_VALUE)
		return x;
	int rank = x->v->type.rank, n = vals->kind == SV_TUPLE ? vals->nitems : 1;
	if (n != (rank ? rank : 1))
		spec_error(s, call, "%d hint values given for a tensor of rank %d", n, rank);
	int64_t hint[TC_MAX_RANK];
	for (int d = 0; d < TC_MAX_RANK; d++) {
		SVal *v = vals->kind == SV_TUPLE ? vals->items[d < n ? d : n - 1] : vals;
		hint[d] = spec_const_int(s, call, v, "a hint value");
		if (hint[d] < 1)
			spec_error(s, call, "hint values must be positive");
	}
	return spec_sv_value(s, call, tir_hint(&s->b, x->v, kind, hint));
}

/* ---- tl.dot ---- */

static DotPrecision dot_precision(Spec *s, const Node *call)
{
	const char *p = const_str(s, call, 3, "input_precision");
	if (p) {
		static const char *const names[] = {"tf32", "tf32x3", "ieee"};
		int i = name_index(p, names, 3);
		if (i < 0)
			spec_error(s, call, "unknown input_precision '%s' (tf32, tf32x3 or ieee)", p);
		return (DotPrecision)i;
	}
	return const_flag(s, call, 4, "allow_tf32", true) ? DOT_TF32 : DOT_IEEE;
}

static SVal *call_dot(Spec *s, const Node *call)
{
	TValue *x = spec_need_value(s, call, 0, "input"), *y = spec_need_value(s, call, 1, "other");
	SVal *acc = spec_arg(s, call, 2, "acc");
	SVal *out = spec_arg(s, call, 6, "out_dtype");
	DotPrecision p = dot_precision(s, call);
	TValue *a = acc && acc->kind != SV_NONE ? spec_to_value(s, call, acc) : NULL;
	/* int8 operands accumulate in int32 whatever out_dtype says (as Triton's
	 * semantics); out_dtype=tl.int32 is how kernels say so */
	bool int8_i32 = out && out->kind == SV_DTYPE && out->dtype == DT_I32 && x->type.dtype == DT_I8;
	if (out && out->kind == SV_DTYPE && out->dtype != DT_F32 && !int8_i32) {
		if (out->dtype != DT_F16 || x->type.dtype != DT_F16)
			spec_error(s, call, "tl.dot: out_dtype %s is not supported for %s operands", dtype_name(out->dtype),
				   dtype_name(x->type.dtype));
		if (!a && x->type.rank == 2 && y->type.rank == 2) {
			int shape[2] = {x->type.shape[0], y->type.shape[1]};
			a = tir_broadcast_to(&s->b, tir_const_float(&s->b, DT_F16, 0.0), 2, shape);
		}
		if (!a && x->type.rank == 3 && y->type.rank == 3) {
			int shape[3] = {x->type.shape[0], x->type.shape[1], y->type.shape[2]};
			a = tir_broadcast_to(&s->b, tir_const_float(&s->b, DT_F16, 0.0), 3, shape);
		}
		if (a && a->type.dtype != DT_F16)
			spec_error(s, call, "tl.dot: the accumulator must be fp16 with out_dtype=tl.float16");
	}
	return spec_sv_value(s, call, tir_dot(&s->b, x, y, a, p));
}

/* ---- random numbers (triton/language/random.py) ---- */

static int rounds_arg(Spec *s, const Node *call)
{
	SVal *r = spec_arg(s, call, 2, "n_rounds");
	return r ? (int)spec_const_int(s, call, r, "n_rounds") : 10;
}

static TValue *philox_word(Spec *s, const Node *call, int word)
{
	TValue *seed = spec_need_value(s, call, 0, "seed"), *off = spec_need_value(s, call, 1, "offset");
	return spec_checked(s, call, tir_philox(&s->b, seed, off, rounds_arg(s, call), word));
}

/* uint_to_uniform_float: the bits as a signed integer x, then
 * (x < 0 ? -x - 1 : x) * scale in fp32, with scale 4.6566127342e-10 (32
 * bits) or 1.0842020432385337e-19 (64 bits): uniform in [0, 1). */
static TValue *uniform(Spec *s, const Node *n, TValue *bits)
{
	bool wide = dtype_bytes(bits->type.dtype) == 8;
	TValue *x = spec_checked(s, n, tir_bitcast(&s->b, bits, wide ? DT_I64 : DT_I32));
	TValue *neg = cmp(s, n, CMP_LT, x, inum(s, x, 0));
	TValue *negated = tir_unary(&s->b, TOP_NEG, x);   /* ops made in a fixed order */
	TValue *flipped = bin(s, n, TOP_SUB, negated, inum(s, x, 1));
	TValue *y = tir_cast(&s->b, where(s, n, neg, flipped, x), DT_F32);
	return bin(s, n, TOP_MUL, y, tir_const_float(&s->b, DT_F32, wide ? 1.0842020432385337e-19 : 4.6566127342e-10));
}

/* pair_uniform_to_normal, the Box-Muller transform; the first of the pair
 * (cos) or the second (sin). */
static TValue *normal(Spec *s, const Node *n, TValue *u1, TValue *u2, bool second)
{
	u1 = bin(s, n, TOP_MAXIMUM, u1, fnum(s, u1, 1.0e-7));
	TValue *th = bin(s, n, TOP_MUL, fnum(s, u2, 6.283185307179586), u2);
	TValue *lg = spec_checked(s, n, tir_math(&s->b, MATH_LOG, u1));
	TValue *r = spec_checked(s, n, tir_math(&s->b, MATH_SQRT, bin(s, n, TOP_MUL, fnum(s, lg, -2.0), lg)));
	return bin(s, n, TOP_MUL, r, spec_checked(s, n, tir_math(&s->b, second ? MATH_SIN : MATH_COS, th)));
}

static SVal *call_random(Spec *s, const Node *call, const char *fn)
{
	if (!strcmp(fn, "randint"))
		return spec_sv_value(s, call, philox_word(s, call, 0));
	TValue *w[4];
	int words = !strcmp(fn, "rand") ? 1 : !strcmp(fn, "randn") ? 2 : 4;
	for (int i = 0; i < words; i++)
		w[i] = philox_word(s, call, i);
	if (!strcmp(fn, "randint4x")) {
		SVal *items[4];
		for (int i = 0; i < 4; i++)
			items[i] = spec_sv_value(s, call, w[i]);
		return spec_sv_tuple(s, 4, items);
	}
	TValue *u[4];
	for (int i = 0; i < words; i++)
		u[i] = uniform(s, call, w[i]);
	if (!strcmp(fn, "rand"))
		return spec_sv_value(s, call, u[0]);
	if (!strcmp(fn, "randn"))
		return spec_sv_value(s, call, normal(s, call, u[0], u[1], false));
	SVal *items[4];
	for (int i = 0; i < 4; i++) {
		TValue *v = !strcmp(fn, "rand4x") ? u[i] : normal(s, call, u[i & 2], u[(i & 2) + 1], i & 1);
		items[i] = spec_sv_value(s, call, v);
	}
	return spec_sv_tuple(s, 4, items);
}

SVal *spec_call_tl_lib(Spec *s, const Node *call, const char *fn)
{
	static const char *const randoms[] = {"rand", "randn", "randint", "randint4x", "rand4x", "randn4x"};
	if (!strcmp(fn, "associative_scan"))
		return call_associative_scan(s, call);
	if (!strcmp(fn, "cumsum") || !strcmp(fn, "cumprod"))
		return call_cumulative(s, call, fn[3] == 's' ? TOP_ADD : TOP_MUL);
	if (!strcmp(fn, "reduce"))
		return call_reduce_fn(s, call);
	if (!strcmp(fn, "sum") || !strcmp(fn, "max") || !strcmp(fn, "min") || !strcmp(fn, "argmax") ||
	    !strcmp(fn, "argmin"))
		return call_reduction(s, call, fn);
	if (!strcmp(fn, "device_assert"))
		return call_device_assert(s, call);
	if (!strcmp(fn, "device_print"))
		return spec_device_print(s, call, NULL);
	if (!strcmp(fn, "static_assert"))
		return call_static_assert(s, call);
	if (!strcmp(fn, "debug_barrier")) {
		tir_barrier(&s->b);
		return spec_sv_new(s, SV_NONE);
	}
	if (!strncmp(fn, "atomic_", 7))
		return spec_call_tl_atomic(s, call, fn + 7);
	if (!strcmp(fn, "multiple_of"))
		return call_hint(s, call, HINT_MULTIPLE_OF);
	if (!strcmp(fn, "max_contiguous"))
		return call_hint(s, call, HINT_MAX_CONTIGUOUS);
	if (!strcmp(fn, "max_constancy"))
		return call_hint(s, call, HINT_MAX_CONSTANCY);
	if (!strcmp(fn, "assume")) {
		spec_need_arg(s, call, 0, "cond");                /* evaluated, then only a hint */
		return spec_sv_new(s, SV_NONE);
	}
	if (!strcmp(fn, "dot"))
		return call_dot(s, call);
	if (!strcmp(fn, "dot_scaled"))
		return spec_call_dot_scaled(s, call);
	if (!strcmp(fn, "inline_asm_elementwise"))
		return spec_call_inline_asm(s, call);
	if (!strcmp(fn, "zeros_like")) {
		TValue *x = spec_need_value(s, call, 0, "input");
		return spec_sv_value(s, call, tir_broadcast_to(&s->b, inum(s, x, 0), x->type.rank, x->type.shape));
	}
	if (name_index(fn, randoms, 6) >= 0)
		return call_random(s, call, fn);
	return NULL;
}

/* ---- triton_helpers ---- */

/* maximum_with_index / minimum_with_index, op for op. */
static SVal *with_index(Spec *s, const Node *call, bool is_max)
{
	TValue *av = spec_need_value(s, call, 0, "a_value"), *ai = spec_need_value(s, call, 1, "a_index");
	TValue *bv = spec_need_value(s, call, 2, "b_value"), *bi = spec_need_value(s, call, 3, "b_index");
	TValue *mask = cmp(s, call, is_max ? CMP_GT : CMP_LT, av, bv);
	TValue *equal = cmp(s, call, CMP_EQ, av, bv);
	if (dtype_is_float(av->type.dtype)) {
		TValue *anan = cmp(s, call, CMP_NE, av, av), *bnan = cmp(s, call, CMP_NE, bv, bv);
		TValue *bnum = bin(s, call, TOP_XOR, bnan, tir_const_int(&s->b, DT_I1, 1));
		mask = bin(s, call, TOP_OR, mask, bin(s, call, TOP_AND, anan, bnum));
		equal = bin(s, call, TOP_OR, equal, bin(s, call, TOP_AND, anan, bnan));
	}
	mask = bin(s, call, TOP_OR, mask, bin(s, call, TOP_AND, equal, cmp(s, call, CMP_LT, ai, bi)));
	/* one after the other: as arguments of pair their order would be the
	 * compiler's (gcc and clang differ), and so the IR's */
	TValue *index = where(s, call, mask, ai, bi);
	TValue *value = where(s, call, mask, av, bv);
	return pair(s, call, value, index);
}

static SVal *reduce_with_index(Spec *s, const Node *call, bool is_max)
{
	TValue *v = spec_need_value(s, call, 0, "value"), *i = spec_need_value(s, call, 1, "index");
	int axis = axis_arg(s, call, 2, "dim", v);
	TValue *val = reduce(s, call, is_max ? RED_MAX : RED_MIN, v, axis);
	TValue *idx = spec_checked(s, call, tir_reduce_index(&s->b, is_max ? RED_ARGMAX : RED_ARGMIN, v, i, axis));
	return pair(s, call, val, idx);
}

/* triton_helpers.exp(x, use_fast_math) */
static TValue *helper_exp(Spec *s, const Node *n, TValue *x, bool fast)
{
	if (fast)
		x = bin(s, n, TOP_MUL, x, fnum(s, x, 1.4426950408889634));
	TValue *v = spec_checked(s, n, tir_math(&s->b, fast ? MATH_EXP2 : MATH_EXP, x));
	v->aux2 = fast;   /* tl.math.exp2: Triton's fast exp2 */
	return v;
}

static void no_strict_signed_zero(Spec *s, const Node *call, int pos)
{
	if (const_flag(s, call, pos, "strict_signed_zero", false))
		spec_error(s, call, "online softmax with strict_signed_zero=True is not supported yet");
}

static SVal *online_softmax_combine(Spec *s, const Node *call)
{
	TValue *lmax = spec_need_value(s, call, 0, "lhs_max"), *lsum = spec_need_value(s, call, 1, "lhs_sum");
	TValue *rmax = spec_need_value(s, call, 2, "rhs_max");
	bool fast = const_flag(s, call, 3, "use_fast_math", false);
	no_strict_signed_zero(s, call, 4);
	TValue *out_max = bin(s, call, TOP_MAXIMUM, lmax, rmax);
	TValue *ninf = cmp(s, call, CMP_EQ, out_max, fnum(s, out_max, -INFINITY));
	TValue *lscale = helper_exp(s, call, bin(s, call, TOP_SUB, lmax, out_max), fast);
	lscale = where(s, call, ninf, fnum(s, lscale, 1.0), lscale);
	TValue *rscale = helper_exp(s, call, bin(s, call, TOP_SUB, rmax, out_max), fast);
	rscale = where(s, call, ninf, fnum(s, rscale, 1.0), rscale);
	TValue *out_sum = bin(s, call, TOP_ADD, bin(s, call, TOP_MUL, lsum, lscale), rscale);
	return pair(s, call, out_max, out_sum);
}

static SVal *online_softmax_reduce(Spec *s, const Node *call)
{
	TValue *lmax = spec_need_value(s, call, 0, "lhs_max"), *lsum = spec_need_value(s, call, 1, "lhs_sum");
	int dim = axis_arg(s, call, 2, "dim", lmax);
	bool fast = const_flag(s, call, 3, "use_fast_math", false);
	no_strict_signed_zero(s, call, 4);
	TValue *out_max = reduce(s, call, RED_MAX, lmax, dim);
	TValue *keep = expand(s, call, out_max, dim);
	TValue *ninf = cmp(s, call, CMP_EQ, keep, fnum(s, keep, -INFINITY));
	TValue *diff = bin(s, call, TOP_SUB, lmax, keep);
	TValue *delta = where(s, call, ninf, inum(s, diff, 0), diff);
	TValue *out_sum = reduce(s, call, RED_SUM, bin(s, call, TOP_MUL, lsum, helper_exp(s, call, delta, fast)), dim);
	return pair(s, call, out_max, out_sum);
}

static SVal *welford_reduce(Spec *s, const Node *call)
{
	TValue *value = spec_need_value(s, call, 0, "value"), *mean = spec_need_value(s, call, 1, "mean");
	TValue *m2 = spec_need_value(s, call, 2, "m2"), *weight = spec_need_value(s, call, 3, "weight");
	SVal *first = spec_need_arg(s, call, 4, "first_iteration");
	TValue *f_weight = NULL, *f_mean = NULL, *f_m2 = NULL, *weight1 = NULL, *mean1 = NULL, *m21 = NULL;
	if (first->kind != SV_INT || first->i) {
		f_weight = tir_broadcast_to(&s->b, inum(s, weight, 1), weight->type.rank, weight->type.shape);
		f_mean = value;
		f_m2 = tir_broadcast_to(&s->b, inum(s, m2, 0), m2->type.rank, m2->type.shape);
	}
	if (first->kind != SV_INT || !first->i) {
		TValue *delta = bin(s, call, TOP_SUB, value, mean);
		weight1 = bin(s, call, TOP_ADD, weight, inum(s, weight, 1));
		mean1 = bin(s, call, TOP_ADD, mean, bin(s, call, TOP_DIV, delta, weight1));
		m21 = bin(s, call, TOP_ADD, m2, bin(s, call, TOP_MUL, delta, bin(s, call, TOP_SUB, value, mean1)));
	}
	SVal *out[3];
	if (first->kind == SV_INT) {
		out[0] = spec_sv_value(s, call, first->i ? f_mean : mean1);
		out[1] = spec_sv_value(s, call, first->i ? f_m2 : m21);
		out[2] = spec_sv_value(s, call, first->i ? f_weight : weight1);
	} else {
		/* `if first_iteration:` on a run-time flag: both branches are
		 * element-wise and cannot fail, so a select says the same. */
		TValue *c = spec_to_value(s, call, first);
		out[0] = spec_sv_value(s, call, where(s, call, c, f_mean, mean1));
		out[1] = spec_sv_value(s, call, where(s, call, c, f_m2, m21));
		out[2] = spec_sv_value(s, call, where(s, call, c, f_weight, weight1));
	}
	return spec_sv_tuple(s, 3, out);
}

/* Inductor's welford_combine of (mean, m2, weight) pairs, op for op:
 *   delta = mean_2 - mean_1; new_weight = weight_1 + weight_2;
 *   w2_over_w = where(new_weight == 0, 0, weight_2 / new_weight);
 *   mean = mean_1 + delta * w2_over_w;
 *   m2 = m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w. */
static void combine_welford(Spec *s, const Node *call, TValue *const in[6], TValue *out[3])
{
	TValue *mean1 = in[0], *m21 = in[1], *w1 = in[2], *mean2 = in[3], *m22 = in[4], *w2 = in[5];
	TValue *delta = bin(s, call, TOP_SUB, mean2, mean1);
	TValue *new_w = bin(s, call, TOP_ADD, w1, w2);
	TValue *ratio = bin(s, call, TOP_DIV, w2, new_w);
	TValue *no_weight = cmp(s, call, CMP_EQ, new_w, fnum(s, new_w, 0.0));
	TValue *w2_over_w = where(s, call, no_weight, fnum(s, ratio, 0.0), ratio);
	out[0] = bin(s, call, TOP_ADD, mean1, bin(s, call, TOP_MUL, delta, w2_over_w));
	TValue *corr = bin(s, call, TOP_MUL, bin(s, call, TOP_MUL, bin(s, call, TOP_MUL, delta, delta), w1), w2_over_w);
	out[1] = bin(s, call, TOP_ADD, bin(s, call, TOP_ADD, m21, m22), corr);
	out[2] = new_w;
}

static SVal *welford_combine(Spec *s, const Node *call)
{
	static const char *const names[6] = {"mean_1", "m2_1", "weight_1", "mean_2", "m2_2", "weight_2"};
	TValue *in[6], *out[3];
	for (int i = 0; i < 6; i++)
		in[i] = spec_need_value(s, call, i, names[i]);
	combine_welford(s, call, in, out);
	SVal *r[3] = {spec_sv_value(s, call, out[0]), spec_sv_value(s, call, out[1]), spec_sv_value(s, call, out[2])};
	return spec_sv_tuple(s, 3, r);
}

static SVal *welford(Spec *s, const Node *call)
{
	TValue *xs[3] = {spec_need_value(s, call, 0, "mean"), spec_need_value(s, call, 1, "m2"), spec_need_value(s, call, 2, "weight")};
	int dim = axis_arg(s, call, 3, "dim", xs[0]);
	for (int i = 1; i < 3; i++)
		if (xs[i]->type.rank != xs[0]->type.rank ||
		    memcmp(xs[i]->type.shape, xs[0]->type.shape, sizeof(int) * (size_t)xs[0]->type.rank))
			spec_error(s, call, "welford: mean, m2 and weight must have one shape");
	TValue *v = spec_checked(s, call, tir_reduce_combine(&s->b, 3, xs, dim));
	TBlock *outer = s->b.block;
	s->b.block = v->body;
	TValue *body[3];
	combine_welford(s, call, v->body->params, body);
	for (int i = 0; i < 3; i++)
		body[i] = tir_cast(&s->b, body[i], xs[i]->type.dtype);
	tir_yield(&s->b, 3, body);
	s->b.block = outer;
	v->iconst = tir_combine_kind(v->body);
	TValue *out[3];
	tir_results(&s->b, v, out);
	SVal *r[3] = {spec_sv_value(s, call, out[0]), spec_sv_value(s, call, out[1]), spec_sv_value(s, call, out[2])};
	return spec_sv_tuple(s, 3, r);
}

static SVal *sv_where(Spec *s, const Node *n, SVal *c, SVal *x, SVal *y)
{
	TValue *tx, *ty;
	spec_weak_operands(s, n, x, y, false, &tx, &ty);
	return spec_sv_value(s, n, where(s, n, spec_to_value(s, n, c), tx, ty));
}

static SVal *different_sign(Spec *s, const Node *n, SVal *a, SVal *b)
{
	SVal *zero = spec_sv_int(s, 0);
	SVal *x = spec_eval_compare(s, n, OP_LT, a, zero), *y = spec_eval_compare(s, n, OP_LT, b, zero);
	return spec_eval_compare(s, n, OP_NE, x, y);
}

/* div_floor_integer and remainder_integer: C's // and % corrected to
 * Python's floor semantics where the signs differ. */
static SVal *floor_divmod(Spec *s, const Node *call, bool want_div)
{
	SVal *a = spec_need_arg(s, call, 0, "a"), *b = spec_need_arg(s, call, 1, "b");
	if (spec_is_const(a) && spec_is_const(b))
		return spec_eval_binary(s, call, want_div ? OP_FLOORDIV : OP_MOD, a, b);  /* Python's own, folded */
	SVal *rem = spec_eval_binary(s, call, OP_MOD, a, b);
	SVal *nonzero = spec_eval_compare(s, call, OP_NE, rem, spec_sv_int(s, 0));
	SVal *differ = different_sign(s, call, a, b);
	if (want_div) {
		SVal *quot = spec_eval_binary(s, call, OP_FLOORDIV, a, b);
		SVal *fixed = sv_where(s, call, nonzero, spec_eval_binary(s, call, OP_SUB, quot, spec_sv_int(s, 1)), quot);
		return sv_where(s, call, differ, fixed, quot);
	}
	SVal *both = spec_eval_binary(s, call, OP_BITAND, nonzero, differ);
	return sv_where(s, call, both, spec_eval_binary(s, call, OP_ADD, rem, b), rem);
}

/* randint64(seed, offset, low, high): two Philox words as one u64, modulo
 * (high - low), plus low. */
static SVal *randint64(Spec *s, const Node *call)
{
	TValue *r0 = tir_cast(&s->b, philox_word(s, call, 0), DT_U64);
	TValue *r1 = tir_cast(&s->b, philox_word(s, call, 1), DT_U64);
	TValue *r = bin(s, call, TOP_OR, r0, bin(s, call, TOP_SHL, r1, tir_const_int(&s->b, DT_U64, 32)));
	SVal *low = spec_need_arg(s, call, 2, "low"), *high = spec_need_arg(s, call, 3, "high");
	SVal *size = spec_eval_binary(s, call, OP_SUB, high, low);
	r = bin(s, call, TOP_MOD, r, tir_cast(&s->b, spec_to_value(s, call, size), DT_U64));
	return spec_eval_binary(s, call, OP_ADD, spec_sv_value(s, call, tir_cast(&s->b, r, DT_I64)), low);
}

SVal *spec_call_helpers_lib(Spec *s, const Node *call, const char *fn)
{
	if (!strcmp(fn, "promote_to_tensor")) {
		/* x + tl.zeros((1,), tl.int1): a scalar becomes a tensor of shape [1] */
		int one = 1;
		TValue *z = tir_broadcast_to(&s->b, tir_const_int(&s->b, DT_I1, 0), 1, &one);
		return spec_eval_binary(s, call, OP_ADD, spec_need_arg(s, call, 0, "x"), spec_sv_value(s, call, z));
	}
	if (!strcmp(fn, "maximum_with_index") || !strcmp(fn, "minimum_with_index"))
		return with_index(s, call, fn[1] == 'a');
	if (!strcmp(fn, "max_with_index") || !strcmp(fn, "min_with_index"))
		return reduce_with_index(s, call, fn[1] == 'a');
	if (!strcmp(fn, "online_softmax_combine"))
		return online_softmax_combine(s, call);
	if (!strcmp(fn, "online_softmax_reduce"))
		return online_softmax_reduce(s, call);
	if (!strcmp(fn, "welford_reduce"))
		return welford_reduce(s, call);
	if (!strcmp(fn, "welford_combine"))
		return welford_combine(s, call);
	if (!strcmp(fn, "welford"))
		return welford(s, call);
	if (!strcmp(fn, "div_floor_integer") || !strcmp(fn, "remainder_integer"))
		return floor_divmod(s, call, fn[0] == 'd');
	if (!strcmp(fn, "prod") || !strcmp(fn, "any")) {
		TValue *x = spec_need_value(s, call, 0, "input");
		int axis = axis_arg(s, call, 1, "axis", x);
		if (fn[0] == 'a')
			x = tir_cast(&s->b, x, DT_I1);
		return spec_sv_value(s, call, reduce(s, call, fn[0] == 'a' ? RED_ANY : RED_PROD, x, axis));
	}
	if (!strcmp(fn, "device_assert_then")) {
		device_assert(s, call, spec_need_arg(s, call, 0, "cond"), const_str(s, call, 1, "msg"), NULL);
		return spec_need_arg(s, call, 2, "r");
	}
	if (!strcmp(fn, "randint64"))
		return randint64(s, call);
	if (!strcmp(fn, "exclusive_scan_decoupled_lookback") || !strcmp(fn, "exclusive_scan_decoupled_lookback_64"))
		return spec_call_lookback(s, call, fn[strlen(fn) - 1] == '4');
	return NULL;
}
