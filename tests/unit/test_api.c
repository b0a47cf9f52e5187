/* test_api.c: the library interface of include/tritonc.h. */
#include "tritonc.h"
#include "base/base.h"
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

/* The result object of the seed kernel for three targets. */
static void compile_kernel_tests(const char **defines)
{
	tritonc_options o = {.signature = "*fp32,*fp32,*fp32,i32,i32:16", .defines = defines, .ndefines = 1};
	char *diag = (char *)"untouched";
	tritonc_result *r = tritonc_compile_kernel(seed, "rms.py", &o, &diag);
	CHECK("result: compiled, no diagnostics", r && diag == NULL);
	if (!r)
		return;
	char *cu = tritonc_compile(seed, "rms.py", &o, NULL);
	CHECK("result: code is tritonc_compile's", cu && !strcmp(cu, tritonc_result_code(r)));
	tritonc_free(cu);
	CHECK("result: name and symbol", !strcmp(tritonc_result_name(r), "rms") && !strcmp(tritonc_result_symbol(r), "rms"));
	CHECK("result: target", !strcmp(tritonc_result_target(r), "cuda:sm_90"));
	CHECK("result: 4 warps of 32, 128 threads", tritonc_result_num_warps(r) == 4 && tritonc_result_warp_size(r) == 32 &&
							  tritonc_result_threads(r) == 128);
	CHECK("result: the row sum's shared memory is static", tritonc_result_shared_bytes(r) > 0 &&
								  tritonc_result_dynamic_shared_bytes(r) == 0);
	CHECK("result: tir and simt texts", strstr(tritonc_result_tir(r), "kernel rms(") &&
						    strstr(tritonc_result_simt(r), "shuffle_xor") &&
						    tritonc_result_stage(r, "simt") == tritonc_result_simt(r));
	CHECK("result: passes text carries axis info", tritonc_result_stage(r, "passes") &&
							   strstr(tritonc_result_stage(r, "passes"), "contig="));
	CHECK("result: kernels and ast texts", strstr(tritonc_result_stage(r, "kernels"), "rms  (rms.py:5, jit)") &&
						       tritonc_result_stage(r, "ast") && *tritonc_result_stage(r, "ast"));
	CHECK("result: plan text, unknown stage NULL", tritonc_result_stage(r, "plan") &&
							  strstr(tritonc_result_stage(r, "plan"), "frame 1: blocked<") &&
							  !tritonc_result_stage(r, "x"));
	CHECK("result: no notes", !strcmp(tritonc_result_notes(r), ""));
	CHECK("result: six parameters", tritonc_result_num_params(r) == 6);
	static const char *const names[] = {"in_ptr0", "in_ptr1", "out_ptr0", "xnumel", "rnumel", "XBLOCK"};
	static const char *const types[] = {"*fp32", "*fp32", "*fp32", "i32", "i32", "constexpr"};
	static const long long divs[] = {16, 16, 16, 1, 16, 0};
	bool ok = true;
	for (int i = 0; i < 6; i++) {
		ok &= !strcmp(tritonc_result_param_name(r, i), names[i]) && !strcmp(tritonc_result_param_type(r, i), types[i]);
		ok &= tritonc_result_param_divisibility(r, i) == divs[i];
		ok &= tritonc_result_param_is_constant(r, i) == (i == 5);
		ok &= tritonc_result_param_index(r, i) == (i == 5 ? -1 : i);
		ok &= (tritonc_result_param_value(r, i) != NULL) == (i == 5);
	}
	CHECK("result: names, types, hints, constants, indexes", ok);
	CHECK("result: XBLOCK's value", !strcmp(tritonc_result_param_value(r, 5), "2"));
	CHECK("result: out of range", !tritonc_result_param_name(r, 6) && !tritonc_result_param_name(r, -1) &&
					      tritonc_result_param_index(r, 9) == -1);
	tritonc_result_free(r);

	o.target = "hip:gfx90a";
	r = tritonc_compile_kernel(seed, "rms.py", &o, NULL);
	CHECK("result: hip 64-lane warps, 256 threads", r && tritonc_result_warp_size(r) == 64 &&
								tritonc_result_threads(r) == 256);
	tritonc_result_free(r);
	o.target = "c";
	r = tritonc_compile_kernel(seed, "rms.py", &o, NULL);
	CHECK("result: C's entry point", r && !strcmp(tritonc_result_symbol(r), "rms_launch") &&
						 strstr(tritonc_result_code(r), "void rms_launch("));
	tritonc_result_free(r);
	o.target = "interp";
	r = tritonc_compile_kernel(seed, "rms.py", &o, NULL);
	CHECK("result: interp gives the tile IR, no symbol", r && !tritonc_result_symbol(r) &&
								    !strcmp(tritonc_result_code(r), tritonc_result_tir(r)) &&
								    !tritonc_result_simt(r));
	tritonc_result_free(r);
	o.signature = "*fp32";
	r = tritonc_compile_kernel(seed, "rms.py", &o, &diag);
	CHECK("result: NULL with the error", !r && diag && strstr(diag, "error:"));
	tritonc_free(diag);
	tritonc_result_free(NULL);
	CHECK("result: NULL result reads as empty", !tritonc_result_code(NULL) && tritonc_result_threads(NULL) == 0 &&
							    tritonc_result_num_params(NULL) == 0);
}

/* Hints are sized from the signature: a ":16" on argument 65 counts. */
static void hint_on_argument_65(void)
{
	Buf src = {0}, sig = {0};
	buf_puts(&src, "import triton\nimport triton.language as tl\n\n@triton.jit\ndef many(out_ptr");
	for (int i = 0; i < 65; i++)
		buf_printf(&src, ", n%d", i);
	buf_puts(&src, ", BLOCK: tl.constexpr):\n    offs = tl.arange(0, BLOCK)\n"
		       "    tl.store(out_ptr + n64 * tl.program_id(0) + offs, offs.to(tl.float32))\n");
	buf_puts(&sig, "*fp32");
	for (int i = 0; i < 65; i++)
		buf_puts(&sig, i == 64 ? ",i32:16" : ",i32");
	const char *defines[] = {"BLOCK=512"};
	tritonc_options o = {.signature = buf_str(&sig), .defines = defines, .ndefines = 1, .num_warps = 1};
	char *diag = NULL;
	tritonc_result *r = tritonc_compile_kernel(buf_str(&src), "many.py", &o, &diag);
	CHECK("hint on argument 65 compiles", r != NULL);
	if (diag)
		fputs(diag, stdout);
	CHECK("hint on argument 65 is 16, argument 64 is 1",
	      r && tritonc_result_param_divisibility(r, 65) == 16 && tritonc_result_param_divisibility(r, 64) == 1 &&
		      !strcmp(tritonc_result_param_name(r, 65), "n64"));
	CHECK("hint on argument 65 gives 16-byte stores", r && strstr(tritonc_result_code(r), "tc_st4(t"));
	tritonc_result_free(r);
	tritonc_free(diag);
	buf_free(&src);
	buf_free(&sig);
}

static char *read_text(const char *path)
{
	size_t len;
	return file_read(path, &len);
}

/* An Inductor kernel given no block sizes: the defaults are notes, in the
 * diagnostics and the result, the same as `tritonc compile` prints. */
static void inductor_defaults(void)
{
	char *text = read_text("tests/corpus/softmax_f32_1024.py");
	CHECK("inductor source read", text != NULL);
	if (!text)
		return;
	char *diag = NULL;
	tritonc_options o = {.target = "cuda:sm_90"};
	tritonc_result *r = tritonc_compile_kernel(text, "softmax.py", &o, &diag);
	const char *notes = r ? tritonc_result_notes(r) : "";
	CHECK("inductor defaults as notes", strstr(notes, ": no -D XBLOCK given, using XBLOCK=1\n") &&
						  strstr(notes, ": using 8 warps\n"));
	CHECK("inductor defaults in the diagnostics", diag && strstr(diag, "note: ") && strstr(diag, "XBLOCK=1"));
	CHECK("inductor defaults applied", r && tritonc_result_num_warps(r) == 8 && tritonc_result_threads(r) == 256);
	int x = -1;
	for (int i = 0; r && i < tritonc_result_num_params(r); i++)
		if (!strcmp(tritonc_result_param_name(r, i), "XBLOCK"))
			x = i;
	CHECK("inductor XBLOCK a constant of the default value", x >= 0 && tritonc_result_param_is_constant(r, x) &&
									 !strcmp(tritonc_result_param_value(r, x), "1"));
	tritonc_result_free(r);
	tritonc_free(diag);
	char *code = tritonc_compile(text, "softmax.py", &o, &diag);
	CHECK("tritonc_compile reports the defaults too", code && diag && strstr(diag, "using 8 warps"));
	tritonc_free(code);
	tritonc_free(diag);
	free(text);
}

/* A pipelined GEMM needs more than 48 KiB: dynamic shared memory. */
static void gemm_metadata(void)
{
	char *text = read_text("tests/corpus/gemm.py");
	if (!text) {
		CHECK("gemm source read", false);
		return;
	}
	const char *defines[] = {"stride_ak=1", "stride_bn=1", "stride_cn=1", "BLOCK_M=128", "BLOCK_N=128", "BLOCK_K=64"};
	tritonc_options o = {.signature = "*fp16,*fp16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16",
			     .defines = defines, .ndefines = 6, .num_stages = 3, .target = "cuda:sm_90"};
	tritonc_result *r = tritonc_compile_kernel(text, "gemm.py", &o, NULL);
	CHECK("gemm dynamic shared memory past 48 KiB", r && tritonc_result_dynamic_shared_bytes(r) > 48 * 1024 &&
								tritonc_result_dynamic_shared_bytes(r) >= tritonc_result_shared_bytes(r));
	int constants = 0, args = 0;
	for (int i = 0; r && i < tritonc_result_num_params(r); i++) {
		if (tritonc_result_param_is_constant(r, i))
			constants++;
		else
			args += tritonc_result_param_index(r, i) == args;
	}
	CHECK("gemm: 6 constants (3 strides of 1 made constants), 9 arguments in order", constants == 6 && args == 9);
	tritonc_result_free(r);
	free(text);
}

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

	o = (tritonc_options){.signature = "*fp32,*fp32,*fp32,i32,i32:16", .defines = defines, .ndefines = 1,
			      .dump = "tir,simt"};
	char *both = tritonc_compile(seed, "rms.py", &o, NULL);
	CHECK("api --dump of two stages, each under its name",
	      both && strstr(both, "// ---- tir ----\nkernel rms(") && strstr(both, "// ---- simt ----\n"));
	tritonc_free(both);
	o.dump = "plan";
	char *plan = tritonc_compile(seed, "rms.py", &o, NULL);
	CHECK("api plan stage: frames and their layouts", plan && strstr(plan, "plan rms for cuda:sm_90") &&
							  strstr(plan, "frame 1: blocked<"));
	tritonc_free(plan);
	o.dump = "ssa";
	none = tritonc_compile(seed, "rms.py", &o, &diag);
	CHECK("api unknown stage named", !none && diag && strstr(diag, "'ssa'"));
	tritonc_free(diag);
	o.dump = NULL;
	o.signature = "*fp32,*fp32,*fp32,i32,i32:8";
	none = tritonc_compile(seed, "rms.py", &o, &diag);
	CHECK("api hint other than :16 rejected", !none && diag && strstr(diag, "':16'"));
	tritonc_free(diag);

	compile_kernel_tests(defines);
	hint_on_argument_65();
	inductor_defaults();
	gemm_metadata();
	return failures ? 1 : 0;
}
