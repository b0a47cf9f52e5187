/* specialize.c: binds a kernel's signature and constexprs and walks its
 * body, building tile IR.
 *
 * Names hold either a runtime value (a TValue) or a compile-time one: a
 * Python int, float or bool, a dtype, None, a module such as `tl`. Python
 * arithmetic on compile-time values is folded here with Python's own rules
 * (floor division, sign of the divisor for %); once a runtime value is
 * involved, Triton's rules apply and a Python scalar is a "weak" operand
 * that adopts the tensor's type. Loops with compile-time bounds are
 * unrolled; run-time loops and ifs, and calls of the module's own jitted
 * functions, are spec_control.c's; library functions made of several ops
 * are spec_lib.c's. */
#include "ir/spec.h"

#include <math.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#define STATIC_UNROLL_MAX 4096   /* copies of a loop over compile-time bounds */

void spec_error(Spec *s, const Node *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vfatal(s->d, s->src, n ? n->offset : 0, fmt, ap);
	va_end(ap);
}

SVal *spec_sv_new(Spec *s, SvKind k)
{
	SVal *v = arena_alloc(s->vals, sizeof *v);
	v->kind = k;
	return v;
}

SVal *spec_sv_int(Spec *s, int64_t i)
{
	SVal *v = spec_sv_new(s, SV_INT);
	v->i = i;
	return v;
}

SVal *spec_sv_float(Spec *s, double f)
{
	SVal *v = spec_sv_new(s, SV_FLOAT);
	v->f = f;
	return v;
}

SVal *spec_sv_value(Spec *s, const Node *n, TValue *t)
{
	if (!t)
		spec_error(s, n, "%s", s->b.error ? s->b.error : "invalid operation");
	SVal *v = spec_sv_new(s, SV_VALUE);
	v->v = t;
	return v;
}

SVal *spec_sv_tuple(Spec *s, int n, SVal **items)
{
	SVal *v = spec_sv_new(s, SV_TUPLE);
	v->nitems = n;
	v->items = arena_alloc(s->a, sizeof(SVal *) * (size_t)(n + 1));
	for (int i = 0; i < n; i++)
		v->items[i] = items[i];
	return v;
}

TValue *spec_checked(Spec *s, const Node *n, TValue *v)
{
	if (!v)
		spec_error(s, n, "%s", s->b.error ? s->b.error : "invalid operation");
	return v;
}

Env *spec_env_new(Spec *s)
{
	Env *e = arena_alloc(s->a, sizeof *e);
	e->nslots = 64;
	e->slots = arena_alloc(s->a, sizeof *e->slots * (size_t)e->nslots);
	return e;
}

static size_t name_hash(const char *name)
{
	return (size_t)base_hash_fnv1a(name, strlen(name), 0xcbf29ce484222325ull);
}

static Binding **env_slot(Env *e, const char *name)
{
	return &e->slots[name_hash(name) & (size_t)(e->nslots - 1)];
}

void spec_bind(Spec *s, const char *name, SVal *v)
{
	Env *e = s->env;
	Binding *b = *env_slot(e, name);
	while (b && strcmp(b->name, name))
		b = b->next;
	if (!b) {
		if (e->count >= e->nslots) {   /* grow: chains stay short */
			Binding **old = e->slots;
			int n = e->nslots;
			e->nslots *= 2;
			e->slots = arena_alloc(s->a, sizeof *e->slots * (size_t)e->nslots);
			for (int i = 0; i < n; i++)
				for (Binding *x = old[i], *next; x; x = next) {
					next = x->next;
					Binding **slot = env_slot(e, x->name);
					x->next = *slot;
					*slot = x;
				}
		}
		b = arena_alloc(s->a, sizeof *b);
		b->name = name;
		Binding **slot = env_slot(e, name);
		b->next = *slot;
		*slot = b;
		e->count++;
	}
	if (s->snapshots) {
		if (s->nundo == s->undo_cap) {
			int cap = s->undo_cap ? 2 * s->undo_cap : 64;
			Undo *u = arena_alloc(s->a, sizeof *u * (size_t)cap);
			if (s->nundo)
				memcpy(u, s->undo, sizeof *u * (size_t)s->nundo);
			s->undo = u;
			s->undo_cap = cap;
		}
		s->undo[s->nundo++] = (Undo){b, b->val};
	}
	b->val = v;
}

SVal *spec_lookup(Spec *s, const char *name)
{
	for (Binding *b = *env_slot(s->env, name); b; b = b->next)
		if (!strcmp(b->name, name))
			return b->val;
	return NULL;
}

/* ---- compile-time values to IR ---- */

bool spec_is_const(const SVal *v)
{
	return v->kind == SV_INT || v->kind == SV_FLOAT;
}

DType spec_const_dtype(const SVal *v)
{
	if (v->kind == SV_FLOAT)
		return DT_F32;
	return v->i >= INT32_MIN && v->i <= INT32_MAX ? DT_I32 : DT_I64;
}

TValue *spec_materialize(Spec *s, const Node *n, SVal *v, DType dt)
{
	if (v->kind == SV_VALUE)
		return v->v;
	if (v->kind == SV_INT)
		return dtype_is_float(dt) ? tir_const_float(&s->b, dt, (double)v->i) : tir_const_int(&s->b, dt, v->i);
	if (v->kind == SV_FLOAT)
		return tir_const_float(&s->b, dt, v->f);
	spec_error(s, n, "expected a number or a tensor here");
}

TValue *spec_to_value(Spec *s, const Node *n, SVal *v)
{
	return spec_materialize(s, n, v, spec_is_const(v) ? spec_const_dtype(v) : DT_F32);
}

/* Brings a Python scalar to the type Triton gives it against a tensor. */
void spec_weak_operands(Spec *s, const Node *n, SVal *x, SVal *y, bool div_or_mod, TValue **tx, TValue **ty)
{
	bool ptr = (x->kind == SV_VALUE && x->v->type.dtype == DT_PTR) || (y->kind == SV_VALUE && y->v->type.dtype == DT_PTR);
	if (ptr) {                                   /* an offset keeps its own type: ptr + 4 */
		*tx = spec_to_value(s, n, x);
		*ty = spec_to_value(s, n, y);
		return;
	}
	if (x->kind == SV_VALUE && spec_is_const(y)) {
		DType dt;
		if (!tir_promote(x->v->type.dtype, false, spec_const_dtype(y), true, div_or_mod, &dt))
			spec_error(s, n, "operand types cannot be combined");
		*tx = x->v;
		*ty = spec_materialize(s, n, y, dt);
	} else if (spec_is_const(x) && y->kind == SV_VALUE) {
		DType dt;
		if (!tir_promote(spec_const_dtype(x), true, y->v->type.dtype, false, div_or_mod, &dt))
			spec_error(s, n, "operand types cannot be combined");
		*tx = spec_materialize(s, n, x, dt);
		*ty = y->v;
	} else {
		*tx = spec_to_value(s, n, x);
		*ty = spec_to_value(s, n, y);
	}
}

/* ---- folding Python arithmetic ---- */

static int64_t py_floordiv(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* A folded Python integer: Triton's constexprs are Python's integers,
 * which do not overflow; one that leaves 64 bits cannot become a value. */
static SVal *fold_int(Spec *s, const Node *n, bool overflow, int64_t r)
{
	if (overflow)
		spec_error(s, n, "integer overflow in a constant expression: the result does not fit in 64 bits");
	return spec_sv_int(s, r);
}

/* a ** b for b >= 0, by squaring; false when it leaves 64 bits. */
static bool int_pow(int64_t a, int64_t b, int64_t *out)
{
	if (a == 0 || a == 1 || b == 0) {
		*out = b == 0 ? 1 : a;
		return true;
	}
	if (a == -1) {
		*out = b % 2 ? -1 : 1;
		return true;
	}
	int64_t r = 1, base = a;
	while (b) {
		if ((b & 1) && __builtin_mul_overflow(r, base, &r))
			return false;
		b >>= 1;
		if (b && __builtin_mul_overflow(base, base, &base))
			return false;
	}
	*out = r;
	return true;
}

static SVal *fold_binary(Spec *s, const Node *n, Op op, SVal *x, SVal *y)
{
	if (x->kind == SV_INT && y->kind == SV_INT) {
		int64_t a = x->i, b = y->i, r = 0;
		switch (op) {
		case OP_ADD:
		case OP_SUB:
		case OP_MUL: {
			bool over = op == OP_ADD ? __builtin_add_overflow(a, b, &r) :
				    op == OP_SUB ? __builtin_sub_overflow(a, b, &r) : __builtin_mul_overflow(a, b, &r);
			return fold_int(s, n, over, r);
		}
		case OP_DIV:
			if (!b)
				spec_error(s, n, "division by zero in a constant expression");
			return spec_sv_float(s, (double)a / (double)b);
		case OP_FLOORDIV:
		case OP_MOD:
			if (!b)
				spec_error(s, n, "division by zero in a constant expression");
			if (b == -1)   /* Python: -a and 0; -INT64_MIN leaves 64 bits */
				return op == OP_MOD ? spec_sv_int(s, 0) : fold_int(s, n, a == INT64_MIN, a == INT64_MIN ? 0 : -a);
			if (op == OP_FLOORDIV)
				return spec_sv_int(s, py_floordiv(a, b));
			r = a % b;
			return spec_sv_int(s, r != 0 && ((r < 0) != (b < 0)) ? r + b : r);
		case OP_BITAND: return spec_sv_int(s, a & b);
		case OP_BITOR: return spec_sv_int(s, a | b);
		case OP_BITXOR: return spec_sv_int(s, a ^ b);
		case OP_LSHIFT:
			if (b < 0)
				spec_error(s, n, "negative shift count in a constant expression");
			if (a == 0)
				return spec_sv_int(s, 0);
			r = b >= 63 ? 0 : (int64_t)((uint64_t)a << b);
			return fold_int(s, n, b >= 63 || (r >> b) != a, r);
		case OP_RSHIFT:
			if (b < 0)
				spec_error(s, n, "negative shift count in a constant expression");
			return spec_sv_int(s, b >= 63 ? (a < 0 ? -1 : 0) : a >> b);
		case OP_POW:
			if (b < 0) {
				if (!a)
					spec_error(s, n, "0 cannot be raised to a negative power");
				return spec_sv_float(s, pow((double)a, (double)b));
			}
			r = 0;
			bool fits = int_pow(a, b, &r);
			return fold_int(s, n, !fits, r);
		default: break;
		}
	} else {
		double a = x->kind == SV_INT ? (double)x->i : x->f, b = y->kind == SV_INT ? (double)y->i : y->f;
		switch (op) {
		case OP_ADD: return spec_sv_float(s, a + b);
		case OP_SUB: return spec_sv_float(s, a - b);
		case OP_MUL: return spec_sv_float(s, a * b);
		case OP_DIV:
		case OP_FLOORDIV:
			if (b == 0)   /* Python raises, and so does Triton on constexprs */
				spec_error(s, n, "division by zero in a constant expression");
			return spec_sv_float(s, op == OP_DIV ? a / b : floor(a / b));
		case OP_POW:
			if (a == 0 && b < 0)
				spec_error(s, n, "0.0 cannot be raised to a negative power");
			return spec_sv_float(s, pow(a, b));
		default: break;
		}
	}
	spec_error(s, n, "operator '%s' is not supported on these constants", ast_op_name(op));
}

static SVal *fold_compare(Spec *s, Op op, SVal *x, SVal *y)
{
	double a = x->kind == SV_INT ? (double)x->i : x->f, b = y->kind == SV_INT ? (double)y->i : y->f;
	bool r = op == OP_LT ? a < b : op == OP_LE ? a <= b : op == OP_GT ? a > b :
		 op == OP_GE ? a >= b : op == OP_EQ ? a == b : a != b;
	return spec_sv_int(s, r);
}

/* The element-wise op for a Python operator; TOP_ARG where there is none
 * (// on floats has no Triton lowering here). */
static TOp binary_op(Op op, bool on_floats)
{
	switch (op) {
	case OP_ADD: return TOP_ADD;
	case OP_SUB: return TOP_SUB;
	case OP_MUL: return TOP_MUL;
	case OP_DIV: return TOP_DIV;
	case OP_FLOORDIV: return on_floats ? TOP_ARG : TOP_IDIV;
	case OP_MOD: return TOP_MOD;
	case OP_BITAND: return TOP_AND;
	case OP_BITOR: return TOP_OR;
	case OP_BITXOR: return TOP_XOR;
	case OP_LSHIFT: return TOP_SHL;
	case OP_RSHIFT: return TOP_SHR;
	default: return TOP_ARG; /* not an element-wise binary op */
	}
}

static CmpKind cmp_kind(Op op)
{
	switch (op) {
	case OP_LT: return CMP_LT;
	case OP_LE: return CMP_LE;
	case OP_GT: return CMP_GT;
	case OP_GE: return CMP_GE;
	case OP_EQ: return CMP_EQ;
	default: return CMP_NE;
	}
}


SVal *spec_eval_binary(Spec *s, const Node *n, Op op, SVal *x, SVal *y)
{
	if (spec_is_const(x) && spec_is_const(y))
		return fold_binary(s, n, op, x, y);
	bool div_or_mod = op == OP_DIV || op == OP_MOD || op == OP_FLOORDIV;
	TValue *tx, *ty;
	spec_weak_operands(s, n, x, y, div_or_mod, &tx, &ty);
	DType dt;
	if (tx->type.dtype != DT_PTR && ty->type.dtype != DT_PTR &&
	    !tir_promote(tx->type.dtype, false, ty->type.dtype, false, div_or_mod, &dt))
		spec_error(s, n, "operands of types %s and %s cannot be combined", dtype_name(tx->type.dtype),
			 dtype_name(ty->type.dtype));
	TOp top = binary_op(op, dtype_is_float(tx->type.dtype) || dtype_is_float(ty->type.dtype));
	if (top == TOP_ARG)
		spec_error(s, n, "operator '%s' is not supported on tensors of these types", ast_op_name(op));
	return spec_sv_value(s, n, tir_binary(&s->b, top, tx, ty));
}

/* Whether two dtypes are one: tl.float32 == x.dtype. Pointer types
 * compare their pointees too. */
static bool same_dtype(const SVal *x, const SVal *y)
{
	bool named = x->str || y->str;   /* x.type of a block */
	if (named && !(x->str && y->str && !strcmp(x->str, y->str)))
		return false;
	return x->dtype == y->dtype && (x->dtype != DT_PTR || x->i == y->i);
}

SVal *spec_eval_compare(Spec *s, const Node *n, Op op, SVal *x, SVal *y)
{
	if (x->kind == SV_DTYPE || y->kind == SV_DTYPE) {   /* a compile-time answer, as Triton's constexpr */
		if (op != OP_EQ && op != OP_NE)
			spec_error(s, n, "dtypes compare only with ==, !=, 'is' and 'is not'");
		bool same = x->kind == y->kind && same_dtype(x, y);
		return spec_sv_int(s, same == (op == OP_EQ));
	}
	if (x->kind == SV_STR || y->kind == SV_STR || x->kind == SV_NONE || y->kind == SV_NONE) {
		if (op != OP_EQ && op != OP_NE)   /* ACTIVATION == "leaky_relu", X == None */
			spec_error(s, n, "strings and None compare only with == and !=");
		bool same = x->kind == y->kind && (x->kind == SV_NONE || !strcmp(x->str, y->str));
		return spec_sv_int(s, same == (op == OP_EQ));
	}
	if (op != OP_LT && op != OP_LE && op != OP_GT && op != OP_GE && op != OP_EQ && op != OP_NE)
		spec_error(s, n, "comparison '%s' is not supported", ast_op_name(op));
	if (spec_is_const(x) && spec_is_const(y))
		return fold_compare(s, op, x, y);
	TValue *tx, *ty;
	spec_weak_operands(s, n, x, y, false, &tx, &ty);
	return spec_sv_value(s, n, tir_cmp(&s->b, cmp_kind(op), tx, ty));
}

int64_t spec_const_int(Spec *s, const Node *n, SVal *v, const char *what)
{
	if (v->kind != SV_INT)
		spec_error(s, n, "%s must be a compile-time integer", what);
	return v->i;
}

/* ---- calls ---- */

const Node *spec_arg_node(const Node *call, int pos, const char *kw)
{
	if (pos >= 0 && pos < call->items.len)
		return call->items.items[pos];
	for (int i = 0; i < call->keywords.len; i++) {
		const Node *k = call->keywords.items[i];
		if (k->name && !strcmp(k->name, kw))
			return k->rhs;
	}
	return NULL;
}

SVal *spec_arg(Spec *s, const Node *call, int pos, const char *kw)
{
	if (pos >= 0 && pos < call->items.len && kw)   /* f(x, mask=...) where x is the mask: Python's TypeError */
		for (int i = 0; i < call->keywords.len; i++) {
			const Node *k = call->keywords.items[i];
			if (k->name && !strcmp(k->name, kw))
				spec_error(s, k, "got multiple values for argument '%s' (given by position %d and by keyword)",
					   kw, pos + 1);
		}
	const Node *a = spec_arg_node(call, pos, kw);
	return a ? spec_eval(s, a) : NULL;
}

SVal *spec_need_arg(Spec *s, const Node *call, int pos, const char *kw)
{
	SVal *v = spec_arg(s, call, pos, kw);
	if (!v)
		spec_error(s, call, "missing argument '%s'", kw);
	return v;
}

TValue *spec_need_value(Spec *s, const Node *call, int pos, const char *kw)
{
	SVal *v = spec_need_arg(s, call, pos, kw);
	return spec_to_value(s, spec_arg_node(call, pos, kw), v);
}

static DType need_dtype(Spec *s, const Node *n, SVal *v)
{
	if (!v || v->kind != SV_DTYPE)
		spec_error(s, n, "expected a dtype such as tl.float32");
	return v->dtype;
}

static void shape_of(Spec *s, const Node *n, SVal *v, int *rank, int *shape)
{
	if (v->kind == SV_INT) {
		*rank = 1;
		shape[0] = (int)v->i;
		return;
	}
	if (v->kind != SV_TUPLE)
		spec_error(s, n, "expected a shape such as [XBLOCK, RBLOCK]");
	if (v->nitems > TC_MAX_RANK)
		spec_error(s, n, "too many dimensions in a shape: %d (limit is %d)", v->nitems, TC_MAX_RANK);
	*rank = v->nitems;
	for (int i = 0; i < v->nitems; i++)
		shape[i] = (int)spec_const_int(s, n, v->items[i], "a shape's extent");
}

/* x.T, and tl.trans(x) without dims: Triton swaps the two dims of a 2-D
 * tensor then, and nothing else. */
static SVal *transpose_2d(Spec *s, const Node *n, TValue *x, const char *what)
{
	if (x->type.rank != 2)
		spec_error(s, n, "%s swaps the two dims of a 2-D tensor; this one has rank %d", what, x->type.rank);
	static const int swap[2] = {1, 0};
	return spec_sv_value(s, n, tir_trans(&s->b, x, 2, swap));
}

/* tl.trans / tl.permute of x with the dims in the call's items from `first`
 * on: spread out (x.permute(2, 0, 1)) or as one tuple (tl.permute(x, (2, 0,
 * 1))), as Triton's _unwrap_iterable takes them. tl.trans without dims is
 * the 2-D transpose; tl.permute has no such default. */
static SVal *call_permute(Spec *s, const Node *call, TValue *x, int first, const char *what)
{
	int n = call->items.len - first;
	if (n == 0 && !strcmp(what, "tl.trans"))
		return transpose_2d(s, call, x, "tl.trans without dims");
	SVal *one = n == 1 ? spec_eval(s, call->items.items[first]) : NULL;
	if (one && one->kind == SV_TUPLE)
		n = one->nitems;
	if (n > TC_MAX_RANK)
		spec_error(s, call, "%s: too many dims: %d for a tensor of rank %d (limit is %d)", what, n, x->type.rank,
			   TC_MAX_RANK);
	int perm[TC_MAX_RANK];
	for (int i = 0; i < n; i++) {
		SVal *d = one ? (one->kind == SV_TUPLE ? one->items[i] : one) : spec_eval(s, call->items.items[first + i]);
		perm[i] = (int)spec_const_int(s, call, d, "a dim of the permutation");
	}
	TValue *v = tir_trans(&s->b, x, n, perm);
	if (!v)
		spec_error(s, call, "%s: %s", what, s->b.error);
	return spec_sv_value(s, call, v);
}

/* triton_helpers.max2 / min2: tl.reduce with maximum / minimum, an axis
 * required, no promotion. */
static SVal *call_reduce(Spec *s, const Node *call, ReduceKind k)
{
	TValue *x = spec_need_value(s, call, 0, "input");
	SVal *axis = spec_arg(s, call, 1, "axis");
	if (!axis || axis->kind == SV_NONE)
		spec_error(s, call, "this reduction needs an axis");
	return spec_sv_value(s, call, spec_checked(s, call, tir_reduce(&s->b, k, x, (int)spec_const_int(s, call, axis, "axis"))));
}

static EvictionPolicy eviction(Spec *s, const Node *call)
{
	SVal *ev = spec_arg(s, call, -1, "eviction_policy");
	if (!ev)
		return EVICT_NORMAL;
	if (ev->kind != SV_STR)
		spec_error(s, call, "eviction_policy must be a string");
	if (!strcmp(ev->str, "evict_last"))
		return EVICT_LAST;
	if (!strcmp(ev->str, "evict_first"))
		return EVICT_FIRST;
	if (!*ev->str || !strcmp(ev->str, "evict_normal"))
		return EVICT_NORMAL;
	spec_error(s, call, "unknown eviction_policy '%s'", ev->str);
}

static SVal *call_tl(Spec *s, const Node *call, const char *fn)
{
	TBuilder *b = &s->b;
	if (!strcmp(fn, "program_id") || !strcmp(fn, "num_programs")) {
		int axis = (int)spec_const_int(s, call, spec_need_arg(s, call, 0, "axis"), "axis");
		if (axis < 0 || axis > 2)
			spec_error(s, call, "axis must be 0, 1 or 2");
		TValue *v = tir_program_id(b, axis);
		if (fn[0] == 'n') {
			v->op = TOP_NUM_PROGRAMS;
			b->kernel->ops |= (uint64_t)1 << TOP_NUM_PROGRAMS;
		}
		return spec_sv_value(s, call, v);
	}
	if (!strcmp(fn, "pointer_type")) {   /* as .dtype of a pointer: DT_PTR, the pointee in i */
		SVal *elem = spec_need_arg(s, call, 0, "element_ty");
		DType et = need_dtype(s, call, elem);
		if (et == DT_PTR)
			spec_error(s, call, "pointers to pointers are not supported");
		SVal *v = spec_sv_new(s, SV_DTYPE);
		v->dtype = DT_PTR;
		v->i = et;
		return v;
	}
	if (!strcmp(fn, "arange")) {
		int64_t lo64 = spec_const_int(s, call, spec_need_arg(s, call, 0, "start"), "arange's start");
		int64_t hi64 = spec_const_int(s, call, spec_need_arg(s, call, 1, "end"), "arange's end");
		if (lo64 < INT32_MIN || lo64 > INT32_MAX || hi64 < INT32_MIN || hi64 > INT32_MAX)
			spec_error(s, call, "arange(%lld, %lld): its bounds must fit in int32", (long long)lo64, (long long)hi64);
		int lo = (int)lo64, hi = (int)hi64;
		return spec_sv_value(s, call, tir_arange(b, lo, hi));
	}
	if (!strcmp(fn, "full") || !strcmp(fn, "zeros")) {
		int rank, shape[TC_MAX_RANK];
		shape_of(s, call, spec_need_arg(s, call, 0, "shape"), &rank, shape);
		bool zeros = fn[0] == 'z';
		SVal *val = zeros ? spec_sv_int(s, 0) : spec_need_arg(s, call, 1, "value");
		DType dt = need_dtype(s, call, spec_need_arg(s, call, zeros ? 1 : 2, "dtype"));
		return spec_sv_value(s, call, tir_broadcast_to(b, spec_materialize(s, call, val, dt), rank, shape));
	}
	if (!strcmp(fn, "load")) {
		TValue *ptr = spec_need_value(s, call, 0, "pointer");
		SVal *mask = spec_arg(s, call, 1, "mask"), *other = spec_arg(s, call, 2, "other");
		TValue *m = mask && mask->kind != SV_NONE ? spec_to_value(s, call, mask) : NULL;
		TValue *o = other && other->kind != SV_NONE && m ?
			spec_materialize(s, call, other, ptr->type.dtype == DT_PTR ? ptr->type.elem : DT_F32) : NULL;
		return spec_sv_value(s, call, tir_load(b, ptr, m, o, eviction(s, call)));
	}
	if (!strcmp(fn, "store")) {
		TValue *ptr = spec_need_value(s, call, 0, "pointer");
		SVal *val = spec_need_arg(s, call, 1, "value");
		SVal *mask = spec_arg(s, call, 2, "mask");
		TValue *v = spec_materialize(s, call, val, ptr->type.dtype == DT_PTR ? ptr->type.elem : DT_F32);
		TValue *m = mask && mask->kind != SV_NONE ? spec_to_value(s, call, mask) : NULL;
		spec_sv_value(s, call, tir_store(b, ptr, v, m));
		return spec_sv_new(s, SV_NONE);
	}
	if (!strcmp(fn, "where")) {
		SVal *c = spec_need_arg(s, call, 0, "condition"), *x = spec_need_arg(s, call, 1, "x"), *y = spec_need_arg(s, call, 2, "y");
		TValue *tx, *ty;
		spec_weak_operands(s, call, x, y, false, &tx, &ty);
		return spec_sv_value(s, call, tir_where(b, spec_to_value(s, call, c), tx, ty));
	}
	if (!strcmp(fn, "maximum") || !strcmp(fn, "minimum")) {
		SVal *x = spec_need_arg(s, call, 0, "x"), *y = spec_need_arg(s, call, 1, "y");
		TValue *tx, *ty;
		spec_weak_operands(s, call, x, y, false, &tx, &ty);
		return spec_sv_value(s, call, tir_binary(b, fn[1] == 'a' ? TOP_MAXIMUM : TOP_MINIMUM, tx, ty));
	}
	if (!strcmp(fn, "broadcast_to")) {
		TValue *x = spec_need_value(s, call, 0, "input");
		int rank, shape[TC_MAX_RANK];
		shape_of(s, call, spec_need_arg(s, call, 1, "shape"), &rank, shape);
		return spec_sv_value(s, call, tir_broadcast_to(b, x, rank, shape));
	}
	if (!strcmp(fn, "trans") || !strcmp(fn, "permute")) {
		TValue *x = spec_need_value(s, call, 0, "input");
		return call_permute(s, call, x, call->items.len > 0 ? 1 : 0, fn[0] == 't' ? "tl.trans" : "tl.permute");
	}
	if (!strcmp(fn, "cdiv")) {
		SVal *x = spec_need_arg(s, call, 0, "x"), *y = spec_need_arg(s, call, 1, "div");
		if (spec_is_const(x) && spec_is_const(y))
			return fold_binary(s, call, OP_FLOORDIV, fold_binary(s, call, OP_SUB, fold_binary(s, call, OP_ADD, x, y), spec_sv_int(s, 1)), y);
		return spec_eval_binary(s, call, OP_FLOORDIV, spec_eval_binary(s, call, OP_SUB, spec_eval_binary(s, call, OP_ADD, x, y), spec_sv_int(s, 1)), y);
	}
	SVal *r = spec_call_math(s, call, fn);
	if (r)
		return r;
	r = spec_call_desc(s, call, fn);
	if (r)
		return r;
	r = spec_call_shape(s, call, fn);
	if (r)
		return r;
	r = spec_call_tl_lib(s, call, fn);
	if (r)
		return r;
	const Node *callee = call->lhs;   /* tl.f, libdevice.f, tl_math.f: named as called */
	const char *mod = callee->kind == ND_ATTR && callee->lhs->kind == ND_NAME ? callee->lhs->name : "tl";
	spec_error(s, call, "unsupported function '%s.%s'", mod, fn);
}

static SVal *call_helpers(Spec *s, const Node *call, const char *fn)
{
	if (!strcmp(fn, "maximum") || !strcmp(fn, "minimum"))
		return call_tl(s, call, fn);
	if (!strcmp(fn, "max2"))
		return call_reduce(s, call, RED_MAX);
	if (!strcmp(fn, "min2"))
		return call_reduce(s, call, RED_MIN);
	SVal *r = spec_call_helpers_lib(s, call, fn);
	if (r)
		return r;
	spec_error(s, call, "unsupported function 'triton_helpers.%s'", fn);
}

/* Tensor methods that are tl functions of the tensor (x.sum(1) is
 * tl.sum(x, 1)): the call again with the tensor as its first argument, a
 * name bound to it that no Python name can clash with. */
static bool is_member_fn(const char *fn)
{
	static const char *const members[] = {
		"sum", "max", "min", "argmax", "argmin", "reduce", "associative_scan", "cumsum", "cumprod",
		"reshape", "view", "expand_dims", "split", "flip", "histogram", "gather",   /* not sort, topk: Triton 3.6 has no such methods */
	};
	for (size_t i = 0; i < TC_COUNT(members); i++)
		if (!strcmp(fn, members[i]))
			return true;
	return spec_is_math_fn(fn);
}

static SVal *call_member(Spec *s, const Node *call, SVal *self, const char *fn)
{
	Node *me = ast_new(s->a, ND_NAME, call->offset);
	me->name = arena_printf(s->a, "<self@%zu>", call->offset);
	spec_bind(s, me->name, self);
	Node *c = arena_alloc(s->a, sizeof *c);
	*c = *call;
	c->items = (NodeList){0};
	ast_nodelist_push(s->a, &c->items, me);
	for (int i = 0; i < call->items.len; i++)
		ast_nodelist_push(s->a, &c->items, call->items.items[i]);
	return call_tl(s, c, fn);
}

/* fp32 to fp16 or bf16 rounded toward zero (`fp_downcast_rounding="rtz"`,
 * cvt.rz on NVIDIA), in tile ops every target and the interpreter run:
 * the value truncated in fp32 to the narrower type's precision, which the
 * ordinary conversion then keeps exactly. bf16: the low 16 bits dropped.
 * fp16: the low 13 bits in its normal range, a multiple of 2^-24 below
 * 2^-14 (its subnormals), the largest finite (65504) past it; infinities
 * and NaNs stay. */
static TValue *cast_rtz(Spec *s, TValue *x, DType to)
{
	TBuilder *b = &s->b;
	TValue *u = tir_bitcast(b, x, DT_U32);
	TValue *cut = tir_bitcast(b, tir_binary(b, TOP_AND, u, tir_const_int(b, DT_U32, to == DT_BF16 ? 0xffff0000u : 0xffffe000u)),
				  DT_F32);
	TValue *a = tir_math(b, MATH_ABS, x);
	TValue *special = tir_cmp(b, CMP_GE, tir_binary(b, TOP_AND, u, tir_const_int(b, DT_U32, 0x7f800000u)),
				  tir_const_int(b, DT_U32, 0x7f800000u));   /* inf, NaN */
	TValue *r = cut;
	if (to == DT_F16) {
		TValue *sub = tir_binary(b, TOP_MUL, tir_math(b, MATH_TRUNC, tir_binary(b, TOP_MUL, x, tir_const_float(b, DT_F32, 16777216.0))),
					 tir_const_float(b, DT_F32, 1.0 / 16777216.0));
		TValue *big = tir_where(b, tir_cmp(b, CMP_LT, x, tir_const_float(b, DT_F32, 0.0)),
					tir_const_float(b, DT_F32, -65504.0), tir_const_float(b, DT_F32, 65504.0));
		r = tir_where(b, tir_cmp(b, CMP_GT, a, tir_const_float(b, DT_F32, 65504.0)), big, r);
		r = tir_where(b, tir_cmp(b, CMP_LT, a, tir_const_float(b, DT_F32, 6.103515625e-05)), sub, r);
	}
	r = tir_where(b, special, x, r);
	return r ? tir_cast(b, r, to) : NULL;
}

/* x.dtype.is_floating() and its kin, with Triton's classes: int1 is an
 * unsigned integer. */
static SVal *dtype_method(Spec *s, const Node *call, SVal *self, const char *fn)
{
	DType t = self->dtype;
	bool fl = dtype_is_float(t), ptr = t == DT_PTR, sint = dtype_is_signed(t);
	static const struct { const char *name; DType dt; } exact[] = {
		{"is_fp16", DT_F16}, {"is_bf16", DT_BF16}, {"is_fp32", DT_F32}, {"is_fp64", DT_F64},
		{"is_bool", DT_I1}, {"is_int1", DT_I1}, {"is_int8", DT_I8}, {"is_int16", DT_I16},
		{"is_int32", DT_I32}, {"is_int64", DT_I64}, {"is_uint8", DT_U8}, {"is_uint16", DT_U16}, {"is_uint32", DT_U32},
		{"is_uint64", DT_U64}, {"is_ptr", DT_PTR}, {"is_fp8e4nv", DT_F8E4NV}, {"is_fp8e5", DT_F8E5},
		{"is_fp8e4b15", DT_F8E4B15}, {"is_fp8e4b8", DT_F8E4B8}, {"is_fp8e5b16", DT_F8E5B16},
	};
	for (size_t i = 0; i < TC_COUNT(exact); i++)
		if (!strcmp(fn, exact[i].name))
			return spec_sv_int(s, t == exact[i].dt);
	if (!strcmp(fn, "is_floating"))
		return spec_sv_int(s, fl);
	if (!strcmp(fn, "is_fp8"))
		return spec_sv_int(s, dtype_is_fp8(t));
	if (!strcmp(fn, "is_int"))
		return spec_sv_int(s, !fl && !ptr);
	if (!strcmp(fn, "is_int_signed"))
		return spec_sv_int(s, sint);
	if (!strcmp(fn, "is_int_unsigned"))
		return spec_sv_int(s, !fl && !ptr && !sint);
	spec_error(s, call, "unsupported dtype method '.%s'", fn);
}

static SVal *call_method(Spec *s, const Node *call, SVal *self, const char *fn)
{
	if (self->kind == SV_DTYPE)
		return dtype_method(s, call, self, fn);
	if (self->kind != SV_VALUE && !spec_is_const(self))
		spec_error(s, call, "'.%s' needs a tensor", fn);
	if (is_member_fn(fn))
		return call_member(s, call, self, fn);
	TValue *x = spec_to_value(s, call, self);
	if (!strcmp(fn, "to")) {
		SVal *to = spec_need_arg(s, call, 0, "dtype");
		DType dt = need_dtype(s, call, to);
		if (dt == DT_PTR || x->type.dtype == DT_PTR) {   /* ptr.to(tl.pointer_type(T)), int64 <-> pointer */
			if (dt == DT_PTR && x->type.dtype == DT_PTR)
				return spec_sv_value(s, call, spec_checked(s, call, tir_pointer_cast(&s->b, x, (DType)to->i)));
			if (dt == DT_PTR && (x->type.dtype == DT_I64 || x->type.dtype == DT_U64))
				return spec_sv_value(s, call, spec_checked(s, call, tir_int_to_ptr(&s->b, x, (DType)to->i)));
			if (x->type.dtype == DT_PTR && (dt == DT_I64 || dt == DT_U64))
				return spec_sv_value(s, call, spec_checked(s, call, tir_ptr_to_int(&s->b, x, dt)));
			spec_error(s, call, "a pointer converts to another pointer type (tl.pointer_type(...)) or to "
				   "int64, and only an int64 to a pointer; this is %s to %s", dtype_name(x->type.dtype),
				   dtype_name(dt));
		}
		SVal *rounding = spec_arg(s, call, 1, "fp_downcast_rounding");
		bool rtz = rounding && rounding->kind == SV_STR && !strcmp(rounding->str, "rtz");
		if (rtz && x->type.dtype == DT_F32 && (dt == DT_F16 || dt == DT_BF16))
			return spec_sv_value(s, call, spec_checked(s, call, cast_rtz(s, x, dt)));
		if (rtz && !(dtype_is_float(x->type.dtype) && dtype_is_float(dt) &&
			     dtype_bytes(x->type.dtype) > dtype_bytes(dt)))
			spec_error(s, spec_arg_node(call, 1, "fp_downcast_rounding"),
				   "fp_downcast_rounding applies to float downcasts only, not %s to %s",
				   dtype_name(x->type.dtype), dtype_name(dt));
		if (rtz)
			spec_error(s, spec_arg_node(call, 1, "fp_downcast_rounding"),
				   "fp_downcast_rounding='rtz' is supported from fp32 to fp16 and bf16, not %s to %s yet",
				   dtype_name(x->type.dtype), dtype_name(dt));
		if (rounding && rounding->kind != SV_NONE && !(rounding->kind == SV_STR && !strcmp(rounding->str, "rtne")))
			spec_error(s, spec_arg_node(call, 1, "fp_downcast_rounding"),
				   "fp_downcast_rounding must be 'rtne' (round to nearest even) or 'rtz' (toward zero)");
		SVal *bitcast = spec_arg(s, call, -1, "bitcast");
		if (bitcast && bitcast->kind == SV_INT && bitcast->i)
			return spec_sv_value(s, call, tir_bitcast(&s->b, x, dt));
		return spec_sv_value(s, call, tir_cast(&s->b, x, dt));
	}
	if (!strcmp(fn, "broadcast_to")) {
		int rank, shape[TC_MAX_RANK];
		SVal *shp = spec_need_arg(s, call, 0, "shape");
		if (call->items.len > 1) {                  /* x.broadcast_to(A, B): the shape spread out */
			SVal **dims = arena_alloc(s->a, sizeof *dims * (size_t)call->items.len);
			for (int i = 0; i < call->items.len; i++)
				dims[i] = spec_eval(s, call->items.items[i]);
			shp = spec_sv_tuple(s, call->items.len, dims);
		}
		shape_of(s, call, shp, &rank, shape);
		return spec_sv_value(s, call, tir_broadcast_to(&s->b, x, rank, shape));
	}
	if (!strcmp(fn, "trans") || !strcmp(fn, "permute"))
		return call_permute(s, call, x, 0, fn[0] == 't' ? "tl.trans" : "tl.permute");
	spec_error(s, call, "unsupported method '.%s'", fn);
}

static SVal *eval_call(Spec *s, const Node *n)
{
	const Node *callee = n->lhs;
	if (callee->kind == ND_NAME) {
		SVal *f = spec_lookup(s, callee->name);
		if (f && f->kind == SV_FUNC)
			return spec_call_jit_function(s, n, f->fn);
	}
	if (callee->kind == ND_NAME && !spec_lookup(s, callee->name)) {
		SVal *r = spec_call_builtin(s, n, callee->name);
		if (r)
			return r;
	}
	if (callee->kind == ND_NAME && !strcmp(callee->name, "float")) {
		SVal *v = spec_need_arg(s, n, 0, "x");
		if (v->kind == SV_STR) {
			if (!strcmp(v->str, "inf"))
				return spec_sv_float(s, INFINITY);
			if (!strcmp(v->str, "-inf"))
				return spec_sv_float(s, -INFINITY);
			if (!strcmp(v->str, "nan"))
				return spec_sv_float(s, NAN);
		}
		if (spec_is_const(v))
			return spec_sv_float(s, v->kind == SV_INT ? (double)v->i : v->f);
		spec_error(s, n, "float() needs a constant");
	}
	if (callee->kind == ND_ATTR) {
		SVal *obj = spec_eval(s, callee->lhs);
		if (obj->kind == SV_MODULE) {
			if (!strcmp(obj->str, "tl") || !strcmp(obj->str, "libdevice") || !strcmp(obj->str, "tl_math") ||
			    !strcmp(obj->str, "triton"))
				return call_tl(s, n, callee->name);
			if (!strcmp(obj->str, "triton_helpers"))
				return call_helpers(s, n, callee->name);
			if (!strcmp(obj->str, "tl.extra.cuda") || !strcmp(obj->str, "tl.extra.hip")) {
				SVal *r = spec_call_extra_cuda(s, n, callee->name);
				if (r)
					return r;
				return call_tl(s, n, callee->name);
			}
		}
		if (obj->kind == SV_DESC)
			return spec_desc_method(s, n, obj, callee->name);
		return call_method(s, n, obj, callee->name);
	}
	const char *name = ast_dotted_name(s->a, callee);
	if (name)
		spec_error(s, n, "unsupported call '%s' (not a triton.language function or a @triton.jit function of the "
			   "module)", name);
	spec_error(s, n, "unsupported call of a %s", ast_kind_name(callee->kind));
}

/* ---- expressions ---- */

static SVal *eval_subscript(Spec *s, const Node *n)
{
	SVal *base = spec_eval(s, n->lhs);
	const Node *idx = n->rhs;
	int count = idx->kind == ND_TUPLE ? idx->items.len : 1;
	if (base->kind == SV_TUPLE && count == 1 && idx->kind != ND_SLICE) {
		int64_t i = spec_const_int(s, idx, spec_eval(s, idx), "a tuple index");
		if (i < 0 || i >= base->nitems)
			spec_error(s, idx, "tuple index out of range");
		return base->items[i];
	}
	TValue *x = spec_to_value(s, n->lhs, base);
	int dim = 0;
	for (int i = 0; i < count; i++) {
		const Node *it = idx->kind == ND_TUPLE ? idx->items.items[i] : idx;
		if (it->kind == ND_NONE) {
			x = tir_expand(&s->b, x, dim);
			if (!x)
				spec_error(s, it, "%s", s->b.error);
			dim++;
		} else if (it->kind == ND_SLICE && !it->lhs && !it->rhs && !it->cond) {
			if (dim >= x->type.rank)
				spec_error(s, it, "too many indices for a tensor of rank %d", x->type.rank);
			dim++;
		} else {
			spec_error(s, it, "only ':' and 'None' may index a tensor");
		}
	}
	return spec_sv_value(s, n, x);
}

static SVal *eval_attr(Spec *s, const Node *n)
{
	SVal *obj = spec_eval(s, n->lhs);
	if (obj->kind == SV_MODULE) {
		SVal *sub = spec_module_attr(s, obj, n->name);
		if (sub)
			return sub;
	}
	if (obj->kind == SV_DESC) {
		SVal *r = spec_desc_attr(s, n, obj, n->name);
		if (r)
			return r;
	}
	if (obj->kind == SV_VALUE && !strcmp(n->name, "type")) {   /* x.type.element_ty, x.type.shape */
		SVal *v = spec_sv_new(s, SV_DTYPE);
		v->dtype = obj->v->type.dtype;
		v->i = obj->v->type.elem;
		if (obj->v->type.rank > 0) {   /* a block type: .element_ty is its element */
			v->dtype = DT_PTR;
			v->i = obj->v->type.dtype;
			v->str = "block";
		}
		return v;
	}
	if (obj->kind == SV_VALUE && !strcmp(n->name, "dtype")) {
		SVal *v = spec_sv_new(s, SV_DTYPE);
		v->dtype = obj->v->type.dtype;
		v->i = obj->v->type.elem;   /* a pointer's pointee, for .element_ty */
		return v;
	}
	if (obj->kind == SV_DTYPE && !strcmp(n->name, "element_ty")) {
		if (obj->dtype != DT_PTR)
			spec_error(s, n, "'element_ty' is the pointee of a pointer type; this type is %s", dtype_name(obj->dtype));
		SVal *v = spec_sv_new(s, SV_DTYPE);
		v->dtype = (DType)obj->i;
		return v;
	}
	if (obj->kind == SV_DTYPE && !strcmp(n->name, "primitive_bitwidth"))
		return spec_sv_int(s, obj->dtype == DT_I1 ? 1 : obj->dtype == DT_PTR ? 64 : 8 * dtype_bytes(obj->dtype));
	if (obj->kind == SV_VALUE && !strcmp(n->name, "shape")) {
		SVal *dims[TC_MAX_RANK];
		for (int d = 0; d < obj->v->type.rank; d++)
			dims[d] = spec_sv_int(s, obj->v->type.shape[d]);
		return spec_sv_tuple(s, obj->v->type.rank, dims);
	}
	if (obj->kind == SV_VALUE && !strcmp(n->name, "T"))
		return transpose_2d(s, n, obj->v, "x.T");
	if (obj->kind == SV_MODULE && !strcmp(obj->str, "tl")) {
		static const struct { const char *name; DType dt; } types[] = {
			{"float32", DT_F32}, {"float16", DT_F16}, {"bfloat16", DT_BF16}, {"float64", DT_F64},
			{"int1", DT_I1}, {"int8", DT_I8}, {"int16", DT_I16}, {"int32", DT_I32}, {"int64", DT_I64},
			{"uint8", DT_U8}, {"uint16", DT_U16}, {"uint32", DT_U32}, {"uint64", DT_U64},
			{"bool", DT_I1}, {"float", DT_F32}, {"half", DT_F16}, {"double", DT_F64},
			{"float8e4nv", DT_F8E4NV}, {"float8e5", DT_F8E5}, {"float8e4b15", DT_F8E4B15},
			{"float8e4b8", DT_F8E4B8}, {"float8e5b16", DT_F8E5B16},
		};
		for (size_t i = 0; i < TC_COUNT(types); i++) {
			if (!strcmp(n->name, types[i].name)) {
				SVal *v = spec_sv_new(s, SV_DTYPE);
				v->dtype = types[i].dt;
				return v;
			}
		}
		if (!strcmp(n->name, "constexpr"))
			return spec_sv_new(s, SV_NONE);
	}
	spec_error(s, n, "unsupported attribute '%s'", n->name);
}

/* `a and b`, `a or b`: Python's short circuit on constants; on tensors
 * the element-wise logical op, as Triton does. */
static SVal *eval_boolop(Spec *s, const Node *n)
{
	SVal *acc = spec_eval(s, n->items.items[0]);
	for (int i = 1; i < n->items.len; i++) {
		if (acc->kind == SV_INT || acc->kind == SV_NONE) {
			bool truth = acc->kind == SV_INT && acc->i;
			if (truth != (n->op == OP_AND))
				return acc;
			acc = spec_eval(s, n->items.items[i]);
			continue;
		}
		SVal *y = spec_eval(s, n->items.items[i]);
		TValue *tx = tir_cast(&s->b, spec_to_value(s, n, acc), DT_I1), *ty = tir_cast(&s->b, spec_to_value(s, n, y), DT_I1);
		acc = spec_sv_value(s, n, tir_binary(&s->b, n->op == OP_AND ? TOP_AND : TOP_OR, tx, ty));
	}
	return acc;
}

static SVal *eval_node(Spec *s, const Node *n);

SVal *spec_eval(Spec *s, const Node *n)
{
	if (base_stack_nearly_full())
		spec_error(s, n, "expression nested too deeply for the stack");
	SVal *r = eval_node(s, n);
	if (s->b.limit)
		spec_error(s, n, "%s", s->b.limit);
	return r;
}

static SVal *eval_node(Spec *s, const Node *n)
{
	int line, col;
	if (!s->lines || s->lines->src != s->src)
		s->lines = base_line_table(s->a, s->src);
	base_line_table_linecol(s->lines, n->offset, &line, &col);
	s->b.line = line;
	switch (n->kind) {
	case ND_NAME: {
		SVal *v = spec_lookup(s, n->name);
		if (!v)
			spec_error(s, n, "undefined name '%s'", n->name);
		return v;
	}
	case ND_INT: return spec_sv_int(s, n->ival);
	case ND_FLOAT: return spec_sv_float(s, n->fval);
	case ND_TRUE: return spec_sv_int(s, 1);
	case ND_FALSE: return spec_sv_int(s, 0);
	case ND_NONE: return spec_sv_new(s, SV_NONE);
	case ND_STR: {
		SVal *v = spec_sv_new(s, SV_STR);
		v->str = n->str;
		return v;
	}
	case ND_TUPLE:
	case ND_LIST: {
		SVal *v = spec_sv_new(s, SV_TUPLE);
		v->nitems = n->items.len;
		v->items = arena_alloc(s->a, sizeof(SVal *) * (size_t)(v->nitems + 1));
		for (int i = 0; i < v->nitems; i++)
			v->items[i] = spec_eval(s, n->items.items[i]);
		return v;
	}
	case ND_BINOP: {
		/* left to right, as Python evaluates (C leaves the order of arguments open) */
		SVal *x = spec_eval(s, n->lhs);
		SVal *y = spec_eval(s, n->rhs);
		return spec_eval_binary(s, n, n->op, x, y);
	}
	case ND_UNARY: {
		SVal *x = spec_eval(s, n->lhs);
		if (n->op == OP_POS)
			return x;
		if (x->kind == SV_INT)
			return spec_sv_int(s, n->op == OP_NEG ? -x->i : n->op == OP_INVERT ? ~x->i : !x->i);
		if (x->kind == SV_FLOAT && n->op == OP_NEG)
			return spec_sv_float(s, -x->f);
		TValue *v = spec_to_value(s, n, x);
		if (n->op == OP_NEG)
			return spec_eval_binary(s, n, OP_SUB, spec_sv_value(s, n, tir_const_int(&s->b, v->type.dtype, 0)), x);
		if (dtype_is_float(v->type.dtype))
			spec_error(s, n, "'%s' needs an integer or boolean tensor", ast_op_name(n->op));
		TValue *r = tir_binary(&s->b, TOP_XOR, v, tir_const_int(&s->b, v->type.dtype, v->type.dtype == DT_I1 ? 1 : -1));
		return spec_sv_value(s, n, r);
	}
	case ND_BOOLOP:
		return eval_boolop(s, n);
	case ND_COMPARE: {
		if (n->items.len != 2)
			spec_error(s, n, "chained comparisons are not supported");
		SVal *x = spec_eval(s, n->items.items[0]), *y = spec_eval(s, n->items.items[1]);
		Op op = n->ops[0];
		if (op == OP_IS || op == OP_ISNOT) {
			if (x->kind == SV_DTYPE && y->kind == SV_DTYPE)   /* x.dtype is tl.float32 */
				return spec_sv_int(s, same_dtype(x, y) == (op == OP_IS));
			if (x->kind != SV_NONE && y->kind != SV_NONE)
				spec_error(s, n, "'is' is supported only against None and between dtypes");
			return spec_sv_int(s, (x->kind == y->kind) == (op == OP_IS));
		}
		return spec_eval_compare(s, n, op, x, y);
	}
	case ND_TERNARY: {
		SVal *c = spec_eval(s, n->cond);
		if (c->kind != SV_INT)
			spec_error(s, n->cond, "the condition of 'x if c else y' must be a compile-time constant");
		return spec_eval(s, c->i ? n->lhs : n->rhs);
	}
	case ND_CALL: return eval_call(s, n);
	case ND_COMP:
		spec_error(s, n, "comprehensions are not supported in a kernel");
	case ND_LAMBDA:
		spec_error(s, n, "lambdas are not supported in a kernel");
	case ND_SUBSCRIPT: return eval_subscript(s, n);
	case ND_ATTR: return eval_attr(s, n);
	default:
		spec_error(s, n, "unsupported expression (%s)", ast_kind_name(n->kind));
	}
}

/* ---- statements ---- */

const char *spec_value_name(Spec *s, const char *name)
{
	return name ? arena_strdup(s->b.arena, name) : NULL;
}

void spec_assign(Spec *s, const Node *target, SVal *v)
{
	if (target->kind == ND_NAME) {
		if (v->kind == SV_VALUE && !v->v->name)
			v->v->name = spec_value_name(s, target->name);
		spec_bind(s, target->name, v);
		return;
	}
	if (target->kind == ND_TUPLE || target->kind == ND_LIST) {
		if (v->kind != SV_TUPLE || v->nitems != target->items.len)
			spec_error(s, target, "cannot unpack into %d names", target->items.len);
		for (int i = 0; i < v->nitems; i++)
			spec_assign(s, target->items.items[i], v->items[i]);
		return;
	}
	spec_error(s, target, "only names can be assigned to");
}

void spec_exec_block(Spec *s, const NodeList *body);

/* Whether statements `body` call tl.dot or tl.dot_scaled (any spelling
 * whose last name is dot or dot_scaled), directly, not in a helper. An
 * explicit stack: a body's expressions may nest to any depth. */
static bool calls_dot(const NodeList *body)
{
	const Node **stack = NULL;
	size_t n = 0, cap = 0;
	bool found = false;
	for (int i = body->len - 1; i >= 0; i--) {
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			stack = base_realloc(stack, sizeof *stack * cap);
		}
		stack[n++] = body->items[i];
	}
	while (n && !found) {
		const Node *e = stack[--n];
		if (!e || e->kind == ND_LAMBDA || e->kind == ND_FUNCDEF)
			continue;
		if (e->kind == ND_CALL) {
			const Node *f = e->lhs;
			const char *last = f->kind == ND_ATTR ? f->name : f->kind == ND_NAME ? f->name : NULL;
			if (last && (!strcmp(last, "dot") || !strcmp(last, "dot_scaled"))) {
				found = true;
				break;
			}
		}
		const NodeList *lists[] = {&e->items, &e->values, &e->keywords, &e->body, &e->orelse};
		size_t need = n + 3;
		for (size_t k = 0; k < sizeof lists / sizeof *lists; k++)
			need += (size_t)lists[k]->len;
		if (need > cap) {
			cap = need * 2;
			stack = base_realloc(stack, sizeof *stack * cap);
		}
		stack[n++] = e->lhs;
		stack[n++] = e->rhs;
		stack[n++] = e->cond;
		for (size_t k = 0; k < sizeof lists / sizeof *lists; k++)
			for (int i = 0; i < lists[k]->len; i++)
				stack[n++] = lists[k]->items[i];
	}
	free(stack);
	return found;
}

static void exec_for(Spec *s, const Node *n)
{
	const Node *it = n->rhs;
	const char *fn = it->kind == ND_CALL ? ast_dotted_name(s->a, it->lhs) : NULL;
	if (!fn || (strcmp(fn, "range") && strcmp(fn, "tl.range") && strcmp(fn, "tl.static_range")))
		spec_error(s, it, "a for loop must run over range, tl.range or tl.static_range");
	SVal *a0 = spec_arg(s, it, 0, "start"), *a1 = spec_arg(s, it, 1, "end"), *a2 = spec_arg(s, it, 2, "step");
	SVal *lo = a1 ? a0 : spec_sv_int(s, 0), *hi = a1 ? a1 : a0, *step = a2 ? a2 : spec_sv_int(s, 1);
	if (!hi)
		spec_error(s, it, "missing argument 'end'");
	if (n->orelse.len)
		spec_error(s, n, "'for ... else' is not supported");
	if (lo->kind != SV_INT || hi->kind != SV_INT || step->kind != SV_INT) {
		if (!strcmp(fn, "tl.static_range"))
			spec_error(s, it, "tl.static_range needs bounds known at compile time");
		spec_exec_runtime_for(s, n, lo, hi, step);
		return;
	}
	if (step->i <= 0)
		spec_error(s, it, "a loop's step must be positive");
	/* As Triton, a range loop over compile-time bounds stays a loop where
	 * its body has a tl.dot (it pipelines it; attention backward's masked
	 * steps: unrolled, 32 dots held at once spilled) or where it is too
	 * long to unroll; other range loops are unrolled (Inductor's reduction
	 * loops over a constant numel: their masks fold). tl.static_range
	 * always unrolls, as in Triton. */
	if (strcmp(fn, "tl.static_range") && ((hi->i - lo->i) / step->i > STATIC_UNROLL_MAX || calls_dot(&n->body))) {
		spec_exec_runtime_for(s, n, lo, hi, step);
		return;
	}
	if ((hi->i - lo->i) / step->i > STATIC_UNROLL_MAX)
		spec_error(s, it, "too many iterations to unroll this tl.static_range: more than %d (limit is %d)", STATIC_UNROLL_MAX,
			   STATIC_UNROLL_MAX);
	for (int64_t i = lo->i; i < hi->i; i += step->i) {
		spec_assign(s, n->lhs, spec_sv_int(s, i));
		spec_exec_block(s, &n->body);
	}
}

static void exec_stmt(Spec *s, const Node *n)
{
	switch (n->kind) {
	case ND_EXPR_STMT:
		if (n->lhs->kind != ND_STR) {
			const Node *hinted = spec_hint_target(n);
			SVal *v = spec_eval(s, n->lhs);
			if (hinted && v->kind == SV_VALUE)   /* the hint holds for the name from here on */
				spec_assign(s, hinted, v);
		}
		return;
	case ND_ASSIGN: {
		SVal *v = spec_eval(s, n->rhs);
		for (int i = 0; i < n->items.len; i++)
			spec_assign(s, n->items.items[i], v);
		return;
	}
	case ND_ANNASSIGN:
		if (n->rhs)
			spec_assign(s, n->lhs, spec_eval(s, n->rhs));
		return;
	case ND_AUGASSIGN: {
		SVal *x = spec_eval(s, n->lhs);
		SVal *y = spec_eval(s, n->rhs);
		spec_assign(s, n->lhs, spec_eval_binary(s, n, n->op, x, y));
		return;
	}
	case ND_FOR:
		exec_for(s, n);
		return;
	case ND_IF: {
		SVal *c = spec_eval(s, n->cond);
		if (c->kind == SV_NONE)
			c = spec_sv_int(s, 0);
		if (c->kind == SV_VALUE) {
			spec_exec_runtime_if(s, n, c->v);
			return;
		}
		if (c->kind != SV_INT)
			spec_error(s, n->cond, "this condition is neither a constant nor a scalar");
		spec_exec_block(s, c->i ? &n->body : &n->orelse);
		return;
	}
	case ND_RETURN:
		s->ret = n->lhs ? spec_eval(s, n->lhs) : spec_sv_new(s, SV_NONE);
		s->returned = true;
		return;
	case ND_PASS:
		return;
	case ND_WHILE:
		spec_exec_while(s, n);
		return;
	case ND_BREAK:
	case ND_CONTINUE:
		spec_error(s, n, "'%s' outside a loop", n->kind == ND_BREAK ? "break" : "continue");
	default:
		spec_error(s, n, "unsupported statement (%s)", ast_kind_name(n->kind));
	}
}

void spec_exec_block(Spec *s, const NodeList *body)
{
	for (int i = 0; i < body->len && !s->returned; i++)
		exec_stmt(s, body->items[i]);
}

/* ---- the signature ---- */

static bool parse_sig_type(const char *t, Type *out)
{
	memset(out, 0, sizeof *out);
	if (t[0] == '*') {
		out->dtype = DT_PTR;
		return dtype_parse(t + 1, &out->elem) && out->elem != DT_PTR;
	}
	return dtype_parse(t, &out->dtype) && out->dtype != DT_PTR;
}

static const char *define_value(const SpecOptions *opt, const char *name)
{
	size_t n = strlen(name);
	for (int i = 0; i < opt->ndefines; i++)
		if (!strncmp(opt->defines[i], name, n) && opt->defines[i][n] == '=')
			return opt->defines[i] + n + 1;
	return NULL;
}

static bool is_constexpr_param(const Node *p)
{
	const Node *ann = p->lhs;
	return ann && ann->kind == ND_ATTR && !strcmp(ann->name, "constexpr");
}

static void bind_params(Spec *s, const SpecOptions *opt)
{
	const Node *f = s->k->func;
	const char *sig = opt->signature;
	for (int i = 0; i < opt->ndefines; i++) {   /* a -D for no parameter is a typo */
		size_t len = strcspn(opt->defines[i], "=");
		bool found = false;
		for (int j = 0; j < f->params.len && !found; j++) {
			const char *name = ((const Node *)f->params.items[j])->name;
			found = strlen(name) == len && !strncmp(name, opt->defines[i], len);
		}
		if (!found)
			spec_error(s, f, "-D %.*s: kernel '%s' has no constexpr parameter of that name", (int)len,
				   opt->defines[i], f->name);
	}
	for (int i = 0; i < f->params.len; i++) {
		const Node *p = f->params.items[i];
		const char *given = define_value(opt, p->name);
		const char *sigty = s->k->signature ? discover_sig_type(s->k, p->name) : NULL;
		if (is_constexpr_param(p) || given || (sigty && !strcmp(sigty, "constexpr"))) {
			/* -D first, then Inductor's triton_meta['constants'], then the default. */
			const Node *known = ast_dict_get(ast_dict_get(s->k->triton_meta, "constants"), p->name);
			SVal *v = given ? spec_parse_define(s, p->name, given) : known ? spec_eval(s, known) : p->rhs ? spec_eval(s, p->rhs) : NULL;
			if (!v && given)
				spec_error(s, p, "-D %s=%s: not a constant (an integer that fits in 64 bits, a float, True/False, None, a string such as "
					   "'\"text\"', a dtype such as tl.float16, or a tuple of these)", p->name, given);
			if (!v)
				spec_error(s, p, "constexpr '%s' needs a value (-D %s=...)", p->name, p->name);
			spec_bind(s, p->name, v);
			continue;
		}
		char ty[128] = "";
		if (sig) {
			size_t len = 0;
			for (int depth = 0; sig[len] && (depth > 0 || sig[len] != ','); len++)
				depth += sig[len] == '[' || sig[len] == '<' ? 1 : sig[len] == ']' || sig[len] == '>' ? -1 : 0;
			if (len == 0 || len >= sizeof ty)
				spec_error(s, p, "the signature has no type for parameter '%s'", p->name);
			if (len >= sizeof ty)
				spec_error(s, p, "unknown type '%.*s' for parameter '%s' (expected *fp32, i32, fp32, ...)",
					   (int)len, sig, p->name);
			memcpy(ty, sig, len);
			ty[len] = '\0';
			sig += len + (sig[len] == ',');
		} else if (sigty) {
			snprintf(ty, sizeof ty, "%s", sigty);
		} else {
			spec_error(s, p, "no type for parameter '%s': give a signature (-s '*fp32,i32,...')", p->name);
		}
		if (spec_desc_arg(s, p, ty))
			continue;
		Type t;
		if (!parse_sig_type(ty, &t))
			spec_error(s, p, "unknown type '%s' for parameter '%s' (expected *fp32, i32, fp32, ...)", ty, p->name);
		spec_bind(s, p->name, spec_sv_value(s, p, tir_arg(&s->b, p->name, t)));
	}
	if (sig && *sig)
		spec_error(s, f, "the signature has more types than '%s' has parameters", f->name);
}

void spec_bind_modules(Spec *s)
{
	static const char *mods[] = {"tl", "triton", "libdevice", "tl_math", "triton_helpers"};
	for (size_t i = 0; i < TC_COUNT(mods); i++) {
		SVal *m = spec_sv_new(s, SV_MODULE);
		m->str = mods[i];
		spec_bind(s, mods[i], m);
	}
	const NodeList *defs = &s->k->module->body;   /* the kernel's helpers: the module's other functions */
	for (int i = 0; i < defs->len; i++) {
		if (defs->items[i] == s->k->func)
			continue;
		SVal *f = spec_sv_new(s, SV_FUNC);
		f->fn = defs->items[i];
		spec_bind(s, f->fn->name, f);
	}
}

/* How many kernel arguments a signature entry stands for: a tensor
 * descriptor tensordesc<T[B0,...,Bn-1]> is its base pointer, n extents and
 * n - 1 strides (spec_desc.c); anything else is one. */
static int entry_args(const char *e, size_t len)
{
	if (len < 11 || strncmp(e, "tensordesc<", 11))
		return 1;
	int rank = 1;
	for (size_t i = 0; i < len; i++)
		rank += e[i] == ',';
	return 2 * rank;
}

/* The length of the signature entry at `r`: to the next comma outside brackets. */
static size_t entry_len(const char *r)
{
	size_t len = 0;
	for (int depth = 0; r[len] && (depth > 0 || r[len] != ','); len++)
		depth += r[len] == '[' || r[len] == '<' ? 1 : r[len] == ']' || r[len] == '>' ? -1 : 0;
	return len;
}

int spec_signature_args(const char *sig)
{
	int n = 0;
	for (const char *r = sig; *r; r += *r == ',') {
		size_t len = entry_len(r);
		const char *colon = memchr(r, ':', len);
		n += entry_args(r, colon ? (size_t)(colon - r) : len);
		r += len;
	}
	return n;
}

bool spec_strip_hints(const char *sig, char *out, int64_t *div, SigEntry *bad)
{
	int n = 0;                 /* the kernel argument the entry starts at */
	const char *r = sig;
	for (int entry = 1; *r; entry++) {
		size_t len = entry_len(r);
		const char *colon = memchr(r, ':', len);
		size_t keep = colon ? (size_t)(colon - r) : len;
		memcpy(out, r, keep);
		out += keep;
		if (colon) {
			char *end;
			long v = strtol(colon + 1, &end, 10);
			if (v != 16 || end != r + len) {
				*bad = (SigEntry){entry, r, (int)len};
				return false;
			}
			div[n] = v;
		}
		n += entry_args(r, keep);
		r += len;
		if (*r == ',')
			*out++ = *r++;
	}
	*out = 0;
	return true;
}

TKernel *spec_kernel(Arena *a, Diag *d, const Kernel *k, const SpecOptions *opt)
{
	jmp_buf jb, *saved = d->jump;
	Arena *vals = arena_alloc(a, sizeof *vals);   /* held in `a`, so what it holds is never lost */
	Spec s = {.a = a, .vals = vals, .d = d, .k = k, .src = k->src, .func = k->func};
	s.env = spec_env_new(&s);
	d->jump = &jb;
	TKernel *result = NULL;
	if (setjmp(jb) == 0) {
		TKernel *tk = tir_kernel_new(a, k->name, &s.b);
		tk->num_warps = opt->num_warps > 0 ? opt->num_warps : 4;
		tk->num_stages = opt->num_stages > 0 ? opt->num_stages : 3;
		spec_bind_modules(&s);
		bind_params(&s, opt);
		s.func = spec_rewrite_jumps(&s, k->func);
		spec_exec_block(&s, &s.func->body);
		result = tk;
	}
	d->jump = saved;
	arena_recycle(a, vals);
	return result;
}
