/* interp.c: the tile-level interpreter, the oracle every backend is
 * checked against.
 *
 * Simple and slow on purpose: each op computes its whole tile, element by
 * element, in row-major order. Floats are held as doubles rounded to their
 * dtype after every op; integers, bools and pointers as int64 (pointers are
 * addresses). Reductions accumulate in double and round once. */
#include "ir/tir.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct Tile {
	int n;
	double *f;      /* float dtypes */
	int64_t *i;     /* everything else */
} Tile;

typedef struct Interp {
	TKernel *k;
	Tile *tiles;    /* by value id */
	int pid[3];
	int grid[3];
	const TArgValue *args;
	char *err;
	size_t errlen;
	jmp_buf fail;
} Interp;

TC_NORETURN static void fail(Interp *in, TValue *v, const char *msg)
{
	snprintf(in->err, in->errlen, "line %d: %s", v ? v->line : 0, msg);
	longjmp(in->fail, 1);
}

static int numel(const Type *t)
{
	int n = 1;
	for (int d = 0; d < t->rank; d++)
		n *= t->shape[d];
	return n;
}

static double round_to(DType dt, double x)
{
	switch (dt) {
	case DT_F32: return (float)x;
	case DT_F16: return fp16_to_float(fp16_from_float((float)x));
	case DT_BF16: return bf16_to_float(bf16_from_float((float)x));
	default: return x;
	}
}

static int64_t wrap_int(DType dt, int64_t x)
{
	switch (dt) {
	case DT_I1: return x != 0;
	case DT_I8: return (int8_t)x;
	case DT_I16: return (int16_t)x;
	case DT_I32: return (int32_t)x;
	case DT_U8: return (uint8_t)x;
	case DT_U32: return (uint32_t)x;
	default: return x;
	}
}

static Tile *tile_new(Interp *in, TValue *v)
{
	Tile *t = &in->tiles[v->id];
	free(t->f);
	free(t->i);
	t->n = numel(&v->type);
	t->f = NULL;
	t->i = NULL;
	if (dtype_is_float(v->type.dtype))
		t->f = xcalloc((size_t)t->n, sizeof *t->f);
	else
		t->i = xcalloc((size_t)t->n, sizeof *t->i);
	return t;
}

static double getf(const Tile *t, int k)
{
	return t->f ? t->f[k] : (double)t->i[k];
}

/* The integer view of an element. Float tiles are read this way only where
 * the result is then dropped (both views are passed to put), so out-of-range
 * values just need a defined answer. */
static int64_t geti(const Tile *t, int k)
{
	if (t->i)
		return t->i[k];
	double f = t->f[k];
	if (!(f > -9.2e18 && f < 9.2e18))
		return 0;
	return (int64_t)f;
}

static void put(Tile *t, DType dt, int k, double f, int64_t i)
{
	if (t->f)
		t->f[k] = round_to(dt, f);
	else
		t->i[k] = wrap_int(dt, i);
}

/* Flat index in a source of shape `from` (same rank, dims of 1 broadcast)
 * for flat index `k` in `to`. */
static int broadcast_index(const Type *from, const Type *to, int k)
{
	int idx = 0, stride = 1;
	for (int d = to->rank - 1; d >= 0; d--) {
		int c = k % to->shape[d];
		k /= to->shape[d];
		if (from->shape[d] != 1)
			idx += c * stride;
		stride *= from->shape[d];
	}
	return idx;
}

static double math_fn(int fn, double x)
{
	switch (fn) {
	case MATH_EXP: return exp(x);
	case MATH_EXP2: return exp2(x);
	case MATH_LOG: return log(x);
	case MATH_LOG2: return log2(x);
	case MATH_LOG1P: return log1p(x);
	case MATH_SQRT: return sqrt(x);
	case MATH_RSQRT: return 1.0 / sqrt(x);
	case MATH_ABS: return fabs(x);
	case MATH_SIN: return sin(x);
	case MATH_COS: return cos(x);
	case MATH_TANH: return tanh(x);
	case MATH_ERF: return erf(x);
	case MATH_FLOOR: return floor(x);
	case MATH_CEIL: return ceil(x);
	case MATH_SIGMOID: return 1.0 / (1.0 + exp(-x));
	}
	return NAN;
}

static bool compare(int k, double a, double b)
{
	switch (k) {
	case CMP_LT: return a < b;
	case CMP_LE: return a <= b;
	case CMP_GT: return a > b;
	case CMP_GE: return a >= b;
	case CMP_EQ: return a == b;
	default: return a != b;
	}
}

static bool compare_int(int k, int64_t a, int64_t b, bool is_unsigned)
{
	if (is_unsigned) {
		uint64_t x = (uint64_t)a, y = (uint64_t)b;
		return k == CMP_LT ? x < y : k == CMP_LE ? x <= y : k == CMP_GT ? x > y :
		       k == CMP_GE ? x >= y : k == CMP_EQ ? x == y : x != y;
	}
	return k == CMP_LT ? a < b : k == CMP_LE ? a <= b : k == CMP_GT ? a > b :
	       k == CMP_GE ? a >= b : k == CMP_EQ ? a == b : a != b;
}

/* NaN propagates through maximum and minimum, as Triton's default does. */
static double fmax_nan(double a, double b) { return isnan(a) || isnan(b) ? NAN : a > b ? a : b; }
static double fmin_nan(double a, double b) { return isnan(a) || isnan(b) ? NAN : a < b ? a : b; }

static void eval_binary(Interp *in, TValue *v, Tile *out)
{
	Tile *a = &in->tiles[v->args[0]->id], *b = &in->tiles[v->args[1]->id];
	DType dt = v->type.dtype;
	for (int k = 0; k < out->n; k++) {
		if (out->f) {
			double x = a->f[k], y = b->f[k], r = 0;
			switch (v->op) {
			case TOP_ADD: r = x + y; break;
			case TOP_SUB: r = x - y; break;
			case TOP_MUL: r = x * y; break;
			case TOP_DIV: r = x / y; break;
			case TOP_FMOD: r = fmod(x, y); break;
			case TOP_MAXIMUM: r = fmax_nan(x, y); break;
			case TOP_MINIMUM: r = fmin_nan(x, y); break;
			default: fail(in, v, "operator not defined on floats");
			}
			out->f[k] = round_to(dt, r);
			continue;
		}
		int64_t x = a->i[k], y = b->i[k], r = 0;
		bool u = !dtype_is_signed(dt);
		switch (v->op) {
		case TOP_ADD: r = (int64_t)((uint64_t)x + (uint64_t)y); break;
		case TOP_SUB: r = (int64_t)((uint64_t)x - (uint64_t)y); break;
		case TOP_MUL: r = (int64_t)((uint64_t)x * (uint64_t)y); break;
		case TOP_IDIV:
		case TOP_MOD:
			if (y == 0)
				fail(in, v, "integer division by zero");
			if (u)
				r = (int64_t)(v->op == TOP_IDIV ? (uint64_t)x / (uint64_t)y : (uint64_t)x % (uint64_t)y);
			else if (x == INT64_MIN && y == -1)
				r = v->op == TOP_IDIV ? x : 0;
			else
				r = v->op == TOP_IDIV ? x / y : x % y; /* C: toward zero, sign of the dividend */
			break;
		case TOP_AND: r = x & y; break;
		case TOP_OR: r = x | y; break;
		case TOP_XOR: r = x ^ y; break;
		case TOP_SHL: r = (int64_t)((uint64_t)x << (y & 63)); break;
		case TOP_SHR: r = u ? (int64_t)((uint64_t)x >> (y & 63)) : x >> (y & 63); break;
		case TOP_MAXIMUM: r = compare_int(CMP_GT, x, y, u) ? x : y; break;
		case TOP_MINIMUM: r = compare_int(CMP_LT, x, y, u) ? x : y; break;
		default: fail(in, v, "operator not defined on integers");
		}
		out->i[k] = wrap_int(dt, r);
	}
}

static double load_elem(DType dt, const void *p)
{
	switch (dt) {
	case DT_F32: { float f; memcpy(&f, p, 4); return f; }
	case DT_F64: { double f; memcpy(&f, p, 8); return f; }
	case DT_F16: { uint16_t h; memcpy(&h, p, 2); return fp16_to_float(h); }
	case DT_BF16: { uint16_t h; memcpy(&h, p, 2); return bf16_to_float(h); }
	default: return 0;
	}
}

static int64_t load_int(DType dt, const void *p)
{
	switch (dt) {
	case DT_I1: case DT_I8: return *(const int8_t *)p;
	case DT_U8: return *(const uint8_t *)p;
	case DT_I16: { int16_t x; memcpy(&x, p, 2); return x; }
	case DT_I32: { int32_t x; memcpy(&x, p, 4); return x; }
	case DT_U32: { uint32_t x; memcpy(&x, p, 4); return x; }
	default: { int64_t x; memcpy(&x, p, 8); return x; }
	}
}

static void store_elem(DType dt, void *p, double f, int64_t i)
{
	switch (dt) {
	case DT_F32: { float x = (float)f; memcpy(p, &x, 4); break; }
	case DT_F64: memcpy(p, &f, 8); break;
	case DT_F16: { uint16_t h = fp16_from_float((float)f); memcpy(p, &h, 2); break; }
	case DT_BF16: { uint16_t h = bf16_from_float((float)f); memcpy(p, &h, 2); break; }
	default: memcpy(p, &i, (size_t)dtype_bytes(dt)); break;
	}
}

static void eval_reduce(Interp *in, TValue *v, Tile *out)
{
	TValue *x = v->args[0];
	Tile *src = &in->tiles[x->id];
	int axis = v->aux2, len = x->type.shape[axis], inner = 1;
	for (int d = axis + 1; d < x->type.rank; d++)
		inner *= x->type.shape[d];
	for (int k = 0; k < out->n; k++) {
		int outer = k / inner, rest = k % inner, base = outer * len * inner + rest;
		double acc = getf(src, base);
		int64_t iacc = geti(src, base);
		for (int j = 1; j < len; j++) {
			double f = getf(src, base + j * inner);
			int64_t i = geti(src, base + j * inner);
			switch (v->aux) {
			case RED_SUM: acc += f; iacc += i; break;
			case RED_PROD: acc *= f; iacc *= i; break;
			case RED_MAX: acc = fmax_nan(acc, f); iacc = i > iacc ? i : iacc; break;
			case RED_MIN: acc = fmin_nan(acc, f); iacc = i < iacc ? i : iacc; break;
			default: fail(in, v, "this reduction is not supported by the interpreter yet");
			}
		}
		put(out, v->type.dtype, k, acc, iacc);
	}
}

static void eval(Interp *in, TValue *v)
{
	Tile *out = tile_new(in, v);
	DType dt = v->type.dtype;
	Tile *a = v->nargs > 0 ? &in->tiles[v->args[0]->id] : NULL;
	switch (v->op) {
	case TOP_ARG: {
		const TArgValue *arg = &in->args[v->iconst];
		if (dt == DT_PTR)
			out->i[0] = (int64_t)(intptr_t)arg->ptr;
		else
			put(out, dt, 0, arg->f, arg->i);
		break;
	}
	case TOP_CONST:
		put(out, dt, 0, v->fconst, v->iconst);
		break;
	case TOP_PROGRAM_ID:
		out->i[0] = in->pid[v->aux];
		break;
	case TOP_NUM_PROGRAMS:
		out->i[0] = in->grid[v->aux];
		break;
	case TOP_ARANGE:
		for (int k = 0; k < out->n; k++)
			out->i[k] = v->iconst + k;
		break;
	case TOP_SPLAT:
	case TOP_BROADCAST:
		for (int k = 0; k < out->n; k++) {
			int s = v->op == TOP_SPLAT ? 0 : broadcast_index(&v->args[0]->type, &v->type, k);
			if (out->f)
				out->f[k] = a->f[s];
			else
				out->i[k] = a->i[s];
		}
		break;
	case TOP_EXPAND:
	case TOP_RESHAPE:
		for (int k = 0; k < out->n; k++)
			put(out, dt, k, getf(a, k), geti(a, k));
		break;
	case TOP_CAST:
		for (int k = 0; k < out->n; k++) {
			double f = getf(a, k);
			if (!out->f && a->f && (isnan(f) || fabs(f) >= 9.2e18))
				fail(in, v, "float to integer conversion out of range");
			put(out, dt, k, f, a->f ? (int64_t)f : a->i[k]);
		}
		break;
	case TOP_NEG:
		for (int k = 0; k < out->n; k++)
			put(out, dt, k, -getf(a, k), (int64_t)(0 - (uint64_t)geti(a, k)));
		break;
	case TOP_NOT:
		for (int k = 0; k < out->n; k++)
			out->i[k] = wrap_int(dt, ~a->i[k]);
		break;
	case TOP_ADD: case TOP_SUB: case TOP_MUL: case TOP_DIV: case TOP_IDIV: case TOP_MOD:
	case TOP_FMOD: case TOP_AND: case TOP_OR: case TOP_XOR: case TOP_SHL: case TOP_SHR:
	case TOP_MAXIMUM: case TOP_MINIMUM:
		eval_binary(in, v, out);
		break;
	case TOP_CMP: {
		Tile *b = &in->tiles[v->args[1]->id];
		DType ot = v->args[0]->type.dtype;
		for (int k = 0; k < out->n; k++)
			out->i[k] = dtype_is_float(ot) ? compare(v->aux, a->f[k], b->f[k])
			                               : compare_int(v->aux, a->i[k], b->i[k], !dtype_is_signed(ot));
		break;
	}
	case TOP_WHERE: {
		Tile *x = &in->tiles[v->args[1]->id], *y = &in->tiles[v->args[2]->id];
		for (int k = 0; k < out->n; k++) {
			Tile *s = a->i[k] ? x : y;
			put(out, dt, k, getf(s, k), geti(s, k));
		}
		break;
	}
	case TOP_MATH:
		for (int k = 0; k < out->n; k++)
			put(out, dt, k, math_fn(v->aux, getf(a, k)), v->aux == MATH_ABS ? llabs(geti(a, k)) : 0);
		break;
	case TOP_PTR_ADD: {
		Tile *off = &in->tiles[v->args[1]->id];
		int size = dtype_bytes(v->type.elem);
		for (int k = 0; k < out->n; k++)
			out->i[k] = a->i[k] + off->i[k] * size;
		break;
	}
	case TOP_LOAD: {
		Tile *mask = v->nargs > 1 ? &in->tiles[v->args[1]->id] : NULL;
		Tile *other = v->nargs > 2 ? &in->tiles[v->args[2]->id] : NULL;
		for (int k = 0; k < out->n; k++) {
			if (mask && !mask->i[k]) {
				put(out, dt, k, other ? getf(other, k) : 0, other ? geti(other, k) : 0);
				continue;
			}
			const void *p = (const void *)(intptr_t)a->i[k];
			if (out->f)
				out->f[k] = load_elem(dt, p);
			else
				out->i[k] = load_int(dt, p);
		}
		break;
	}
	case TOP_STORE: {
		Tile *val = &in->tiles[v->args[1]->id];
		Tile *mask = v->nargs > 2 ? &in->tiles[v->args[2]->id] : NULL;
		DType et = v->args[0]->type.elem;
		for (int k = 0; k < numel(&v->args[0]->type); k++) {
			if (mask && !mask->i[k])
				continue;
			store_elem(et, (void *)(intptr_t)a->i[k], getf(val, k), geti(val, k));
		}
		break;
	}
	case TOP_REDUCE:
		eval_reduce(in, v, out);
		break;
	default:
		fail(in, v, "operation not supported by the interpreter yet");
	}
}

static void run_block(Interp *in, TBlock *b)
{
	for (TValue *v = b->first; v; v = v->next)
		eval(in, v);
}

int tir_interpret_range(TKernel *k, const TArgValue *args, const int grid[3], int64_t first, int64_t count,
			char *err, size_t errlen)
{
	volatile int ids = 0;
	for (TValue *v = k->body->first; v; v = v->next)
		ids = imax(ids, v->id + 1);
	Interp in = {.k = k, .args = args, .err = err, .errlen = errlen};
	in.tiles = xcalloc((size_t)ids + 1, sizeof *in.tiles);
	memcpy(in.grid, grid, sizeof in.grid);
	volatile int status = 0;
	if (setjmp(in.fail) == 0) {
		for (int64_t p = first; p < first + count; p++) {
			in.pid[0] = (int)(p % grid[0]);
			in.pid[1] = (int)(p / grid[0] % grid[1]);
			in.pid[2] = (int)(p / grid[0] / grid[1]);
			run_block(&in, k->body);
		}
	} else {
		status = -1;
	}
	for (int i = 0; i <= ids; i++) {
		free(in.tiles[i].f);
		free(in.tiles[i].i);
	}
	free(in.tiles);
	return status;
}

int tir_interpret(TKernel *k, const TArgValue *args, const int grid[3], char *err, size_t errlen)
{
	int64_t total = (int64_t)grid[0] * grid[1] * grid[2];
	return tir_interpret_range(k, args, grid, 0, total, err, errlen);
}
