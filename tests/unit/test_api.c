/* test_api.c: the library interface of include/tritonc.h. */
#include "tritonc.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

static const char seed[] =
	"import triton\nimport triton.language as tl\n\n@triton.jit\n"
	"def rms(in_ptr0, in_ptr1, out_ptr0, xnumel, rnumel, XBLOCK: tl.constexpr):\n"
	"    RBLOCK: tl.constexpr = 1024\n"
	"    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]\n"
	"    rindex = tl.arange(0, RBLOCK)[None, :]\n"
	"    mask = (xindex < xnumel) & (rindex < rnumel)\n"
	"    x = tl.load(in_ptr0 + (rindex + 1024 * xindex), mask, other=0.0)\n"
	"    s = tl.sum(x * x, 1)[:, None]\n"
	"    tl.store(out_ptr0 + (rindex + 1024 * xindex), x * tl.rsqrt(s / 1024.0 + 1e-6), mask)\n";

int main(void)
{
	const char *defines[] = {"XBLOCK=2"};
	tritonc_options o = {.signature = "*fp32,*fp32,*fp32,i32,i32:16", .defines = defines, .ndefines = 1};
	char *diag = NULL;
	char *cu = tritonc_compile(seed, "rms.py", &o, &diag);
	CHECK("api cuda output", cu && strstr(cu, "extern \"C\" __global__") && strstr(cu, "__shfl_xor_sync"));
	CHECK("api no diagnostics on success", diag == NULL);
	CHECK("api 16-byte loads from the :16 hint", cu && strstr(cu, "tc_ld4("));
	tritonc_free(cu);

	o.target = "hip:gfx90a";
	char *hip = tritonc_compile(seed, "rms.py", &o, NULL);
	CHECK("api hip output shuffles 64 lanes", hip && strstr(hip, "__shfl_xor(") && strstr(hip, ", 64);"));
	tritonc_free(hip);

	o.target = "c";
	o.dump = "simt";
	char *simt = tritonc_compile(seed, "rms.py", &o, NULL);
	CHECK("api simt dump", simt && strstr(simt, "shuffle_xor"));
	tritonc_free(simt);

	o.dump = NULL;
	o.signature = "*fp32,*fp32";
	char *none = tritonc_compile(seed, "rms.py", &o, &diag);
	CHECK("api bad signature fails", none == NULL);
	CHECK("api diagnostic has file, line and caret", diag && strstr(diag, "rms.py:") && strstr(diag, "error:") &&
							     strchr(diag, '^'));
	tritonc_free(diag);

	o.signature = "*fp32,*fp32,*fp32,i32,i32";
	o.target = "nvptx";
	none = tritonc_compile(seed, "rms.py", &o, &diag);
	CHECK("api bad target fails with a message", none == NULL && diag && strstr(diag, "nvptx"));
	tritonc_free(diag);
	CHECK("api version", strcmp(tritonc_version(), "0.1") == 0);
	return failures ? 1 : 0;
}
