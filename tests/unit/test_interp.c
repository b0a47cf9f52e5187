/* test_interp.c: the tile-IR interpreter on the seed RMSNorm kernel, built
 * op by op as the specializer will build it, against a float64 reference
 * and against the values real Triton produced (tests/golden/). Also the
 * typing rules the builder applies. */
#include "ir/tir.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


static Type ptr_type(DType elem)
{
	Type t = {.dtype = DT_PTR, .elem = elem};
	return t;
}

/* triton_per_fused_mul_pow_rsqrt_0 from the seed, op for op. */
static TKernel *build_rmsnorm(Arena *a, int xblock)
{
	TBuilder b;
	TKernel *k = tir_kernel_new(a, "triton_per_fused_mul_pow_rsqrt_0", &b);
	Type i32 = {.dtype = DT_I32};
	TValue *in0 = tir_arg(&b, "in_ptr0", ptr_type(DT_F32));
	TValue *in1 = tir_arg(&b, "in_ptr1", ptr_type(DT_F32));
	TValue *out0 = tir_arg(&b, "out_ptr0", ptr_type(DT_F32));
	TValue *xnumel = tir_arg(&b, "xnumel", i32);
	TValue *rnumel = tir_arg(&b, "rnumel", i32);
	TValue *xoffset = tir_binary(&b, TOP_MUL, tir_program_id(&b, 0), tir_const_int(&b, DT_I32, xblock));
	TValue *xindex = tir_binary(&b, TOP_ADD, xoffset, tir_expand(&b, tir_arange(&b, 0, xblock), 1));
	TValue *xmask = tir_cmp(&b, CMP_LT, xindex, xnumel);
	TValue *rindex = tir_expand(&b, tir_arange(&b, 0, 4096), 0);
	TValue *rmask = tir_cmp(&b, CMP_LT, rindex, rnumel);
	TValue *off = tir_binary(&b, TOP_ADD, rindex, tir_binary(&b, TOP_MUL, tir_const_int(&b, DT_I32, 4096), xindex));
	TValue *both = tir_binary(&b, TOP_AND, rmask, xmask);
	TValue *x = tir_load(&b, tir_binary(&b, TOP_ADD, in0, off), both, tir_const_float(&b, DT_F32, 0.0), EVICT_NORMAL);
	TValue *w = tir_load(&b, tir_binary(&b, TOP_ADD, in1, rindex), rmask, NULL, EVICT_LAST);
	TValue *sq = tir_binary(&b, TOP_MUL, x, x);
	TValue *sum = tir_expand(&b, tir_reduce(&b, RED_SUM, sq, 1), 1);
	TValue *mean = tir_binary(&b, TOP_DIV, sum, tir_const_float(&b, DT_F32, 4096.0));
	TValue *rstd = tir_math(&b, MATH_RSQRT, tir_binary(&b, TOP_ADD, mean, tir_const_float(&b, DT_F32, 1e-06)));
	TValue *y = tir_binary(&b, TOP_MUL, tir_binary(&b, TOP_MUL, x, rstd), w);
	TValue *st = tir_store(&b, tir_binary(&b, TOP_ADD, out0, off), y, both);
	return st && !b.error ? k : NULL;
}

/* Reads the array that follows "key": in `text`, from `from` on. */
static int json_numbers(const char *text, const char *from, const char *key, double *out, int max)
{
	const char *p = strstr(from ? from : text, key);
	if (!p || !(p = strchr(p, '[')))
		return 0;
	int n = 0;
	p++;
	while (n < max) {
		char *end;
		double v = strtod(p, &end);
		if (end == p)
			break;
		out[n++] = v;
		p = end;
		while (*p == ',' || *p == ' ' || *p == '\n')
			p++;
	}
	return n;
}

static void test_rmsnorm(void)
{
	enum { ROWS = 37, COLS = 4096, XBLOCK = 2 };
	Arena a = {0};
	TKernel *k = build_rmsnorm(&a, XBLOCK);
	CHECK("rmsnorm builds", k != NULL);
	if (!k)
		return;
	float *x = malloc(sizeof(float) * ROWS * COLS), *w = malloc(sizeof(float) * COLS);
	float *y = malloc(sizeof(float) * ROWS * COLS);
	for (int i = 0; i < ROWS * COLS; i++) {
		x[i] = hash_input((uint32_t)i, 0);
		y[i] = NAN; /* poison: an element never written fails */
	}
	for (int i = 0; i < COLS; i++)
		w[i] = hash_input((uint32_t)i, 1);
	TArgValue args[5] = {{.ptr = x}, {.ptr = w}, {.ptr = y}, {.i = ROWS}, {.i = COLS}};
	int grid[3] = {(ROWS + XBLOCK - 1) / XBLOCK, 1, 1};
	char err[200] = "";
	int rc = tir_interpret(k, args, grid, err, sizeof err);
	CHECK("rmsnorm interprets", rc == 0);

	double worst = 0;
	for (int r = 0; r < ROWS; r++) {
		double ss = 0;
		for (int c = 0; c < COLS; c++)
			ss += (double)x[r * COLS + c] * x[r * COLS + c];
		double rstd = 1.0 / sqrt(ss / COLS + 1e-6);
		for (int c = 0; c < COLS; c++) {
			double want = x[r * COLS + c] * rstd * w[c];
			double e = fabs(y[r * COLS + c] - want) / fmax(fabs(want), 1e-3);
			worst = isnan(e) ? INFINITY : fmax(worst, e);
		}
	}
	printf("# max relative error against float64: %.3g\n", worst);
	CHECK("rmsnorm matches float64 (rel < 1e-5)", worst < 1e-5);

	char *json = file_read("tests/golden/rmsnorm_inductor_r37.json", NULL);
	static double pos[1000], val[1000];
	const char *outputs = json ? strstr(json, "\"outputs\"") : NULL;
	int np = outputs ? json_numbers(json, outputs, "\"positions\"", pos, 1000) : 0;
	int nv = outputs ? json_numbers(json, outputs, "\"values\"", val, 1000) : 0;
	CHECK("golden file read", np == nv && np >= 100);
	double gworst = 0;
	for (int i = 0; i < np && i < nv; i++) {
		double e = fabs(y[(int)pos[i]] - val[i]) / fmax(fabs(val[i]), 1e-3);
		gworst = isnan(e) ? INFINITY : fmax(gworst, e);
	}
	printf("# max relative error against Triton on the GPU: %.3g at %d positions\n", gworst, np);
	CHECK("rmsnorm matches real Triton (rel < 1e-5)", np > 0 && gworst < 1e-5);
	free(json);
	free(x);
	free(w);
	free(y);
	arena_free(&a);
}

static void test_promotion(void)
{
	DType t;
	CHECK("fp16*fp32 -> fp32", tir_promote(DT_F16, false, DT_F32, false, false, &t) && t == DT_F32);
	CHECK("fp16*bf16 -> fp16", tir_promote(DT_F16, false, DT_BF16, false, false, &t) && t == DT_F16);
	CHECK("bf16*bf16 -> bf16", tir_promote(DT_BF16, false, DT_BF16, false, false, &t) && t == DT_BF16);
	CHECK("bf16/bf16 -> fp32", tir_promote(DT_BF16, false, DT_BF16, false, true, &t) && t == DT_F32);
	CHECK("i32+i64 -> i64", tir_promote(DT_I32, false, DT_I64, false, false, &t) && t == DT_I64);
	CHECK("i32+u32 -> u32", tir_promote(DT_I32, false, DT_U32, false, false, &t) && t == DT_U32);
	CHECK("i1+i32 -> i32", tir_promote(DT_I1, false, DT_I32, false, false, &t) && t == DT_I32);
	CHECK("fp16 tensor * python float -> fp16", tir_promote(DT_F16, false, DT_F32, true, false, &t) && t == DT_F16);
	CHECK("i32 tensor * python float -> fp32", tir_promote(DT_I32, false, DT_F32, true, false, &t) && t == DT_F32);
	CHECK("i32 % u32 rejected", !tir_promote(DT_I32, false, DT_U32, false, true, &t));
}

/* Integer division and remainder follow C (toward zero), as Triton's do. */
static void test_int_division(void)
{
	Arena a = {0};
	TBuilder b;
	TKernel *k = tir_kernel_new(&a, "divmod", &b);
	Type p = ptr_type(DT_I32);
	TValue *out = tir_arg(&b, "out", p);
	TValue *n = tir_binary(&b, TOP_SUB, tir_arange(&b, 0, 16), tir_const_int(&b, DT_I32, 8));
	TValue *q = tir_binary(&b, TOP_IDIV, n, tir_const_int(&b, DT_I32, 3));
	TValue *r = tir_binary(&b, TOP_MOD, n, tir_const_int(&b, DT_I32, 3));
	TValue *idx = tir_arange(&b, 0, 16);
	tir_store(&b, tir_binary(&b, TOP_ADD, out, idx), q, NULL);
	tir_store(&b, tir_binary(&b, TOP_ADD, out, tir_binary(&b, TOP_ADD, idx, tir_const_int(&b, DT_I32, 16))), r, NULL);
	int32_t res[32];
	TArgValue args[1] = {{.ptr = res}};
	int grid[3] = {1, 1, 1};
	char err[100];
	int ok = !b.error && tir_interpret(k, args, grid, err, sizeof err) == 0;
	for (int i = 0; ok && i < 16; i++)
		ok = res[i] == (i - 8) / 3 && res[16 + i] == (i - 8) % 3;
	CHECK("integer // and % truncate toward zero", ok && res[0] == -2 && res[16] == -2);
	arena_free(&a);
}

static void test_errors(void)
{
	Arena a = {0};
	TBuilder b;
	tir_kernel_new(&a, "bad", &b);
	TValue *x = tir_arange(&b, 0, 8), *y = tir_arange(&b, 0, 16);
	CHECK("shape mismatch reported", tir_binary(&b, TOP_ADD, x, y) == NULL && b.error && strstr(b.error, "shapes"));
	b.error = NULL;
	CHECK("non power of two arange", tir_arange(&b, 0, 12) == NULL && b.error);
	b.error = NULL;
	TValue *f = tir_cast(&b, x, DT_F32);
	CHECK("bitwise on floats rejected", tir_binary(&b, TOP_AND, f, f) == NULL && b.error);
	arena_free(&a);
}

/* 16-byte accesses where contiguity, alignment and the mask allow them. */
static void test_vector_width(void)
{
	Arena a = {0};
	TKernel *k = build_rmsnorm(&a, 2);
	int64_t aligned[5] = {16, 16, 16, 16, 16}, unknown_len[5] = {16, 16, 16, 16, 1};
	int widths[2][3] = {{0}};
	for (int pass = 0; pass < 2; pass++) {
		tir_axis_analysis(k, pass ? unknown_len : aligned);
		int n = 0;
		for (TValue *v = k->body->first; v; v = v->next) {
			if (v->op == TOP_LOAD && n < 3)
				widths[pass][n++] = tir_vector_width(v->args[0], v->nargs > 1 ? v->args[1] : NULL, 16);
			if (v->op == TOP_STORE && n < 3)
				widths[pass][n++] = tir_vector_width(v->args[0], v->args[2], 16);
		}
	}
	printf("# widths with rnumel %% 16 == 0: %d %d %d; unknown rnumel: %d %d %d\n", widths[0][0], widths[0][1],
	       widths[0][2], widths[1][0], widths[1][1], widths[1][2]);
	CHECK("fp32 loads and store are 4 wide when rnumel is a multiple of 16",
	      widths[0][0] == 4 && widths[0][1] == 4 && widths[0][2] == 4);
	CHECK("masked accesses fall to 1 wide when rnumel may be anything",
	      widths[1][0] == 1 && widths[1][1] == 1 && widths[1][2] == 1);
	arena_free(&a);
}

int main(void)
{
	test_vector_width();
	test_rmsnorm();
	test_promotion();
	test_int_division();
	test_errors();
	return failures ? 1 : 0;
}
