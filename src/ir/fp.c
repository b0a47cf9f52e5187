/* fp.c: conversions between float and the 16-bit formats, rounding to
 * nearest even as the hardware's cvt.rn does. */
#include "ir/tir.h"

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
