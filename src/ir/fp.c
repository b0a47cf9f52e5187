/* fp.c: conversions between float and the 16-bit and 8-bit formats,
 * rounding to nearest even as the hardware's cvt.rn does (fp8: as Triton
 * 3.6 converts, below). */
#include "ir/tir.h"

#include <math.h>
#include <string.h>

static uint32_t bits_of(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static float float_of(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

uint16_t dtype_bf16_from_float(float f)
{
	uint32_t u = bits_of(f);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((u >> 16) | 0x40); /* quiet NaN */
	u += 0x7fffu + ((u >> 16) & 1);
	return (uint16_t)(u >> 16);
}

float dtype_bf16_to_float(uint16_t h)
{
	return float_of((uint32_t)h << 16);
}

uint16_t dtype_fp16_from_float(float f)
{
	uint32_t u = bits_of(f);
	uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
	uint32_t a = u & 0x7fffffffu;
	if (a > 0x7f800000u)
		return sign | 0x7e00u;                       /* NaN */
	if (a >= 0x477ff000u)                               /* rounds to >= 65520: inf */
		return sign | 0x7c00u;
	if (a < 0x38800000u) {                              /* subnormal or zero in fp16 */
		if (a < 0x33000000u)                        /* below half the smallest subnormal */
			return sign;
		uint32_t mant = (a & 0x7fffffu) | 0x800000u;
		int shift = 126 - (int)(a >> 23);            /* value = r * 2^-24 */
		uint32_t half = 1u << (shift - 1);
		uint32_t rest = mant & ((1u << shift) - 1);
		uint32_t r = mant >> shift;
		if (rest > half || (rest == half && (r & 1)))
			r++;
		return sign | (uint16_t)r;
	}
	uint32_t r = ((a >> 13) - (112u << 10));            /* rebias 127 -> 15 */
	uint32_t rest = a & 0x1fffu;
	if (rest > 0x1000u || (rest == 0x1000u && (r & 1)))
		r++;
	return sign | (uint16_t)r;
}

float dtype_fp16_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
	uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
	if (exp == 0x1f)
		return float_of(sign | 0x7f800000u | (mant << 13));
	if (exp == 0) {
		float v = (float)mant * (1.0f / 16777216.0f);  /* mant * 2^-24 */
		return sign ? -v : v;
	}
	return float_of(sign | ((exp + 112u) << 23) | (mant << 13));
}

/* ---- the fp8 formats ----
 *
 * What Triton 3.6 computes on an NVIDIA GPU (sm_90), defined once here
 * for the interpreter; the printers' preludes spell the same steps in C
 * (emit/prelude.c).
 *
 * fp8e4nv (e4m3fn, bias 7) and fp8e5 (e5m2, bias 15): from fp16, bf16 and
 * fp32 by cvt.rn.satfinite, rounding to nearest even, magnitudes past the
 * largest finite value (448, 57344) and infinities saturating to it, NaN
 * to NaN (0x7f); to fp16 and fp32 exactly (e5's infinities stay
 * infinite). fp8e5 to bf16 is Triton's bit trick (the byte shifted into a
 * bf16 and multiplied by 2^112), exact for finite values but turning the
 * infinities and NaNs (exponent 31) into (1 + m/4) * 2^16.
 * fp8e4b15 (e4m3, bias 15, no infinities or NaNs: 0x7f is 1.875): Triton's
 * convert_custom_float8: fp32 goes to fp16 rounding toward zero first, then
 * the magnitude is clamped to 1.75 (NaN and infinities too, the sign kept)
 * and rounded half away from zero to 3 mantissa bits; upward exactly.
 * fp8e4b8 and fp8e5b16 (AMD's e4m3fnuz and e5m2fnuz, biases 8 and 16; 0x80
 * is their NaN, there is no -0.0 or infinity): nearest even, saturating to
 * 240 and 57344, NaN to 0x80, a zero (of either sign) to 0x00. */

typedef struct {
	int mbits, bias;
	int max;        /* the largest finite code */
	int nan;        /* the code of NaN */
} Fp8;

static Fp8 fp8_format(DType dt)
{
	switch (dt) {
	case DT_F8E4NV: return (Fp8){3, 7, 0x7e, 0x7f};
	case DT_F8E5: return (Fp8){2, 15, 0x7b, 0x7f};
	case DT_F8E4B15: return (Fp8){3, 15, 0x7f, -1};
	case DT_F8E4B8: return (Fp8){3, 8, 0x7f, 0x80};
	default: return (Fp8){2, 16, 0x7f, 0x80};   /* DT_F8E5B16 */
	}
}

bool dtype_is_fp8(DType t)
{
	return t == DT_F8E4NV || t == DT_F8E5 || t == DT_F8E4B15 || t == DT_F8E4B8 || t == DT_F8E5B16;
}

float dtype_fp8_to_float(DType dt, uint8_t b)
{
	Fp8 f = fp8_format(dt);
	int mag = b & 0x7f, e = mag >> f.mbits, m = mag & ((1 << f.mbits) - 1);
	bool neg = b & 0x80;
	if (f.nan == 0x80 && b == 0x80)
		return NAN;
	if (dt == DT_F8E4NV && mag == 0x7f)
		return NAN;
	if (dt == DT_F8E5 && e == 31) {   /* a NaN keeps its mantissa (fp8e5_nan) */
		if (!m)
			return neg ? -INFINITY : INFINITY;
		uint32_t u = (neg ? 0x80000000u : 0) | 0x7fc00000u | (uint32_t)m << 20;
		float x;
		memcpy(&x, &u, 4);
		return x;
	}
	float v = e ? ldexpf(1.0f + (float)m / (float)(1 << f.mbits), e - f.bias)
		    : ldexpf((float)m, 1 - f.bias - f.mbits);
	return neg ? -v : v;
}

/* fp32 to fp16 rounding toward zero (cvt.rz.f16.f32): the bits */
static uint16_t fp16_from_float_rtz(float x)
{
	uint32_t u = bits_of(x), sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
	if (a > 0x7f800000u)
		return (uint16_t)(sign | 0x7e00u);
	if (a == 0x7f800000u)
		return (uint16_t)(sign | 0x7c00u);
	if (a >= 0x477ff000u)                                  /* past 65504: the largest finite */
		return (uint16_t)(sign | 0x7bffu);
	if (a < 0x38800000u)                                   /* subnormal: trunc(x * 2^24) */
		return (uint16_t)(sign | (uint32_t)(float_of(a) * 16777216.0f));
	return (uint16_t)(sign | ((a - (112u << 23)) >> 13));
}

uint8_t dtype_fp8_from_float(DType dt, float x)
{
	uint32_t u = bits_of(x);
	uint8_t sign = (uint8_t)((u >> 24) & 0x80u);
	if (dt == DT_F8E4B15) {
		uint16_t h = fp16_from_float_rtz(x) & 0x7fffu;
		if (h > 0x3f00u)                                /* NaN and infinities too */
			h = 0x3f00u;
		return (uint8_t)(sign | ((h + 0x40u) >> 7));
	}
	Fp8 f = fp8_format(dt);
	if (x != x)
		return (uint8_t)f.nan;                      /* the positive canonical NaN */
	float maxv = dtype_fp8_to_float(dt, (uint8_t)f.max);
	float a = fabsf(x);
	if (a > maxv)
		a = maxv;
	int e;
	frexpf(a, &e);                                      /* a = r * 2^e, 0.5 <= r < 1 */
	int q = e - 1 - f.mbits;                            /* the exponent of a unit in the last place */
	if (q < 1 - f.bias - f.mbits)
		q = 1 - f.bias - f.mbits;                   /* subnormals */
	float n = rintf(ldexpf(a, -q));                     /* a's units, ties to even */
	float r = ldexpf(n, q);
	if (r == 0.0f)
		return (uint8_t)(f.nan == 0x80 ? 0 : sign);
	int re;
	frexpf(r, &re);
	int code;
	if (re - 1 < 1 - f.bias)                            /* subnormal */
		code = (int)n;
	else
		code = ((re - 1 + f.bias) << f.mbits) | ((int)ldexpf(r, f.mbits - (re - 1)) & ((1 << f.mbits) - 1));
	return (uint8_t)(sign | code);
}

float dtype_fp8_round(DType dt, float x)
{
	return dtype_fp8_to_float(dt, dtype_fp8_from_float(dt, x));
}

/* Triton's fp8e5 -> bf16 of a value held in fp32 (as registers hold fp8):
 * finite values are exact; an infinity, or a NaN with the byte's mantissa
 * in bits 20-21 of its payload (dtype_fp8_to_float puts it there; a NaN
 * without one counts as mantissa 3, what fp8e5 encodes a NaN as), gives
 * the bit trick's (1 + m/4) * 2^16. */
float dtype_fp8e5_value_to_bf16(float x)
{
	uint32_t u;
	memcpy(&u, &x, 4);
	uint32_t a = u & 0x7fffffffu, m = a > 0x7f800000u ? (a >> 20) & 3u : 0;
	if (a < 0x7f800000u)
		return x;
	if (a > 0x7f800000u && !m)
		m = 3;
	float v = 65536.0f + 16384.0f * (float)m;
	return u >> 31 ? -v : v;
}

/* Triton's fp8e5 -> bf16 (the bit trick), as a float */
float dtype_fp8e5_to_bf16(uint8_t b)
{
	int mag = b & 0x7f;
	float v = (mag >> 2) == 31 ? ldexpf(1.0f + (float)(mag & 3) / 4.0f, 16) : dtype_fp8_to_float(DT_F8E5, b & 0x7f);
	return b & 0x80 ? -v : v;
}
