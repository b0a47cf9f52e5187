/* spec_dot_scaled.c: tl.dot_scaled, emulated everywhere by upcasts and a
 * plain tl.dot, as Triton 3.6 decomposes it where the hardware has no
 * block-scaled matrix instructions (DecomposeScaledBlocked):
 *
 *   - the compute type is fp16 when either format is "fp16", else bf16;
 *   - each operand is reinterpreted as its format (uint8 bytes as e4m3 or
 *     e5m2) and converted to the compute type as by .to(); an e2m1 operand
 *     is uint8, two values a byte, the low nibble first, packed along K
 *     (or along M / N with lhs_k_pack / rhs_k_pack False);
 *   - a scale (uint8 e8m0, shape [M, K // 32] for the lhs and [N, K // 32]
 *     for the rhs, one byte per 32 elements along K) becomes the float whose
 *     fp32 bits are byte << 23 (0 is +0.0, 255 an infinity), rounded to the
 *     compute type, and multiplies its 32 elements in the compute type;
 *     an fp8e4nv scale (nvfp4: one per 16 elements) is converted by .to();
 *   - unless fast_math, an element whose scale byte is 0xFF (a NaN fp8
 *     scale) becomes NaN;
 *   - then tl.dot(lhs, rhs, acc) with an fp32 accumulator. */
#include "ir/spec.h"

#include <math.h>
#include <string.h>

enum { FMT_E2M1, FMT_E4M3, FMT_E5M2, FMT_BF16, FMT_FP16 };
static const char *const format_names[] = {"e2m1", "e4m3", "e5m2", "bf16", "fp16"};

static TValue *ck(Spec *s, const Node *n, TValue *v)
{
	return spec_checked(s, n, v);
}

static int format_arg(Spec *s, const Node *call, int pos, const char *kw)
{
	SVal *v = spec_need_arg(s, call, pos, kw);
	if (v->kind != SV_STR)
		spec_error(s, call, "tl.dot_scaled: '%s' must be a string (e2m1, e4m3, e5m2, bf16 or fp16)", kw);
	for (int i = 0; i < 5; i++)
		if (!strcmp(v->str, format_names[i]))
			return i;
	spec_error(s, call, "tl.dot_scaled: unknown %s '%s' (e2m1, e4m3, e5m2, bf16 or fp16)", kw, v->str);
}

static bool flag_arg(Spec *s, const Node *call, int pos, const char *kw, bool dflt)
{
	SVal *v = spec_arg(s, call, pos, kw);
	if (!v || v->kind == SV_NONE)
		return dflt;
	if (v->kind != SV_INT)
		spec_error(s, call, "tl.dot_scaled: '%s' must be a compile-time constant", kw);
	return v->i != 0;
}

/* The four magnitudes' bits (e2m1: 1 sign, 2 exponent, 1 mantissa bit,
 * bias 1) as floats of the compute type: 0, 0.5, 1, 1.5, 2, 3, 4, 6. */
static TValue *e2m1_values(Spec *s, const Node *call, TValue *nibble, DType to)
{
	static const double mag[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
	TValue *em = ck(s, call, tir_binary(&s->b, TOP_AND, nibble, tir_const_int(&s->b, DT_U8, 7)));
	TValue *v = tir_broadcast_to(&s->b, tir_const_float(&s->b, to, 0.0), em->type.rank, em->type.shape);
	for (int i = 1; i < 8; i++) {
		TValue *is = ck(s, call, tir_cmp(&s->b, CMP_EQ, em, tir_const_int(&s->b, DT_U8, i)));
		v = ck(s, call, tir_where(&s->b, is, tir_const_float(&s->b, to, mag[i]), v));
	}
	TValue *sign = ck(s, call, tir_binary(&s->b, TOP_AND, nibble, tir_const_int(&s->b, DT_U8, 8)));
	TValue *neg = ck(s, call, tir_cmp(&s->b, CMP_NE, sign, tir_const_int(&s->b, DT_U8, 0)));
	return ck(s, call, tir_where(&s->b, neg, tir_unary(&s->b, TOP_NEG, v), v));
}

/* arange(0, n) // g laid along `dim` of a tile of `shape` (rank r): the
 * index that reads element k of dim from element k // g of a tile g times
 * shorter there. With odd, k % 2 == 1 instead. */
static TValue *index_along(Spec *s, const Node *call, int r, const int *shape, int dim, int g, bool odd)
{
	TValue *i = tir_arange(&s->b, 0, shape[dim]);
	i = ck(s, call, tir_binary(&s->b, odd ? TOP_MOD : TOP_IDIV, i, tir_const_int(&s->b, DT_I32, g)));
	if (odd)
		i = ck(s, call, tir_cmp(&s->b, CMP_EQ, i, tir_const_int(&s->b, DT_I32, 1)));
	for (int d = 0; d < r; d++)
		if (d != dim)
			i = ck(s, call, tir_expand(&s->b, i, d));
	return ck(s, call, tir_broadcast_to(&s->b, i, r, shape));
}

/* x spread along dim, each element g times (a gather, which reads the
 * small tile through shared memory rather than the large one). */
static TValue *spread(Spec *s, const Node *call, TValue *x, int dim, int g)
{
	int r = x->type.rank, shape[TC_MAX_RANK];
	memcpy(shape, x->type.shape, sizeof(int) * (size_t)r);
	shape[dim] *= g;
	return ck(s, call, tir_gather(&s->b, x, index_along(s, call, r, shape, dim, g, false), dim));
}

/* An e2m1 operand: each byte's two values, the low nibble first, along
 * `dim` (the last dim or the one before it), which doubles. */
static TValue *unpack_e2m1(Spec *s, const Node *call, TValue *x, int dim, DType to)
{
	TValue *bytes = spread(s, call, x, dim, 2);
	TValue *odd = index_along(s, call, bytes->type.rank, bytes->type.shape, dim, 2, true);
	TValue *lo = ck(s, call, tir_binary(&s->b, TOP_AND, bytes, tir_const_int(&s->b, DT_U8, 15)));
	TValue *hi = ck(s, call, tir_binary(&s->b, TOP_SHR, bytes, tir_const_int(&s->b, DT_U8, 4)));
	return e2m1_values(s, call, ck(s, call, tir_where(&s->b, odd, hi, lo)), to);
}

/* An operand in its format, upcast to the compute type. */
static TValue *upcast(Spec *s, const Node *call, TValue *v, int fmt, int dim, DType to, const char *what)
{
	static const DType fp_of[] = {DT_U8, DT_F8E4NV, DT_F8E5, DT_BF16, DT_F16};
	DType dt = v->type.dtype;
	if (fmt == FMT_E2M1) {
		if (dt != DT_U8)
			spec_error(s, call, "tl.dot_scaled: an e2m1 %s must be uint8 (two values a byte), not %s", what,
				   dtype_name(dt));
		return unpack_e2m1(s, call, v, dim, to);
	}
	if (dt != fp_of[fmt]) {
		if (fmt == FMT_E4M3 || fmt == FMT_E5M2) {
			if (dt != DT_U8)
				spec_error(s, call, "tl.dot_scaled: an %s %s must be %s or uint8, not %s", format_names[fmt], what,
					   dtype_name(fp_of[fmt]), dtype_name(dt));
			v = ck(s, call, tir_bitcast(&s->b, v, fp_of[fmt]));
		} else {
			spec_error(s, call, "tl.dot_scaled: a %s %s must be %s, not %s", format_names[fmt], what,
				   dtype_name(fp_of[fmt]), dtype_name(dt));
		}
	}
	return v->type.dtype == to ? v : tir_cast(&s->b, v, to);
}

/* The operand times its scale along K (`kdim`), NaN where the scale is
 * (0xFF for e8m0) unless fast_math. `scale` is [..., rows, K // G] (rows
 * being M for the lhs and N for the rhs, as Triton takes both), G the
 * group size K over the scale's extent (32 for mx formats, 16 for nvfp4):
 * uint8 e8m0 bytes, or fp8e4nv (nvfp4's scales) converted as by .to(). */
static TValue *apply_scale(Spec *s, const Node *call, TValue *v, TValue *scale, int kdim, bool fast_math,
			   const char *what)
{
	int r = v->type.rank, k = v->type.shape[kdim], rows = v->type.shape[kdim == r - 1 ? r - 2 : r - 1];
	DType sdt = scale->type.dtype;
	if (sdt != DT_U8 && sdt != DT_I8 && sdt != DT_F8E4NV)
		spec_error(s, call, "tl.dot_scaled: %s must be uint8 (e8m0) or float8e4nv, not %s", what, dtype_name(sdt));
	if (sdt == DT_I8)
		scale = ck(s, call, tir_bitcast(&s->b, scale, DT_U8));
	int groups = scale->type.rank == r ? scale->type.shape[r - 1] : 0;
	if (scale->type.rank != r || scale->type.shape[r - 2] != rows || groups < 1 || k % groups ||
	    (k / groups != 32 && k / groups != 16))
		spec_error(s, call, "tl.dot_scaled: %s must have shape [%d, %d] or [%d, %d] (one scale per 32 or 16 "
			   "elements along K = %d)", what, rows, k / 32, rows, k / 16, k);
	int g = k / groups;
	if (kdim == r - 2) {                              /* [..., N, K/G] -> [..., K/G, N] */
		int perm[TC_MAX_RANK];
		for (int i = 0; i < r; i++)
			perm[i] = i;
		perm[r - 2] = r - 1;
		perm[r - 1] = r - 2;
		scale = ck(s, call, tir_trans(&s->b, scale, r, perm));
	}
	DType to = v->type.dtype;
	TValue *f;
	if (sdt == DT_F8E4NV)
		f = tir_cast(&s->b, scale, to);
	else {
		TValue *bits = ck(s, call, tir_binary(&s->b, TOP_SHL, tir_cast(&s->b, scale, DT_U32),
						     tir_const_int(&s->b, DT_U32, 23)));
		f = tir_cast(&s->b, ck(s, call, tir_bitcast(&s->b, bits, DT_F32)), to);
	}
	TValue *mx = ck(s, call, tir_binary(&s->b, TOP_MUL, v, spread(s, call, f, kdim, g)));
	if (fast_math)
		return mx;
	TValue *nan = sdt == DT_F8E4NV ? ck(s, call, tir_cmp(&s->b, CMP_NE, f, f))
				       : ck(s, call, tir_cmp(&s->b, CMP_EQ, scale, tir_const_int(&s->b, DT_U8, 255)));
	nan = spread(s, call, nan, kdim, g);
	return ck(s, call, tir_where(&s->b, nan, tir_const_float(&s->b, to, NAN), mx));
}

static bool is_none(const SVal *v)
{
	return !v || v->kind == SV_NONE;
}

SVal *spec_call_dot_scaled(Spec *s, const Node *call)
{
	TValue *lhs = spec_need_value(s, call, 0, "lhs");
	SVal *lscale = spec_need_arg(s, call, 1, "lhs_scale");
	int lfmt = format_arg(s, call, 2, "lhs_format");
	TValue *rhs = spec_need_value(s, call, 3, "rhs");
	SVal *rscale = spec_need_arg(s, call, 4, "rhs_scale");
	int rfmt = format_arg(s, call, 5, "rhs_format");
	SVal *acc = spec_arg(s, call, 6, "acc");
	bool fast_math = flag_arg(s, call, 7, "fast_math", false);
	bool lpack = flag_arg(s, call, 8, "lhs_k_pack", true), rpack = flag_arg(s, call, 9, "rhs_k_pack", true);
	SVal *out = spec_arg(s, call, 10, "out_dtype");
	if (out && out->kind == SV_DTYPE && out->dtype != DT_F32)
		spec_error(s, call, "tl.dot_scaled: out_dtype %s is not supported (float32 only)", dtype_name(out->dtype));
	int r = lhs->type.rank;
	if (r != 2 || rhs->type.rank != 2)
		spec_error(s, call, "tl.dot_scaled of rank %d and %d operands: only 2-D operands are supported", r,
			   rhs->type.rank);
	if ((!lpack && lfmt != FMT_E2M1) || (!rpack && rfmt != FMT_E2M1))
		spec_error(s, call, "tl.dot_scaled: only e2m1 operands can be packed along a dim other than K");
	DType to = lfmt == FMT_FP16 || rfmt == FMT_FP16 ? DT_F16 : DT_BF16;
	TValue *a = upcast(s, call, lhs, lfmt, lpack ? r - 1 : r - 2, to, "lhs");
	TValue *b = upcast(s, call, rhs, rfmt, rpack ? r - 2 : r - 1, to, "rhs");
	if (a->type.shape[r - 1] != b->type.shape[r - 2])
		spec_error(s, call, "tl.dot_scaled: the lhs holds %d elements along K and the rhs %d", a->type.shape[r - 1],
			   b->type.shape[r - 2]);
	if (!is_none(lscale))
		a = apply_scale(s, call, a, spec_to_value(s, call, lscale), r - 1, fast_math, "lhs_scale");
	if (!is_none(rscale))
		b = apply_scale(s, call, b, spec_to_value(s, call, rscale), r - 2, fast_math, "rhs_scale");
	TValue *c = is_none(acc) ? NULL : spec_to_value(s, call, acc);
	if (c && c->type.dtype != DT_F32)
		spec_error(s, call, "tl.dot_scaled: the accumulator must be float32, not %s", dtype_name(c->type.dtype));
	return spec_sv_value(s, call, ck(s, call, tir_dot(&s->b, a, b, c, DOT_IEEE)));
}
