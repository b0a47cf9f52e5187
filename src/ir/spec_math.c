/* spec_math.c: the element-wise math functions, under the names Triton
 * gives them in tl, tl.math (Inductor's tl_math) and libdevice, and the
 * dtypes of their operands.
 *
 * Triton's libdevice functions take fp32 or fp64 operands of one dtype
 * (pow and ldexp also an int32 exponent) and reject the others; here the
 * operands of a function are promoted to one dtype by Triton's rules for
 * binary operators (a Python number is weak), integers are taken as fp32,
 * and fp16 and bf16 are computed in fp32 and rounded back, as the first
 * math functions always were. So every kernel Triton accepts means the
 * same here. */
#include "ir/spec.h"

#include <string.h>

static const struct {
	const char *name;
	MathFn fn;
} math_fns[] = {
	{"exp", MATH_EXP}, {"exp2", MATH_EXP2}, {"log", MATH_LOG}, {"log2", MATH_LOG2},
	{"log1p", MATH_LOG1P}, {"sqrt", MATH_SQRT}, {"sqrt_rn", MATH_SQRT}, {"rsqrt", MATH_RSQRT},
	{"abs", MATH_ABS}, {"sin", MATH_SIN}, {"cos", MATH_COS}, {"tanh", MATH_TANH},
	{"erf", MATH_ERF}, {"floor", MATH_FLOOR}, {"ceil", MATH_CEIL}, {"sigmoid", MATH_SIGMOID},
	{"expm1", MATH_EXPM1}, {"log10", MATH_LOG10}, {"tan", MATH_TAN}, {"asin", MATH_ASIN},
	{"acos", MATH_ACOS}, {"atan", MATH_ATAN}, {"sinh", MATH_SINH}, {"cosh", MATH_COSH},
	{"asinh", MATH_ASINH}, {"acosh", MATH_ACOSH}, {"atanh", MATH_ATANH}, {"erfc", MATH_ERFC},
	{"erfinv", MATH_ERFINV}, {"lgamma", MATH_LGAMMA}, {"cbrt", MATH_CBRT}, {"trunc", MATH_TRUNC},
	{"rint", MATH_RINT}, {"nearbyint", MATH_RINT}, {"round", MATH_ROUND},
	{"signbit", MATH_SIGNBIT}, {"ilogb", MATH_ILOGB}, {"isnan", MATH_ISNAN}, {"isinf", MATH_ISINF},
	{"finitef", MATH_ISFINITE}, {"isfinited", MATH_ISFINITE},
	{"pow", MATH_POW}, {"atan2", MATH_ATAN2}, {"hypot", MATH_HYPOT}, {"copysign", MATH_COPYSIGN},
	{"nextafter", MATH_NEXTAFTER}, {"ldexp", MATH_LDEXP}, {"fma", MATH_FMA},
};

static const char *const operand_names[3] = {"x", "y", "z"};

bool spec_is_math_fn(const char *fn)
{
	for (size_t i = 0; i < TC_COUNT(math_fns); i++)
		if (!strcmp(fn, math_fns[i].name))
			return true;
	return !strcmp(fn, "fmod");
}

/* The first n arguments of `call` in one float dtype: promoted over the
 * tensors first, then against the Python numbers as weak operands;
 * integers as fp32. `floats` of them take part; the others (ldexp's
 * exponent) are left as they are. */
static void float_operands(Spec *s, const Node *call, const char *fn, int n, int floats, TValue **out)
{
	SVal *v[3];
	DType dt = DT_F32;
	bool typed = false;
	for (int i = 0; i < n; i++) {
		v[i] = spec_need_arg(s, call, i, operand_names[i]);
		if (i >= floats || v[i]->kind != SV_VALUE)
			continue;
		DType t = v[i]->v->type.dtype;
		if (t == DT_PTR)
			spec_error(s, call, "'%s' needs numbers, not pointers", fn);
		if (typed && !tir_promote(dt, false, t, false, false, &t))
			spec_error(s, call, "operands of types %s and %s cannot be combined", dtype_name(dt),
				   dtype_name(v[i]->v->type.dtype));
		dt = t;
		typed = true;
	}
	for (int i = 0; i < floats; i++) {
		if (!spec_is_const(v[i]))
			continue;
		if (!typed)
			dt = spec_const_dtype(v[i]);
		else if (!tir_promote(dt, false, spec_const_dtype(v[i]), true, false, &dt))
			spec_error(s, call, "operand types cannot be combined");
		typed = true;
	}
	if (!dtype_is_float(dt))
		dt = DT_F32;
	for (int i = 0; i < n; i++)
		out[i] = i < floats ? tir_cast(&s->b, spec_materialize(s, call, v[i], dt), dt) : spec_to_value(s, call, v[i]);
}

SVal *spec_call_math(Spec *s, const Node *call, const char *fn)
{
	TValue *ops[3];
	if (!strcmp(fn, "fmod")) {   /* C's fmod: the remainder with the dividend's sign, as % on floats */
		float_operands(s, call, fn, 2, 2, ops);
		return spec_sv_value(s, call, tir_binary(&s->b, TOP_FMOD, ops[0], ops[1]));
	}
	for (size_t i = 0; i < TC_COUNT(math_fns); i++) {
		MathFn m = math_fns[i].fn;
		if (strcmp(fn, math_fns[i].name))
			continue;
		int n = tir_math_arity(m);
		if (m == MATH_ABS) {   /* the one that takes integers as they are */
			ops[0] = spec_need_value(s, call, 0, "x");
		} else {
			float_operands(s, call, fn, n, m == MATH_LDEXP ? 1 : n, ops);
		}
		TValue *v = tir_math_n(&s->b, m, n, ops);
		const char *name = ast_dotted_name(s->a, call->lhs);
		if (v && m == MATH_EXP2 && !(name && strstr(name, "libdevice")))
			v->aux2 = 1;   /* Triton's fast exp2, not libdevice's (MATH_EXP2_FAST) */
		return spec_sv_value(s, call, v);
	}
	return NULL;
}
