/* emit.c: what the three printers share: expressions, declarations, loop
 * nests, loads and stores. A target's Printer (cuda.c, hip.c, c.c) spells
 * the rest. */
#include "emit/printer.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct Emit {
	Buf *b;
	const SKernel *k;
	const Printer *P;
	int depth;
	bool in_threads;     /* lockstep: inside the loop over the block's threads */
	bool declared_shared;
	bool window;         /* CUDA with copies or wgmma: shared arrays also addressed by their window (shared_window) */
} Emit;

static const Printer *printer_for(const SKernel *k)
{
	switch (k->target.kind) {
	case TARGET_CUDA: return &emit_cuda_printer;
	case TARGET_HIP: return &emit_hip_printer;
	default: return &emit_c_printer;
	}
}

static void line(Emit *E, const char *fmt, ...) TC_PRINTF(2, 3);
static void line(Emit *E, const char *fmt, ...)
{
	buf_indent(E->b, E->depth);
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(E->b, fmt, ap);
	va_end(ap);
	buf_putc(E->b, '\n');
}

/* A line of fixed text: the braces and loop heads of every statement cost
 * no printf. */
static void line_str(Emit *E, const char *text)
{
	buf_indent(E->b, E->depth);
	buf_puts(E->b, text);
	buf_putc(E->b, '\n');
}

/* ---- types ---- */

static const char *reg_type(const SReg *r, Arena *a)
{
	if (r->dtype == DT_PTR)
		return arena_printf(a, "%s *", simt_mem_ctype(r->elem));
	return simt_reg_ctype(r->dtype);
}

const char *emit_param_type(const SKernel *k, int i, Arena *scratch)
{
	const Type *t = &k->tile->args[i]->type;
	if (t->dtype == DT_PTR)
		return arena_printf(scratch, "%s *", simt_mem_ctype(t->elem));
	return simt_reg_ctype(t->dtype);
}

void emit_params(Buf *b, const SKernel *k)
{
	Arena scratch = {0};
	for (int i = 0; i < k->tile->nargs; i++) {
		const char *type = emit_param_type(k, i, &scratch);
		size_t n = strlen(type);
		buf_printf(b, "%s%s%s%s", i ? ", " : "", type, type[n - 1] == '*' ? "" : " ", k->tile->args[i]->name);
	}
	arena_free(&scratch);
}

/* ---- what CUDA and HIP share ---- */

void emit_gpu_leaf(Buf *b, const SKernel *k, const SExpr *e)
{
	static const char axes[] = "xyz";
	switch (e->kind) {
	case SE_LANE: buf_printf(b, "(tc_i32)(threadIdx.x %% %d)", k->warp_size); return;
	case SE_WARP: buf_printf(b, "(tc_i32)(threadIdx.x / %d)", k->warp_size); return;
	case SE_THREAD: buf_puts(b, "(tc_i32)threadIdx.x"); return;
	case SE_PROGRAM_ID: buf_printf(b, "(tc_i32)blockIdx.%c", axes[e->aux]); return;
	case SE_NUM_PROGRAMS: buf_printf(b, "(tc_i32)gridDim.%c", axes[e->aux]); return;
	default: return;
	}
}

bool emit_uses_atomic(const SKernel *k, AtomicOp op)
{
	if (!simt_uses(k, SS_ATOMIC))
		return false;
	for (const SStmt *s = k->first; s; s = s->next)
		if (s->kind == SS_ATOMIC && s->atomic == op)
			return true;
	return false;
}

/* A shift whose count is not a constant below the width, which CUDA and
 * HIP compute with tc_shl_* / tc_shr_* (emit_prelude_shifts). Index
 * arithmetic of the lowering (`plain`) shifts by constants alone. */
static bool runtime_shift(const SExpr *e)
{
	if (e->kind != SE_BINARY || ((TOp)e->aux != TOP_SHL && (TOp)e->aux != TOP_SHR) || e->plain ||
	    dtype_is_float(e->dtype))
		return false;
	int64_t width = e->dtype == DT_I64 || e->dtype == DT_U64 ? 64 : 32;
	const SExpr *n = e->a[1];
	return !(n->kind == SE_INT && n->ival >= 0 && n->ival < width);
}

static bool has_runtime_shift(const SExpr *e)
{
	if (!e)
		return false;
	if (runtime_shift(e) || (e->kind == SE_REF && has_runtime_shift(e->index)))
		return true;
	return has_runtime_shift(e->a[0]) || has_runtime_shift(e->a[1]) || has_runtime_shift(e->a[2]);
}

bool emit_uses_runtime_shift(const SKernel *k)
{
	for (const SStmt *first = k->first; first; first = first->next)
		for (const SStmt *s = first; s; s = s->also) {
			const SExpr *es[] = {s->dst, s->value, s->guard, s->ptr, s->other, s->mask, s->lo, s->hi,
					     s->step, s->frag_a, s->frag_b, s->acc[0], s->acc[1], s->acc[2], s->acc[3],
					     s->expected, s->bar, s->coord[0], s->coord[1]};
			for (size_t i = 0; i < TC_COUNT(es); i++)
				if (has_runtime_shift(es[i]))
					return true;
		}
	return false;
}

/* ---- expressions ---- */

static void expr(Emit *E, const SExpr *e);

static void float_const(Buf *b, DType dt, double v)
{
	if (isnan(v)) {
		buf_puts(b, "TC_NAN");
		return;
	}
	if (isinf(v)) {
		buf_puts(b, v > 0 ? "TC_INF" : "(-TC_INF)");
		return;
	}
	if (v < 0)
		buf_putc(b, '(');
	/* a whole number of fewer digits than the precision prints as its
	 * digits (most constants: no printf); -0.0 goes through printf */
	if (v == floor(v) && fabs(v) < (dt == DT_F64 ? 1e17 : 1e9) && (v != 0 || !signbit(v))) {
		buf_put_int(b, (long long)v);
		buf_puts(b, ".0");
	} else {
		char s[64];
		snprintf(s, sizeof s, dt == DT_F64 ? "%.17g" : "%.9g", v);
		buf_puts(b, s);
		if (!strpbrk(s, ".e"))
			buf_puts(b, ".0");
	}
	if (dt != DT_F64)
		buf_putc(b, 'f');
	if (v < 0)
		buf_putc(b, ')');
}

static void int_const(Buf *b, DType dt, int64_t v)
{
	switch (dt) {
	case DT_I1: buf_puts(b, v ? "true" : "false"); return;
	case DT_I64:
		if (v == INT64_MIN)
			buf_puts(b, "(-9223372036854775807LL - 1)");
		else if (v < 0)
			buf_printf(b, "(%lldLL)", (long long)v);
		else {
			buf_put_int(b, (long long)v);
			buf_puts(b, "LL");
		}
		return;
	case DT_U32: case DT_U64: case DT_U8: case DT_U16:
		buf_printf(b, "%lluu%s", (unsigned long long)v, dt == DT_U64 ? "LL" : "");
		return;
	default:
		if (v == INT32_MIN)
			buf_puts(b, "(-2147483647 - 1)");
		else if (v < 0)
			buf_printf(b, "(%lld)", (long long)v);
		else
			buf_put_int(b, (long long)v);
	}
}

static void ref(Emit *E, const SReg *r, const SExpr *index)
{
	buf_puts(E->b, r->name);
	if (E->P->lockstep && r->kind == SR_THREAD)   /* outside the thread loop: a uniform value, any thread's */
		buf_puts(E->b, E->in_threads ? "[t]" : "[0]");
	if (index) {
		buf_putc(E->b, '[');
		expr(E, index);
		buf_putc(E->b, ']');
	}
}

static const char *round_fn(DType dt)
{
	switch (dt) {
	case DT_BF16: return "tc_round_bf16";
	case DT_F16: return "tc_round_f16";
	case DT_F8E4NV: return "tc_round_fp8e4nv";
	case DT_F8E5: return "tc_round_fp8e5";
	case DT_F8E4B15: return "tc_round_fp8e4b15";
	case DT_F8E4B8: return "tc_round_fp8e4b8";
	case DT_F8E5B16: return "tc_round_fp8e5b16";
	default: return NULL;
	}
}

/* fp16, bf16 and the fp8 formats: held in fp32 registers */
static bool held_in_f32(DType dt)
{
	return dt == DT_F16 || dt == DT_BF16 || dtype_is_fp8(dt);
}

/* The unsigned type that integer +, - and * of dtype dt are computed in,
 * then converted back: wrapping as the GPU does, without C's signed
 * overflow, and for 8 and 16 bits without an out-of-range constant
 * (uint8's 0 - 1) that compilers warn of. */
static const char *wide_unsigned(DType dt)
{
	switch (dt) {
	case DT_I8: case DT_I16: case DT_U8: case DT_U16: case DT_I32: return "tc_u32";
	case DT_I64: return "tc_u64";
	default: return NULL;
	}
}

static bool reads_shared(const SExpr *e)
{
	if (!e)
		return false;
	if (e->kind == SE_REF && (e->reg->kind == SR_SHARED || reads_shared(e->index)))
		return true;
	return reads_shared(e->a[0]) || reads_shared(e->a[1]) || reads_shared(e->a[2]);
}

static void binary(Emit *E, const SExpr *e)
{
	static const char *const ops[] = {
		[TOP_ADD] = "+", [TOP_SUB] = "-", [TOP_MUL] = "*", [TOP_DIV] = "/", [TOP_IDIV] = "/",
		[TOP_MOD] = "%", [TOP_AND] = "&", [TOP_OR] = "|", [TOP_XOR] = "^", [TOP_SHL] = "<<",
		[TOP_SHR] = ">>", [TOP_PTR_ADD] = "+",
	};
	Buf *b = E->b;
	DType dt = e->dtype;
	TOp op = (TOp)e->aux;
	bool fl = dtype_is_float(dt);
	const char *unsig = wide_unsigned(dt);
	if (op == TOP_MAXIMUM || op == TOP_MINIMUM) {
		if (fl) {
			buf_printf(b, "tc_%s%s(", op == TOP_MAXIMUM ? "max" : "min", dt == DT_F64 ? "d" : "f");
			expr(E, e->a[0]);
			buf_puts(b, ", ");
			expr(E, e->a[1]);
			buf_putc(b, ')');
			return;
		}
		buf_puts(b, "((");
		expr(E, e->a[0]);
		buf_puts(b, op == TOP_MAXIMUM ? ") > (" : ") < (");
		expr(E, e->a[1]);
		buf_puts(b, ") ? (");
		expr(E, e->a[0]);
		buf_puts(b, ") : (");
		expr(E, e->a[1]);
		buf_puts(b, "))");
		return;
	}
	if (op == TOP_DIV && dt == DT_F32 && E->P->fdiv) {   /* the target's own fp32 division */
		buf_printf(b, "%s(", E->P->fdiv);
		expr(E, e->a[0]);
		buf_puts(b, ", ");
		expr(E, e->a[1]);
		buf_putc(b, ')');
		return;
	}
	if (E->P->safe_int_div && (op == TOP_IDIV || op == TOP_MOD) && !fl && !e->plain &&
	    !(e->a[1]->kind == SE_INT && e->a[1]->ival != 0 && e->a[1]->ival != -1)) {
		bool u = !dtype_is_signed(dt), wide = dt == DT_I64 || dt == DT_U64;
		buf_printf(b, "tc_%s_%s%s(", op == TOP_IDIV ? "div" : "mod", u ? "u" : "i", wide ? "64" : "32");
		expr(E, e->a[0]);
		buf_puts(b, ", ");
		expr(E, e->a[1]);
		buf_putc(b, ')');
		return;
	}
	if ((E->P->safe_int_div || runtime_shift(e)) && (op == TOP_SHL || op == TOP_SHR) && !fl) {   /* no UB past the width */
		bool u = !dtype_is_signed(dt), wide = dt == DT_I64 || dt == DT_U64;
		buf_printf(b, "(%s)tc_%s_%s%s(", simt_reg_ctype(dt), op == TOP_SHL ? "shl" : "shr", u ? "u" : "i",
			   wide ? "64" : "32");
		expr(E, e->a[0]);
		buf_puts(b, ", ");
		expr(E, e->a[1]);
		buf_putc(b, ')');
		return;
	}
	if (op == TOP_FMOD) {
		buf_puts(b, dt == DT_F64 ? "fmod(" : "fmodf(");
		expr(E, e->a[0]);
		buf_puts(b, ", ");
		expr(E, e->a[1]);
		buf_putc(b, ')');
		return;
	}
	if (unsig && !e->plain && (op == TOP_ADD || op == TOP_SUB || op == TOP_MUL)) {
		/* wrap around as the GPU does, without C's signed-overflow UB */
		buf_printf(b, "(%s)((%s)", simt_reg_ctype(dt), unsig);
		expr(E, e->a[0]);
		buf_printf(b, " %s (%s)", ops[op], unsig);
		expr(E, e->a[1]);
		buf_putc(b, ')');
		return;
	}
	/* `and` of booleans as &&, which nvcc folds into one predicate (a range
	 * check `0 <= x & x < n` into one unsigned compare) where `&` of bools
	 * is integer arithmetic on them; but not over reads of shared memory,
	 * which short-circuiting would put on branches, and not `or`, which
	 * nvcc turns into branches in argmax's folds */
	bool logical = dt == DT_I1 && op == TOP_AND && !reads_shared(e);
	const char *sym = logical ? (op == TOP_AND ? "&&" : "||") : ops[op];
	buf_putc(b, '(');
	expr(E, e->a[0]);
	buf_putc(b, ' ');
	buf_puts(b, sym ? sym : "?");
	buf_putc(b, ' ');
	expr(E, e->a[1]);
	buf_putc(b, ')');
}

/* The C function for `fn` on operands of dtype dt: the float version for
 * fp32 (and fp16, bf16, held in fp32), the double one for fp64. C's math.h
 * and the CUDA and HIP math libraries share these names; the tc_ ones are
 * the prelude's. */
static const char *math_name(int fn, DType dt)
{
	static const char *const f32[] = {
		[MATH_EXP] = "expf", [MATH_EXP2] = "exp2f", [MATH_LOG] = "logf", [MATH_LOG2] = "log2f",
		[MATH_LOG1P] = "log1pf", [MATH_SQRT] = "sqrtf", [MATH_RSQRT] = "tc_rsqrtf", [MATH_ABS] = "fabsf",
		[MATH_SIN] = "sinf", [MATH_COS] = "cosf", [MATH_TANH] = "tanhf", [MATH_ERF] = "erff",
		[MATH_FLOOR] = "floorf", [MATH_CEIL] = "ceilf", [MATH_SIGMOID] = "tc_sigmoidf",
		[MATH_EXPM1] = "expm1f", [MATH_LOG10] = "log10f", [MATH_TAN] = "tanf", [MATH_ASIN] = "asinf",
		[MATH_ACOS] = "acosf", [MATH_ATAN] = "atanf", [MATH_SINH] = "sinhf", [MATH_COSH] = "coshf",
		[MATH_ASINH] = "asinhf", [MATH_ACOSH] = "acoshf", [MATH_ATANH] = "atanhf", [MATH_ERFC] = "erfcf",
		[MATH_ERFINV] = "tc_erfinvf", [MATH_LGAMMA] = "lgammaf", [MATH_CBRT] = "cbrtf", [MATH_TRUNC] = "truncf",
		[MATH_RINT] = "rintf", [MATH_ROUND] = "roundf", [MATH_SIGNBIT] = "tc_signbitf", [MATH_ILOGB] = "ilogbf",
		[MATH_ISNAN] = "tc_isnanf", [MATH_ISINF] = "tc_isinff", [MATH_ISFINITE] = "tc_isfinitef",
		[MATH_POW] = "powf", [MATH_ATAN2] = "atan2f", [MATH_HYPOT] = "hypotf", [MATH_COPYSIGN] = "copysignf",
		[MATH_NEXTAFTER] = "nextafterf", [MATH_LDEXP] = "ldexpf", [MATH_FMA] = "fmaf",
	};
	static const char *const f64[] = {
		[MATH_EXP] = "exp", [MATH_EXP2] = "exp2", [MATH_LOG] = "log", [MATH_LOG2] = "log2",
		[MATH_LOG1P] = "log1p", [MATH_SQRT] = "sqrt", [MATH_RSQRT] = "tc_rsqrtd", [MATH_ABS] = "fabs",
		[MATH_SIN] = "sin", [MATH_COS] = "cos", [MATH_TANH] = "tanh", [MATH_ERF] = "erf",
		[MATH_FLOOR] = "floor", [MATH_CEIL] = "ceil", [MATH_SIGMOID] = "tc_sigmoidd",
		[MATH_EXPM1] = "expm1", [MATH_LOG10] = "log10", [MATH_TAN] = "tan", [MATH_ASIN] = "asin",
		[MATH_ACOS] = "acos", [MATH_ATAN] = "atan", [MATH_SINH] = "sinh", [MATH_COSH] = "cosh",
		[MATH_ASINH] = "asinh", [MATH_ACOSH] = "acosh", [MATH_ATANH] = "atanh", [MATH_ERFC] = "erfc",
		[MATH_ERFINV] = "tc_erfinvd", [MATH_LGAMMA] = "lgamma", [MATH_CBRT] = "cbrt", [MATH_TRUNC] = "trunc",
		[MATH_RINT] = "rint", [MATH_ROUND] = "round", [MATH_SIGNBIT] = "tc_signbitd", [MATH_ILOGB] = "ilogb",
		[MATH_ISNAN] = "tc_isnand", [MATH_ISINF] = "tc_isinfd", [MATH_ISFINITE] = "tc_isfinited",
		[MATH_POW] = "pow", [MATH_ATAN2] = "atan2", [MATH_HYPOT] = "hypot", [MATH_COPYSIGN] = "copysign",
		[MATH_NEXTAFTER] = "nextafter", [MATH_LDEXP] = "ldexp", [MATH_FMA] = "fma",
	};
	if (fn == MATH_TF32)
		return "tc_tf32";
	if (fn == MATH_EXP2_FAST)
		return "tc_exp2_fast";
	if (fn == MATH_PACK_F16X2 || fn == MATH_PACK_BF16X2)
		return fn == MATH_PACK_F16X2 ? "tc_pack_f16x2" : "tc_pack_bf16x2";
	return dt == DT_F64 ? f64[fn] : f32[fn];
}

static void math(Emit *E, const SExpr *e)
{
	Buf *b = E->b;
	if (!dtype_is_float(e->from)) {   /* abs is the only integer math */
		buf_puts(b, "((");
		expr(E, e->a[0]);
		buf_puts(b, ") < 0 ? -(");
		expr(E, e->a[0]);
		buf_puts(b, ") : (");
		expr(E, e->a[0]);
		buf_puts(b, "))");
		return;
	}
	int n = e->aux == MATH_TF32 || e->aux == MATH_EXP2_FAST ? 1 : e->aux == MATH_PACK_F16X2 || e->aux == MATH_PACK_BF16X2 ? 2 : tir_math_arity((MathFn)e->aux);
	buf_printf(b, "%s(", math_name(e->aux, e->from));
	for (int i = 0; i < n; i++) {
		buf_puts(b, i ? ", " : "");
		expr(E, e->a[i]);
	}
	buf_putc(b, ')');
}

static const char *from_memory(DType dt);
static const char *to_memory(DType dt);

static void cast(Emit *E, const SExpr *e)
{
	Buf *b = E->b;
	DType from = e->from, to = e->dtype;
	bool from_fl = dtype_is_float(from), to_fl = dtype_is_float(to);
	if (to == DT_I1) {
		buf_puts(b, "((");
		expr(E, e->a[0]);
		buf_puts(b, ") != 0)");
		return;
	}
	if (from == DT_F8E5 && to == DT_BF16) {   /* Triton's bit trick (ir/fp.c) */
		buf_puts(b, "tc_fp8e5_to_bf16(");
		expr(E, e->a[0]);
		buf_puts(b, ")");
		return;
	}
	if (held_in_f32(to)) {
		/* Registers hold fp32; only the precision changes. */
		bool exact = from == to || (to == DT_F16 && from == DT_I1) ||
			     (dtype_is_fp8(from) && (to == DT_F16 || to == DT_BF16));
		buf_printf(b, exact ? "(" : "%s(", round_fn(to));
		buf_puts(b, from_fl ? "" : "(float)");
		expr(E, e->a[0]);
		buf_putc(b, ')');
		return;
	}
	if (to_fl && from_fl && to == DT_F32 && held_in_f32(from)) {
		expr(E, e->a[0]);   /* already held as fp32 */
		return;
	}
	buf_printf(b, "((%s)", simt_reg_ctype(to));
	expr(E, e->a[0]);
	buf_putc(b, ')');
}

/* The same bits as another type. Registers hold fp16 and bf16 as fp32, so
 * their bits are the rounded 16-bit pattern; fp64's bits go through a
 * union in C and the CUDA / HIP intrinsics on GPUs (C++ has no compound
 * literals). */
static void bitcast(Emit *E, const SExpr *e)
{
	Buf *b = E->b;
	DType from = e->from, to = e->dtype;
	const char *t = simt_reg_ctype(to), *post = "))";
	if (to == DT_PTR)
		buf_printf(b, "((%s *)(", simt_mem_ctype((DType)e->aux));
	else if (from == DT_F32)
		buf_printf(b, "((%s)tc_f32_bits(", t);
	else if (to == DT_F32)
		buf_puts(b, "tc_f32_from_bits((tc_u32)(");
	else if (from == DT_F16 || from == DT_BF16)
		buf_printf(b, "((%s)%s(", t, from == DT_BF16 ? "tc_f32_to_bf16" : "tc_f32_to_f16");
	else if (to == DT_F16 || to == DT_BF16)
		buf_printf(b, "%s((tc_u16)(", to == DT_BF16 ? "tc_bf16_to_f32" : "tc_f16_to_f32");
	else if (dtype_is_fp8(from))
		buf_printf(b, "((%s)%s(", t, to_memory(from));
	else if (dtype_is_fp8(to))
		buf_printf(b, "%s((tc_u8)(", from_memory(to));
	else if (from == DT_F64 && E->P->lockstep) {
		buf_printf(b, "((%s)((union { double d; tc_u64 u; }){.d = ", t);
		post = "}).u)";
	} else if (from == DT_F64)
		buf_printf(b, "((%s)__double_as_longlong(", t);
	else if (E->P->lockstep) {
		buf_puts(b, "((union { tc_u64 u; double d; }){.u = (tc_u64)(");
		post = ")}).d";
	} else
		buf_puts(b, "__longlong_as_double((tc_i64)(");
	expr(E, e->a[0]);
	buf_puts(b, post);
}

/* Whether `e` divides fp32 values (the target's fdiv call) anywhere. */
static bool has_fdiv(const SExpr *e)
{
	if (!e)
		return false;
	if (e->kind == SE_BINARY && e->aux == TOP_DIV && e->dtype == DT_F32)
		return true;
	for (int i = 0; i < 3; i++)
		if (has_fdiv(e->a[i]))
			return true;
	return false;
}

static void expr(Emit *E, const SExpr *e)
{
	static const char *const cmp[] = {"<", "<=", ">", ">=", "==", "!="};
	Buf *b = E->b;
	const char *round = NULL;
	switch (e->kind) {
	case SE_REF: ref(E, e->reg, e->index); return;
	case SE_INT: int_const(b, e->dtype, e->ival); return;
	case SE_FLOAT: float_const(b, e->dtype, e->fval); return;
	case SE_LOOP: buf_putc(b, 'i'); buf_put_int(b, e->aux); return;
	case SE_ARG: buf_puts(b, E->k->tile->args[e->aux]->name); return;
	case SE_LANE: case SE_WARP: case SE_THREAD: case SE_PROGRAM_ID: case SE_NUM_PROGRAMS:
		E->P->leaf(b, E->k, e);
		return;
	case SE_BINARY:
		round = round_fn(e->dtype);
		if (round)
			buf_printf(b, "%s(", round);
		binary(E, e);
		if (round)
			buf_putc(b, ')');
		return;
	case SE_UNARY:
		buf_puts(b, e->aux == TOP_NEG ? "(-" : e->dtype == DT_I1 ? "(!" : "(~");
		expr(E, e->a[0]);
		buf_putc(b, ')');
		return;
	case SE_CMP:
	case SE_LOGIC_AND:
		buf_putc(b, '(');
		expr(E, e->a[0]);
		buf_putc(b, ' ');
		buf_puts(b, e->kind == SE_CMP ? cmp[e->aux] : "&&");
		buf_putc(b, ' ');
		expr(E, e->a[1]);
		buf_putc(b, ')');
		return;
	case SE_SELECT:
		if (E->P->select_f32 && e->dtype == DT_F32 && (has_fdiv(e->a[1]) || has_fdiv(e->a[2]))) {
			buf_printf(b, "%s(", E->P->select_f32);
			expr(E, e->a[0]);
			buf_puts(b, ", ");
			expr(E, e->a[1]);
			buf_puts(b, ", ");
			expr(E, e->a[2]);
			buf_putc(b, ')');
			return;
		}
		buf_putc(b, '(');
		expr(E, e->a[0]);
		buf_puts(b, " ? ");
		expr(E, e->a[1]);
		buf_puts(b, " : ");
		expr(E, e->a[2]);
		buf_putc(b, ')');
		return;
	case SE_CAST: cast(E, e); return;
	case SE_MATH:
		round = round_fn(e->dtype);
		if (round)
			buf_printf(b, "%s(", round);
		math(E, e);
		if (round)
			buf_putc(b, ')');
		return;
	case SE_PHILOX:
		buf_puts(b, "tc_philox(");
		for (int i = 0; i < 3; i++) {
			expr(E, e->a[i]);
			buf_puts(b, ", ");
		}
		buf_printf(b, "%d, %lld)", e->aux, (long long)e->ival);
		return;
	case SE_BITCAST: bitcast(E, e); return;
	case SE_ASM:
		buf_printf(b, "tc_asm_%lld(", (long long)e->origin->iconst);
		for (const SExpr *x = e->a[0]; x; x = x->a[1]) {
			expr(E, x->a[0]);
			buf_puts(b, x->a[1] ? ", " : "");
		}
		buf_putc(b, ')');
		if (e->origin->aux > 1)
			buf_printf(b, ".r%d", e->origin->aux2);
		return;
	case SE_ASM_ARG: expr(E, e->a[0]); return;
	}
}

/* ---- tl.inline_asm_elementwise: a lambda per asm, at the top of the kernel ----
 *
 * Triton hands the asm to LLVM: operands $0 ... (the results, then the
 * arguments), LLVM constraints separated by commas ("=r,r,~{memory}").
 * CUDA C's inline asm takes the same PTX with %0 ... and GCC's operand
 * lists; each value crosses as the register class its constraint names
 * (r: 32 bits, h: 16, l: 64, f: fp32, d: fp64), bits kept: an fp32 in an
 * "r" is its bit pattern, an fp16 or bf16 in an "h" its 16 bits. */

typedef struct AsmSeen {
	Vec v;   /* the TOP_ASM values (result 0 of each asm), once each */
} AsmSeen;

static void asm_collect_expr(AsmSeen *s, const SExpr *e)
{
	if (!e)
		return;
	if (e->kind == SE_ASM) {
		bool have = false;
		for (int i = 0; i < s->v.len && !have; i++)
			have = ((const TValue *)s->v.data[i])->iconst == e->origin->iconst;
		if (!have)
			vec_push(&s->v, (void *)e->origin);
	}
	if (e->kind == SE_REF)
		asm_collect_expr(s, e->index);
	for (int i = 0; i < 3; i++)
		asm_collect_expr(s, e->a[i]);
}

static void asm_collect(AsmSeen *seen, const SStmt *s)
{
	for (; s; s = s->also) {
		const SExpr *es[] = {s->dst, s->value, s->guard, s->ptr, s->other, s->mask, s->lo, s->hi, s->step,
				     s->expected, s->frag_a, s->frag_b, s->acc[0], s->acc[1], s->acc[2], s->acc[3]};
		for (size_t i = 0; i < sizeof es / sizeof es[0]; i++)
			asm_collect_expr(seen, es[i]);
	}
}

static const char *from_memory(DType dt);
static const char *to_memory(DType dt);

/* The C type of a constraint's register class ('r', 'h', 'l', 'f', 'd'). */
static const char *asm_ctype(char c)
{
	switch (c) {
	case 'h': return "tc_u16";
	case 'l': return "tc_u64";
	case 'f': return "float";
	case 'd': return "double";
	default: return "tc_u32";
	}
}

/* Value `v` of dtype dt (as held in registers) into class c. */
static void asm_to_class(Buf *b, char c, DType dt, const char *v)
{
	bool f16 = dt == DT_F16 || dt == DT_BF16;
	if (c == 'f' || c == 'd')
		buf_printf(b, "(%s)%s", asm_ctype(c), v);
	else if (f16)
		buf_printf(b, "(%s)%s(%s)", asm_ctype(c), dt == DT_F16 ? "tc_f32_to_f16" : "tc_f32_to_bf16", v);
	else if (dt == DT_F32)
		buf_printf(b, "(%s)tc_f32_bits(%s)", asm_ctype(c), v);
	else if (dt == DT_F64)
		buf_printf(b, "(%s)__double_as_longlong(%s)", asm_ctype(c), v);
	else if (dtype_is_fp8(dt))
		buf_printf(b, "(%s)%s(%s)", asm_ctype(c), to_memory(dt), v);
	else
		buf_printf(b, "(%s)(tc_u64)%s", asm_ctype(c), v);
}

/* Class-c register `r` as a value of dtype dt in registers. */
static void asm_from_class(Buf *b, char c, DType dt, const char *r)
{
	if (c == 'f' || c == 'd')
		buf_printf(b, "(%s)%s", simt_reg_ctype(dt), r);
	else if (dt == DT_F16 || dt == DT_BF16)
		buf_printf(b, "%s((tc_u16)%s)", dt == DT_F16 ? "tc_f16_to_f32" : "tc_bf16_to_f32", r);
	else if (dt == DT_F32)
		buf_printf(b, "tc_f32_from_bits((tc_u32)%s)", r);
	else if (dt == DT_F64)
		buf_printf(b, "__longlong_as_double((long long)%s)", r);
	else if (dtype_is_fp8(dt))
		buf_printf(b, "%s((tc_u8)%s)", from_memory(dt), r);
	else if (dt == DT_I1)
		buf_printf(b, "(%s != 0)", r);
	else
		buf_printf(b, "(%s)%s", simt_reg_ctype(dt), r);
}

/* The asm text as a C string of CUDA's syntax: $N -> %N, % -> %%. */
static void asm_text(Buf *b, const char *p)
{
	buf_putc(b, '"');
	for (; *p; p++) {
		if (*p == '$' && p[1] >= '0' && p[1] <= '9')
			buf_putc(b, '%');
		else if (*p == '%')
			buf_puts(b, "%%");
		else if (*p == '"' || *p == '\\')
			buf_printf(b, "\\%c", *p);
		else if (*p == '\n')
			buf_puts(b, "\\n");
		else if (*p == '\t')
			buf_puts(b, "\\t");
		else
			buf_putc(b, *p);
	}
	buf_putc(b, '"');
}

/* One constraint of the list: its text, and its register class (the
 * letter after '=', '&', '+'). */
typedef struct AsmCons {
	const char *s;
	int len;
	char cls;
} AsmCons;

/* The operand constraints of the list (the specializer checked there is
 * one for each operand) and the clobbers, as CUDA C's clobber list. */
static AsmCons *asm_constraints(const char *text, int clen, Buf *clobbers, int *n)
{
	int cap = 1;
	for (int i = 0; i < clen; i++)
		cap += text[i] == ',';
	AsmCons *cons = base_calloc((size_t)cap, sizeof *cons);
	*n = 0;
	for (int i = 0; i <= clen;) {
		int j = i;
		while (j < clen && text[j] != ',')
			j++;
		int len = j - i;
		while (len > 0 && (text[i] == ' ' || text[i] == '\t'))
			i++, len--;
		if (len > 0 && text[i] == '~') {   /* ~{memory} */
			if (len > 3)
				buf_printf(clobbers, "%s\"%.*s\"", clobbers->len ? ", " : "", len - 3, text + i + 2);
		} else if (len > 0) {
			AsmCons *c = &cons[(*n)++];
			c->s = text + i;
			c->len = len;
			int k = 0;
			while (k < len && (c->s[k] == '=' || c->s[k] == '&' || c->s[k] == '+'))
				k++;
			c->cls = k < len ? c->s[k] : 'r';
		}
		i = j + 1;
	}
	return cons;
}

/* The bits of value `v` of dtype dt (narrower than 32 bits) as a tc_u32. */
static void asm_bits(Buf *b, DType dt, const char *v)
{
	if (dt == DT_F16 || dt == DT_BF16 || dtype_is_fp8(dt))
		buf_printf(b, "(tc_u32)%s(%s)", to_memory(dt), v);
	else
		buf_printf(b, "(tc_u32)(%s)%s", dtype_bytes(dt) == 1 ? "tc_u8" : "tc_u16", v);
}

/* The low bits of register `r` as a value of dtype dt (narrower than 32 bits). */
static void asm_from_bits(Buf *b, DType dt, const char *r)
{
	if (dt == DT_F16 || dt == DT_BF16)
		buf_printf(b, "%s((tc_u16)%s)", from_memory(dt), r);
	else if (dtype_is_fp8(dt))
		buf_printf(b, "%s((tc_u8)%s)", from_memory(dt), r);
	else
		buf_printf(b, "(%s)(%s)%s", simt_reg_ctype(dt), dtype_bytes(dt) == 1 ? "tc_u8" : "tc_u16", r);
}

/* The lambda of one asm. With pack > 1 it takes `pack` elements of each
 * argument (the neighbours Triton packs into the asm's registers, in its
 * register order; lower.c, lower_asm) and the slot of the element whose
 * results it returns: elements narrower than 32 bits share registers, the
 * first in the low bits, as Triton packs them. */
static void asm_lambda(Emit *E, const TValue *v)
{
	Buf *b = E->b;
	const char *nl = strchr(v->text, '\n');
	int clen = (int)(nl - v->text);
	Buf clobbers = {0};
	int ncons = 0;
	AsmCons *cons = asm_constraints(v->text, clen, &clobbers, &ncons);
	int nout = v->aux, nargs = v->nargs, pack = v->perm[0] > 1 ? v->perm[0] : 1;
	long long id = (long long)v->iconst;
	/* the operands: each result's registers, then each argument's */
	int first_out[TC_MAX_RANK + 1], nops = 0;
	for (int i = 0; i < nout; i++) {
		first_out[i] = nops;
		nops += tir_asm_registers((DType)v->hint[i], pack);
	}
	first_out[nout] = nops;
	int *first_in = base_calloc((size_t)nargs + 1, sizeof *first_in);
	for (int i = 0; i < nargs; i++) {
		first_in[i] = nops;
		nops += tir_asm_registers(v->args[i]->type.dtype, pack);
	}
	first_in[nargs] = nops;
	if (nops > ncons)   /* the specializer counted them; keep reads inside the list */
		nops = ncons;
	if (nout > 1) {
		buf_indent(b, E->depth);
		buf_printf(b, "struct tc_asm_%lld_t {", id);
		for (int i = 0; i < nout; i++)
			buf_printf(b, " %s r%d;", simt_reg_ctype((DType)v->hint[i]), i);
		buf_puts(b, " };\n");
	}
	buf_indent(b, E->depth);
	buf_printf(b, "auto tc_asm_%lld = [](", id);
	for (int i = 0; i < nargs; i++)
		for (int q = 0; q < pack; q++) {
			buf_printf(b, "%s%s a%d", i || q ? ", " : "", simt_reg_ctype(v->args[i]->type.dtype), i);
			if (pack > 1)
				buf_printf(b, "_%d", q);
		}
	buf_puts(b, pack > 1 ? ", int slot) {\n" : ") {\n");
	E->depth++;
	for (int i = 0; i < nout; i++) {
		int regs = (first_out[i + 1] < nops ? first_out[i + 1] : nops) - first_out[i];
		const char *cls = asm_ctype(regs > 0 ? cons[first_out[i]].cls : 'r');
		if (pack == 1)
			line(E, "%s o%d;", cls, i);
		else
			line(E, "%s o%d[%d];", cls, i, regs > 0 ? regs : 1);
	}
	for (int i = 0; i < nargs; i++) {
		if (first_in[i] >= nops)
			break;
		DType dt = v->args[i]->type.dtype;
		char c = cons[first_in[i]].cls;
		int regs = first_in[i + 1] - first_in[i], per = pack / regs;
		if (pack > 1)
			line(E, "%s i%d[%d];", asm_ctype(c), i, regs);
		for (int r = 0; r < regs; r++) {
			buf_indent(b, E->depth);
			if (pack > 1)
				buf_printf(b, "i%d[%d] = ", i, r);
			else
				buf_printf(b, "%s i%d = ", asm_ctype(c), i);
			for (int q = 0; q < per; q++) {
				char name[32];
				if (pack > 1)
					snprintf(name, sizeof name, "a%d_%d", i, r * per + q);
				else
					snprintf(name, sizeof name, "a%d", i);
				if (per == 1) {
					asm_to_class(b, c, dt, name);
					break;
				}
				buf_printf(b, "%s(%s)(", q ? " | " : "", asm_ctype(c));
				asm_bits(b, dt, name);
				buf_printf(b, " << %d)", q * dtype_bytes(dt) * 8);
			}
			buf_puts(b, ";\n");
		}
	}
	buf_indent(b, E->depth);
	buf_printf(b, "asm%s(", v->hint[TC_MAX_RANK - 1] ? "" : " volatile");
	asm_text(b, nl + 1);
	buf_puts(b, " :");
	for (int i = 0; i < nout; i++)
		for (int k = first_out[i]; k < first_out[i + 1] && k < nops; k++)
			buf_printf(b, pack > 1 ? "%s \"%.*s\"(o%d[%d])" : "%s \"%.*s\"(o%d)", k ? "," : "", cons[k].len, cons[k].s,
				   i, k - first_out[i]);
	buf_puts(b, " :");
	for (int i = 0; i < nargs; i++)
		for (int k = first_in[i]; k < first_in[i + 1] && k < nops; k++)
			buf_printf(b, pack > 1 ? "%s \"%.*s\"(i%d[%d])" : "%s \"%.*s\"(i%d)", k > first_in[0] ? "," : "",
				   cons[k].len, cons[k].s, i, k - first_in[i]);
	if (clobbers.len)
		buf_printf(b, " : %s", clobbers.data);
	buf_puts(b, ");\n");
	for (int i = 0; i < nout; i++) {
		DType dt = (DType)v->hint[i];
		int regs = first_out[i + 1] - first_out[i], per = pack / (regs > 0 ? regs : 1);
		char o[64];
		if (pack == 1)
			snprintf(o, sizeof o, "o%d", i);
		else if (per == 1)
			snprintf(o, sizeof o, "o%d[slot]", i);
		else
			snprintf(o, sizeof o, "(o%d[slot / %d] >> (slot %% %d * %d))", i, per, per, dtype_bytes(dt) * 8);
		char c = first_out[i] < nops ? cons[first_out[i]].cls : 'r';
		buf_indent(b, E->depth);
		buf_puts(b, nout > 1 ? "" : "return ");
		if (nout > 1) {
			if (i == 0) {
				buf_printf(b, "tc_asm_%lld_t r;\n", id);
				buf_indent(b, E->depth);
			}
			buf_printf(b, "r.r%d = ", i);
		}
		if (per > 1)
			asm_from_bits(b, dt, o);
		else
			asm_from_class(b, c, nout > 1 ? dt : v->type.dtype, o);
		buf_puts(b, ";\n");
	}
	if (nout > 1)
		line(E, "return r;");
	E->depth--;
	line(E, "};");
	buf_free(&clobbers);
	free(first_in);
	free(cons);
}

/* An expression as a string, for the printers' hooks. */
static char *expr_str(Emit *E, const SExpr *e)
{
	Buf tmp = {0}, *saved = E->b;
	E->b = &tmp;
	expr(E, e);
	E->b = saved;
	return buf_detach(&tmp);
}

static char *str_printf(const char *fmt, ...) TC_PRINTF(1, 2);
static char *str_printf(const char *fmt, ...)
{
	Buf b = {0};
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	return buf_detach(&b);
}

/* CUDA: the block's start as an address of the shared window, taken from
 * the array's symbol (a constant of the link) and not converted back from
 * a generic pointer, which nvcc redoes in every loop iteration (a read of
 * the cluster's CTA id and five more instructions a copy or descriptor).
 * Asynchronous copies and wgmma descriptors address the window by it. It
 * passes through an asm so that nvcc keeps it in a register: left as an
 * expression, nvcc recomputes it from the CTA id (S2UR, a slow read) before
 * every group of wgmma descriptors and copies inside a loop (3 % of the
 * persistent matmul's time on an H200, bench/persistent/RESULTS.md). */
static void shared_window(Emit *E, int align)
{
	if (!E->window)
		return;
	line(E, "const tc_u32 tc_shared_s0 = (tc_u32)__cvta_generic_to_shared(tc_shared_block);");
	if (align > 16)
		line(E, "const tc_u32 tc_shared_s = (tc_u32)tc_kept_i32((tc_i32)(tc_shared_s0 + (-tc_shared_s0 & %du)));", align - 1);
	else
		line(E, "const tc_u32 tc_shared_s = (tc_u32)tc_kept_i32((tc_i32)tc_shared_s0);");
}

/* The shared window address of array `r` (CUDA), as text. */
static char *window_of(Emit *E, const SReg *r)
{
	if (E->k->dynamic_bytes || E->k->shared_reuse)
		return str_printf("(tc_shared_s + %du)", r->offset);
	return str_printf("((tc_u32)__cvta_generic_to_shared(%s))", r->name);
}

/* `r` at `index` + j, as a string */
static char *elem_str(Emit *E, const SExpr *refe, int j)
{
	if (refe->kind != SE_REF || !refe->index || j == 0)
		return expr_str(E, refe);
	Buf tmp = {0}, *saved = E->b;
	E->b = &tmp;
	buf_puts(&tmp, refe->reg->name);
	if (E->P->lockstep && refe->reg->kind == SR_THREAD)
		buf_puts(&tmp, E->in_threads ? "[t]" : "[0]");
	buf_putc(&tmp, '[');
	expr(E, refe->index);
	buf_printf(&tmp, " + %d]", j);
	E->b = saved;
	return buf_detach(&tmp);
}

/* ---- memory ---- */

static const char *from_memory(DType dt)
{
	switch (dt) {
	case DT_F16: return "tc_f16_to_f32";
	case DT_BF16: return "tc_bf16_to_f32";
	case DT_F8E4NV: return "tc_fp8e4nv_to_f32";
	case DT_F8E5: return "tc_fp8e5_to_f32";
	case DT_F8E4B15: return "tc_fp8e4b15_to_f32";
	case DT_F8E4B8: return "tc_fp8e4b8_to_f32";
	case DT_F8E5B16: return "tc_fp8e5b16_to_f32";
	case DT_I1: return "0 != ";
	default: return "";
	}
}

static const char *to_memory(DType dt)
{
	switch (dt) {
	case DT_F16: return "tc_f32_to_f16";
	case DT_BF16: return "tc_f32_to_bf16";
	case DT_F8E4NV: return "tc_f32_to_fp8e4nv";
	case DT_F8E5: return "tc_f32_to_fp8e5";
	case DT_F8E4B15: return "tc_f32_to_fp8e4b15";
	case DT_F8E4B8: return "tc_f32_to_fp8e4b8";
	case DT_F8E5B16: return "tc_f32_to_fp8e5b16";
	case DT_I1: return "(tc_i8)";
	default: return "";
	}
}

/* Elements whose 32-bit words the word loads and stores carry: 16-bit
 * pairs, 32-bit elements, and 64-bit ones as two words, low first. */
static bool word_sized(DType dt)
{
	return dt == DT_F32 || dt == DT_I32 || dt == DT_U32 || dt == DT_F16 || dt == DT_BF16 || dt == DT_I64 ||
	       dt == DT_U64 || dt == DT_F64 || dtype_is_fp8(dt);   /* fp8: bytes of 4 a word */
}

/* The 64 bits of 8-byte value `v` as a tc_u64 expression */
static char *bits64(DType dt, const char *v)
{
	return dt == DT_F64 ? str_printf("((tc_u64)__double_as_longlong(%s))", v) : str_printf("((tc_u64)(%s))", v);
}

/* The address of an access of the bytes [ptr, ptr + bytes) as a statement
 * of source line `at` makes it: in a checked C kernel (tritonc run) through
 * TC_CHECKED, which stops the run at the first access outside every buffer,
 * else `ptr` itself. */
static char *access_ptr(Emit *E, const char *ptr, int bytes, int at, bool write)
{
	if (!E->k->target.checked)
		return str_printf("%s", ptr);
	return str_printf("TC_CHECKED(%s, %d, %d, %d)", ptr, bytes, at, write);
}

static void load_stmt(Emit *E, const SStmt *s)
{
	DType dt = s->dst->reg->dtype;
	int size = dt == DT_I1 ? 1 : dtype_bytes(dt);
	int bytes = s->vec * size;
	char *ptr = expr_str(E, s->ptr);
	char *guard = s->guard ? expr_str(E, s->guard) : NULL;
	char *other = s->other ? expr_str(E, s->other) : NULL;
	bool words = E->P->load_words && word_sized(dt) && bytes % 4 == 0 && (s->vec > 1 || s->evict != EVICT_NORMAL);
	if (!words) {
		for (int j = 0; j < s->vec; j++) {
			char *dst = elem_str(E, s->dst, j);
			char *at = access_ptr(E, ptr, (j + 1) * size, s->line, false);
			if (guard)
				line(E, "%s = %s ? %s(((const %s *)%s)[%d]) : %s;", dst, guard, from_memory(dt),
				     simt_mem_ctype(dt), at, j, other);
			else
				line(E, "%s = %s(((const %s *)%s)[%d]);", dst, from_memory(dt), simt_mem_ctype(dt), at, j);
			free(at);
			free(dst);
		}
		goto done;
	}
	/* Masked: w starts as `other`'s bits and the load is one predicated
	 * instruction, so a thread's loads issue back to back (a branch around
	 * each would wait for one before the next). A block of its own: its
	 * words are its own. */
	line(E, "{");
	E->depth++;
	int nwords = bytes / 4;
	if (guard) {
		char *bits[2] = {NULL, NULL};   /* even words, odd words */
		if (size == 8) {
			char *b = bits64(dt, other);
			bits[0] = str_printf("(tc_u32)%s", b);
			bits[1] = str_printf("(tc_u32)(%s >> 32)", b);
			free(b);
		} else if (size == 4)
			bits[0] = str_printf("%s(%s)", dtype_is_float(dt) ? "tc_f32_bits" : "(tc_u32)", other);
		else if (size == 1 && s->other->kind == SE_FLOAT)
			bits[0] = str_printf("0x%08xu", dtype_fp8_from_float(dt, (float)s->other->fval) * 0x01010101u);
		else if (size == 1)
			bits[0] = str_printf("(tc_u32)%s(%s) * 0x01010101u", to_memory(dt), other);
		else if (s->other->kind == SE_FLOAT) {   /* a constant the C++ compiler cannot pack through the asm */
			float f = (float)s->other->fval;
			unsigned h = dt == DT_BF16 ? dtype_bf16_from_float(f) : dtype_fp16_from_float(f);
			bits[0] = str_printf("0x%08xu", h << 16 | h);
		} else
			bits[0] = str_printf("tc_pack_%s(%s, %s)", dt == DT_BF16 ? "bf16x2" : "f16x2", other, other);
		buf_indent(E->b, E->depth);
		buf_printf(E->b, "tc_u32 w[%d] = {", nwords);
		for (int i = 0; i < nwords; i++)
			buf_printf(E->b, "%s%s", i ? ", " : "", bits[size == 8 ? i % 2 : 0]);
		buf_puts(E->b, "};\n");
		free(bits[0]);
		free(bits[1]);
	} else {
		line(E, "tc_u32 w[%d];", nwords);
	}
	buf_indent(E->b, E->depth);
	E->P->load_words(E->b, nwords, s->evict, ptr, guard);
	for (int j = 0; j < s->vec; j++) {
		char *dst = elem_str(E, s->dst, j);
		if (size == 8)
			line(E, "%s = %s((tc_u64)w[%d] | (tc_u64)w[%d] << 32)%s;", dst,
			     dt == DT_F64 ? "__longlong_as_double((tc_i64)" : "", 2 * j, 2 * j + 1, dt == DT_F64 ? ")" : "");
		else if (size == 4)
			line(E, "%s = %s(w[%d]);", dst, dtype_is_float(dt) ? "tc_f32_from_bits" : "", j);
		else if (size == 1)
			line(E, "%s = %s((tc_u8)(w[%d] >> %d));", dst, from_memory(dt), j / 4, 8 * (j % 4));
		else if (dt == DT_BF16)
			line(E, "%s = tc_bf16_%s(w[%d]);", dst, j % 2 ? "hi" : "lo", j / 2);
		else
			line(E, "%s = %s((tc_u16)(w[%d] >> %d));", dst, from_memory(dt), j / 2, 16 * (j % 2));
		free(dst);
	}
	E->depth--;
	line(E, "}");
done:
	free(ptr);
	free(guard);
	free(other);
}

static void store_stmt(Emit *E, const SStmt *s)
{
	DType dt = s->value->dtype;
	int size = dt == DT_I1 ? 1 : dtype_bytes(dt);
	int bytes = s->vec * size;
	char *ptr = expr_str(E, s->ptr);
	bool words = E->P->store_words && word_sized(dt) && bytes % 4 == 0 && s->vec > 1;
	bool block = s->guard || words;   /* words in a block of their own */
	if (s->guard) {
		char *guard = expr_str(E, s->guard);
		line(E, "if (%s) {", guard);
		free(guard);
	} else if (block)
		line(E, "{");
	E->depth += block;
	if (!words) {
		for (int j = 0; j < s->vec; j++) {
			char *v = elem_str(E, s->value, j * s->value_stride);
			char *at = access_ptr(E, ptr, (j + 1) * size, s->line, true);
			line(E, "((%s *)%s)[%d] = %s(%s);", simt_mem_ctype(dt), at, j, to_memory(dt), v);
			free(at);
			free(v);
		}
	} else {
		int nwords = bytes / 4;
		line(E, "tc_u32 w[%d];", nwords);
		for (int j = 0; j < s->vec; j++) {
			char *v = elem_str(E, s->value, j * s->value_stride);
			if (size == 8) {
				char *b = bits64(dt, v);
				line(E, "w[%d] = (tc_u32)%s;", 2 * j, b);
				line(E, "w[%d] = (tc_u32)(%s >> 32);", 2 * j + 1, b);
				free(b);
			} else if (size == 4)
				line(E, "w[%d] = %s(%s);", j, dtype_is_float(dt) ? "tc_f32_bits" : "(tc_u32)", v);
			else if (size == 1)
				line(E, "w[%d] %s (tc_u32)%s(%s) << %d;", j / 4, j % 4 ? "|=" : "=", to_memory(dt), v, 8 * (j % 4));
			else if (j % 2 == 1) {
				char *lo = elem_str(E, s->value, (j - 1) * s->value_stride);
				line(E, "w[%d] = tc_pack_%s(%s, %s);", j / 2, dt == DT_BF16 ? "bf16x2" : "f16x2", lo, v);
				free(lo);
			}
			free(v);
		}
		buf_indent(E->b, E->depth);
		E->P->store_words(E->b, nwords, ptr);
	}
	if (block) {
		E->depth--;
		line(E, "}");
	}
	free(ptr);
}

/* ---- statements ---- */

static void shuffle_stmt(Emit *E, const SStmt *s)
{
	bool many = s->src->count > 1;
	if (many)
		line(E, "for (int i = 0; i < %d; ++i)", s->src->count);
	E->depth += many;
	buf_indent(E->b, E->depth);
	E->P->shuffle(E->b, E->k, s, many ? "[i]" : "");
	E->depth -= many;
}

static void assign_stmt(Emit *E, const SStmt *s);
static void other_stmt(Emit *E, const SStmt *s);

static void body(Emit *E, const SStmt *s)
{
	switch (s->kind) {
	case SS_ASSIGN:
		for (; s; s = s->also)
			assign_stmt(E, s);
		return;
	default:
		other_stmt(E, s);
	}
}

/* `e` >> shift as text, for a wgmma operand's start (SReg.desc_shift),
 * whose value is a multiple of 2^shift: a term `x * C` with C a multiple of
 * it and a constant that is one are divided where they stand, so that the
 * C++ compiler sees slot * (bytes / 16) + constant instead of a shift of
 * a sum it must keep exact for a wrap it cannot rule out (a dozen uniform
 * instructions before each wgmma); the rest of a sum is then a multiple
 * too and is shifted as it is. */
/* The factor of product `e` that is a positive constant multiple of m
 * (0 or 1), or -1. */
static int multiple_factor(const SExpr *e, int64_t m)
{
	for (int i = 1; i >= 0; i--)
		if (e->a[i]->kind == SE_INT && e->a[i]->ival > 0 && e->a[i]->ival % m == 0)
			return i;
	return -1;
}

static bool multiple_term(const SExpr *e, int shift)
{
	int64_t m = (int64_t)1 << shift;
	if (e->kind == SE_INT)
		return e->ival >= 0 && e->ival % m == 0;
	return e->kind == SE_BINARY && e->aux == TOP_MUL && multiple_factor(e, m) >= 0;
}

static char *desc_units(Emit *E, const SExpr *e, int shift)
{
	int64_t m = (int64_t)1 << shift;
	if (e->kind == SE_INT && multiple_term(e, shift))
		return str_printf("%lld", (long long)(e->ival / m));
	if (e->kind == SE_BINARY && e->aux == TOP_MUL && multiple_term(e, shift)) {
		int c = multiple_factor(e, m);
		char *x = expr_str(E, e->a[1 - c]), *r = str_printf("(%s * %lld)", x, (long long)(e->a[c]->ival / m));
		free(x);
		return r;
	}
	if (e->kind == SE_BINARY && e->aux == TOP_ADD && (multiple_term(e->a[0], shift) || multiple_term(e->a[1], shift))) {
		char *a = desc_units(E, e->a[0], shift), *b = desc_units(E, e->a[1], shift);
		char *r = str_printf("(%s + %s)", a, b);
		free(a);
		free(b);
		return r;
	}
	char *x = expr_str(E, e), *r = str_printf("(tc_i32)((tc_u32)(%s) >> %d)", x, shift);
	free(x);
	return r;
}

static void assign_stmt(Emit *E, const SStmt *s)
{
	const SReg *r = s->dst->reg;
	if (!(r->desc_shift && E->window) && !r->packed && !(r->kept && E->window)) {   /* most: printed in place */
		if (s->guard) {
			buf_indent(E->b, E->depth);
			buf_puts(E->b, "if (");
			expr(E, s->guard);
			buf_puts(E->b, ")\n");
		}
		buf_indent(E->b, E->depth + (s->guard != NULL));
		expr(E, s->dst);
		buf_puts(E->b, " = ");
		expr(E, s->value);
		buf_puts(E->b, ";\n");
		return;
	}
	{
		char *dst = expr_str(E, s->dst);
		char *value = s->dst->reg->desc_shift && E->window ? desc_units(E, s->value, s->dst->reg->desc_shift)
		                                                   : expr_str(E, s->value);
		if (s->dst->reg->packed) {   /* a 16-bit pattern in shared memory */
			char *v = value;
			value = str_printf("%s(%s)", to_memory(s->dst->reg->dtype), v);
			free(v);
		}
		if (s->dst->reg->kept && E->window) {   /* CUDA: see SReg.kept */
			char *v = value;
			value = str_printf("tc_kept_i32(%s)", v);
			free(v);
		}
		if (s->guard) {
			char *guard = expr_str(E, s->guard);
			line(E, "if (%s)", guard);
			free(guard);
			E->depth++;
			line(E, "%s = %s;", dst, value);
			E->depth--;
		} else {
			line(E, "%s = %s;", dst, value);
		}
		free(dst);
		free(value);
	}
}

/* `text` as a C string literal */
static char *c_string(const char *text)
{
	Buf b = {0};
	buf_putc(&b, '"');
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == '"' || *p == '\\')
			buf_printf(&b, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f || *p == '%')
			buf_printf(&b, *p == '%' ? "%%%%" : "\\%03o", *p);
		else
			buf_putc(&b, (char)*p);
	}
	buf_putc(&b, '"');
	return buf_detach(&b);
}

/* printf(text, items...): the format's % kept, each item cast to what
 * its conversion reads. */
static void print_stmt(Emit *E, const SStmt *s)
{
	Buf b = {0};
	buf_puts(&b, "printf(\"");
	for (const unsigned char *p = (const unsigned char *)s->text; *p; p++) {
		if (*p == '"' || *p == '\\')
			buf_printf(&b, "\\%c", *p);
		else if (*p == '\n')
			buf_puts(&b, "\\n");
		else if (*p < 0x20 || *p >= 0x7f)
			buf_printf(&b, "\\%03o", *p);
		else
			buf_putc(&b, (char)*p);
	}
	buf_putc(&b, '"');
	for (int i = 0; i < s->nitems; i++) {
		const SExpr *e = s->items[i];
		DType dt = e->dtype;
		char *x = expr_str(E, e);
		const char *cast = dtype_is_float(dt) ? "(double)" : dt == DT_PTR ? "(void *)" :
				   dtype_bytes(dt) == 8 ? (dtype_is_signed(dt) ? "(long long)" : "(unsigned long long)") :
				   dtype_is_signed(dt) ? "(int)" : "(unsigned)";
		buf_printf(&b, ", %s(%s)", cast, x);
		free(x);
	}
	buf_puts(&b, ");");
	if (s->guard) {
		char *guard = expr_str(E, s->guard);
		line(E, "if (%s)", guard);
		free(guard);
		E->depth++;
	}
	line(E, "%s", buf_str(&b));
	if (s->guard)
		E->depth--;
	buf_free(&b);
}

static void assert_stmt(Emit *E, const SStmt *s)
{
	char *guard = expr_str(E, s->guard), *msg = c_string(s->text);
	line(E, "if (%s) {", guard);
	E->depth++;
	buf_indent(E->b, E->depth);
	E->P->assert_fail(E->b, E->k, msg, s->line);
	E->depth--;
	line(E, "}");
	free(guard);
	free(msg);
}

/* Whether `e` is one parenthesized expression: its first '(' closes at its end. */
static bool parenthesized(const char *e)
{
	size_t n = strlen(e);
	if (n < 2 || e[0] != '(' || e[n - 1] != ')')
		return false;
	int depth = 0;
	for (size_t i = 0; i < n; i++) {
		depth += e[i] == '(' ? 1 : e[i] == ')' ? -1 : 0;
		if (depth == 0 && i + 1 < n)
			return false;
	}
	return true;
}

static void atomic_stmt(Emit *E, const SStmt *s)
{
	char *dst = s->dst ? expr_str(E, s->dst) : NULL, *ptr = expr_str(E, s->ptr), *value = expr_str(E, s->value);
	char *expected = s->expected ? expr_str(E, s->expected) : NULL;
	if (E->k->target.checked) {
		DType vt = s->value->dtype;
		char *at = access_ptr(E, ptr, vt == DT_I1 ? 1 : dtype_bytes(vt), s->line, true);
		free(ptr);
		ptr = at;
	}
	if (s->guard) {
		char *guard = expr_str(E, s->guard);
		line(E, parenthesized(guard) ? "if %s" : "if (%s)", guard);
		free(guard);
	}
	E->depth += s->guard != NULL;
	buf_indent(E->b, E->depth);
	E->P->atomic(E->b, s, dst, ptr, value, expected);
	E->depth -= s->guard != NULL;
	if (s->guard && dst && s->dst->reg->kind != SR_SHARED) {   /* one thread's shared slot: the others keep out */
		line(E, "else");
		E->depth++;
		line(E, "%s = 0;", dst);
		E->depth--;
	}
	free(dst);
	free(ptr);
	free(value);
	free(expected);
}

/* ---- matrix instructions ----
 * CUDA and HIP call one helper per instruction (the printers' heads define
 * them); the C printer calls helpers that run a whole warp's instruction
 * from every lane's registers, as the hardware distributes them. */

/* The helper of an instruction: tc_NAME, or for 16-bit operands (`typed`)
 * tc_NAME_f16 / tc_NAME_bf16 on the GPUs and tc_NAME(bf16, ..) in C. */
static const char *mma_helper(const SStmt *s, bool *typed)
{
	*typed = s->mop == MMA_M16N8K16 || s->mop == MFMA_16X16X16;
	switch (s->mop) {
	case MMA_M16N8K16: return "mma_m16n8k16";
	case MFMA_16X16X16: return "mfma_16x16x16";
	case MMA_M16N8K8_TF32: return "mma_m16n8k8_tf32";
	case MMA_M16N8K32_S8: return "mma_m16n8k32_s8";
	case MFMA_16X16X4_F32: return "mfma_16x16x4_f32";
	case MFMA_16X16X8_XF32: return "mfma_16x16x8_xf32";
	case MFMA_16X16X16_I8: return "mfma_16x16x16_i8";
	case MFMA_16X16X32_I8: return "mfma_16x16x32_i8";
	case WGMMA_M64K16: break;
	}
	return "wgmma";
}

/* The lanes of one instruction: AMD's wavefront, or NVIDIA's warp. */
static int mma_lanes(MatrixOp op)
{
	return op == MFMA_16X16X16 || op == MFMA_16X16X4_F32 || op == MFMA_16X16X8_XF32 || op == MFMA_16X16X16_I8 ||
	       op == MFMA_16X16X32_I8 ? 64 : 32;
}

/* `&r[0][0]` of a lockstep thread register, and its registers per thread */
static char *thread_base(const SReg *r)
{
	return str_printf("&%s[0]%s", r->name, r->count > 1 ? "[0]" : "");
}

/* The index of a register reference, "0" for a register of one element. */
static char *index_str(Emit *E, const SExpr *ref)
{
	return ref->index ? expr_str(E, ref->index) : str_printf("0");
}

static void fragment_stmt(Emit *E, const SStmt *s)
{
	char *ptr = expr_str(E, s->ptr);
	if (!s->nmat) {
		char *dst = expr_str(E, s->dst), *hi = expr_str(E, s->value);
		line(E, "%s = (tc_u32)%s[%s] | (tc_u32)%s[%s] << 16;", dst, s->src->name, ptr, s->src->name, hi);
		free(dst);
		free(hi);
	} else if (E->P->lockstep) {
		char *dbase = thread_base(s->dst->reg), *abase = thread_base(s->ptr->reg);
		char *di = index_str(E, s->dst), *ai = index_str(E, s->ptr);
		line(E, "for (int w0 = 0; w0 < TC_THREADS; w0 += 32)");
		line(E, "	tc_ldmatrix(%s, %d, %s, %s, %s, %d, %s, w0, %d, %d);", dbase, s->dst->reg->count, di, s->src->name,
		     abase, s->ptr->reg->count, ai, s->nmat, s->trans);
		free(dbase);
		free(abase);
		free(di);
		free(ai);
	} else {
		char *dst = expr_str(E, s->dst);
		line(E, "tc_ldmatrix_x%d%s(&%s, &%s[%s]);", s->nmat, s->trans ? "_trans" : "", dst, s->src->name, ptr);
		free(dst);
	}
	free(ptr);
}

/* The fields of a wgmma descriptor but its address: lbo and sbo in units
 * of 16 bytes at bits 16 and 32, the swizzle mode at bit 62 (1: 128 bytes,
 * 2: 64, 3: 32). */
static unsigned long long wgmma_fields(const WgmmaDesc *d)
{
	unsigned long long mode = d->swizzle == 128 ? 1 : d->swizzle == 64 ? 2 : 3;
	return (unsigned long long)(d->lbo >> 4 & 0x3fff) << 16 | (unsigned long long)(d->sbo >> 4 & 0x3fff) << 32 |
	       mode << 62;
}

/* A wgmma operand's descriptor (CUDA): the array's window `w`, its fields,
 * and the start `at` (text of `ref`), held in 16-byte units where its
 * register says so (SReg.desc_shift), else in elements of `bytes`. */
static char *desc_text(const Emit *E, const char *w, const WgmmaDesc *d, const SExpr *ref, const char *at,
                       const SReg *arr)
{
	if (ref->reg->desc_shift && E->window)   /* as assign_stmt wrote it */
		return str_printf("tc_wgmma_desc_u(%s, 0x%llxull, %s)", w, wgmma_fields(d), at);
	return str_printf("tc_wgmma_desc_at(%s, 0x%llxull, (%s) * %d)", w, wgmma_fields(d), at, dtype_bytes(arr->dtype));
}

/* The accumulators of a wgmma call, in the instruction's order. */
static void wgmma_accumulators(Emit *E, const SStmt *s, const char *x, const char *y)
{
	const char *acc = s->acc[0]->reg->name;
	for (int j = 0; j < s->n / 8; j++)
		line(E, "	%s[%s + %d], %s[%s + %d], %s[%s + %d], %s[%s + %d]%s", acc, x, 2 * j, acc, x, 2 * j + 1, acc, y, 2 * j,
		     acc, y, 2 * j + 1, j + 1 < s->n / 8 ? "," : ");");
}

/* wgmma with A from the threads' registers (4 words each, frag_a the
 * first): on the GPU one call; on the CPU the model gathers the
 * warpgroup's A from every thread's words as the hardware does. */
static void wgmma_regs_stmt(Emit *E, const SStmt *s, char *x, char *y)
{
	const WgmmaDesc *db = &s->desc[1];
	if (E->P->lockstep) {
		char *a = thread_base(s->frag_a->reg), *b = thread_base(s->frag_b->reg), *c = thread_base(s->acc[0]->reg);
		char *ai = index_str(E, s->frag_a), *bi = index_str(E, s->frag_b);
		line(E, "for (int w0 = 0; w0 < TC_THREADS; w0 += 128)");
		line(E, "	tc_wgmma_ra(%d, %d, %s, %d, %s, %s, %s, %d, %s, (const int[4]){%d, %d, %d, %d}, %s, %d, %s, %s, w0);",
		     s->operand == DT_BF16, s->n, a, s->frag_a->reg->count, ai, s->smem[1]->name, b, s->frag_b->reg->count, bi,
		     db->lbo, db->sbo, db->swizzle, db->trans, c, s->acc[0]->reg->count, x, y);
		free(a);
		free(b);
		free(c);
		free(ai);
		free(bi);
	} else {
		char *w[4], *b = expr_str(E, s->frag_b);
		for (int j = 0; j < 4; j++)
			w[j] = elem_str(E, s->frag_a, j);
		char *wb = window_of(E, s->smem[1]);
		char *tb = desc_text(E, wb, db, s->frag_b, b, s->smem[1]);
		line(E, "tc_wgmma_m64n%dk16_%s_r%d(%s, %s, %s, %s, %s,", s->n, s->operand == DT_BF16 ? "bf16" : "f16",
		     db->trans, w[0], w[1], w[2], w[3], tb);
		free(tb);
		free(wb);
		wgmma_accumulators(E, s, x, y);
		for (int j = 0; j < 4; j++)
			free(w[j]);
		free(b);
	}
	free(x);
	free(y);
}

/* wgmma: on the GPU one call with the accumulators in the instruction's
 * order; on the CPU the model reads the warpgroup's operands as the
 * descriptors say. */
static void wgmma_stmt(Emit *E, const SStmt *s)
{
	char *x = index_str(E, s->acc[0]), *y = index_str(E, s->acc[1]);
	if (!s->smem[0]) {
		wgmma_regs_stmt(E, s, x, y);
		return;
	}
	if (E->P->lockstep) {
		char *a = thread_base(s->frag_a->reg), *b = thread_base(s->frag_b->reg), *c = thread_base(s->acc[0]->reg);
		char *ai = index_str(E, s->frag_a), *bi = index_str(E, s->frag_b);
		const WgmmaDesc *da = &s->desc[0], *db = &s->desc[1];
		line(E, "for (int w0 = 0; w0 < TC_THREADS; w0 += 128)");
		line(E, "	tc_wgmma(%d, %d, %s, %s, %d, %s, (const int[4]){%d, %d, %d, %d}, %s, %s, %d, %s, "
			"(const int[4]){%d, %d, %d, %d}, %s, %d, %s, %s, w0);",
		     s->operand == DT_BF16, s->n, s->smem[0]->name, a, s->frag_a->reg->count, ai, da->lbo, da->sbo, da->swizzle,
		     da->trans, s->smem[1]->name, b, s->frag_b->reg->count, bi, db->lbo, db->sbo, db->swizzle, db->trans, c,
		     s->acc[0]->reg->count, x, y);
		free(a);
		free(b);
		free(c);
		free(ai);
		free(bi);
	} else {
		char *a = expr_str(E, s->frag_a), *b = expr_str(E, s->frag_b);
		char *wa = window_of(E, s->smem[0]), *wb = window_of(E, s->smem[1]);
		char *ta = desc_text(E, wa, &s->desc[0], s->frag_a, a, s->smem[0]);
		char *tb = desc_text(E, wb, &s->desc[1], s->frag_b, b, s->smem[1]);
		line(E, "tc_wgmma_m64n%dk16_%s_%d%d(%s, %s,", s->n, s->operand == DT_BF16 ? "bf16" : "f16",
		     s->desc[0].trans, s->desc[1].trans, ta, tb);
		free(ta);
		free(tb);
		free(wa);
		free(wb);
		wgmma_accumulators(E, s, x, y);
		free(a);
		free(b);
	}
	free(x);
	free(y);
}

/* wgmma's fence, commit and wait; the accumulators `src` are fenced on
 * both sides so that the compiler moves none of their uses across. */
static void wgmma_sync_stmt(Emit *E, const SStmt *s)
{
	if (E->P->lockstep) {   /* the C model's groups (c.c, c_wgmma_queue) */
		if (s->kind == SS_MMA_COMMIT)
			line(E, "tc_wgmma_commit_model();");
		else if (s->kind == SS_MMA_WAIT)
			line(E, "tc_wgmma_wait_model(%d);", s->vec);
		return;
	}
	if (s->kind == SS_MMA_FENCE && !s->src) {   /* shared memory written by threads, then read by wgmma */
		line(E, "asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");");
		return;
	}
	if (s->kind == SS_MMA_WAIT)
		line(E, "tc_wgmma_wait(%d);", s->vec);
	if (s->kind != SS_MMA_COMMIT) {
		line(E, "#pragma unroll");
		line(E, "for (int i0 = 0; i0 < %d; ++i0)", s->src->count);
		line(E, "	tc_fence_operand(%s[i0]);", s->src->name);
	}
	if (s->kind != SS_MMA_COMMIT && s->frag_regs) {
		line(E, "#pragma unroll");
		line(E, "for (int i0 = 0; i0 < %d; ++i0)", s->frag_regs->count);
		line(E, "	tc_fence_operand(%s[i0]);", s->frag_regs->name);
	}
	if (s->kind == SS_MMA_FENCE)
		line(E, "tc_wgmma_fence();");
	if (s->kind == SS_MMA_COMMIT)
		line(E, "tc_wgmma_commit();");
}

static void mma_stmt(Emit *E, const SStmt *s)
{
	if (s->mop == WGMMA_M64K16) {
		wgmma_stmt(E, s);
		return;
	}
	bool typed;
	const char *helper = mma_helper(s, &typed);
	char *acc[4];
	for (int i = 0; i < 4; i++)
		acc[i] = E->P->lockstep ? index_str(E, s->acc[i]) : expr_str(E, s->acc[i]);
	if (E->P->lockstep) {
		char *a = thread_base(s->frag_a->reg), *b = thread_base(s->frag_b->reg), *c = thread_base(s->acc[0]->reg);
		char *ai = index_str(E, s->frag_a), *bi = index_str(E, s->frag_b);
		line(E, "for (int w0 = 0; w0 < TC_THREADS; w0 += %d)", mma_lanes(s->mop));
		line(E, "	tc_%s(%s%s, %d, %s, %s, %d, %s, %s, %d, (const int[4]){%s, %s, %s, %s}, w0);", helper,
		     typed ? (s->operand == DT_BF16 ? "1, " : "0, ") : "", a, s->frag_a->reg->count, ai, b,
		     s->frag_b->reg->count, bi, c, s->acc[0]->reg->count, acc[0], acc[1], acc[2], acc[3]);
		free(a);
		free(b);
		free(c);
		free(ai);
		free(bi);
	} else {
		char *a = expr_str(E, s->frag_a), *b = expr_str(E, s->frag_b);
		line(E, "tc_%s%s(%s, %s, %s, %s, &%s, &%s);", helper, typed ? (s->operand == DT_BF16 ? "_bf16" : "_f16") : "",
		     acc[0], acc[1], acc[2], acc[3], a, b);
		free(a);
		free(b);
	}
	for (int i = 0; i < 4; i++)
		free(acc[i]);
}

/* Where an asynchronous copy writes: the byte's address in the shared
 * window (CUDA's copy helpers take it as a 32-bit value). */
static char *copy_target(Emit *E, const SExpr *dst)
{
	char *base = window_of(E, dst->reg), *at = index_str(E, dst);
	char *t = str_printf("%s + (tc_u32)(%s) * %du", base, at, (unsigned)dtype_bytes(dst->reg->dtype));
	free(base);
	free(at);
	return t;
}

static void copy_async_stmt(Emit *E, const SStmt *s)
{
	char *ptr = expr_str(E, s->ptr), *mask = s->mask ? expr_str(E, s->mask) : NULL;
	char *count = s->other ? expr_str(E, s->other) : NULL;
	const char *type = simt_mem_ctype(s->dst->reg->dtype);
	if (s->guard) {
		char *guard = expr_str(E, s->guard);
		line(E, "if (%s) {", guard);
		free(guard);
		E->depth++;
	}
	if (count && E->P->copy_async_n) {
		char *at = copy_target(E, s->dst);
		buf_indent(E->b, E->depth);
		E->P->copy_async_n(E->b, s->vec * dtype_bytes(s->dst->reg->dtype), at, ptr, mask ? mask : "true", count,
				   dtype_bytes(s->dst->reg->dtype));
		free(at);
	} else if (E->P->copy_async && !count) {
		char *at = copy_target(E, s->dst);
		buf_indent(E->b, E->depth);
		E->P->copy_async(E->b, s->vec * dtype_bytes(s->dst->reg->dtype), at, ptr, mask);
		free(at);
	} else if (count) {   /* element j where mask and j < count: no read past the first count */
		line(E, "{");
		E->depth++;
		line(E, "int tc_n = %s ? (int)(%s) : 0;", mask ? mask : "1", count);
		for (int j = 0; j < s->vec; j++) {
			char *elem = elem_str(E, s->dst, j);
			char *at = access_ptr(E, ptr, (j + 1) * dtype_bytes(s->dst->reg->dtype), s->line, false);
			line(E, "%s = %d < tc_n ? ((const %s *)%s)[%d] : 0;", elem, j, type, at, j);
			free(at);
			free(elem);
		}
		E->depth--;
		line(E, "}");
	} else {
		for (int j = 0; j < s->vec; j++) {
			char *elem = elem_str(E, s->dst, j);
			char *at = access_ptr(E, ptr, (j + 1) * dtype_bytes(s->dst->reg->dtype), s->line, false);
			if (mask)
				line(E, "%s = %s ? ((const %s *)%s)[%d] : 0;", elem, mask, type, at, j);
			else
				line(E, "%s = ((const %s *)%s)[%d];", elem, type, at, j);
			free(at);
			free(elem);
		}
	}
	if (s->guard) {
		E->depth--;
		line(E, "}");
	}
	free(ptr);
	free(mask);
	free(count);
}


/* The bulk tensor copy engine (sm_90a): one thread of the block issues
 * the mbarriers' setup, the arrivals and the copies; every thread waits.
 * The C target runs its model (c.c): the copy of the box into the
 * swizzled layout with zeros outside the view, and the mbarriers' phases
 * and transaction counts. */
static void tma_stmt(Emit *E, const SStmt *s)
{
	bool c = E->P->lockstep;
	const char *one = c ? "" : "if (threadIdx.x == 0) ";
	if (s->kind == SS_MBAR_INIT) {
		line(E, "%s{", one);
		line(E, "	for (int i0 = 0; i0 < %d; ++i0)", s->vec);
		line(E, "		tc_mbar_init(&%s[i0], 1);", s->src->name);
		line(E, "	tc_mbar_init_fence();");
		line(E, "}");
		return;
	}
	char *bar = expr_str(E, s->bar);
	if (s->kind == SS_MBAR_EXPECT) {
		line(E, "%stc_mbar_expect_tx(&%s, %d);", one, bar, s->vec);
	} else if (s->kind == SS_MBAR_WAIT) {
		char *parity = expr_str(E, s->value);
		line(E, "tc_mbar_wait(&%s, %s);", bar, parity);
		free(parity);
	} else {
		char *dst = expr_str(E, s->dst), *c0 = expr_str(E, s->coord[0]), *c1 = expr_str(E, s->coord[1]);
		const STensorMap *m = &E->k->tmaps[s->tmap];
		if (c) {
			TValue *const *a = E->k->tile->args;
			line(E, "tc_tma_load_model(&%s, %s, (tc_i64)%s, (tc_i64)%s, (tc_i64)%s, %d, %d, %d, %d, %s, %s, &%s);",
			     dst, a[m->base]->name, a[m->shape[0]]->name, a[m->shape[1]]->name, a[m->stride]->name, m->box_rows,
			     m->box_cols, m->swizzle, dtype_bytes(m->elem), c0, c1, bar);
		} else {
			line(E, "%stc_tma_load_2d(&%s, &tc_tmap%d, %s, %s, &%s);", one, dst, s->tmap, c0, c1, bar);
		}
		free(dst);
		free(c0);
		free(c1);
	}
	free(bar);
}

static void other_stmt(Emit *E, const SStmt *s)
{
	switch (s->kind) {
	case SS_MBAR_INIT:
	case SS_MBAR_EXPECT:
	case SS_TMA_LOAD:
	case SS_MBAR_WAIT: tma_stmt(E, s); return;
	case SS_COPY_ASYNC: copy_async_stmt(E, s); return;
	case SS_COPY_COMMIT:
		if (E->P->copy_commit) {
			buf_indent(E->b, E->depth);
			E->P->copy_commit(E->b);
		}
		return;
	case SS_COPY_WAIT:
		if (E->P->copy_wait) {
			buf_indent(E->b, E->depth);
			E->P->copy_wait(E->b, s->vec);
		}
		return;
	case SS_FRAGMENT: fragment_stmt(E, s); return;
	case SS_MMA: mma_stmt(E, s); return;
	case SS_MMA_FENCE:
	case SS_MMA_COMMIT:
	case SS_MMA_WAIT: wgmma_sync_stmt(E, s); return;
	case SS_ASSERT: assert_stmt(E, s); return;
	case SS_PRINT: print_stmt(E, s); return;
	case SS_ATOMIC: atomic_stmt(E, s); return;
	case SS_LOAD: load_stmt(E, s); return;
	case SS_STORE: store_stmt(E, s); return;
	case SS_SHUFFLE: shuffle_stmt(E, s); return;
	case SS_BARRIER: buf_indent(E->b, E->depth); E->P->barrier(E->b); return;
	default: return;
	}
}

/* for, if, else and the closing brace: uniform control flow */
static void control(Emit *E, const SStmt *s)
{
	char *a, *b, *c, *iv;
	switch (s->kind) {
	case SS_FOR:
		iv = expr_str(E, simt_ref((SKernel *)E->k, s->iv, NULL));
		a = s->lo ? expr_str(E, s->lo) : NULL;   /* NULL: on from iv's value (peel.c) */
		b = expr_str(E, s->hi);
		c = expr_str(E, s->step);
		if (s->step->kind == SE_INT && s->step->ival > 0)
			line(E, "for (%s%s%s; %s < %s; %s += %s) {", a ? iv : "", a ? " = " : "", a ? a : "", iv, b, iv, c);
		else
			line(E, "for (%s%s%s; %s > 0 ? %s < %s : %s > %s; %s += %s) {", a ? iv : "", a ? " = " : "", a ? a : "",
			     c, iv, b, iv, b, iv, c);
		free(iv);
		free(a);
		free(b);
		free(c);
		E->depth++;
		return;
	case SS_IF:
		a = expr_str(E, s->guard);
		line(E, "if (%s) {", a);
		free(a);
		E->depth++;
		return;
	case SS_ELSE:
		E->depth--;
		line(E, "} else {");
		E->depth++;
		return;
	case SS_WHILE:
		line(E, "for (;;) {");
		E->depth++;
		return;
	case SS_BREAK:
		a = expr_str(E, s->guard);
		line(E, parenthesized(a) ? "if %s" : "if (%s)", a);
		line(E, "    break;");
		free(a);
		return;
	default:
		E->depth--;
		line(E, "}");
		return;
	}
}

static void stmt(Emit *E, const SStmt *s)
{
	if (s->kind == SS_COMMENT) {
		buf_putc(E->b, '\n');
		buf_indent(E->b, E->depth);
		buf_puts(E->b, "// ");
		buf_put_int(E->b, s->line);
		buf_puts(E->b, ": ");
		buf_puts(E->b, s->text);
		buf_putc(E->b, '\n');
		return;
	}
	if (s->kind == SS_FOR || s->kind == SS_IF || s->kind == SS_ELSE || s->kind == SS_END || s->kind == SS_WHILE ||
	    s->kind == SS_BREAK) {
		control(E, s);
		return;
	}
	int opened = 0;
	if (E->P->lockstep && !s->uniform && s->kind != SS_BARRIER) {
		line_str(E, "for (int t = 0; t < TC_THREADS; ++t) {");
		E->depth++;
		opened++;
		E->in_threads = true;
	}
	for (int i = 0; i < s->nloops; i++) {
		if (!E->P->lockstep)
			line_str(E, "#pragma unroll");
		Buf *b = E->b;   /* for (int iI = 0; iI < EXTENT; ++iI) { */
		buf_indent(b, E->depth);
		buf_puts(b, "for (int i");
		buf_put_int(b, i);
		buf_puts(b, " = 0; i");
		buf_put_int(b, i);
		buf_puts(b, " < ");
		buf_put_int(b, s->extent[i]);
		buf_puts(b, "; ++i");
		buf_put_int(b, i);
		buf_puts(b, ") {\n");
		E->depth++;
		opened++;
	}
	body(E, s);
	while (opened--) {
		E->depth--;
		line_str(E, "}");
	}
	E->in_threads = false;
}

static void declare(Emit *E, const SReg *r, Arena *scratch)
{
	const char *type = reg_type(r, scratch);
	size_t n = strlen(type);
	const char *sep = type[n - 1] == '*' ? "" : " ", *init;
	switch (r->kind) {
	case SR_THREAD:
		if (E->P->lockstep)
			line(E, "%s%s%s[TC_THREADS]%s;", type, sep, r->name,
			     r->count > 1 ? arena_printf(scratch, "[%d]", r->count) : "");
		else if (r->count > 1)
			line(E, "%s%s%s[%d];", type, sep, r->name, r->count);
		else
			line(E, "%s%s%s;", type, sep, r->name);
		return;
	case SR_UNIFORM:
		line(E, "%s%s%s;", type, sep, r->name);
		return;
	case SR_SHARED:
		if (E->k->dynamic_bytes || E->k->shared_reuse) {   /* one block, each array at its offset (simt_allocate) */
			const char *t = r->packed ? simt_mem_ctype(r->dtype) : type;
			int most = E->k->shared_align;
			if (!E->declared_shared && E->k->dynamic_bytes) {
				line(E, "extern __shared__ __align__(16) unsigned char tc_shared_block[];");
				if (most > 16)   /* rounded up to the largest alignment */
					line(E, "unsigned char *tc_shared = tc_shared_block + (-(tc_u32)__cvta_generic_to_shared("
						"tc_shared_block) & %du);", most - 1);
				else
					line(E, "unsigned char *tc_shared = tc_shared_block;");
				shared_window(E, most);
			} else if (!E->declared_shared) {
				line(E, "%s%sunsigned char tc_shared_block[%d]%s;", E->P->shared_qualifier, E->P->align16,
				     E->k->shared_bytes, E->P->lockstep ? " = {0}" : "");
				line(E, "unsigned char *tc_shared = tc_shared_block;");
				shared_window(E, 16);
			}
			E->declared_shared = true;
			if (E->P->lockstep) {   /* C: the block's bytes read as another type, which the optimizer must see */
				line(E, "typedef %s tc_shared_%s __attribute__((__may_alias__));", t, r->name);
				line(E, "tc_shared_%s *%s = (tc_shared_%s *)(tc_shared + %d);", r->name, r->name, r->name, r->offset);
			} else {
				line(E, "%s *%s%s = (%s *)(tc_shared + %d);", t, r->name,
				     E->window ? " __attribute__((unused))" : "", t, r->offset);   /* copies may address it by its window only */
			}
			return;
		}
		/* lockstep: zeroed, so the C compiler does not take what one
		 * thread writes and the others read (an atomic's old value) for
		 * uninitialized */
		init = E->P->lockstep ? " = {0}" : "";
		if (r->packed)
			line(E, "%s%s%s %s[%d]%s;", E->P->shared_qualifier, E->P->align16, simt_mem_ctype(r->dtype), r->name,
			     r->count, init);
		else
			line(E, "%s%s%s%s%s[%d]%s;", E->P->shared_qualifier, E->P->align16, type, sep, r->name, r->count, init);
		return;
	}
}

void emit_kernel(Buf *out, const SKernel *k)
{
	Emit E = {.b = out, .k = k, .P = printer_for(k), .depth = 0};
	for (const SStmt *s = k->first; s && !E.P->lockstep && E.P->copy_async; s = s->next)
		E.window |= s->kind == SS_COPY_ASYNC || (s->kind == SS_MMA && s->mop == WGMMA_M64K16);
	Arena scratch = {0};
	buf_printf(out, "// %s: generated by tritonc for %s (warp width %d, %d warps, %d threads a block)\n",
		   k->name, k->target.spec, k->warp_size, k->num_warps, k->threads);
	E.P->head(out, k);
	E.depth = 1;
	for (int i = 0; i < k->nregs; i++)
		declare(&E, k->regs[i], &scratch);
	AsmSeen seen = {0};
	for (const SStmt *s = k->first; s && tir_may_have(k->tile, TOP_ASM); s = s->next)
		asm_collect(&seen, s);
	for (int i = 0; i < seen.v.len; i++)
		asm_lambda(&E, seen.v.data[i]);
	vec_free(&seen.v);
	for (const SStmt *s = k->first; s; s = s->next)
		stmt(&E, s);
	E.P->tail(out, k);
	arena_free(&scratch);
}
