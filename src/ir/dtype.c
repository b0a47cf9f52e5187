/* dtype.c: element types by their Triton names. */
#include "ir/tir.h"

#include <string.h>

static const struct {
	const char *name;
	int bytes;
} dtypes[] = {
	[DT_I1] = {"i1", 1},     [DT_I8] = {"i8", 1},     [DT_I16] = {"i16", 2},
	[DT_I32] = {"i32", 4},   [DT_I64] = {"i64", 8},   [DT_U8] = {"u8", 1},
	[DT_U32] = {"u32", 4},   [DT_U64] = {"u64", 8},   [DT_F16] = {"fp16", 2},
	[DT_BF16] = {"bf16", 2}, [DT_F32] = {"fp32", 4},  [DT_F64] = {"fp64", 8},
	[DT_PTR] = {"ptr", 8},
	[DT_F8E4NV] = {"fp8e4nv", 1}, [DT_F8E5] = {"fp8e5", 1}, [DT_F8E4B15] = {"fp8e4b15", 1},
	[DT_F8E4B8] = {"fp8e4b8", 1}, [DT_F8E5B16] = {"fp8e5b16", 1}, [DT_U16] = {"u16", 2},
};

int dtype_bytes(DType t)
{
	return dtypes[t].bytes;
}

const char *dtype_name(DType t)
{
	return dtypes[t].name;
}

bool dtype_parse(const char *s, DType *out)
{
	for (int i = 0; i < (int)TC_COUNT(dtypes); i++) {
		if (!strcmp(s, dtypes[i].name)) {
			*out = (DType)i;
			return true;
		}
	}
	return false;
}
