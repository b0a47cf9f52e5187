/* test_tir.c: element types by name and size. */
#include "ir/tir.h"

#include <string.h>

static int failures;

#define CHECK(name, cond)                                                          \
	do {                                                                       \
		if (cond)                                                          \
			printf("PASS %s\n", name);                                 \
		else {                                                             \
			printf("FAIL %s: %s (line %d)\n", name, #cond, __LINE__);  \
			failures++;                                                \
		}                                                                  \
	} while (0)

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
	return failures ? 1 : 0;
}
