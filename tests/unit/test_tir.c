/* test_tir.c: element types by name and size. */
#include "ir/tir.h"
#include "check.h"

#include <string.h>


int main(void)
{
	DType t;
	CHECK("parse fp32", dtype_parse("fp32", &t) && t == DT_F32 && dtype_bytes(t) == 4);
	CHECK("parse bf16", dtype_parse("bf16", &t) && t == DT_BF16 && dtype_bytes(t) == 2);
	CHECK("parse i64", dtype_parse("i64", &t) && t == DT_I64 && dtype_bytes(t) == 8);
	CHECK("parse i1", dtype_parse("i1", &t) && t == DT_I1);
	CHECK("reject float32", !dtype_parse("float32", &t));
	int round_trip = 1;
	for (int i = DT_I1; i <= DT_F64; i++)
		round_trip &= dtype_parse(dtype_name((DType)i), &t) && t == (DType)i;
	CHECK("names round-trip", round_trip);

	int bad = 0;
	for (uint32_t h = 0; h < 65536; h++) {
		bool nan = ((h >> 10) & 31) == 31 && (h & 1023);
		bad += !nan && dtype_fp16_from_float(dtype_fp16_to_float((uint16_t)h)) != h;
		bad += !nan && dtype_bf16_from_float(dtype_bf16_to_float((uint16_t)h)) != h && ((h >> 7) & 255) != 255;
	}
	CHECK("every fp16 and bf16 value round-trips", bad == 0);
	CHECK("fp16 ties to even", dtype_fp16_from_float(1.0f + 1.0f / 2048) == 0x3c00 && dtype_fp16_from_float(1.0f + 3.0f / 2048) == 0x3c02);
	CHECK("fp16 overflow to inf", dtype_fp16_from_float(65520.0f) == 0x7c00 && dtype_fp16_from_float(65519.0f) == 0x7bff);
	CHECK("fp16 smallest subnormal", dtype_fp16_from_float(5.9604645e-8f) == 1 && dtype_fp16_from_float(2.9e-8f) == 0);
	CHECK("bf16 ties to even", dtype_bf16_from_float(1.0f + 1.0f / 256) == 0x3f80 && dtype_bf16_from_float(1.0f + 3.0f / 256) == 0x3f82);
	return failures ? 1 : 0;
}
