/* interp.c: the tile-level interpreter, the oracle every backend is
 * checked against.
 *
 * Simple and slow on purpose: each op computes its whole tile, element by
 * element, in row-major order. Floats are held as doubles rounded to their
 * dtype after every op; integers, bools and pointers as int64 (pointers are
 * addresses; u64 as its bits). Reductions, scans with a plain add/mul/max/
 * min and dot products accumulate in double and round once per result.
 * Blocks (loop bodies, if branches, scan combines) run with the same
 * machinery: every value, block parameters included, has one tile by id,
 * overwritten each time its op runs again. */
#include "ir/tir.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
	uint64_t writes;   /* stores and atomics that changed memory so far */
	double deadline;   /* CLOCK_MONOTONIC seconds; 0: none */
	Tile **loops;      /* each running loop's next values, freed here after a jump out of it */
	int nloops, loops_cap;
	char *err;
	size_t errlen;
	jmp_buf fail;
} Interp;

TC_NORETURN static void fail(Interp *in, TValue *v, const char *msg)
{
	snprintf(in->err, in->errlen, "line %d: %s", v ? v->line : 0, msg);
	longjmp(in->fail, 1);
}

static double clock_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Stops the run (longjmp, status 2) when it is past its deadline; every
 * loop iteration asks, since only loops can run for long. */
static void check_deadline(Interp *in)
{
	if (in->deadline > 0 && clock_seconds() > in->deadline) {
		snprintf(in->err, in->errlen, "did not finish in its time limit");
		longjmp(in->fail, 2);
	}
}

/* A loop's array of next values (n of them), known to the run until
 * loop_end, so that a jump out of the loop (an error, the deadline) does
 * not leak it. */
static Tile *loop_begin(Interp *in, int n)
{
	if (in->nloops == in->loops_cap) {
		in->loops_cap = in->loops_cap ? 2 * in->loops_cap : 8;
		in->loops = base_realloc(in->loops, sizeof *in->loops * (size_t)in->loops_cap);
	}
	return in->loops[in->nloops++] = base_calloc((size_t)n + 1, sizeof(Tile));
}

static void loop_end(Interp *in)
{
	free(in->loops[--in->nloops]);
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
	case DT_F16: return dtype_fp16_to_float(dtype_fp16_from_float((float)x));
	case DT_BF16: return dtype_bf16_to_float(dtype_bf16_from_float((float)x));
	default: return dtype_is_fp8(dt) ? dtype_fp8_round(dt, (float)x) : x;
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
	case DT_U16: return (uint16_t)x;
	case DT_U32: return (uint32_t)x;
	default: return x;
	}
}

static Tile *tile_new(Interp *in, TValue *v)
{
	Tile *t = &in->tiles[v->id];
	bool is_float = dtype_is_float(v->type.dtype);
	if (t->n == numel(&v->type) && (is_float ? t->f != NULL : t->i != NULL)) {
		/* run again (a loop body, another program): reuse, zeroed */
		if (is_float)
			memset(t->f, 0, sizeof *t->f * (size_t)t->n);
		else
			memset(t->i, 0, sizeof *t->i * (size_t)t->n);
		return t;
	}
	free(t->f);
	free(t->i);
	t->n = numel(&v->type);
	t->f = NULL;
	t->i = NULL;
	if (dtype_is_float(v->type.dtype))
		t->f = base_calloc((size_t)t->n, sizeof *t->f);
	else
		t->i = base_calloc((size_t)t->n, sizeof *t->i);
	return t;
}

static void spec_eval(Interp *in, TValue *v);

static void run_block(Interp *in, TBlock *b)
{
	for (TValue *v = b->first; v; v = v->next)
		spec_eval(in, v);
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

/* The operand element that element k of a transpose reads: walk the
 * result's coordinates and step along the operand dim each one is. */
static int trans_index(const TValue *v, int k)
{
	const Type *from = &v->args[0]->type, *to = &v->type;
	int stride[TC_MAX_RANK], idx = 0;
	for (int d = from->rank - 1, s = 1; d >= 0; d--) {
		stride[d] = s;
		s *= from->shape[d];
	}
	for (int i = to->rank - 1; i >= 0; i--) {
		idx += k % to->shape[i] * stride[v->perm[i]];
		k /= to->shape[i];
	}
	return idx;
}

/* tl.gather: each element of the index's shape reads the source at its
 * own coordinates but the axis's, which the index gives. */
static void eval_gather(Interp *in, TValue *v, Tile *out)
{
	const Type *st = &v->args[0]->type, *it = &v->type;
	const Tile *src = &in->tiles[v->args[0]->id], *ix = &in->tiles[v->args[1]->id];
	int axis = v->aux;
	for (int k = 0; k < out->n; k++) {
		int rest = k, at = 0, stride = 1;
		for (int d = it->rank - 1; d >= 0; d--) {
			int c = rest % it->shape[d];
			rest /= it->shape[d];
			if (d == axis) {
				int64_t j = ix->i[k];
				if (j < 0 || j >= st->shape[d])
					fail(in, v, "tl.gather: an index outside the source");
				c = (int)j;
			}
			at += c * stride;
			stride *= st->shape[d];
		}
		put(out, v->type.dtype, k, getf(src, at), geti(src, at));
	}
}

/* One element's line of tl.device_print: `f` (tir_print_format's) has
 * conversions for the three pids, the element's indices (`rank` of them)
 * and the value. Printed into a Buf, so a message of any length fits. */
static void print_element(Buf *line, const char *f, const int pid[3], const int *idx, int rank, const Tile *t, int k,
			  DType dt)
{
	line->len = 0;
	buf_printf(line, "pid (%d, %d, %d)", pid[0], pid[1], pid[2]);
	const char *p = strchr(f, ')') + 1;      /* past "pid (...)" */
	for (int d = 0; d < rank; d++) {
		const char *c = strchr(p, '%'), *e = c + 1;
		while (*e >= '0' && *e <= '9')
			e++;
		char one[64];   /* ", %Nd" or " idx (%Nd": the message comes after the indices */
		snprintf(one, sizeof one, "%.*s", (int)(e + 1 - p), p);
		buf_printf(line, one, idx[d]);
		p = e + 1;
	}
	if (dtype_is_float(dt))
		buf_printf(line, p, getf(t, k));
	else if (dt == DT_PTR)
		buf_printf(line, p, (void *)(uintptr_t)geti(t, k));
	else if (strstr(p, "ll"))
		buf_printf(line, p, (long long)geti(t, k));
	else
		buf_printf(line, p, (int)geti(t, k));
}

/* tl.device_print: every element of every value, in row-major order. */
static void eval_print(Interp *in, TValue *v)
{
	if (v->nargs == 0) {
		char *f = tir_print_format(v, 0);
		printf(f, in->pid[0], in->pid[1], in->pid[2]);
		free(f);
	}
	Buf line = {0};
	for (int i = 0; i < v->nargs; i++) {
		const TValue *x = v->args[i];
		const Tile *t = &in->tiles[x->id];
		char *f = tir_print_format(v, i);
		for (int k = 0; k < t->n; k++) {
			int idx[TC_MAX_RANK] = {0}, rest = k;
			for (int d = x->type.rank - 1; d >= 0; d--) {
				idx[d] = rest % x->type.shape[d];
				rest /= x->type.shape[d];
			}
			print_element(&line, f, in->pid, idx, x->type.rank, t, k, x->type.dtype);
			fwrite(buf_str(&line), 1, line.len, stdout);
		}
		free(f);
	}
	buf_free(&line);
	fflush(stdout);
}

/* The inverse error function, which C's libm lacks: Giles' single-precision
 * approximation ("Approximating the erfinv function", GPU Computing Gems,
 * 2011), then two Newton steps on erf(y) = x in double. */
static double erfinv(double x)
{
	if (isnan(x) || fabs(x) > 1)
		return NAN;
	if (fabs(x) == 1)
		return copysign(INFINITY, x);
	double w = -log((1 - x) * (1 + x)), p;
	if (w < 5) {
		w -= 2.5;
		p = 2.81022636e-08;
		p = 3.43273939e-07 + p * w;
		p = -3.5233877e-06 + p * w;
		p = -4.39150654e-06 + p * w;
		p = 0.00021858087 + p * w;
		p = -0.00125372503 + p * w;
		p = -0.00417768164 + p * w;
		p = 0.246640727 + p * w;
		p = 1.50140941 + p * w;
	} else {
		w = sqrt(w) - 3;
		p = -0.000200214257;
		p = 0.000100950558 + p * w;
		p = 0.00134934322 + p * w;
		p = -0.00367342844 + p * w;
		p = 0.00573950773 + p * w;
		p = -0.0076224613 + p * w;
		p = 0.00943887047 + p * w;
		p = 1.00167406 + p * w;
		p = 2.83297682 + p * w;
	}
	double y = p * x;
	for (int i = 0; i < 2; i++)
		y -= (erf(y) - x) / (1.1283791670955126 * exp(-y * y));   /* erf'(y) = 2/sqrt(pi) e^(-y^2) */
	return y;
}

/* A float-valued math function of the operands x[0..2] of dtype dt, in
 * double. nextafter and fma depend on the precision they run in: fp32's
 * for fp32, fp16 and bf16, as the printed code computes them. */
static double math_fn(int fn, DType dt, const double *x)
{
	bool single = dt != DT_F64;
	switch ((MathFn)fn) {
	case MATH_EXP: return exp(x[0]);
	case MATH_EXP2: return exp2(x[0]);
	case MATH_LOG: return log(x[0]);
	case MATH_LOG2: return log2(x[0]);
	case MATH_LOG1P: return log1p(x[0]);
	case MATH_SQRT: return sqrt(x[0]);
	case MATH_RSQRT: return 1.0 / sqrt(x[0]);
	case MATH_ABS: return fabs(x[0]);
	case MATH_SIN: return sin(x[0]);
	case MATH_COS: return cos(x[0]);
	case MATH_TANH: return tanh(x[0]);
	case MATH_ERF: return erf(x[0]);
	case MATH_FLOOR: return floor(x[0]);
	case MATH_CEIL: return ceil(x[0]);
	case MATH_SIGMOID: return 1.0 / (1.0 + exp(-x[0]));
	case MATH_EXPM1: return expm1(x[0]);
	case MATH_LOG10: return log10(x[0]);
	case MATH_TAN: return tan(x[0]);
	case MATH_ASIN: return asin(x[0]);
	case MATH_ACOS: return acos(x[0]);
	case MATH_ATAN: return atan(x[0]);
	case MATH_SINH: return sinh(x[0]);
	case MATH_COSH: return cosh(x[0]);
	case MATH_ASINH: return asinh(x[0]);
	case MATH_ACOSH: return acosh(x[0]);
	case MATH_ATANH: return atanh(x[0]);
	case MATH_ERFC: return erfc(x[0]);
	case MATH_ERFINV: return erfinv(x[0]);
	case MATH_LGAMMA: return lgamma(x[0]);
	case MATH_CBRT: return cbrt(x[0]);
	case MATH_TRUNC: return trunc(x[0]);
	case MATH_RINT: return nearbyint(x[0]);   /* the default rounding: ties to even */
	case MATH_ROUND: return round(x[0]);
	case MATH_POW: return pow(x[0], x[1]);
	case MATH_ATAN2: return atan2(x[0], x[1]);
	case MATH_HYPOT: return hypot(x[0], x[1]);
	case MATH_COPYSIGN: return copysign(x[0], x[1]);
	case MATH_NEXTAFTER: return single ? nextafterf((float)x[0], (float)x[1]) : nextafter(x[0], x[1]);
	case MATH_LDEXP: return ldexp(x[0], (int)fmax(fmin(x[1], 1 << 20), -(1 << 20)));
	case MATH_FMA: return single ? fmaf((float)x[0], (float)x[1], (float)x[2]) : fma(x[0], x[1], x[2]);
	case MATH_SIGNBIT: case MATH_ILOGB: case MATH_ISNAN: case MATH_ISINF: case MATH_ISFINITE:
		break;   /* integer-valued: math_int */
	}
	return NAN;
}

/* An integer-valued math function of a float x. */
static int64_t math_int(int fn, double x)
{
	switch (fn) {
	case MATH_SIGNBIT: return signbit(x) != 0;
	case MATH_ISNAN: return isnan(x) != 0;
	case MATH_ISINF: return isinf(x) != 0;   /* glibc's is -1 for -inf */
	case MATH_ISFINITE: return isfinite(x) != 0;
	case MATH_ILOGB: return x == 0 || isnan(x) ? INT32_MIN : isinf(x) ? INT32_MAX : ilogb(x);
	}
	return 0;
}

static void eval_math(Interp *in, TValue *v, Tile *out)
{
	DType dt = v->type.dtype, xt = v->args[0]->type.dtype;
	for (int k = 0; k < out->n; k++) {
		double x[3] = {0};
		for (int i = 0; i < v->nargs; i++)
			x[i] = getf(&in->tiles[v->args[i]->id], k);
		if (!dtype_is_float(xt)) {                 /* abs of an integer; abs(INT_MIN) wraps to itself */
			int64_t i = in->tiles[v->args[0]->id].i[k];
			out->i[k] = wrap_int(dt, i < 0 ? (int64_t)(0 - (uint64_t)i) : i);
		} else if (!out->f) {
			out->i[k] = math_int(v->aux, x[0]);
		} else {
			out->f[k] = round_to(dt, math_fn(v->aux, xt, x));
		}
	}
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

static void spec_eval_binary(Interp *in, TValue *v, Tile *out)
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
			/* What an H200 computes under Triton 3.6 for the cases C leaves
			 * undefined, so that lanes masked off with `other=0` never
			 * fail: x // 0 is all ones (-1, or the largest unsigned value),
			 * x % 0 is x; INT_MIN // -1 wraps to INT_MIN, INT_MIN % -1 is
			 * 0. (For int64 the GPU gives 4294967295 for x // 0 with a
			 * small non-negative x, its 32-bit path; -1 is taken for
			 * every x here.) */
			if (y == 0)
				r = v->op == TOP_IDIV ? -1 : x;
			else if (u)
				r = (int64_t)(v->op == TOP_IDIV ? (uint64_t)x / (uint64_t)y : (uint64_t)x % (uint64_t)y);
			else if (x == INT64_MIN && y == -1)
				r = v->op == TOP_IDIV ? x : 0;
			else
				r = v->op == TOP_IDIV ? x / y : x % y; /* C: toward zero, sign of the dividend */
			break;
		case TOP_AND: r = x & y; break;
		case TOP_OR: r = x | y; break;
		case TOP_XOR: r = x ^ y; break;
		/* by the register width (32 bits, 64 for 64-bit types) or more, or a
		 * negative amount: what an H200 gives (<< and unsigned >> 0, signed >>
		 * the sign); the C target's tc_shl_i32 ... compute the same */
		case TOP_SHL:
			r = (uint64_t)y >= (uint64_t)(dtype_bytes(dt) > 4 ? 64 : 32) ? 0 : (int64_t)((uint64_t)x << y);
			break;
		case TOP_SHR:
			if ((uint64_t)y >= (uint64_t)(dtype_bytes(dt) > 4 ? 64 : 32))
				r = !u && x < 0 ? -1 : 0;
			else
				r = u ? (int64_t)((uint64_t)x >> y) : x >> y;
			break;
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
	case DT_F16: { uint16_t h; memcpy(&h, p, 2); return dtype_fp16_to_float(h); }
	case DT_BF16: { uint16_t h; memcpy(&h, p, 2); return dtype_bf16_to_float(h); }
	default: return dtype_is_fp8(dt) ? dtype_fp8_to_float(dt, *(const uint8_t *)p) : 0;
	}
}

static int64_t load_int(DType dt, const void *p)
{
	switch (dt) {
	case DT_I1: case DT_I8: return *(const int8_t *)p;
	case DT_U8: return *(const uint8_t *)p;
	case DT_I16: { int16_t x; memcpy(&x, p, 2); return x; }
	case DT_U16: { uint16_t x; memcpy(&x, p, 2); return x; }
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
	case DT_F16: { uint16_t h = dtype_fp16_from_float((float)f); memcpy(p, &h, 2); break; }
	case DT_BF16: { uint16_t h = dtype_bf16_from_float((float)f); memcpy(p, &h, 2); break; }
	default:
		if (dtype_is_fp8(dt))
			*(uint8_t *)p = dtype_fp8_from_float(dt, (float)f);
		else
			memcpy(p, &i, (size_t)dtype_bytes(dt));
		break;
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
			case RED_ANY: iacc = iacc || i; break;
			default: fail(in, v, "this reduction is not supported by the interpreter yet");
			}
		}
		put(out, v->type.dtype, k, acc, iacc);
	}
}

/* ---- tiles as whole values ---- */

static void tile_copy(Tile *dst, const Tile *src)
{
	for (int k = 0; k < dst->n; k++) {
		if (dst->f)
			dst->f[k] = getf(src, k);
		else
			dst->i[k] = geti(src, k);
	}
}

/* A private copy of a tile, for loop-carried values that must not alias. */
static Tile tile_clone(const Tile *src)
{
	Tile t = {.n = src->n};
	if (src->f) {
		t.f = base_malloc(sizeof *t.f * (size_t)src->n);
		memcpy(t.f, src->f, sizeof *t.f * (size_t)src->n);
	} else {
		t.i = base_malloc(sizeof *t.i * (size_t)src->n);
		memcpy(t.i, src->i, sizeof *t.i * (size_t)src->n);
	}
	return t;
}

static void tile_replace(Tile *dst, Tile src)
{
	free(dst->f);
	free(dst->i);
	*dst = src;
}

/* ---- bits ---- */

static uint64_t elem_bits(const Tile *t, DType dt, int k)
{
	switch (dt) {
	case DT_F32: { float f = (float)t->f[k]; uint32_t u; memcpy(&u, &f, 4); return u; }
	case DT_F64: { uint64_t u; memcpy(&u, &t->f[k], 8); return u; }
	case DT_F16: return dtype_fp16_from_float((float)t->f[k]);
	case DT_BF16: return dtype_bf16_from_float((float)t->f[k]);
	case DT_F8E4NV: case DT_F8E5: case DT_F8E4B15: case DT_F8E4B8: case DT_F8E5B16:
		return dtype_fp8_from_float(dt, (float)t->f[k]);
	default: {
		int bytes = dtype_bytes(dt);
		uint64_t u = (uint64_t)t->i[k];
		return bytes == 8 ? u : u & ((UINT64_C(1) << (8 * bytes)) - 1);
	}
	}
}

static void bits_to_elem(Tile *out, DType dt, int k, uint64_t u)
{
	switch (dt) {
	case DT_F32: { uint32_t w = (uint32_t)u; float f; memcpy(&f, &w, 4); out->f[k] = f; break; }
	case DT_F64: memcpy(&out->f[k], &u, 8); break;
	case DT_F16: out->f[k] = dtype_fp16_to_float((uint16_t)u); break;
	case DT_BF16: out->f[k] = dtype_bf16_to_float((uint16_t)u); break;
	case DT_F8E4NV: case DT_F8E5: case DT_F8E4B15: case DT_F8E4B8: case DT_F8E5B16:
		out->f[k] = dtype_fp8_to_float(dt, (uint8_t)u);
		break;
	default: out->i[k] = wrap_int(dt, (int64_t)u); break;
	}
}

/* ---- reductions and scans ---- */

/* Whether (a, ia) wins over (b, ib) in Inductor's maximum_with_index /
 * minimum_with_index: a NaN wins over a number, equal values (NaNs are
 * equal) go to the smaller index. */
static bool index_wins(bool is_max, bool is_float, bool is_unsigned, double fa, int64_t a, int64_t ia,
		       double fb, int64_t b, int64_t ib)
{
	if (is_float) {
		bool na = isnan(fa), nb = isnan(fb);
		if (na || nb)
			return na && nb ? ia < ib : na;
		if (fa == fb)
			return ia < ib;
		return is_max ? fa > fb : fa < fb;
	}
	if (a == b)
		return ia < ib;
	return compare_int(is_max ? CMP_GT : CMP_LT, a, b, is_unsigned);
}

static void eval_reduce_index(Interp *in, TValue *v, Tile *out)
{
	TValue *x = v->args[0];
	Tile *val = &in->tiles[x->id], *idx = &in->tiles[v->args[1]->id];
	DType vt = x->type.dtype;
	bool is_max = v->aux == RED_ARGMAX, fl = dtype_is_float(vt), uns = !fl && !dtype_is_signed(vt);
	int axis = v->aux2, len = x->type.shape[axis], inner = 1;
	for (int d = axis + 1; d < x->type.rank; d++)
		inner *= x->type.shape[d];
	for (int k = 0; k < out->n; k++) {
		int base = k / inner * len * inner + k % inner, best = base;
		for (int j = 1; j < len; j++) {
			int e = base + j * inner;
			if (index_wins(is_max, fl, uns, getf(val, e), geti(val, e), idx->i[e], getf(val, best),
				       geti(val, best), idx->i[best]))
				best = e;
		}
		out->i[k] = idx->i[best];
	}
}

/* One step of a scan whose combine is a plain ReduceKind, on doubles
 * (floats) or int64 (integers, wrapped by the caller). */
static void combine_kind(int kind, double *acc, int64_t *iacc, double f, int64_t i, bool is_unsigned)
{
	switch (kind) {
	case RED_SUM: *acc += f; *iacc = (int64_t)((uint64_t)*iacc + (uint64_t)i); break;
	case RED_PROD: *acc *= f; *iacc = (int64_t)((uint64_t)*iacc * (uint64_t)i); break;
	case RED_MAX: *acc = fmax_nan(*acc, f); *iacc = compare_int(CMP_GT, i, *iacc, is_unsigned) ? i : *iacc; break;
	default: *acc = fmin_nan(*acc, f); *iacc = compare_int(CMP_LT, i, *iacc, is_unsigned) ? i : *iacc; break;
	}
}

/* Result `which` of a scan (its value is result 0; TOP_RESULT k is result
 * k, computed again: the combine has no side effects). */
static void eval_scan(Interp *in, TValue *v, int which, Tile *out)
{
	int n = v->nargs;
	TValue *x = v->args[0];
	DType dt = v->args[which]->type.dtype;
	bool uns = !dtype_is_float(dt) && !dtype_is_signed(dt);
	int axis = v->aux, len = x->type.shape[axis], inner = 1;
	for (int d = axis + 1; d < x->type.rank; d++)
		inner *= x->type.shape[d];
	TBlock *fn = v->body;
	Tile *lhs[TIR_MAX_SCAN], *rhs[TIR_MAX_SCAN];
	for (int i = 0; i < n; i++) {
		lhs[i] = tile_new(in, fn->params[i]);
		rhs[i] = tile_new(in, fn->params[n + i]);
	}
	for (int line = 0; line < out->n / len; line++) {
		int base = line / inner * len * inner + line % inner;
		double acc[TIR_MAX_SCAN] = {0};
		int64_t iacc[TIR_MAX_SCAN] = {0};
		for (int j = 0; j < len; j++) {
			int e = base + (v->aux2 ? len - 1 - j : j) * inner;
			for (int i = 0; i < n; i++) {
				const Tile *src = &in->tiles[v->args[i]->id];
				double f = getf(src, e);
				int64_t k = geti(src, e);
				if (j == 0) {
					acc[i] = f;
					iacc[i] = k;
				} else if (v->iconst >= 0) {
					combine_kind((int)v->iconst, &acc[i], &iacc[i], f, k, uns);
				} else {
					put(lhs[i], v->args[i]->type.dtype, 0, acc[i], iacc[i]);
					put(rhs[i], v->args[i]->type.dtype, 0, f, k);
				}
			}
			if (j > 0 && v->iconst < 0) {
				run_block(in, fn);
				for (int i = 0; i < n; i++) {
					const Tile *r = &in->tiles[fn->last->args[i]->id];
					acc[i] = getf(r, 0);
					iacc[i] = geti(r, 0);
				}
			}
			put(out, dt, e, acc[which], iacc[which]);
		}
	}
}

/* Result `which` of a RED_COMBINE reduction: each row folded with the
 * combine from its first element, in order. */
static void eval_reduce_combine(Interp *in, TValue *v, int which, Tile *out)
{
	int n = v->nargs;
	TValue *x = v->args[0];
	int axis = v->aux2, len = x->type.shape[axis], inner = 1;
	for (int d = axis + 1; d < x->type.rank; d++)
		inner *= x->type.shape[d];
	TBlock *fn = v->body;
	Tile *lhs[TIR_MAX_SCAN], *rhs[TIR_MAX_SCAN];
	for (int i = 0; i < n; i++) {
		lhs[i] = tile_new(in, fn->params[i]);
		rhs[i] = tile_new(in, fn->params[n + i]);
	}
	for (int k = 0; k < out->n; k++) {
		int base = k / inner * len * inner + k % inner;
		for (int i = 0; i < n; i++) {
			const Tile *src = &in->tiles[v->args[i]->id];
			put(lhs[i], v->args[i]->type.dtype, 0, getf(src, base), geti(src, base));
		}
		for (int j = 1; j < len; j++) {
			for (int i = 0; i < n; i++) {
				const Tile *src = &in->tiles[v->args[i]->id];
				put(rhs[i], v->args[i]->type.dtype, 0, getf(src, base + j * inner), geti(src, base + j * inner));
			}
			run_block(in, fn);
			Tile next[TIR_MAX_SCAN];
			for (int i = 0; i < n; i++)
				next[i] = tile_clone(&in->tiles[fn->last->args[i]->id]);
			for (int i = 0; i < n; i++) {
				tile_copy(lhs[i], &next[i]);
				free(next[i].f);
				free(next[i].i);
			}
		}
		put(out, v->args[which]->type.dtype, k, getf(lhs[which], 0), geti(lhs[which], 0));
	}
}

/* fp32 to tf32 as Triton 3.6's tf32 dot does on Hopper: the low 13
 * mantissa bits are dropped (truncation toward zero), not rounded; read off
 * an H200 (0x3f801fff multiplies as 0x3f800000, 0x3f803000 as 0x3f802000). */
static double round_tf32(double x)
{
	float f = (float)x;
	uint32_t u;
	memcpy(&u, &f, 4);
	if ((u & 0x7f800000u) == 0x7f800000u)
		return x;                            /* inf and NaN stay */
	u &= ~0x1fffu;
	memcpy(&f, &u, 4);
	return f;
}

static void eval_dot(Interp *in, TValue *v, Tile *out)
{
	Tile *a = &in->tiles[v->args[0]->id], *b = &in->tiles[v->args[1]->id], *acc = &in->tiles[v->args[2]->id];
	int m = v->type.shape[0], n = v->type.shape[1], kk = v->args[0]->type.shape[1];
	bool tf32 = v->args[0]->type.dtype == DT_F32 && v->aux == DOT_TF32;
	for (int r = 0; r < m; r++) {
		for (int c = 0; c < n; c++) {
			double s = getf(acc, r * n + c);
			int64_t is = geti(acc, r * n + c);
			for (int k = 0; k < kk; k++) {
				double x = getf(a, r * kk + k), y = getf(b, k * n + c);
				if (tf32) {
					x = round_tf32(x);
					y = round_tf32(y);
				}
				s += x * y;
				is += geti(a, r * kk + k) * geti(b, k * n + c);
			}
			put(out, v->type.dtype, r * n + c, s, is);
		}
	}
}

/* ---- memory side effects ---- */

/* The value an atomic op leaves in memory, integers: `old` and `x` are
 * read as the dtype's signedness says. */
static int64_t atomic_int(AtomicOp op, DType dt, int64_t old, int64_t x)
{
	bool sig = dtype_is_signed(dt);
	bool less = sig ? x < old : (uint64_t)x < (uint64_t)old;
	switch (op) {
	case ATOM_ADD: return (int64_t)((uint64_t)old + (uint64_t)x);
	case ATOM_MAX: return less ? old : x;
	case ATOM_MIN: return less ? x : old;
	case ATOM_AND: return old & x;
	case ATOM_OR: return old | x;
	case ATOM_XOR: return old ^ x;
	default: return x;   /* ATOM_XCHG, and ATOM_CAS where it swaps */
	}
}

/* Each element in order: the old value, then the new one written. Counts
 * the elements whose memory changed (eval_while's progress). */
static void eval_atomic(Interp *in, TValue *v, Tile *out)
{
	AtomicOp op = (AtomicOp)v->iconst;
	Tile *ptr = &in->tiles[v->args[0]->id], *val = &in->tiles[v->args[op == ATOM_CAS ? 2 : 1]->id];
	Tile *cmp = op == ATOM_CAS ? &in->tiles[v->args[1]->id] : NULL;
	Tile *mask = op != ATOM_CAS && v->nargs > 2 ? &in->tiles[v->args[2]->id] : NULL;
	DType et = v->type.dtype;
	size_t size = (size_t)dtype_bytes(et);
	for (int k = 0; k < out->n; k++) {
		if (mask && !mask->i[k])
			continue;                                /* the result stays 0 */
		void *p = (void *)(intptr_t)ptr->i[k];
		unsigned char before[8];
		memcpy(before, p, size);
		if (out->f)
			out->f[k] = load_elem(et, p);
		else
			out->i[k] = load_int(et, p);
		bool swap = op != ATOM_CAS || elem_bits(out, et, k) == elem_bits(cmp, et, k);
		if (!swap)
			continue;
		if (out->f)
			store_elem(et, p, op == ATOM_ADD ? round_to(et, out->f[k] + val->f[k]) : val->f[k], 0);
		else
			store_elem(et, p, 0, wrap_int(et, atomic_int(op, et, out->i[k], val->i[k])));
		in->writes += memcmp(before, p, size) != 0;
	}
}

static void eval_assert(Interp *in, TValue *v)
{
	Tile *cond = &in->tiles[v->args[0]->id];
	Tile *mask = v->nargs > 1 ? &in->tiles[v->args[1]->id] : NULL;
	for (int k = 0; k < cond->n; k++) {
		if ((!mask || mask->i[k]) && !cond->i[k]) {
			char msg[512];
			snprintf(msg, sizeof msg, "program (%d, %d, %d): device assertion failed: %s", in->pid[0],
				 in->pid[1], in->pid[2], v->text ? v->text : "");
			fail(in, v, msg);
		}
	}
}

/* ---- random numbers ---- */

static uint32_t umulhi32(uint32_t a, uint32_t b)
{
	return (uint32_t)(((uint64_t)a * b) >> 32);
}

/* Triton's philox_impl (triton/language/random.py), Philox-4x32 (Salmon
 * et al., SC'11; Random123's philox4x32), all arithmetic mod 2^32. Each
 * round:
 *   c0' = umulhi(B, c2) ^ c1 ^ k0     c1' = B * c2
 *   c2' = umulhi(A, c0) ^ c3 ^ k1     c3' = A * c0
 *   k0 += 0x9E3779B9                  k1 += 0xBB67AE85
 * with A = 0xD2511F53, B = 0xCD9E8D57, 10 rounds by default. randint4x
 * starts from the key (seed mod 2^32, seed >> 32), the seed taken as u64
 * (sign-extended from a signed type), and the counter (offset, 0, 0, 0);
 * Triton 3.6 gives 64-bit offsets the counter (offset mod 2^32,
 * offset >> 32, 0, 0) and still returns u32 words (both read off an H200). */
static uint32_t philox32(uint64_t seed, uint64_t offset, int rounds, int word)
{
	uint32_t c[4] = {(uint32_t)offset, (uint32_t)(offset >> 32), 0, 0};
	uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
	for (int r = 0; r < rounds; r++) {
		uint32_t c0 = c[0], c2 = c[2];
		c[0] = umulhi32(0xCD9E8D57u, c2) ^ c[1] ^ k0;
		c[2] = umulhi32(0xD2511F53u, c0) ^ c[3] ^ k1;
		c[1] = 0xCD9E8D57u * c2;
		c[3] = 0xD2511F53u * c0;
		k0 += 0x9E3779B9u;
		k1 += 0xBB67AE85u;
	}
	return c[word];
}

static void eval_philox(Interp *in, TValue *v, Tile *out)
{
	uint64_t seed = (uint64_t)in->tiles[v->args[0]->id].i[0];
	Tile *off = &in->tiles[v->args[1]->id];
	bool wide = dtype_bytes(v->args[1]->type.dtype) == 8;
	for (int k = 0; k < out->n; k++) {
		uint64_t o = wide ? (uint64_t)off->i[k] : (uint32_t)off->i[k];
		out->i[k] = philox32(seed, o, v->aux, v->aux2);
	}
}

/* ---- control flow ---- */

static void eval_for(Interp *in, TValue *v)
{
	int64_t lo = geti(&in->tiles[v->args[0]->id], 0), hi = geti(&in->tiles[v->args[1]->id], 0);
	int64_t step = geti(&in->tiles[v->args[2]->id], 0);
	if (step == 0)
		fail(in, v, "a loop's step is zero");
	TBlock *body = v->body;
	int n = v->nargs - 3;
	for (int i = 0; i < n; i++)
		tile_copy(tile_new(in, body->params[i + 1]), &in->tiles[v->args[i + 3]->id]);
	Tile *iv = tile_new(in, body->params[0]);
	Tile *next = loop_begin(in, n);
	for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) {
		check_deadline(in);
		iv->i[0] = wrap_int(body->params[0]->type.dtype, i);
		run_block(in, body);
		const TValue *y = body->last;
		for (int j = 0; j < n; j++)
			next[j] = tile_clone(&in->tiles[y->args[j]->id]);
		for (int j = 0; j < n; j++)
			tile_replace(&in->tiles[body->params[j + 1]->id], next[j]);
	}
	loop_end(in);
}

static bool tile_equal(const Tile *a, const Tile *b)
{
	if (a->n != b->n || !a->f != !b->f)
		return false;
	size_t n = (size_t)a->n;
	return a->f ? !memcmp(a->f, b->f, n * sizeof *a->f) : !memcmp(a->i, b->i, n * sizeof *a->i);
}

/* while: the body's ops until its TOP_CONDITION; the loop ends there when
 * that is false, else the rest runs and the yield gives the next params.
 * An iteration that changes neither its params nor memory would repeat
 * forever: here no other program runs at the same time, so a spin-wait for
 * a program that has not run (a later one; the programs run in order) is
 * an error, not a hang. */
static void eval_while(Interp *in, TValue *v)
{
	TBlock *body = v->body;
	int n = v->nargs;
	for (int i = 0; i < n; i++)
		tile_copy(tile_new(in, body->params[i]), &in->tiles[v->args[i]->id]);
	Tile *next = loop_begin(in, n);
	for (;;) {
		check_deadline(in);
		bool done = false;
		uint64_t writes = in->writes;
		for (TValue *op = body->first; op && !done; op = op->next) {
			if (op->op == TOP_CONDITION)
				done = !in->tiles[op->args[0]->id].i[0];
			else
				spec_eval(in, op);
		}
		if (done)
			break;
		const TValue *y = body->last;
		bool same = in->writes == writes;
		for (int j = 0; j < n; j++) {
			next[j] = tile_clone(&in->tiles[y->args[j]->id]);
			same = same && tile_equal(&next[j], &in->tiles[body->params[j]->id]);
		}
		if (same) {
			for (int j = 0; j < n; j++) {
				free(next[j].f);
				free(next[j].i);
			}
			char msg[256];
			snprintf(msg, sizeof msg, "program (%d, %d, %d) waits in a loop that changes nothing: for a program "
				 "that has not run (the interpreter runs them one at a time, in order)", in->pid[0], in->pid[1],
				 in->pid[2]);
			fail(in, v, msg);
		}
		for (int j = 0; j < n; j++)
			tile_replace(&in->tiles[body->params[j]->id], next[j]);
	}
	loop_end(in);
}

/* The tile a TOP_RESULT copies: the carried value after the loop, or the
 * value the taken branch yielded. */
static const Tile *result_source(Interp *in, const TValue *v)
{
	const TValue *op = v->args[0];
	if (op->op == TOP_FOR)
		return &in->tiles[op->body->params[v->aux + 1]->id];
	if (op->op == TOP_WHILE)
		return &in->tiles[op->body->params[v->aux]->id];
	const TBlock *taken = in->tiles[op->id].i[0] ? op->body : op->orelse;
	return &in->tiles[taken->last->args[v->aux]->id];
}

static void spec_eval(Interp *in, TValue *v)
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
	case TOP_TRANS:
		for (int k = 0; k < out->n; k++) {
			int s = trans_index(v, k);
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
	case TOP_GATHER:
		eval_gather(in, v, out);
		break;
	case TOP_PRINT:
		eval_print(in, v);
		break;
	case TOP_ASM:
		fail(in, v, "tl.inline_asm_elementwise: inline PTX runs on CUDA targets only; the interpreter cannot run it");
	case TOP_CAST: {
		DType from = v->args[0]->type.dtype;
		bool from_u64 = from == DT_U64;
		for (int k = 0; k < out->n; k++) {
			double f = getf(a, k);
			if (from == DT_F8E5 && dt == DT_BF16)   /* Triton's bit trick */
				f = dtype_fp8e5_value_to_bf16((float)f);
			else if (dtype_is_fp8(dt) && from == DT_F64)   /* through fp32, as the C code */
				f = (float)f;
			if (!out->f && a->f && (isnan(f) || fabs(f) >= 9.2e18))
				fail(in, v, "float to integer conversion out of range");
			if (out->f && a->i && dt == DT_F32)   /* one rounding, not via double */
				f = from_u64 ? (float)(uint64_t)a->i[k] : (float)a->i[k];
			else if (out->f && from_u64)
				f = (double)(uint64_t)a->i[k];
			put(out, dt, k, f, !a->f ? a->i[k] : out->f ? 0 : (int64_t)f);   /* no int view of an inf */
		}
		break;
	}
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
		spec_eval_binary(in, v, out);
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
		eval_math(in, v, out);
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
			in->writes++;
		}
		break;
	}
	case TOP_REDUCE:
		if (v->aux == RED_ARGMAX || v->aux == RED_ARGMIN)
			eval_reduce_index(in, v, out);
		else if (v->aux == RED_COMBINE)
			eval_reduce_combine(in, v, 0, out);
		else
			eval_reduce(in, v, out);
		break;
	case TOP_BITCAST:
		for (int k = 0; k < out->n; k++)
			bits_to_elem(out, dt, k, elem_bits(a, v->args[0]->type.dtype, k));
		break;
	case TOP_HINT:
	case TOP_CONVERT:
		tile_copy(out, a);
		break;
	case TOP_SCAN:
		eval_scan(in, v, 0, out);
		break;
	case TOP_DOT:
		eval_dot(in, v, out);
		break;
	case TOP_ATOMIC:
		eval_atomic(in, v, out);
		break;
	case TOP_ASSERT:
		eval_assert(in, v);
		break;
	case TOP_PHILOX:
		eval_philox(in, v, out);
		break;
	case TOP_FOR:
		eval_for(in, v);
		break;
	case TOP_WHILE:
		eval_while(in, v);
		break;
	case TOP_IF:
		out->i[0] = a->i[0] != 0;
		run_block(in, a->i[0] ? v->body : v->orelse);
		break;
	case TOP_RESULT:
		if (v->args[0]->op == TOP_SCAN)
			eval_scan(in, v->args[0], v->aux, out);
		else if (v->args[0]->op == TOP_REDUCE)
			eval_reduce_combine(in, v->args[0], v->aux, out);
		else
			tile_copy(out, result_source(in, v));
		break;
	case TOP_BARRIER:
	case TOP_YIELD:
		break;
	default:
		fail(in, v, "operation not supported by the interpreter yet");
	}
}


int tir_interpret_range(TKernel *k, const TArgValue *args, const int grid[3], int64_t first, int64_t count,
			char *err, size_t errlen)
{
	return tir_interpret_timed(k, args, grid, first, count, 0, err, errlen);
}

int tir_interpret_timed(TKernel *k, const TArgValue *args, const int grid[3], int64_t first, int64_t count,
			double timeout_s, char *err, size_t errlen)
{
	volatile int ids = tir_value_count(k);
	Interp in = {.k = k, .args = args, .err = err, .errlen = errlen};
	if (timeout_s > 0)
		in.deadline = clock_seconds() + timeout_s;
	in.tiles = base_calloc((size_t)ids + 1, sizeof *in.tiles);
	memcpy(in.grid, grid, sizeof in.grid);
	volatile int status = 0;
	int jumped = setjmp(in.fail);
	if (jumped == 0) {
		for (int64_t p = first; p < first + count; p++) {
			in.pid[0] = (int)(p % grid[0]);
			in.pid[1] = (int)(p / grid[0] % grid[1]);
			in.pid[2] = (int)(p / grid[0] / grid[1]);
			run_block(&in, k->body);
		}
	} else {
		status = jumped == 2 ? TIR_TIMED_OUT : -1;
	}
	while (in.nloops > 0)
		loop_end(&in);
	free(in.loops);
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
