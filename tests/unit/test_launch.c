/* test_launch.c: tritonc_load and tritonc_launch (include/tritonc.h) on the
 * CPU: kernels compiled by tritonc_compile, run on this program's own
 * buffers, at warp width 32 and 64, with constants specialized away, and
 * every error that a caller can cause. */
#include "tritonc.h"
#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char source[] =
	"import triton\nimport triton.language as tl\n\n"
	"@triton.jit\n"
	"def scale_rows(x_ptr, out_ptr, n_rows, n_cols, stride, alpha, BLOCK: tl.constexpr):\n"
	"    row = tl.program_id(0)\n"
	"    cols = tl.arange(0, BLOCK)\n"
	"    mask = cols < n_cols\n"
	"    x = tl.load(x_ptr + row * stride + cols, mask, other=0.0)\n"
	"    s = tl.sum(x * x, 0)\n"
	"    tl.store(out_ptr + row * stride + cols, x * alpha / tl.sqrt(s + 1.0), mask)\n"
	"\n"
	"@triton.jit\n"
	"def checked(x_ptr, n):\n"
	"    i = tl.program_id(0)\n"
	"    v = tl.load(x_ptr + i)\n"
	"    tl.device_assert(v < n, 'value out of range')\n";

static uint32_t rng = 12345;
static float rnd(void)
{
	rng = rng * 1664525u + 1013904223u;
	return (float)((rng >> 8) & 0xffff) / 32768.0f - 1.0f;
}

/* Compiles scale_rows for `target` with the given signature and defines. */
static char *compile_scale(const char *target, const char *sig, const char *const *defines, int ndefines)
{
	tritonc_options o = {.kernel = "scale_rows", .signature = sig, .defines = defines, .ndefines = ndefines,
			     .num_warps = 4, .target = target};
	char *diag = NULL;
	char *code = tritonc_compile(source, "launch.py", &o, &diag);
	if (!code)
		fprintf(stderr, "%s\n", diag ? diag : "(no message)");
	tritonc_free(diag);
	return code;
}

/* Runs scale_rows on random rows and compares with a float64 reference. */
static void scale_case(const char *target, int run_width)
{
	enum { ROWS = 37, COLS = 300, STRIDE = 320 };
	const char *defines2[] = {"BLOCK=512"};
	char *code = compile_scale(target, "*fp32,*fp32:16,i32,i32,i32,fp32", defines2, 1);
	char name[128];
	snprintf(name, sizeof name, "launch %s, run at W=%d", target, run_width ? run_width : strstr(target, "64") ? 64 : 32);
	if (!code) {
		CHECK(name, 0);
		return;
	}
	tritonc_load_options lo = {.target = target, .name = "scale_rows", .run_width = run_width, .cache_dir = ""};
	char *diag = NULL;
	tritonc_kernel *k = tritonc_load(code, &lo, &diag);
	if (!k)
		fprintf(stderr, "%s\n", diag ? diag : "");
	tritonc_free(diag);
	float *x = malloc(sizeof(float) * ROWS * STRIDE), *out = malloc(sizeof(float) * ROWS * STRIDE);
	for (int i = 0; i < ROWS * STRIDE; i++) {
		x[i] = rnd();
		out[i] = 7.0f;
	}
	int32_t n_rows = ROWS, n_cols = COLS, stride = STRIDE;
	float alpha = 1.5f;
	void *xp = x, *op = out;
	void *args[] = {&xp, &op, &n_rows, &n_cols, &stride, &alpha};
	int rc = k ? tritonc_launch(k, (int[3]){ROWS, 1, 1}, NULL, args) : -1;
	if (rc && k)
		fprintf(stderr, "%s\n", tritonc_kernel_error(k));
	double worst = 0;
	int untouched = 1;
	for (int r = 0; r < ROWS; r++) {
		double s = 0;
		for (int c = 0; c < COLS; c++)
			s += (double)x[r * STRIDE + c] * x[r * STRIDE + c];
		for (int c = 0; c < COLS; c++) {
			double want = x[r * STRIDE + c] * 1.5 / sqrt(s + 1.0);
			double e = fabs(out[r * STRIDE + c] - want);
			if (!(e <= worst))
				worst = isnan(e) ? INFINITY : e;
		}
		for (int c = COLS; c < STRIDE; c++)
			untouched &= out[r * STRIDE + c] == 7.0f;
	}
	CHECK(name, k && rc == 0 && worst < 1e-5 && untouched);
	tritonc_unload(k);
	tritonc_free(code);
	free(x);
	free(out);
}

/* A constant given as a define drops out of the argument list. */
static void constant_case(void)
{
	const char *defines[] = {"BLOCK=64", "stride=1", "n_rows=1"};
	char *code = compile_scale("c", "*fp32,*fp32,i32,fp32", defines, 3);
	tritonc_load_options lo = {.target = "c", .name = "scale_rows", .cache_dir = ""};
	tritonc_kernel *k = code ? tritonc_load(code, &lo, NULL) : NULL;
	float x[64], out[64];
	for (int i = 0; i < 64; i++)
		x[i] = rnd(), out[i] = 0;
	void *xp = x, *op = out;
	int32_t n_cols = 1;   /* with stride 1, row 0 alone: one element */
	float alpha = -2.0f;
	void *args[] = {&xp, &op, &n_cols, &alpha};
	int rc = k ? tritonc_launch(k, (int[3]){1, 1, 1}, NULL, args) : -1;
	double want = x[0] * -2.0 / sqrt((double)x[0] * x[0] + 1.0);
	CHECK("launch with constants specialized away", rc == 0 && fabs(out[0] - want) < 1e-6 && out[1] == 0);
	tritonc_unload(k);
	tritonc_free(code);
}

static void error_cases(void)
{
	char *diag = NULL;
	CHECK("load without code fails", !tritonc_load(NULL, &(tritonc_load_options){.name = "k"}, &diag) && diag);
	tritonc_free(diag);
	CHECK("load without a name fails", !tritonc_load("int x;", &(tritonc_load_options){0}, &diag) && diag &&
						   strstr(diag, "name"));
	tritonc_free(diag);
	CHECK("load for hip fails with a message",
	      !tritonc_load("int x;", &(tritonc_load_options){.name = "k", .target = "hip:gfx90a"}, &diag) && diag &&
		      strstr(diag, "C and CUDA"));
	tritonc_free(diag);
	CHECK("load of bad target names it",
	      !tritonc_load("int x;", &(tritonc_load_options){.name = "k", .target = "nvptx"}, &diag) && diag &&
		      strstr(diag, "nvptx"));
	tritonc_free(diag);
	CHECK("load of code that does not compile gives the compiler's message",
	      !tritonc_load("this is not C", &(tritonc_load_options){.name = "k", .cache_dir = ""}, &diag) && diag &&
		      strstr(diag, "error"));
	tritonc_free(diag);
	CHECK("load of code without the kernel names it",
	      !tritonc_load("int x;", &(tritonc_load_options){.name = "nope", .cache_dir = ""}, &diag) && diag &&
		      strstr(diag, "nope_launch"));
	tritonc_free(diag);

	tritonc_options o = {.kernel = "checked", .signature = "*i32,i32", .target = "c", .num_warps = 1};
	char *code = tritonc_compile(source, "launch.py", &o, NULL);
	tritonc_load_options lo = {.target = "c", .name = "checked", .cache_dir = ""};
	tritonc_kernel *k = code ? tritonc_load(code, &lo, NULL) : NULL;
	int32_t vals[8];
	for (int i = 0; i < 8; i++)
		vals[i] = i;
	void *vp = vals;
	int32_t n = 8;
	void *args[] = {&vp, &n};
	CHECK("launch of a passing device assert", k && tritonc_launch(k, (int[3]){8, 1, 1}, NULL, args) == 0 &&
						   !tritonc_kernel_error(k)[0]);
	n = 5;
	CHECK("launch of a failing device assert reports it",
	      k && tritonc_launch(k, (int[3]){8, 1, 1}, NULL, args) != 0 &&
		      strstr(tritonc_kernel_error(k), "value out of range"));
	n = 8;
	CHECK("launch with a negative grid axis fails", k && tritonc_launch(k, (int[3]){8, -1, 1}, NULL, args) != 0 &&
							  strstr(tritonc_kernel_error(k), "negative"));
	vp = NULL;   /* an empty grid touches nothing */
	CHECK("launch of an empty grid runs nothing", k && tritonc_launch(k, (int[3]){0, 1, 1}, NULL, args) == 0);
	CHECK("launch without a grid fails", k && tritonc_launch(k, NULL, NULL, args) != 0);
	CHECK("launch of no kernel fails", tritonc_launch(NULL, (int[3]){1, 1, 1}, NULL, args) != 0);
	tritonc_unload(k);
	tritonc_unload(NULL);
	tritonc_free(code);
}

/* A second load of the same code in the same cache folder is a cache hit. */
static void cache_case(void)
{
	char dir[] = "/tmp/tc-launch-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK("launch cache folder", 0);
		return;
	}
	const char *defines[] = {"BLOCK=64"};
	char *code = compile_scale("c", "*fp32,*fp32,i32,i32,i32,fp32", defines, 1);
	tritonc_load_options lo = {.target = "c", .name = "scale_rows", .cache_dir = dir};
	tritonc_kernel *a = code ? tritonc_load(code, &lo, NULL) : NULL;
	tritonc_kernel *b = code ? tritonc_load(code, &lo, NULL) : NULL;
	CHECK("load twice: the second from the cache", a && b && !tritonc_kernel_cached(a) && tritonc_kernel_cached(b));
	tritonc_unload(a);
	tritonc_unload(b);
	tritonc_free(code);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK("launch cache folder removed", system(cmd) == 0);
}

int main(void)
{
	scale_case("c", 0);
	scale_case("c", 32);
	scale_case("c:wave64", 0);
	constant_case();
	error_cases();
	cache_case();
	return failures ? 1 : 0;
}
