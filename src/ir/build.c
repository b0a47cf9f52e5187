/* build.c: constructing tile IR, with Triton 3.6's typing rules.
 *
 * Every helper appends one op to the current block. The element-wise ones
 * first bring their operands to one dtype and one shape, inserting the
 * casts and broadcasts, so nothing later has to know the rules. */
#include "ir/tir.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool dtype_is_float(DType t)
{
	return t == DT_F16 || t == DT_BF16 || t == DT_F32 || t == DT_F64 || dtype_is_fp8(t);
}

bool dtype_is_signed(DType t)
{
	return t == DT_I8 || t == DT_I16 || t == DT_I32 || t == DT_I64;
}

static bool dtype_is_int(DType t)
{
	return !dtype_is_float(t) && t != DT_PTR;
}

/* Integers of different widths widen; signed against unsigned takes the
 * unsigned type when it is at least as wide; bool takes the other type. */
static DType integer_promote(DType x, DType y)
{
	if (x == DT_I1)
		return y;
	if (y == DT_I1)
		return x;
	bool xs = dtype_is_signed(x), ys = dtype_is_signed(y);
	if (xs == ys)
		return dtype_bytes(x) >= dtype_bytes(y) ? x : y;
	DType u = xs ? y : x, s = xs ? x : y;
	return dtype_bytes(u) >= dtype_bytes(s) ? u : s;
}

/* Triton's kinds of scalar type: bool < unsigned < signed < float. */
static int kind_of(DType t)
{
	return t == DT_I1 ? 0 : dtype_is_float(t) ? 3 : dtype_is_signed(t) ? 2 : 1;
}

bool tir_promote(DType x, bool x_weak, DType y, bool y_weak, bool div_or_mod, DType *out)
{
	if (x == DT_PTR || y == DT_PTR)
		return false;
	/* A Python scalar of a kind no higher than the tensor's adopts the
	 * tensor's type (fp16 / bf16 still divide in fp32); a higher kind (a
	 * float against an integer tensor, an int against a bool or unsigned
	 * one) takes part in the promotion with its own type (fp32, i32). */
	if (x_weak != y_weak) {
		DType w = x_weak ? x : y, t = x_weak ? y : x;
		if (kind_of(w) <= kind_of(t)) {
			*out = div_or_mod && dtype_is_float(t) && dtype_bytes(t) == 2 ? DT_F32 : t;
			return true;
		}
	}
	if (x == DT_F64 || y == DT_F64)
		*out = DT_F64;
	else if (x == DT_F32 || y == DT_F32)
		*out = DT_F32;
	else if (x == DT_F16 || y == DT_F16)
		*out = div_or_mod ? DT_F32 : DT_F16;
	else if (x == DT_BF16 || y == DT_BF16)
		*out = div_or_mod || x != y ? DT_F32 : DT_BF16;
	else if (dtype_is_fp8(x) && dtype_is_fp8(y))   /* two fp8 formats meet in fp16 */
		*out = x == y ? x : DT_F16;
	else if (dtype_is_fp8(x) || dtype_is_fp8(y))   /* fp8 and an integer tensor: Triton has no rule */
		return false;
	else {
		if (div_or_mod && dtype_is_signed(x) != dtype_is_signed(y) && x != DT_I1 && y != DT_I1)
			return false;
		*out = integer_promote(x, y);
	}
	return true;
}

TKernel *tir_kernel_new(Arena *a, const char *name, TBuilder *b)
{
	TKernel *k = arena_alloc(a, sizeof *k);
	k->name = arena_strdup(a, name);
	k->body = arena_alloc(a, sizeof *k->body);
	k->arena = a;
	k->num_warps = 4;
	k->num_stages = 1;
	memset(b, 0, sizeof *b);
	b->kernel = k;
	b->block = k->body;
	b->arena = a;
	return k;
}

/* A tile Triton allows: every dimension a power of two, at most
 * TIR_MAX_NUMEL elements; otherwise b->limit says why (the first time). */
static void check_shape(TBuilder *b, const Type *t)
{
	if (b->limit)
		return;
	int64_t numel = 1;
	int bad = -1;   /* the first dimension that is not a power of two */
	for (int d = 0; d < t->rank && bad < 0; d++) {
		int64_t n = t->shape[d];
		if (n < 1 || (n & (n - 1)))
			bad = d;
		else if (numel > TIR_MAX_NUMEL / n)
			numel = TIR_MAX_NUMEL + 1;
		else
			numel *= n;
	}
	if (bad < 0 && numel <= TIR_MAX_NUMEL)
		return;
	/* the shape is printed only for the message (each op's type is checked) */
	Buf shape = {0};
	for (int d = 0; d < t->rank; d++)
		buf_printf(&shape, "%s%d", d ? ", " : "", t->shape[d]);
	if (bad >= 0)
		b->limit = arena_printf(b->arena, "a tile of shape (%s): dimension %d is %lld, not a power of two",
					buf_str(&shape), bad, (long long)t->shape[bad]);
	else
		b->limit = arena_printf(b->arena, "a tile of shape (%s) has more than %lld elements, Triton's limit (2**20)",
					buf_str(&shape), (long long)TIR_MAX_NUMEL);
	buf_free(&shape);
}

static TValue *append(TBuilder *b, TOp op, Type t, int nargs, TValue **args)
{
	if (t.rank > 0)
		check_shape(b, &t);
	if (dtype_is_fp8(t.dtype) || (t.dtype == DT_PTR && dtype_is_fp8(t.elem)))
		b->kernel->uses_fp8 = true;
	TValue *v = arena_run_alloc(b->arena, &b->values, sizeof *v);
	v->id = b->next_id++;
	b->kernel->nids = b->next_id;
	v->op = op;
	if ((unsigned)op < 64)
		b->kernel->ops |= (uint64_t)1 << op;
	v->type = t;
	v->line = b->line;
	v->axis = &tir_axis_none;
	v->nargs = nargs;
	if (nargs) {
		v->args = arena_run_alloc(b->arena, &b->args, sizeof *v->args * (size_t)nargs);
		memcpy(v->args, args, sizeof *v->args * (size_t)nargs);
	}
	if (b->block->last)
		b->block->last->next = v;
	else
		b->block->first = v;
	b->block->last = v;
	return v;
}

static Type scalar_type(DType dt)
{
	Type t = {.dtype = dt};
	return t;
}

static Type with_dtype(Type t, DType dt)
{
	t.dtype = dt;
	if (dt != DT_PTR)
		t.elem = 0;
	return t;
}

TValue *tir_arg(TBuilder *b, const char *name, Type t)
{
	TKernel *k = b->kernel;
	TValue *v = append(b, TOP_ARG, t, 0, NULL);
	v->name = arena_strdup(b->arena, name);
	v->iconst = k->nargs;
	TValue **args = arena_alloc(b->arena, sizeof *args * (size_t)(k->nargs + 1));
	if (k->nargs)
		memcpy(args, k->args, sizeof *args * (size_t)k->nargs);
	args[k->nargs++] = v;
	k->args = args;
	return v;
}

TValue *tir_const_int(TBuilder *b, DType dt, int64_t c)
{
	TValue *v = append(b, TOP_CONST, scalar_type(dt), 0, NULL);
	v->iconst = c;
	v->fconst = (double)c;
	return v;
}

TValue *tir_const_float(TBuilder *b, DType dt, double c)
{
	TValue *v = append(b, TOP_CONST, scalar_type(dt), 0, NULL);
	v->fconst = c;
	return v;
}

TValue *tir_program_id(TBuilder *b, int axis)
{
	TValue *v = append(b, TOP_PROGRAM_ID, scalar_type(DT_I32), 0, NULL);
	v->aux = axis;
	return v;
}

TValue *tir_arange(TBuilder *b, int start, int end)
{
	if (end <= start || !is_pow2(end - start)) {
		b->error = arena_printf(b->arena, "arange(%d, %d): its range, %lld, must be a positive power of two", start,
					end, (long long)end - start);
		return NULL;
	}
	Type t = {.dtype = DT_I32, .rank = 1, .shape = {end - start}};
	TValue *v = append(b, TOP_ARANGE, t, 0, NULL);
	v->iconst = start;
	return v;
}

#define STR_(x) #x
#define STR(x) STR_(x)

TValue *tir_expand(TBuilder *b, TValue *x, int axis)
{
	Type t = x->type;
	if (t.rank >= TC_MAX_RANK) {
		b->error = "expand_dims: too many dimensions (limit is " STR(TC_MAX_RANK) ")";
		return NULL;
	}
	if (axis < 0 || axis > t.rank) {
		b->error = "expand_dims: axis out of range";
		return NULL;
	}
	memmove(t.shape + axis + 1, t.shape + axis, sizeof(int) * (size_t)(t.rank - axis));
	t.shape[axis] = 1;
	t.rank++;
	TValue *v = append(b, TOP_EXPAND, t, 1, &x);
	v->aux = axis;
	return v;
}

TValue *tir_reshape(TBuilder *b, TValue *x, int rank, const int *shape)
{
	int64_t n = 1, m = 1;
	for (int k = 0; k < x->type.rank; k++)
		n *= x->type.shape[k];
	for (int k = 0; k < rank; k++)
		m *= shape[k] > 0 ? shape[k] : 0;
	if (rank < 0 || rank > TC_MAX_RANK || n != m) {
		b->error = "reshape: the new shape must hold as many elements as the old one";
		return NULL;
	}
	if (rank == x->type.rank && !memcmp(shape, x->type.shape, sizeof(int) * (size_t)rank))
		return x;
	Type t = x->type;
	t.rank = rank;
	memcpy(t.shape, shape, sizeof(int) * (size_t)rank);
	return append(b, TOP_RESHAPE, t, 1, &x);
}

TValue *tir_print(TBuilder *b, int n, TValue **values, const char *prefix, bool hex)
{
	for (int i = 0; i < n; i++) {
		DType dt = values[i]->type.dtype;
		if (hex && (dtype_is_float(dt) || dt == DT_PTR)) {
			b->error = "tl.device_print(..., hex=True) prints integers only";
			return NULL;
		}
	}
	Type none = {.dtype = DT_I32};
	TValue *v = append(b, TOP_PRINT, none, n, values);
	v->text = arena_strdup(b->arena, prefix);
	v->aux = hex;
	return v;
}

/* Registers an asm operand of dtype dt takes for `pack` elements, as
 * Triton lowers it: elements narrower than 32 bits share 32-bit registers
 * (32 / bits of them, at most pack), wider ones take one each. */
int tir_asm_registers(DType dt, int pack)
{
	int bits = dt == DT_PTR ? 64 : dtype_bytes(dt) * 8;
	int per = bits < 32 ? 32 / bits : 1;
	if (per > pack)
		per = pack;
	return pack / per;
}

bool tir_inline_asm(TBuilder *b, const char *asm_text, const char *constraints, int nargs, TValue **args, int nout,
		    const DType *out, bool pure, int pack, TValue **results)
{
	if (nout < 1 || nout > TC_MAX_RANK - 1) {
		b->error = "tl.inline_asm_elementwise: between 1 and 7 results";
		return false;
	}
	Type t = {.dtype = DT_I32};
	for (int i = 0; i < nargs; i++)
		if (args[i]->type.rank > t.rank)
			t = args[i]->type;
	for (int i = 0; i < nargs; i++) {
		const Type *a = &args[i]->type;
		for (int d = 0; d < a->rank; d++)
			if (a->rank != t.rank || (a->shape[d] != t.shape[d] && a->shape[d] != 1 && t.shape[d] != 1)) {
				b->error = "tl.inline_asm_elementwise: the arguments' shapes do not broadcast";
				return false;
			}
		for (int d = 0; d < a->rank; d++)
			if (a->shape[d] > t.shape[d])
				t.shape[d] = a->shape[d];
	}
	TValue **bc = arena_alloc(b->arena, sizeof *bc * (size_t)(nargs + 1));
	for (int i = 0; i < nargs; i++)
		bc[i] = t.rank ? tir_broadcast_to(b, args[i], t.rank, t.shape) : args[i];
	Buf text = {0};
	buf_printf(&text, "%s\n%s", constraints, asm_text);
	const char *joined = arena_strdup(b->arena, text.data);
	buf_free(&text);
	TValue *first = NULL;
	for (int i = 0; i < nout; i++) {
		Type ti = t;
		ti.dtype = out[i];
		ti.elem = DT_I32;
		TValue *v = append(b, TOP_ASM, ti, nargs, bc);
		v->text = joined;
		v->aux = nout;
		v->aux2 = i;
		v->iconst = first ? first->id : v->id;
		first = first ? first : v;
		v->hint = arena_alloc(b->arena, sizeof *v->hint * TC_MAX_RANK);
		v->perm = arena_alloc(b->arena, sizeof *v->perm * TC_MAX_RANK);
		for (int k = 0; k < nout; k++)
			v->hint[k] = out[k];
		v->hint[TC_MAX_RANK - 1] = pure;
		v->perm[0] = pack;
		results[i] = v;
	}
	return true;
}

/* '%' doubled, for a printf format */
static void put_escaped(Buf *f, const char *text)
{
	for (const char *p = text; *p; p++) {
		if (*p == '%')
			buf_putc(f, '%');
		buf_putc(f, *p);
	}
}

char *tir_print_format(const TValue *v, int operand)
{
	Buf f = {0};
	buf_puts(&f, "pid (%d, %d, %d)");
	if (v->nargs == 0) {
		put_escaped(&f, v->text);
		buf_putc(&f, '\n');
		return buf_detach(&f);
	}
	const TValue *x = v->args[operand];
	buf_puts(&f, " idx (");
	for (int d = 0; d < x->type.rank; d++) {
		int width = (int)ceil(log10((double)x->type.shape[d]));
		buf_printf(&f, "%s%%%dd", d ? ", " : "", width);
	}
	buf_putc(&f, ')');
	put_escaped(&f, v->text);
	if (v->nargs > 1)
		buf_printf(&f, "(operand %d) ", operand);
	DType dt = x->type.dtype;
	int bits = dt == DT_I1 ? 1 : 8 * dtype_bytes(dt);
	if (v->aux)
		buf_printf(&f, bits > 32 ? "0x%%0%dllx" : "0x%%0%dx", bits < 4 ? 1 : bits / 4);
	else if (dtype_is_float(dt))
		buf_puts(&f, "%f");
	else if (dt == DT_PTR)
		buf_puts(&f, "%p");
	else if (dtype_is_signed(dt))
		buf_puts(&f, bits > 32 ? "%lld" : "%d");
	else
		buf_puts(&f, bits > 32 ? "%llu" : "%u");
	buf_putc(&f, '\n');
	return buf_detach(&f);
}

TValue *tir_gather(TBuilder *b, TValue *src, TValue *index, int axis)
{
	const Type *s = &src->type, *ix = &index->type;
	if (s->rank < 1 || ix->rank != s->rank) {
		b->error = "tl.gather: the index must have the source's rank (at least 1)";
		return NULL;
	}
	if (axis < 0 || axis >= s->rank) {
		b->error = "tl.gather: the axis is outside the source's dims";
		return NULL;
	}
	if (dtype_is_float(ix->dtype) || ix->dtype == DT_PTR || ix->dtype == DT_I1) {
		b->error = "tl.gather: the index must be an integer tile";
		return NULL;
	}
	for (int d = 0; d < s->rank; d++) {
		if (d != axis && ix->shape[d] != s->shape[d]) {
			b->error = "tl.gather: the index must have the source's extents in every dim but the axis";
			return NULL;
		}
	}
	Type t = *ix;
	t.dtype = s->dtype;
	t.elem = s->elem;
	TValue *args[2] = {src, index};
	TValue *v = append(b, TOP_GATHER, t, 2, args);
	v->aux = axis;
	return v;
}

TValue *tir_broadcast_to(TBuilder *b, TValue *x, int rank, const int *shape)
{
	if (x->type.rank == 0 && rank > 0) {
		Type t = x->type;
		t.rank = rank;
		memcpy(t.shape, shape, sizeof(int) * (size_t)rank);
		return append(b, TOP_SPLAT, t, 1, &x);
	}
	while (x->type.rank < rank)
		x = tir_expand(b, x, 0);
	if (x->type.rank != rank) {
		b->error = "cannot broadcast to fewer dimensions";
		return NULL;
	}
	bool same = true;
	for (int d = 0; d < rank; d++) {
		if (x->type.shape[d] != shape[d] && x->type.shape[d] != 1) {
			b->error = "incompatible shapes for broadcasting";
			return NULL;
		}
		same &= x->type.shape[d] == shape[d];
	}
	if (same)
		return x;
	Type t = x->type;
	memcpy(t.shape, shape, sizeof(int) * (size_t)rank);
	return append(b, x->type.rank ? TOP_BROADCAST : TOP_SPLAT, t, 1, &x);
}

/* "2, 0, 1": the dims of a permutation, for messages. */
static const char *dims_text(TBuilder *b, int n, const int *perm)
{
	char text[128];
	int len = 0;
	text[0] = 0;
	for (int i = 0; i < n && len < (int)sizeof text; i++)
		len += snprintf(text + len, sizeof text - (size_t)len, "%s%d", i ? ", " : "", perm[i]);
	return arena_strdup(b->arena, text);
}

TValue *tir_trans(TBuilder *b, TValue *x, int n, const int *perm)
{
	const Type *xt = &x->type;
	if (xt->rank == 0) {
		b->error = "needs a tensor, not a scalar";
		return NULL;
	}
	if (n != xt->rank) {
		b->error = arena_printf(b->arena, "%d dim%s (%s) for a tensor of rank %d", n,
					n == 1 ? "" : "s", dims_text(b, n, perm), xt->rank);
		return NULL;
	}
	unsigned seen = 0;
	bool identity = true;
	for (int i = 0; i < n; i++) {
		if (perm[i] < 0 || perm[i] >= n || (seen & (1u << perm[i]))) {
			b->error = arena_printf(b->arena, "(%s) is not a permutation of 0..%d",
						dims_text(b, n, perm), n - 1);
			return NULL;
		}
		seen |= 1u << perm[i];
		identity &= perm[i] == i;
	}
	if (identity)
		return x;
	Type t = *xt;
	for (int i = 0; i < n; i++)
		t.shape[i] = xt->shape[perm[i]];
	TValue *v = append(b, TOP_TRANS, t, 1, &x);
	v->perm = arena_alloc(b->arena, sizeof *v->perm * TC_MAX_RANK);
	memcpy(v->perm, perm, sizeof(int) * (size_t)n);
	return v;
}

TValue *tir_cast(TBuilder *b, TValue *x, DType to)
{
	if (x->type.dtype == to)
		return x;
	return append(b, TOP_CAST, with_dtype(x->type, to), 1, &x);
}

/* The shape both operands broadcast to, numpy style (shorter ranks are
 * padded on the left). */
static bool broadcast_shape(const Type *x, const Type *y, int *rank, int *shape)
{
	*rank = imax(x->rank, y->rank);
	for (int d = 0; d < *rank; d++) {
		int i = d - (*rank - x->rank), j = d - (*rank - y->rank);
		int a = i >= 0 ? x->shape[i] : 1, c = j >= 0 ? y->shape[j] : 1;
		if (a != c && a != 1 && c != 1)
			return false;
		shape[d] = imax(a, c);
	}
	return true;
}

static bool unify_shapes(TBuilder *b, TValue **x, TValue **y)
{
	int rank, shape[TC_MAX_RANK];
	if (!broadcast_shape(&(*x)->type, &(*y)->type, &rank, shape)) {
		b->error = "incompatible shapes for broadcasting";
		return false;
	}
	*x = tir_broadcast_to(b, *x, rank, shape);
	*y = *x ? tir_broadcast_to(b, *y, rank, shape) : NULL;
	return *x && *y;
}

TValue *tir_binary(TBuilder *b, TOp op, TValue *x, TValue *y)
{
	if (x->type.dtype == DT_PTR || y->type.dtype == DT_PTR) {
		if (op != TOP_ADD && op != TOP_SUB) {
			b->error = "only + and - apply to pointers";
			return NULL;
		}
		if (y->type.dtype == DT_PTR) {
			TValue *t = x;
			x = y;
			y = t;
		}
		if (y->type.dtype == DT_PTR || dtype_is_float(y->type.dtype)) {
			b->error = "a pointer offset must be an integer";
			return NULL;
		}
		if (!unify_shapes(b, &x, &y))
			return NULL;
		if (op == TOP_SUB)
			y = append(b, TOP_NEG, y->type, 1, &y);
		TValue *args[2] = {x, y};
		return append(b, TOP_PTR_ADD, x->type, 2, args);
	}
	bool div_or_mod = op == TOP_DIV || op == TOP_MOD || op == TOP_IDIV || op == TOP_FMOD;
	DType dt;
	if (!tir_promote(x->type.dtype, false, y->type.dtype, false, div_or_mod, &dt)) {
		b->error = "operand types cannot be combined";
		return NULL;
	}
	bool bitwise = op == TOP_AND || op == TOP_OR || op == TOP_XOR || op == TOP_SHL || op == TOP_SHR;
	if (bitwise && dtype_is_float(dt)) {
		b->error = "bitwise operators need integer operands";
		return NULL;
	}
	if (op == TOP_DIV && !dtype_is_float(dt))
		dt = DT_F32;                       /* int / int is true division in fp32 */
	if (op == TOP_MOD && dtype_is_float(dt))
		op = TOP_FMOD;
	x = tir_cast(b, x, dt);
	y = tir_cast(b, y, dt);
	if (!unify_shapes(b, &x, &y))
		return NULL;
	TValue *args[2] = {x, y};
	return append(b, op, x->type, 2, args);
}

TValue *tir_cmp(TBuilder *b, CmpKind k, TValue *x, TValue *y)
{
	DType dt;
	if (x->type.dtype == DT_PTR && y->type.dtype == DT_PTR)
		dt = DT_PTR;
	else if (!tir_promote(x->type.dtype, false, y->type.dtype, false, false, &dt)) {
		b->error = "operand types cannot be compared";
		return NULL;
	}
	x = tir_cast(b, x, dt);
	y = tir_cast(b, y, dt);
	if (!unify_shapes(b, &x, &y))
		return NULL;
	TValue *args[2] = {x, y};
	TValue *v = append(b, TOP_CMP, with_dtype(x->type, DT_I1), 2, args);
	v->aux = k;
	return v;
}

/* The constant that every element of `v` is (through splats and
 * broadcasts), or NULL. */
static TValue *uniform_const(TValue *v)
{
	while (v->op == TOP_SPLAT || v->op == TOP_BROADCAST || v->op == TOP_EXPAND || v->op == TOP_RESHAPE)
		v = v->args[0];
	return v->op == TOP_CONST ? v : NULL;
}

/* Whether x and y are the same constant, bit for bit. */
static bool same_const(TValue *x, TValue *y)
{
	x = uniform_const(x);
	y = uniform_const(y);
	return x && y && x->type.dtype == y->type.dtype && x->iconst == y->iconst &&
	       memcmp(&x->fconst, &y->fconst, sizeof x->fconst) == 0;
}

TValue *tir_where(TBuilder *b, TValue *c, TValue *x, TValue *y)
{
	DType dt;
	if (x->type.dtype == DT_PTR && y->type.dtype == DT_PTR)
		dt = DT_PTR;
	else if (!tir_promote(x->type.dtype, false, y->type.dtype, false, false, &dt)) {
		b->error = "where: the two values have types that cannot be combined";
		return NULL;
	}
	c = tir_cast(b, c, DT_I1);
	x = tir_cast(b, x, dt);
	y = tir_cast(b, y, dt);
	if (!unify_shapes(b, &x, &y) || !unify_shapes(b, &c, &x) || !unify_shapes(b, &x, &y))
		return NULL;
	if (x == y || same_const(x, y))   /* Welford's `where(mask, 0, m2)` on the first iteration */
		return x;
	TValue *args[3] = {c, x, y};
	return append(b, TOP_WHERE, x->type, 3, args);
}

int tir_math_arity(MathFn fn)
{
	return fn == MATH_FMA ? 3 : fn >= MATH_POW ? 2 : 1;
}

/* The result dtype of `fn` on operands of dtype `dt`. */
static DType math_result(MathFn fn, DType dt)
{
	switch (fn) {
	case MATH_SIGNBIT: case MATH_ILOGB: return DT_I32;
	case MATH_ISNAN: case MATH_ISINF: case MATH_ISFINITE: return DT_I1;
	default: return dt;
	}
}

TValue *tir_math(TBuilder *b, MathFn fn, TValue *x)
{
	return tir_math_n(b, fn, 1, &x);
}

TValue *tir_math_n(TBuilder *b, MathFn fn, int n, TValue **args)
{
	if (n != tir_math_arity(fn)) {
		b->error = "wrong number of operands for this math function";
		return NULL;
	}
	int floats = fn == MATH_LDEXP ? 1 : n;   /* ldexp's exponent is an integer */
	DType dt = args[0]->type.dtype;
	for (int i = 1; i < floats; i++) {
		if (!tir_promote(dt, false, args[i]->type.dtype, false, false, &dt)) {
			b->error = "the operands of this math function have types that cannot be combined";
			return NULL;
		}
	}
	if (!dtype_is_float(dt) && !(fn == MATH_ABS && dt != DT_PTR)) {
		b->error = "this math function needs a floating-point operand";
		return NULL;
	}
	TValue *ops[3];
	for (int i = 0; i < n; i++) {
		ops[i] = tir_cast(b, args[i], i < floats ? dt : DT_I32);
		if (i > 0 && !unify_shapes(b, &ops[0], &ops[i]))
			return NULL;
	}
	for (int i = 1; i < n - 1; i++)   /* a later operand widened the first */
		if (!unify_shapes(b, &ops[0], &ops[i]))
			return NULL;
	TValue *v = append(b, TOP_MATH, with_dtype(ops[0]->type, math_result(fn, dt)), n, ops);
	v->aux = fn;
	return v;
}

TValue *tir_load(TBuilder *b, TValue *ptr, TValue *mask, TValue *other, EvictionPolicy ev)
{
	if (ptr->type.dtype != DT_PTR) {
		b->error = "load needs a pointer";
		return NULL;
	}
	TValue *args[3] = {ptr, NULL, NULL};
	int n = 1;
	if (mask) {
		args[n++] = tir_broadcast_to(b, tir_cast(b, mask, DT_I1), ptr->type.rank, ptr->type.shape);
		if (!args[n - 1])
			return NULL;
	}
	if (other) {
		if (!mask) {
			b->error = "'other' needs a mask";
			return NULL;
		}
		other = tir_cast(b, other, ptr->type.elem);
		args[n++] = tir_broadcast_to(b, other, ptr->type.rank, ptr->type.shape);
		if (!args[n - 1])
			return NULL;
	}
	Type t = with_dtype(ptr->type, ptr->type.elem);
	TValue *v = append(b, TOP_LOAD, t, n, args);
	v->aux = ev;
	return v;
}

TValue *tir_store(TBuilder *b, TValue *ptr, TValue *value, TValue *mask)
{
	if (ptr->type.dtype != DT_PTR) {
		b->error = "store needs a pointer";
		return NULL;
	}
	if (value->type.dtype == DT_PTR) {   /* Triton casts a pointer to int64 alone */
		b->error = arena_printf(b->arena, "cannot store a pointer into a buffer of %s (a pointer converts to int64 "
						  "only)", dtype_name(ptr->type.elem));
		return NULL;
	}
	value = tir_broadcast_to(b, tir_cast(b, value, ptr->type.elem), ptr->type.rank, ptr->type.shape);
	if (!value)
		return NULL;
	TValue *args[3] = {ptr, value, NULL};
	int n = 2;
	if (mask) {
		args[n++] = tir_broadcast_to(b, tir_cast(b, mask, DT_I1), ptr->type.rank, ptr->type.shape);
		if (!args[n - 1])
			return NULL;
	}
	Type none = {.dtype = DT_I1};
	return append(b, TOP_STORE, none, n, args);
}

TValue *tir_reduce(TBuilder *b, ReduceKind k, TValue *x, int axis)
{
	if (axis < 0)
		axis += x->type.rank;
	if (axis < 0 || axis >= x->type.rank) {
		b->error = "reduction axis out of range";
		return NULL;
	}
	/* Triton sums small integers and halves in a wider type. */
	if (k == RED_SUM && dtype_is_int(x->type.dtype) && dtype_bytes(x->type.dtype) < 4)
		x = tir_cast(b, x, DT_I32);
	Type t = x->type;
	memmove(t.shape + axis, t.shape + axis + 1, sizeof(int) * (size_t)(t.rank - axis - 1));
	t.rank--;
	/* Over a constant tile, a maximum or minimum is the constant and a sum
	 * of zeros (+0) is zero: Welford's m2 on the first iteration. */
	TValue *k_all = uniform_const(x);
	if (k_all && (k == RED_MAX || k == RED_MIN ||
		      (k == RED_SUM && k_all->iconst == 0 && k_all->fconst == 0 && !signbit(k_all->fconst))))
		return tir_broadcast_to(b, k_all, t.rank, t.shape);
	TValue *v = append(b, TOP_REDUCE, t, 1, &x);
	v->aux = k;
	v->aux2 = axis;
	return v;
}

/* ---- reductions with an index, bit casts, memory side effects ---- */

TValue *tir_reduce_index(TBuilder *b, ReduceKind k, TValue *values, TValue *index, int axis)
{
	if (dtype_is_float(index->type.dtype) || index->type.dtype == DT_PTR) {
		b->error = "the index of an argmax/argmin reduction must be an integer tile";
		return NULL;
	}
	if (!unify_shapes(b, &values, &index))
		return NULL;
	TValue *v = tir_reduce(b, RED_MAX, values, axis);
	if (!v)
		return NULL;
	v->op = TOP_REDUCE;
	v->aux = k;
	v->type.dtype = index->type.dtype;
	TValue **args = arena_alloc(b->arena, sizeof *args * 2);
	args[0] = values;
	args[1] = index;
	v->args = args;
	v->nargs = 2;
	return v;
}

TValue *tir_bitcast(TBuilder *b, TValue *x, DType to)
{
	if (x->type.dtype == to)
		return x;
	if (x->type.dtype == DT_PTR || to == DT_PTR || dtype_bytes(x->type.dtype) != dtype_bytes(to) ||
	    x->type.dtype == DT_I1 || to == DT_I1) {
		b->error = "a bitcast needs two types of the same width";
		return NULL;
	}
	return append(b, TOP_BITCAST, with_dtype(x->type, to), 1, &x);
}

TValue *tir_unary(TBuilder *b, TOp op, TValue *x)
{
	return append(b, op, x->type, 1, &x);
}

/* `x` cast to the pointee of `ptr` and broadcast to its shape. */
static TValue *atomic_operand(TBuilder *b, const TValue *ptr, TValue *x, DType dt)
{
	return tir_broadcast_to(b, tir_cast(b, x, dt), ptr->type.rank, ptr->type.shape);
}

TValue *tir_atomic(TBuilder *b, AtomicOp op, TValue *ptr, TValue *value, TValue *mask, MemSem sem, MemScope scope)
{
	if (ptr->type.dtype != DT_PTR) {
		b->error = "an atomic operation needs a pointer";
		return NULL;
	}
	TValue *args[3] = {ptr, atomic_operand(b, ptr, value, ptr->type.elem), NULL};
	if (!args[1])
		return NULL;
	int n = 2;
	if (mask) {
		args[n++] = atomic_operand(b, ptr, mask, DT_I1);
		if (!args[n - 1])
			return NULL;
	}
	TValue *v = append(b, TOP_ATOMIC, with_dtype(ptr->type, ptr->type.elem), n, args);
	v->iconst = op;
	v->aux = sem;
	v->aux2 = scope;
	return v;
}

TValue *tir_atomic_cas(TBuilder *b, TValue *ptr, TValue *cmp, TValue *value, MemSem sem, MemScope scope)
{
	if (ptr->type.dtype != DT_PTR) {
		b->error = "atomic_cas needs a pointer";
		return NULL;
	}
	TValue *args[3] = {ptr, atomic_operand(b, ptr, cmp, ptr->type.elem), atomic_operand(b, ptr, value, ptr->type.elem)};
	if (!args[1] || !args[2])
		return NULL;
	TValue *v = append(b, TOP_ATOMIC, with_dtype(ptr->type, ptr->type.elem), 3, args);
	v->iconst = ATOM_CAS;
	v->aux = sem;
	v->aux2 = scope;
	return v;
}

TValue *tir_pointer_cast(TBuilder *b, TValue *ptr, DType elem)
{
	if (ptr->type.dtype != DT_PTR || elem == DT_PTR) {
		b->error = "a pointer cast needs a pointer and a pointer type";
		return NULL;
	}
	if (ptr->type.elem == elem)
		return ptr;
	Type t = ptr->type;
	t.elem = elem;
	return append(b, TOP_BITCAST, t, 1, &ptr);
}

TValue *tir_int_to_ptr(TBuilder *b, TValue *x, DType elem)
{
	if ((x->type.dtype != DT_I64 && x->type.dtype != DT_U64) || elem == DT_PTR) {
		b->error = "only a 64-bit integer converts to a pointer";
		return NULL;
	}
	Type t = x->type;
	t.dtype = DT_PTR;
	t.elem = elem;
	return append(b, TOP_BITCAST, t, 1, &x);
}

TValue *tir_ptr_to_int(TBuilder *b, TValue *ptr, DType to)
{
	if (ptr->type.dtype != DT_PTR || (to != DT_I64 && to != DT_U64)) {
		b->error = "a pointer converts only to a 64-bit integer";
		return NULL;
	}
	Type t = ptr->type;
	t.dtype = to;
	t.elem = DT_I1;
	return append(b, TOP_BITCAST, t, 1, &ptr);
}

TValue *tir_assert(TBuilder *b, TValue *cond, TValue *mask, const char *msg)
{
	TValue *args[2] = {tir_cast(b, cond, DT_I1), NULL};
	int n = 1;
	if (mask) {
		args[1] = tir_cast(b, mask, DT_I1);
		if (!unify_shapes(b, &args[0], &args[1]))
			return NULL;
		n = 2;
	}
	Type none = {.dtype = DT_I1};
	TValue *v = append(b, TOP_ASSERT, none, n, args);
	v->text = arena_strdup(b->arena, msg ? msg : "");
	return v;
}

TValue *tir_barrier(TBuilder *b)
{
	Type none = {.dtype = DT_I1};
	return append(b, TOP_BARRIER, none, 0, NULL);
}

/* An fp32 tile as tf32, as tl.dot takes it on Hopper (interp.c's
 * round_tf32): the low 13 mantissa bits dropped, infinities and NaNs kept. */
static TValue *truncate_tf32(TBuilder *b, TValue *x)
{
	TValue *u = tir_bitcast(b, x, DT_U32);
	TValue *special = tir_cmp(b, CMP_EQ, tir_binary(b, TOP_AND, u, tir_const_int(b, DT_U32, 0x7f800000)),
				  tir_const_int(b, DT_U32, 0x7f800000));
	TValue *cut = tir_binary(b, TOP_AND, u, tir_const_int(b, DT_U32, 0xffffe000u));
	return tir_bitcast(b, tir_where(b, special, u, cut), DT_F32);
}

/* A batched tl.dot, a [B, M, K] x [B, K, N] (+ acc [B, M, N]), as Triton
 * 3.6 allows it: the products a[:, :, :, None] * b[:, None, :, :] in fp32
 * (i32 for int8), summed over K, added to the accumulator. Every target
 * and the interpreter run these tile ops; 2-D dots keep TOP_DOT. The
 * operands are the checked ones of tir_dot (fp8 already widened to fp16). */
static TValue *dot_batched(TBuilder *b, TValue *x, TValue *y, TValue *acc, DotPrecision p)
{
	DType in = x->type.dtype;
	DType wide = in == DT_I8 ? DT_I32 : DT_F32;
	TValue *xw = tir_cast(b, x, wide), *yw = tir_cast(b, y, wide);
	if (in == DT_F32 && p == DOT_TF32) {
		xw = truncate_tf32(b, x);
		yw = truncate_tf32(b, y);
	}
	TValue *prod = tir_binary(b, TOP_MUL, tir_expand(b, xw, 3), tir_expand(b, yw, 1));   /* [B, M, K, N] */
	if (!prod)
		return NULL;
	TValue *sum = tir_reduce(b, RED_SUM, prod, 2);
	if (!sum)
		return NULL;
	TValue *r = tir_binary(b, TOP_ADD, tir_cast(b, acc, wide), sum);
	return r && acc->type.dtype != wide ? tir_cast(b, r, acc->type.dtype) : r;
}

TValue *tir_dot(TBuilder *b, TValue *x, TValue *y, TValue *acc, DotPrecision p)
{
	const Type *tx = &x->type, *ty = &y->type;
	bool batched = tx->rank == 3 && ty->rank == 3;
	if (batched && tx->shape[0] != ty->shape[0]) {
		b->error = "tl.dot of 3-D tiles: the operands' batch dimensions (dim 0) must be equal";
		return NULL;
	}
	if (batched && tx->shape[2] != ty->shape[1]) {
		b->error = "tl.dot: the first operand's columns must equal the second's rows";
		return NULL;
	}
	if (!batched && (tx->rank != 2 || ty->rank != 2)) {
		b->error = "tl.dot needs two 2-D tiles or two 3-D ones (a batch of dots)";
		return NULL;
	}
	if (!batched && tx->shape[1] != ty->shape[0]) {
		b->error = "tl.dot: the first operand's columns must equal the second's rows";
		return NULL;
	}
	if (dtype_is_fp8(tx->dtype) && dtype_is_fp8(ty->dtype)) {
		/* fp8 operands (any two formats, as Hopper's wgmma takes them):
		 * every fp8 value is an fp16 one, so an fp16 dot of them gives
		 * the same products, summed in fp32 */
		x = tir_cast(b, x, DT_F16);
		y = tir_cast(b, y, DT_F16);
		tx = &x->type;
		ty = &y->type;
	}
	if (tx->dtype != ty->dtype) {
		b->error = "tl.dot: both operands must have the same dtype";
		return NULL;
	}
	DType in = tx->dtype;
	if (in != DT_F16 && in != DT_BF16 && in != DT_F32 && in != DT_I8) {
		b->error = "tl.dot supports fp8, fp16, bf16, fp32 and int8 operands";
		return NULL;
	}
	Type rt = {.dtype = in == DT_I8 ? DT_I32 : DT_F32, .rank = 2, .shape = {tx->shape[0], ty->shape[1]}};
	if (batched)
		rt = (Type){.dtype = rt.dtype, .rank = 3, .shape = {tx->shape[0], tx->shape[1], ty->shape[2]}};
	if (!acc) {
		acc = in == DT_I8 ? tir_const_int(b, DT_I32, 0) : tir_const_float(b, DT_F32, 0.0);
		acc = tir_broadcast_to(b, acc, rt.rank, rt.shape);
	}
	if (acc->type.rank != rt.rank || memcmp(acc->type.shape, rt.shape, sizeof(int) * (size_t)rt.rank)) {
		b->error = batched ? "tl.dot: the accumulator must have shape [B, M, N]"
				   : "tl.dot: the accumulator must have shape [M, N]";
		return NULL;
	}
	bool float_acc = acc->type.dtype == DT_F32 || (in == DT_F16 && acc->type.dtype == DT_F16);
	if (in == DT_I8 ? acc->type.dtype != DT_I32 : !float_acc) {
		b->error = "tl.dot: the accumulator must be fp32 (i32 for int8 operands)";
		return NULL;
	}
	if (batched)
		return dot_batched(b, x, y, acc, p);
	TValue *args[3] = {x, y, acc};
	TValue *v = append(b, TOP_DOT, acc->type, 3, args);
	v->aux = p;
	return v;
}

TValue *tir_philox(TBuilder *b, TValue *seed, TValue *offset, int rounds, int word)
{
	DType st = seed->type.dtype, ot = offset->type.dtype;
	if (seed->type.rank != 0 || dtype_is_float(st) || st == DT_PTR) {
		b->error = "the seed of a random number must be an integer scalar";
		return NULL;
	}
	if (dtype_is_float(ot) || ot == DT_PTR || (dtype_bytes(ot) != 4 && dtype_bytes(ot) != 8)) {
		b->error = "random offsets must be 32- or 64-bit integers";
		return NULL;
	}
	TValue *args[2] = {seed, offset};
	TValue *v = append(b, TOP_PHILOX, with_dtype(offset->type, DT_U32), 2, args);
	v->aux = rounds;
	v->aux2 = word;
	return v;
}

TValue *tir_hint(TBuilder *b, TValue *x, HintKind kind, const int64_t *values)
{
	TValue *v = append(b, TOP_HINT, x->type, 1, &x);
	v->aux = kind;
	v->hint = arena_alloc(b->arena, sizeof *v->hint * TC_MAX_RANK);
	memcpy(v->hint, values, sizeof *v->hint * TC_MAX_RANK);
	return v;
}

/* ---- ops with blocks ---- */

static TBlock *block_new(TBuilder *b, int nparams)
{
	TBlock *blk = arena_alloc(b->arena, sizeof *blk);
	blk->nparams = nparams;
	if (nparams)
		blk->params = arena_alloc(b->arena, sizeof *blk->params * (size_t)nparams);
	return blk;
}

static TValue *param_new(TBuilder *b, TBlock *blk, int i, Type t)
{
	TValue *p = arena_alloc(b->arena, sizeof *p);
	p->id = b->next_id++;
	b->kernel->nids = b->next_id;
	p->op = TOP_PARAM;
	b->kernel->ops |= (uint64_t)1 << TOP_PARAM;
	p->type = t;
	p->line = b->line;
	p->axis = &tir_axis_none;
	p->aux = i;
	blk->params[i] = p;
	return p;
}

TValue *tir_scan(TBuilder *b, int n, TValue **inputs, int axis, bool reverse)
{
	const Type *t = &inputs[0]->type;
	if (axis < 0)
		axis += t->rank;
	if (axis < 0 || axis >= t->rank) {
		b->error = "scan axis out of range";
		return NULL;
	}
	for (int i = 1; i < n; i++) {
		const Type *u = &inputs[i]->type;
		if (u->rank != t->rank || memcmp(u->shape, t->shape, sizeof(int) * (size_t)t->rank)) {
			b->error = "the inputs of a scan must have one shape";
			return NULL;
		}
	}
	TValue *v = append(b, TOP_SCAN, *t, n, inputs);
	v->aux = axis;
	v->aux2 = reverse;
	v->iconst = -1;
	v->body = block_new(b, 2 * n);
	for (int i = 0; i < 2 * n; i++)
		param_new(b, v->body, i, scalar_type(inputs[i % n]->type.dtype));
	return v;
}

/* The type of x without dim `axis`. */
static Type reduced_type(Type t, int axis)
{
	memmove(t.shape + axis, t.shape + axis + 1, sizeof(int) * (size_t)(t.rank - axis - 1));
	t.rank--;
	return t;
}

TValue *tir_reduce_combine(TBuilder *b, int n, TValue **inputs, int axis)
{
	TValue *v = tir_scan(b, n, inputs, axis, false);
	if (!v)
		return NULL;
	v->op = TOP_REDUCE;
	b->kernel->ops |= (uint64_t)1 << TOP_REDUCE;
	v->type = reduced_type(v->type, v->aux);
	v->aux2 = v->aux;
	v->aux = RED_COMBINE;
	return v;
}

TValue *tir_for(TBuilder *b, TValue *lower, TValue *upper, TValue *step, int n, TValue **init)
{
	TValue **args = base_calloc((size_t)n + 3, sizeof *args);
	args[0] = lower;
	args[1] = upper;
	args[2] = step;
	memcpy(args + 3, init, sizeof *args * (size_t)n);
	Type none = {.dtype = DT_I1};
	TValue *v = append(b, TOP_FOR, none, n + 3, args);
	free(args);
	v->body = block_new(b, n + 1);
	param_new(b, v->body, 0, lower->type);
	for (int i = 0; i < n; i++)
		param_new(b, v->body, i + 1, init[i]->type);
	return v;
}

TValue *tir_while(TBuilder *b, int n, TValue **init)
{
	Type none = {.dtype = DT_I1};
	TValue *v = append(b, TOP_WHILE, none, n, init);
	v->body = block_new(b, n);
	for (int i = 0; i < n; i++)
		param_new(b, v->body, i, init[i]->type);
	return v;
}

TValue *tir_condition(TBuilder *b, TValue *cond)
{
	Type none = {.dtype = DT_I1};
	return append(b, TOP_CONDITION, none, 1, &cond);
}

TValue *tir_if(TBuilder *b, TValue *cond)
{
	Type none = {.dtype = DT_I1};
	TValue *v = append(b, TOP_IF, none, 1, &cond);
	v->body = block_new(b, 0);
	v->orelse = block_new(b, 0);
	return v;
}

TValue *tir_yield(TBuilder *b, int n, TValue **values)
{
	Type none = {.dtype = DT_I1};
	return append(b, TOP_YIELD, none, n, values);
}

void tir_results(TBuilder *b, TValue *op, TValue **out)
{
	if (op->op == TOP_SCAN || op->op == TOP_REDUCE) {
		if (out)
			out[0] = op;
		for (int i = 1; i < op->nargs; i++) {
			Type t = op->op == TOP_SCAN ? op->args[i]->type : reduced_type(op->args[i]->type, op->aux2);
			TValue *r = append(b, TOP_RESULT, t, 1, &op);
			r->aux = i;
			if (out)
				out[i] = r;
		}
		return;
	}
	const TValue *y = op->body->last;
	for (int i = 0; y && y->op == TOP_YIELD && i < y->nargs; i++) {
		TValue *r = append(b, TOP_RESULT, y->args[i]->type, 1, &op);
		r->aux = i;
		if (out)
			out[i] = r;
	}
}

int tir_combine_kind(const TBlock *body)
{
	const TValue *op = body->first, *y = op ? op->next : NULL;
	if (body->nparams != 2 || !op || !y || y->op != TOP_YIELD || y->nargs != 1 || y->args[0] != op || y->next || op->nargs != 2)
		return -1;
	bool params = (op->args[0] == body->params[0] && op->args[1] == body->params[1]) ||
		      (op->args[0] == body->params[1] && op->args[1] == body->params[0]);
	if (!params)
		return -1;
	switch (op->op) {
	case TOP_ADD: return RED_SUM;
	case TOP_MUL: return RED_PROD;
	case TOP_MAXIMUM: return RED_MAX;
	case TOP_MINIMUM: return RED_MIN;
	default: return -1;
	}
}

void tir_truncate(TBuilder *b, TValue *last)
{
	b->block->last = last;
	if (last)
		last->next = NULL;
	else
		b->block->first = NULL;
}

static int block_ids(const TBlock *blk)
{
	int n = 0;
	for (int i = 0; blk && i < blk->nparams; i++)
		n = imax(n, blk->params[i]->id + 1);
	for (const TValue *v = blk ? blk->first : NULL; v; v = v->next) {
		n = imax(n, v->id + 1);
		n = imax(n, block_ids(v->body));
		n = imax(n, block_ids(v->orelse));
	}
	return n;
}

int tir_value_count(const TKernel *k)
{
	return block_ids(k->body);
}
