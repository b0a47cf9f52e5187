/* test_interp.c: the tile-IR interpreter on the seed RMSNorm kernel, built
 * op by op as the specializer will build it, against a float64 reference
 * and against the values real Triton produced (tests/triton_values/). Also the
 * typing rules the builder applies, and kernels from source text for the
 * constructs no golden file covers (run-time loops and ifs, tl.dot and the
 * seed GEMM, atomics, asserts, argmax, scans, Philox, hints), each against
 * a reference computed here. */
#include "ir/specialize.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


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

	char *json = file_read("tests/triton_values/rmsnorm_inductor_r37.json", NULL);
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
	CHECK("i1 tensor + python int -> i32", tir_promote(DT_I1, false, DT_I32, true, false, &t) && t == DT_I32);
	CHECK("u8 tensor + python int -> i32", tir_promote(DT_U8, false, DT_I32, true, false, &t) && t == DT_I32);
	CHECK("i64 tensor + python int -> i64", tir_promote(DT_I64, false, DT_I32, true, false, &t) && t == DT_I64);
	CHECK("fp16 tensor / python float -> fp32", tir_promote(DT_F16, false, DT_F32, true, true, &t) && t == DT_F32);
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
	b.error = NULL;
	static const int swap[2] = {1, 0}, twice[2] = {1, 1};
	CHECK("trans of a 1-D tile rejected", tir_trans(&b, x, 2, swap) == NULL && b.error &&
						      strstr(b.error, "2 dims (1, 0) for a tensor of rank 1"));
	b.error = NULL;
	TValue *x2 = tir_expand(&b, x, 0);
	CHECK("a repeated dim is no permutation", tir_trans(&b, x2, 2, twice) == NULL && b.error &&
							  strstr(b.error, "(1, 1) is not a permutation of 0..1"));
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

/* ---- kernels from source text ---- */

typedef struct Compiled {
	Arena arena;
	Source src;
	Diag diag;
	TKernel *k;
} Compiled;

/* Specializes the only (or the named) kernel of `text`; c->k is NULL and
 * the diagnostic printed when that fails. */
static TKernel *compile_text(Compiled *c, const char *name, const char *text, const char *sig, const char **defines,
			     int ndefines)
{
	memset(c, 0, sizeof *c);
	c->src = (Source){.name = "test.py", .text = text, .len = strlen(text)};
	c->diag.out = stdout;
	KernelList kl = {0};
	if (discover_kernels(&c->arena, &c->diag, &c->src, &kl) <= 0)
		return NULL;
	const Kernel *k = kl.items[0];
	for (int i = 0; name && i < kl.len; i++)
		if (!strcmp(kl.items[i]->name, name))
			k = kl.items[i];
	SpecOptions opt = {.signature = sig, .defines = defines, .ndefines = ndefines, .num_warps = 4};
	c->k = spec_kernel(&c->arena, &c->diag, k, &opt);
	return c->k;
}

static void compiled_free(Compiled *c)
{
	buf_free(&c->diag.text);
	arena_free(&c->arena);
}

static int run(TKernel *k, TArgValue *args, int g0, int g1, char *err, size_t errlen)
{
	int grid[3] = {g0, g1, 1};
	return tir_interpret(k, args, grid, err, errlen);
}

/* A loop over a run-time range carrying a tile, two scalars (one starting
 * as a Python int and turning fp32: the loop is built again) and a count;
 * then an if on a run-time scalar. */
static const char loop_src[] =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def k(x_ptr, out_ptr, lo, hi, BLOCK: tl.constexpr):\n"
	"    offs = tl.arange(0, BLOCK)\n"
	"    acc = tl.zeros([BLOCK], dtype=tl.float32)\n"
	"    total = 0.0\n"
	"    top = 0\n"
	"    count = 0\n"
	"    for i in range(lo, hi, 2):\n"
	"        x = tl.load(x_ptr + i * BLOCK + offs)\n"
	"        acc += x\n"
	"        total += tl.sum(x, 0)\n"
	"        top = top + tl.max(x, 0)\n"
	"        count += 1\n"
	"    if count > 3:\n"
	"        total = total * 2.0\n"
	"    else:\n"
	"        total = total - 1.0\n"
	"    tl.store(out_ptr + offs, acc)\n"
	"    tl.store(out_ptr + BLOCK, total)\n"
	"    tl.store(out_ptr + BLOCK + 1, count.to(tl.float32))\n"
	"    tl.store(out_ptr + BLOCK + 2, top)\n";

static void test_runtime_loop_and_if(void)
{
	enum { BLOCK = 8, ROWS = 10 };
	const char *defs[] = {"BLOCK=8"};
	Compiled c;
	TKernel *k = compile_text(&c, NULL, loop_src, "*fp32,*fp32,i32,i32", defs, 1);
	CHECK("run-time loop and if specialize", k != NULL);
	if (!k)
		return;
	float x[ROWS * BLOCK], out[BLOCK + 3];
	for (int i = 0; i < ROWS * BLOCK; i++)
		x[i] = hash_input((uint32_t)i, 0);
	static const int ranges[][2] = {{1, 8}, {2, 6}, {5, 5}};
	bool ok = true;
	for (int r = 0; r < 3; r++) {
		int lo = ranges[r][0], hi = ranges[r][1], count = 0;
		double acc[BLOCK] = {0}, total = 0, top = 0;
		for (int i = lo; i < hi; i += 2, count++) {
			double row = 0, mx = -INFINITY;
			for (int j = 0; j < BLOCK; j++) {
				acc[j] = (float)(acc[j] + x[i * BLOCK + j]);
				row += x[i * BLOCK + j];
				mx = fmax(mx, x[i * BLOCK + j]);
			}
			total = (float)(total + (float)row);
			top = (float)(top + mx);
		}
		total = count > 3 ? (float)(total * 2) : (float)(total - 1);
		TArgValue args[4] = {{.ptr = x}, {.ptr = out}, {.i = lo}, {.i = hi}};
		char err[200] = "";
		ok &= run(k, args, 1, 1, err, sizeof err) == 0;
		for (int j = 0; j < BLOCK; j++)
			ok &= out[j] == (float)acc[j];
		ok &= out[BLOCK] == (float)total && out[BLOCK + 1] == count && out[BLOCK + 2] == (float)top;
	}
	CHECK("run-time loop (2, 4 and 0 trips) and if match a reference", ok);
	Buf dump = {0};
	tir_dump(&dump, k);
	CHECK("dump shows the loop, its params, the if and the results",
	      strstr(buf_str(&dump), "= for ") && strstr(buf_str(&dump), "i: i32") && strstr(buf_str(&dump), "} else {") &&
		      strstr(buf_str(&dump), "result.0"));
	buf_free(&dump);
	compiled_free(&c);
}

static float from_half(uint16_t h) { return dtype_fp16_to_float(h); }

/* The seed GEMM (tests/corpus/gemm.py: a K loop with run-time bounds and
 * tl.dot on fp16 tiles, fp32 accumulation, fp16 output) at sizes that are
 * not multiples of the blocks, against float64. */
static void test_gemm_seed(void)
{
	enum { M = 40, N = 56, K = 70, BM = 16, BN = 16, BK = 16 };
	size_t len;
	char *text = file_read("tests/corpus/gemm.py", &len);
	const char *defs[] = {"BLOCK_M=16", "BLOCK_N=16", "BLOCK_K=16"};
	Compiled c;
	TKernel *k = text ? compile_text(&c, NULL, text, "*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32", defs, 3)
			  : NULL;
	CHECK("seed GEMM specializes", k != NULL);
	if (!k) {
		free(text);
		return;
	}
	static uint16_t a[M * K], b[K * N], cm[M * N];
	for (int i = 0; i < M * K; i++)
		a[i] = dtype_fp16_from_float(hash_input((uint32_t)i, 0));
	for (int i = 0; i < K * N; i++)
		b[i] = dtype_fp16_from_float(hash_input((uint32_t)i, 1));
	for (int i = 0; i < M * N; i++)
		cm[i] = 0x7e00; /* NaN: must be written */
	TArgValue args[12] = {{.ptr = a}, {.ptr = b}, {.ptr = cm}, {.i = M}, {.i = N}, {.i = K},
			      {.i = K}, {.i = 1}, {.i = N}, {.i = 1}, {.i = N}, {.i = 1}};
	char err[200] = "";
	int rc = run(k, args, (M + BM - 1) / BM, (N + BN - 1) / BN, err, sizeof err);
	CHECK("seed GEMM interprets", rc == 0);
	double worst = 0, scale = 0;
	for (int i = 0; i < M * N; i++) {
		double ref = 0;
		for (int t = 0; t < K; t++)
			ref += (double)from_half(a[i / N * K + t]) * from_half(b[t * N + i % N]);
		scale = fmax(scale, fabs(ref));
		double e = fabs(from_half(cm[i]) - ref) / fmax(fabs(ref), 1.0);
		worst = isnan(e) ? INFINITY : fmax(worst, e);
	}
	printf("# seed GEMM fp16 %dx%dx%d: max error %.3g (relative to max(|ref|, 1); max |ref| %.3g)\n", M, N, K, worst,
	       scale);
	CHECK("seed GEMM matches float64 within fp16 rounding", worst < 1e-3);
	compiled_free(&c);
	free(text);
}

/* The GEMM with fp32 tiles and an fp32 output, so the dot's own precision
 * shows: tf32 inputs by default, full fp32 with input_precision="ieee". */
static const char gemm32_src[] =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def mm(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):\n"
	"    rm = tl.program_id(0) * BM + tl.arange(0, BM)\n"
	"    rn = tl.program_id(1) * BN + tl.arange(0, BN)\n"
	"    rk = tl.arange(0, BK)\n"
	"    acc = tl.zeros((BM, BN), dtype=tl.float32)\n"
	"    for k in tl.range(0, K, BK, num_stages=3):\n"
	"        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)\n"
	"        b = tl.load(B + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)\n"
	"        acc = tl.dot(a, b, acc%s)\n"
	"    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))\n";

static double gemm32_error(const char *extra, const float *a, const float *b, float *cm, int m, int n, int kk)
{
	char text[2048];
	snprintf(text, sizeof text, gemm32_src, extra);
	const char *defs[] = {"BM=16", "BN=32", "BK=16"};
	Compiled c;
	TKernel *k = compile_text(&c, NULL, text, "*fp32,*fp32,*fp32,i32,i32,i32", defs, 3);
	if (!k)
		return INFINITY;
	TArgValue args[6] = {{.ptr = (void *)a}, {.ptr = (void *)b}, {.ptr = cm}, {.i = m}, {.i = n}, {.i = kk}};
	char err[200];
	double worst = INFINITY;
	if (run(k, args, (m + 15) / 16, (n + 31) / 32, err, sizeof err) == 0) {
		double scale = 0;
		worst = 0;
		for (int i = 0; i < m * n; i++) {
			double ref = 0;
			for (int t = 0; t < kk; t++)
				ref += (double)a[i / n * kk + t] * b[t * n + i % n];
			scale = fmax(scale, fabs(ref));
			worst = isnan(cm[i]) ? INFINITY : fmax(worst, fabs(cm[i] - ref));
		}
		worst /= scale;
	}
	compiled_free(&c);
	return worst;
}

/* a [16,16] with a[i][0] = x_i, times the unit matrix e_00: c[i][0] is
 * x_i as the dot's inputs see it. Real Triton 3.6 on an H200 drops the
 * low 13 mantissa bits. */
static void test_tf32_truncates(void)
{
	Arena ar = {0};
	TBuilder b;
	TKernel *k = tir_kernel_new(&ar, "probe", &b);
	TValue *pa = tir_arg(&b, "a", ptr_type(DT_F32)), *pb = tir_arg(&b, "b", ptr_type(DT_F32));
	TValue *pc = tir_arg(&b, "c", ptr_type(DT_F32));
	TValue *rows = tir_binary(&b, TOP_MUL, tir_expand(&b, tir_arange(&b, 0, 16), 1), tir_const_int(&b, DT_I32, 16));
	TValue *offs = tir_binary(&b, TOP_ADD, rows, tir_expand(&b, tir_arange(&b, 0, 16), 0));
	TValue *x = tir_load(&b, tir_binary(&b, TOP_ADD, pa, offs), NULL, NULL, EVICT_NORMAL);
	TValue *y = tir_load(&b, tir_binary(&b, TOP_ADD, pb, offs), NULL, NULL, EVICT_NORMAL);
	tir_store(&b, tir_binary(&b, TOP_ADD, pc, offs), tir_dot(&b, x, y, NULL, DOT_TF32), NULL);
	static const uint32_t in[4] = {0x3f801fff, 0x3f803000, 0xbf801800, 0x3f800fff};
	static const uint32_t want[4] = {0x3f800000, 0x3f802000, 0xbf800000, 0x3f800000};
	float a[256] = {0}, e[256] = {0}, c[256];
	e[0] = 1;
	for (int i = 0; i < 4; i++)
		memcpy(&a[i * 16], &in[i], 4);
	TArgValue args[3] = {{.ptr = a}, {.ptr = e}, {.ptr = c}};
	int grid[3] = {1, 1, 1};
	char err[100];
	bool ok = !b.error && tir_interpret(k, args, grid, err, sizeof err) == 0;
	for (int i = 0; ok && i < 4; i++)
		ok = !memcmp(&c[i * 16], &want[i], 4);
	CHECK("tf32 inputs are truncated to 10 mantissa bits, as on an H200", ok);
	arena_free(&ar);
}

static void test_dot_fp32(void)
{
	enum { M = 33, N = 64, K = 80 };
	static float a[M * K], b[K * N], cm[M * N];
	for (int i = 0; i < M * K; i++)
		a[i] = hash_input((uint32_t)i, 3);
	for (int i = 0; i < K * N; i++)
		b[i] = hash_input((uint32_t)i, 4);
	double tf32 = gemm32_error("", a, b, cm, M, N, K);
	double ieee = gemm32_error(", input_precision=\"ieee\"", a, b, cm, M, N, K);
	printf("# fp32 dot %dx%dx%d: max error / max |ref|: tf32 %.3g, ieee %.3g\n", M, N, K, tf32, ieee);
	/* tf32 truncation errs by up to 2^-10 per input, toward zero: ~6e-4
	 * here (round-to-nearest would give about half). */
	CHECK("fp32 dot with tf32 inputs (the default) within 1e-3 of float64", tf32 < 1e-3);
	CHECK("fp32 dot with input_precision=\"ieee\" within 1e-6 of float64", ieee < 1e-6);
	CHECK("tf32 rounding is applied by default", tf32 > 10 * ieee);
	test_tf32_truncates();
}

static const char atomic_src[] =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def k(out_ptr, idx_ptr, old_ptr, BLOCK: tl.constexpr):\n"
	"    offs = tl.arange(0, BLOCK)\n"
	"    idx = tl.load(idx_ptr + offs)\n"
	"    old = tl.atomic_add(out_ptr + idx, offs.to(tl.float32) + 1.0, mask=offs < BLOCK - 2, sem='relaxed')\n"
	"    tl.store(old_ptr + offs, old)\n";

static void test_atomic_add(void)
{
	const char *defs[] = {"BLOCK=8"};
	Compiled c;
	TKernel *k = compile_text(&c, NULL, atomic_src, "*fp32,*i32,*fp32", defs, 1);
	CHECK("atomic_add specializes", k != NULL);
	if (!k)
		return;
	float out[4] = {0}, old[8];
	int32_t idx[8] = {0, 1, 0, 2, 1, 0, 3, 3};
	TArgValue args[3] = {{.ptr = out}, {.ptr = idx}, {.ptr = old}};
	char err[200];
	bool ok = run(k, args, 1, 1, err, sizeof err) == 0;
	static const float want_out[4] = {10, 7, 4, 0}, want_old[8] = {0, 0, 1, 0, 2, 4, 0, 0};
	ok = ok && !memcmp(out, want_out, sizeof out) && !memcmp(old, want_old, sizeof old);
	CHECK("atomic_add adds in element order under the mask and returns the old values", ok);
	compiled_free(&c);
}

/* Program pid waits for its turn, which program pid - 1 gives it. Run in
 * order, programs never wait; program 1 alone would wait forever: the
 * interpreter says so instead of hanging. */
static const char turn_src[] =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def k(turn_ptr, out_ptr):\n"
	"    pid = tl.program_id(0)\n"
	"    while tl.atomic_add(turn_ptr, 0, sem='acquire') != pid:\n"
	"        pass\n"
	"    tl.store(out_ptr + pid, tl.atomic_xchg(turn_ptr, pid + 1, sem='release'))\n";

static void test_spin_wait(void)
{
	Compiled c;
	TKernel *k = compile_text(&c, NULL, turn_src, "*i32,*i32", NULL, 0);
	CHECK("a spin-wait specializes", k != NULL);
	if (!k)
		return;
	int32_t turn = 0, out[4] = {-1, -1, -1, -1};
	TArgValue args[2] = {{.ptr = &turn}, {.ptr = out}};
	char err[300] = "";
	bool ok = run(k, args, 4, 1, err, sizeof err) == 0;
	CHECK("programs run in order pass their turns on", ok && turn == 4 && out[0] == 0 && out[3] == 3);
	turn = 0;
	int grid[3] = {4, 1, 1};
	ok = tir_interpret_range(k, args, grid, 1, 1, err, sizeof err) != 0;
	CHECK("a program waiting for one that has not run is an error, not a hang",
	      ok && strstr(err, "program (1, 0, 0) waits in a loop that changes nothing"));
	compiled_free(&c);
}

/* A loop that never ends on a run-time condition (x cycles in [0, 16)),
 * nested in a loop over a run-time range, and a long one: each stopped
 * at the time limit, with TIR_TIMED_OUT; without a limit the long one
 * finishes. */
static const char forever_src[] =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def k(x_ptr, y_ptr, n):\n"
	"    x = tl.load(x_ptr)\n"
	"    for j in range(n):\n"
	"        while x >= 0:\n"
	"            x = (x + 1) % 16\n"
	"    tl.store(y_ptr, x)\n";
static const char long_src[] =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def k(x_ptr, y_ptr, n):\n"
	"    x = tl.load(x_ptr)\n"
	"    for j in range(n):\n"
	"        x = x + 1\n"
	"    tl.store(y_ptr, x)\n";

static void test_time_limit(void)
{
	Compiled c, c2;
	TKernel *k = compile_text(&c, NULL, forever_src, "*i32,*i32,i32", NULL, 0);
	TKernel *k2 = compile_text(&c2, NULL, long_src, "*i32,*i32,i32", NULL, 0);
	CHECK("a loop that never ends specializes", k != NULL && k2 != NULL);
	if (!k || !k2)
		return;
	int32_t x = 3, y = -1;
	TArgValue args[3] = {{.ptr = &x}, {.ptr = &y}, {.i = 2}};
	int grid[3] = {1, 1, 1};
	char err[300] = "";
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = tir_interpret_timed(k, args, grid, 0, 1, 0.3, err, sizeof err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	printf("# stopped after %.2f s: %s\n", s, err);
	CHECK("a loop that never ends stops at the time limit", rc == TIR_TIMED_OUT && s >= 0.3 && s < 3 && y == -1);
	args[2].i = 1000000000;
	rc = tir_interpret_timed(k2, args, grid, 0, 1, 0.2, err, sizeof err);
	CHECK("a long loop stops at the time limit", rc == TIR_TIMED_OUT && y == -1);
	args[2].i = 1000;
	rc = tir_interpret_timed(k2, args, grid, 0, 1, 0, err, sizeof err);
	CHECK("without a limit the loop runs to its end", rc == 0 && y == 1003);
	compiled_free(&c);
	compiled_free(&c2);
}

static const char assert_src[] =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def k(x_ptr, n, BLOCK: tl.constexpr):\n"
	"    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
	"    x = tl.load(x_ptr + offs)\n"
	"    tl.device_assert((0 <= x) & (x < n), \"index out of bounds: 0 <= x < n\")\n";

static void test_device_assert(void)
{
	const char *defs[] = {"BLOCK=4"};
	Compiled c;
	TKernel *k = compile_text(&c, NULL, assert_src, "*i64,i32", defs, 1);
	CHECK("device_assert specializes", k != NULL);
	if (!k)
		return;
	int64_t x[16];
	for (int i = 0; i < 16; i++)
		x[i] = i;
	char err[300] = "";
	TArgValue pass[2] = {{.ptr = x}, {.i = 100}}, failing[2] = {{.ptr = x}, {.i = 10}};
	CHECK("a passing device_assert is silent", run(k, pass, 4, 1, err, sizeof err) == 0 && !err[0]);
	int rc = run(k, failing, 4, 1, err, sizeof err);
	printf("# %s\n", err);
	CHECK("a failing device_assert names the program and the message",
	      rc != 0 && strstr(err, "program (2, 0, 0)") && strstr(err, "index out of bounds: 0 <= x < n"));
	compiled_free(&c);
}

static const char argmax_src[] =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def k(x_ptr, val_ptr, idx_ptr, mval_ptr, midx_ptr, BLOCK: tl.constexpr):\n"
	"    r = tl.arange(0, BLOCK)[None, :]\n"
	"    rows = tl.arange(0, 4)\n"
	"    x = tl.load(x_ptr + r + rows[:, None] * BLOCK)\n"
	"    idx = tl.broadcast_to(r, [4, BLOCK])\n"
	"    v, i = triton_helpers.max_with_index(x, idx, 1)\n"
	"    tl.store(val_ptr + rows, v)\n"
	"    tl.store(idx_ptr + rows, i)\n"
	"    lo = tl.full([4, BLOCK // 2], float('inf'), tl.float32)\n"
	"    lo_i = tl.full([4, BLOCK // 2], 2147483647, tl.int32)\n"
	"    for h in range(2):\n"
	"        part = tl.load(x_ptr + h * (BLOCK // 2) + tl.arange(0, BLOCK // 2)[None, :] + rows[:, None] * BLOCK)\n"
	"        pi = h * (BLOCK // 2) + tl.arange(0, BLOCK // 2)[None, :]\n"
	"        lo, lo_i = triton_helpers.minimum_with_index(lo, lo_i, part, pi)\n"
	"    mv, mi = triton_helpers.min_with_index(lo, lo_i, 1)\n"
	"    tl.store(mval_ptr + rows, mv)\n"
	"    tl.store(midx_ptr + rows, mi)\n";

/* Inductor's max_with_index / min_with_index: ties to the smallest index,
 * NaN chosen over numbers (the first NaN), for max and min alike. */
static void test_argmax(void)
{
	const char *defs[] = {"BLOCK=8"};
	Compiled c;
	TKernel *k = compile_text(&c, NULL, argmax_src, "*fp32,*fp32,*i32,*fp32,*i32", defs, 1);
	CHECK("max_with_index / minimum_with_index specialize", k != NULL);
	if (!k)
		return;
	float x[32] = {1, 3, 3, 2, 0, 3, -1, 2,                 /* tie at 3: index 1; min -1 at 6 */
		       0, 0, 0, 0, 0, 0, 0, 0,                  /* all equal: 0 */
		       1, 2, 9, 4, NAN, NAN, 9, 0,              /* NaN at 4 and 5: 4 for both */
		       -INFINITY, -5, -5, 7, 7, -INFINITY, 1, 1};  /* max 7 at 3, min -inf at 0 */
	x[16] = -0.0f;
	x[17] = 0.0f;
	float val[4], mval[4];
	int32_t idx[4], midx[4];
	TArgValue args[5] = {{.ptr = x}, {.ptr = val}, {.ptr = idx}, {.ptr = mval}, {.ptr = midx}};
	char err[200];
	bool ok = run(k, args, 1, 1, err, sizeof err) == 0;
	ok = ok && idx[0] == 1 && idx[1] == 0 && idx[2] == 4 && idx[3] == 3;
	ok = ok && val[0] == 3 && val[1] == 0 && isnan(val[2]) && val[3] == 7;
	ok = ok && midx[0] == 6 && midx[1] == 0 && midx[2] == 4 && midx[3] == 0;
	ok = ok && mval[0] == -1 && isnan(mval[2]) && mval[3] == -INFINITY;
	for (int i = 0; i < 4; i++)
		printf("# row %d: max %g at %d, min %g at %d\n", i, val[i], idx[i], mval[i], midx[i]);
	CHECK("argmax / argmin: smallest index among ties, NaN first", ok);
	compiled_free(&c);
}

static const char scan_src[] =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def decay(a, b):\n"
	"    return a * 0.5 + b\n"
	"@triton.jit\n"
	"def k(x_ptr, y_ptr, z_ptr, BLOCK: tl.constexpr):\n"
	"    offs = tl.arange(0, BLOCK)\n"
	"    x = tl.load(x_ptr + offs)\n"
	"    y = tl.associative_scan(x, 0, decay)\n"
	"    tl.store(y_ptr + offs, y)\n"
	"    tl.store(z_ptr + offs, tl.cumsum(x, 0, reverse=True))\n";

static void test_scan(void)
{
	enum { BLOCK = 64 };
	const char *defs[] = {"BLOCK=64"};
	Compiled c;
	TKernel *k = compile_text(&c, "k", scan_src, "*fp32,*fp32,*fp32", defs, 1);
	CHECK("associative_scan with a helper combine and tl.cumsum specialize", k != NULL);
	if (!k)
		return;
	float x[BLOCK], y[BLOCK], z[BLOCK];
	for (int i = 0; i < BLOCK; i++)
		x[i] = hash_input((uint32_t)i, 5);
	TArgValue args[3] = {{.ptr = x}, {.ptr = y}, {.ptr = z}};
	char err[200];
	bool ok = run(k, args, 1, 1, err, sizeof err) == 0;
	float acc = x[0];
	double rev = 0, worst = 0;
	for (int i = 0; i < BLOCK; i++) {
		if (i)
			acc = (float)((float)(acc * 0.5f) + x[i]);
		ok &= y[i] == acc;
	}
	for (int i = BLOCK - 1; i >= 0; i--) {
		rev += x[i];
		worst = fmax(worst, fabs(z[i] - rev));
	}
	CHECK("a scan with a general combine runs it in order, rounding each step", ok);
	CHECK("reverse cumsum matches float64", worst < 1e-5);
	compiled_free(&c);
}

/* associative_scan of two tensors: a first-order linear recurrence
 * y[t] = a[t] * y[t-1] + b[t] as the composition of affine maps, and
 * (value, index) pairs; the second result comes from a tuple. */
static const char *const pair_scan_src =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def first_order(a1, b1, a2, b2):\n"
	"    return a1 * a2, b1 * a2 + b2\n"
	"@triton.jit\n"
	"def k(a_ptr, b_ptr, y_ptr, BLOCK: tl.constexpr):\n"
	"    offs = tl.arange(0, BLOCK)\n"
	"    a = tl.load(a_ptr + offs)\n"
	"    b = tl.load(b_ptr + offs)\n"
	"    p, y = tl.associative_scan((a, b), 0, first_order, reverse=True)\n"
	"    tl.store(y_ptr + offs, y)\n"
	"    tl.store(y_ptr + BLOCK + offs, p)\n";

static void test_pair_scan(void)
{
	enum { BLOCK = 32 };
	const char *defs[] = {"BLOCK=32"};
	Compiled c;
	TKernel *k = compile_text(&c, "k", pair_scan_src, "*fp32,*fp32,*fp32", defs, 1);
	CHECK("associative_scan of a tuple of two tensors specializes", k != NULL);
	if (!k)
		return;
	float a[BLOCK], b[BLOCK], y[2 * BLOCK];
	for (int i = 0; i < BLOCK; i++) {
		a[i] = hash_input((uint32_t)i, 6);
		b[i] = hash_input((uint32_t)i, 7);
	}
	TArgValue args[3] = {{.ptr = a}, {.ptr = b}, {.ptr = y}};
	char err[200];
	bool ok = run(k, args, 1, 1, err, sizeof err) == 0;
	float p = a[BLOCK - 1], acc = b[BLOCK - 1];
	for (int i = BLOCK - 1; i >= 0; i--) {
		if (i < BLOCK - 1) {
			p = p * a[i];
			acc = (float)(acc * a[i]) + b[i];
		}
		ok &= y[i] == acc && y[BLOCK + i] == p;
	}
	CHECK("a reverse scan of (a, b) pairs composes y = a * y + b in order", ok);
	compiled_free(&c);
}

/* tl.cumsum and tl.cumprod of bf16 scan in fp32, as Triton promotes them. */
static const char *const bf16_scan_src =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def k(x_ptr, y_ptr, BLOCK: tl.constexpr):\n"
	"    offs = tl.arange(0, BLOCK)\n"
	"    x = tl.load(x_ptr + offs)\n"
	"    tl.store(y_ptr + offs, tl.cumsum(x, 0) + tl.cumprod(x, 0))\n";

static void test_bf16_scan(void)
{
	const char *defs[] = {"BLOCK=16"};
	Compiled c;
	TKernel *k = compile_text(&c, "k", bf16_scan_src, "*bf16,*bf16", defs, 1);
	int scans = 0, fp32 = 0;
	for (const TValue *v = k ? k->body->first : NULL; v; v = v->next) {
		scans += v->op == TOP_SCAN;
		fp32 += v->op == TOP_SCAN && v->type.dtype == DT_F32;
	}
	CHECK("tl.cumsum and tl.cumprod of bf16 scan in fp32", k && scans == 2 && fp32 == 2);
	compiled_free(&c);
}

/* Inductor's looped var_mean, with the reduction loop's bound a run-time
 * argument: welford_reduce's first_iteration (roffset == 0) is then a
 * run-time flag. */
static const char welford_src[] =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def k(in_ptr0, out_mean, out_var, r0_numel, R0_BLOCK: tl.constexpr):\n"
	"    x0 = tl.program_id(0)\n"
	"    r0_base = tl.arange(0, R0_BLOCK)[None, :]\n"
	"    tmp2_mean = tl.zeros([1, R0_BLOCK], tl.float32)\n"
	"    tmp2_m2 = tl.zeros([1, R0_BLOCK], tl.float32)\n"
	"    tmp2_weight = tl.zeros([1, R0_BLOCK], tl.float32)\n"
	"    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):\n"
	"        r0_index = r0_offset + r0_base\n"
	"        r0_mask = r0_index < r0_numel\n"
	"        roffset = r0_offset\n"
	"        tmp0 = tl.load(in_ptr0 + (r0_index + r0_numel * x0), r0_mask, eviction_policy='evict_first', other=0.0)\n"
	"        tmp2_mean_next, tmp2_m2_next, tmp2_weight_next = triton_helpers.welford_reduce(\n"
	"            tmp0, tmp2_mean, tmp2_m2, tmp2_weight, roffset == 0\n"
	"        )\n"
	"        tmp2_mean = tl.where(r0_mask, tmp2_mean_next, tmp2_mean)\n"
	"        tmp2_m2 = tl.where(r0_mask, tmp2_m2_next, tmp2_m2)\n"
	"        tmp2_weight = tl.where(r0_mask, tmp2_weight_next, tmp2_weight)\n"
	"    tmp3, tmp4, tmp5 = triton_helpers.welford(tmp2_mean, tmp2_m2, tmp2_weight, 1)\n"
	"    tl.store(out_mean + x0 + tl.zeros([1], tl.int32), tmp3)\n"
	"    tl.store(out_var + x0 + tl.zeros([1], tl.int32), tmp4 / (r0_numel - 1))\n";

static void test_welford_loop(void)
{
	enum { ROWS = 3, COLS = 700 };
	const char *defs[] = {"R0_BLOCK=256"};
	Compiled c;
	TKernel *k = compile_text(&c, NULL, welford_src, "*fp32,*fp32,*fp32,i32", defs, 1);
	CHECK("welford_reduce in a run-time loop specializes", k != NULL);
	if (!k)
		return;
	static float x[ROWS * COLS];
	float mean[ROWS], var[ROWS];
	for (int i = 0; i < ROWS * COLS; i++)
		x[i] = hash_input((uint32_t)i, 6) * 3 + 1;
	TArgValue args[4] = {{.ptr = x}, {.ptr = mean}, {.ptr = var}, {.i = COLS}};
	char err[200];
	bool ok = run(k, args, ROWS, 1, err, sizeof err) == 0;
	double worst = 0;
	for (int r = 0; ok && r < ROWS; r++) {
		double m = 0, v = 0;
		for (int j = 0; j < COLS; j++)
			m += x[r * COLS + j] / (double)COLS;
		for (int j = 0; j < COLS; j++)
			v += (x[r * COLS + j] - m) * (x[r * COLS + j] - m) / (COLS - 1);
		worst = fmax(worst, fmax(fabs(mean[r] - m) / fabs(m), fabs(var[r] - v) / v));
	}
	printf("# welford over a run-time loop: max relative error %.3g\n", worst);
	CHECK("welford over a run-time loop matches float64 mean and variance", ok && worst < 1e-5);
	compiled_free(&c);
}

static const char philox_src[] =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def k(out_ptr, u_ptr, n_ptr, seed, BLOCK: tl.constexpr):\n"
	"    offs = tl.arange(0, BLOCK)\n"
	"    a, b, c, d = tl.randint4x(seed, offs)\n"
	"    tl.store(out_ptr + offs * 4 + 0, a)\n"
	"    tl.store(out_ptr + offs * 4 + 1, b)\n"
	"    tl.store(out_ptr + offs * 4 + 2, c)\n"
	"    tl.store(out_ptr + offs * 4 + 3, d)\n"
	"    tl.store(u_ptr + offs, tl.rand(seed, offs))\n"
	"    tl.store(n_ptr + offs, tl.randn(seed, offs))\n";

/* Triton's randint4x is Philox-4x32-10 (Salmon et al., SC'11) on the
 * counter (offset, 0, 0, 0) and the key (seed low, seed high): with all
 * zeros it gives Random123's known-answer vector. tl.rand is the first
 * word as int32, folded to non-negative, times 4.6566127342e-10 in fp32. */
static void test_philox(void)
{
	enum { BLOCK = 64 };
	const char *defs[] = {"BLOCK=64"};
	Compiled c;
	TKernel *k = compile_text(&c, NULL, philox_src, "*u32,*fp32,*fp32,i64", defs, 1);
	CHECK("tl.randint4x / rand / randn specialize", k != NULL);
	if (!k)
		return;
	uint32_t w[4 * BLOCK];
	float u[BLOCK], nrm[BLOCK];
	TArgValue args[4] = {{.ptr = w}, {.ptr = u}, {.ptr = nrm}, {.i = 0}};
	char err[200];
	bool ok = run(k, args, 1, 1, err, sizeof err) == 0;
	CHECK("Philox-4x32-10 of zeros is Random123's known answer",
	      ok && w[0] == 0x6627e8d5u && w[1] == 0xe169c58du && w[2] == 0xbc57ac4cu && w[3] == 0x9b00dbd8u);
	bool uniform_ok = ok;
	double mean = 0, var = 0;
	for (int i = 0; i < BLOCK; i++) {
		int32_t s = (int32_t)w[4 * i];
		float want = (float)(s < 0 ? -(int64_t)s - 1 : s) * 4.6566127342e-10f;
		uniform_ok &= u[i] == want && u[i] >= 0 && u[i] < 1;
		mean += nrm[i] / BLOCK;
		var += (double)nrm[i] * nrm[i] / BLOCK;
	}
	CHECK("tl.rand is Triton's uint_to_uniform_float of the first word", uniform_ok);
	printf("# randn over %d values: mean %.3f, mean square %.3f\n", BLOCK, mean, var);
	CHECK("tl.randn looks normal", fabs(mean) < 0.4 && var > 0.5 && var < 1.6);

	/* Values real Triton 3.6 gave on an H200 for seed 2^40 + 3, offsets 0
	 * and 1 (tests/unit: no GPU needed to check them). randn goes through
	 * libdevice's logf / cosf there and libm here: a few ulp apart. */
	args[3].i = (INT64_C(1) << 40) + 3;
	ok = run(k, args, 1, 1, err, sizeof err) == 0;
	static const uint32_t triton_words[8] = {0x55d6fab1, 0xb1404635, 0xb7259aaa, 0xe70cf7c6,
						 0x23d24d0e, 0xa8df4fde, 0x05601c1e, 0xc05af117};
	CHECK("randint4x matches Triton 3.6 bit for bit (64-bit seed)", ok && !memcmp(w, triton_words, sizeof triton_words));
	CHECK("tl.rand matches Triton 3.6 bit for bit", ok && u[0] == 0x1.575be8p-1f && u[1] == 0x1.1e9266p-2f);
	CHECK("tl.randn matches Triton 3.6 within 4 ulp",
	      ok && fabs(nrm[0] - -0x1.56e2fcp-1) < 4 * 0x1p-24 && fabs(nrm[1] - -0x1.58b95cp-1) < 4 * 0x1p-24);
	compiled_free(&c);
}

static const char philox64_src[] =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def k(out_ptr, seed, BLOCK: tl.constexpr):\n"
	"    offs = tl.arange(0, BLOCK).to(tl.int64) + 1234567890123\n"
	"    a, b, c, d = tl.randint4x(seed, offs)\n"
	"    tl.store(out_ptr + tl.arange(0, BLOCK) * 2, a)\n"
	"    tl.store(out_ptr + tl.arange(0, BLOCK) * 2 + 1, d)\n";

/* 64-bit offsets: Triton 3.6 puts their high half in the second counter
 * word and still returns u32 (values from an H200). */
static void test_philox64(void)
{
	const char *defs[] = {"BLOCK=2"};
	Compiled c;
	TKernel *k = compile_text(&c, NULL, philox64_src, "*u32,i32", defs, 1);
	CHECK("randint4x on int64 offsets specializes", k != NULL);
	if (!k)
		return;
	uint32_t w[4];
	TArgValue args[2] = {{.ptr = w}, {.i = 0}};
	char err[200];
	bool ok = run(k, args, 1, 1, err, sizeof err) == 0 && w[0] == 0x57efcfd5 && w[1] == 0xa8fc1fa7 &&
		  w[2] == 0xba788377 && w[3] == 0x601e54cb;
	args[1].i = 99;
	ok = ok && run(k, args, 1, 1, err, sizeof err) == 0 && w[0] == 0x7d285b9b && w[1] == 0x8f864771;
	CHECK("randint4x on int64 offsets matches Triton 3.6", ok);
	compiled_free(&c);
}

static const char hint_src[] =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def k(x_ptr, y_ptr, start, n, BLOCK: tl.constexpr):\n"
	"    s = tl.multiple_of(start, 16)\n"
	"    offs = tl.max_contiguous(s + tl.arange(0, BLOCK), BLOCK)\n"
	"    tl.store(y_ptr + offs, tl.load(x_ptr + offs))\n"
	"    p = x_ptr + tl.arange(0, BLOCK)\n"
	"    for i in range(0, n, BLOCK):\n"
	"        tl.store(y_ptr + i + tl.arange(0, BLOCK), tl.load(p))\n"
	"        p += BLOCK\n";

/* multiple_of feeds axis analysis; inside a loop the induction variable
 * keeps the step's divisibility and a pointer advanced by a multiple of 16
 * bytes stays aligned (the fixpoint over the loop). */
static void test_hints(void)
{
	const char *defs[] = {"BLOCK=64"};
	Compiled c;
	TKernel *k = compile_text(&c, NULL, hint_src, "*fp32,*fp32,i32,i32", defs, 1);
	CHECK("multiple_of / max_contiguous specialize", k != NULL);
	if (!k)
		return;
	int64_t div[4] = {16, 16, 1, 1};
	tir_axis_analysis(k, div);
	int widths[4] = {0}, n = 0;
	for (TValue *v = k->body->first; v; v = v->next) {
		TBlock *blk = v->op == TOP_FOR ? v->body : NULL;
		for (TValue *w = blk ? blk->first : v; w && n < 4; w = blk ? w->next : NULL)
			if (w->op == TOP_LOAD || w->op == TOP_STORE)
				widths[n++] = tir_vector_width(w->args[0], NULL, 16);
	}
	printf("# widths: hinted load %d, store %d; in the loop: load %d, store %d\n", widths[0], widths[1], widths[2],
	       widths[3]);
	CHECK("tl.multiple_of makes the hinted accesses 16 bytes wide", widths[0] == 4 && widths[1] == 4);
	CHECK("accesses inside a run-time loop stay 16 bytes wide", widths[2] == 4 && widths[3] == 4);
	compiled_free(&c);
}

static const char *row_src =
	"@triton.jit\n"
	"def rows(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
	"    offs = tl.arange(0, BLOCK)\n"
	"    x = tl.load(x_ptr + tl.program_id(0) * BLOCK + offs)\n"
	"    tl.store(y_ptr + tl.program_id(0) * (BLOCK + 1) + offs, x)\n"
	"    tl.store(y_ptr + tl.program_id(0) * n + offs, x)\n";

/* Scalar offsets carry their facts too: a row start pid * 65 (or pid times
 * an integer not known to be a multiple of 16) is not 16-byte aligned, so
 * the store after it is one element wide (a 16-byte store there faults on
 * the GPU); pid * 64 keeps the load 16 bytes wide. */
static void test_scalar_offsets(void)
{
	const char *defs[] = {"BLOCK=64"};
	Compiled c;
	TKernel *k = compile_text(&c, NULL, row_src, "*fp32,*fp32,i32", defs, 1);
	CHECK("a kernel with row starts specializes", k != NULL);
	if (!k)
		return;
	int64_t div[3] = {16, 16, 1};
	tir_axis_analysis(k, div);
	int widths[3] = {0}, n = 0;
	for (TValue *v = k->body->first; v && n < 3; v = v->next)
		if (v->op == TOP_LOAD || v->op == TOP_STORE)
			widths[n++] = tir_vector_width(v->args[0], NULL, 16);
	printf("# widths: load at pid * 64 %d, store at pid * 65 %d, store at pid * n %d\n", widths[0], widths[1],
	       widths[2]);
	CHECK("row starts pid * 64: 16 bytes; pid * 65 and pid * n (n unknown): one element",
	      widths[0] == 4 && widths[1] == 1 && widths[2] == 1);
	compiled_free(&c);
}

/* tl.trans / x.T / tl.permute in each of their spellings, on tiles whose
 * elements name their coordinates (10 i + j, 100 a + 10 b + c). */
static const char trans_src[] =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def k(out_ptr):\n"
	"    i = tl.arange(0, 2)\n"
	"    j = tl.arange(0, 4)\n"
	"    x = i[:, None] * 10 + j[None, :]\n"
	"    t = tl.trans(x)\n"
	"    at = j[:, None] * 2 + i[None, :]\n"
	"    tl.store(out_ptr + at, t)\n"
	"    tl.store(out_ptr + 8 + at, x.T + tl.permute(x, 1, 0) + x.trans((1, 0)) - x.permute([1, 0]))\n"
	"    tl.store(out_ptr + 16 + j, tl.sum(t, axis=1))\n"
	"    tl.store(out_ptr + 20 + i, tl.sum(t, axis=0))\n"
	"    x3 = i[:, None, None] * 100 + i[None, :, None] * 10 + j[None, None, :]\n"
	"    p = x3.permute((2, 0, 1))\n"
	"    tl.store(out_ptr + 24 + j[:, None, None] * 4 + i[None, :, None] * 2 + i[None, None, :], p)\n"
	"    q = tl.trans(x3, 1, 2, 0)\n"
	"    tl.store(out_ptr + 40 + i[:, None, None] * 8 + j[None, :, None] * 2 + i[None, None, :], q)\n"
	"    tl.store(out_ptr + 56 + j, tl.permute(j, 0))\n";

static void test_trans(void)
{
	Compiled c;
	TKernel *k = compile_text(&c, NULL, trans_src, "*i32", NULL, 0);
	CHECK("tl.trans / x.T / tl.permute specialize", k != NULL);
	if (!k)
		return;
	int32_t out[60];
	for (int e = 0; e < 60; e++)
		out[e] = -1;
	TArgValue args[1] = {{.ptr = out}};
	char err[200];
	bool ran = run(k, args, 1, 1, err, sizeof err) == 0;
	static const int32_t want[60] = {
		0, 10, 1, 11, 2, 12, 3, 13,                            /* t[j][i] = x[i][j] */
		0, 20, 2, 22, 4, 24, 6, 26,                            /* twice that */
		10, 12, 14, 16,                                        /* sum over i: 10 + 2j */
		6, 46, -1, -1,                                         /* sum over j: 40i + 6 */
		0, 10, 100, 110, 1, 11, 101, 111,                      /* p[c][a][b] = x3[a][b][c] */
		2, 12, 102, 112, 3, 13, 103, 113,
		0, 100, 1, 101, 2, 102, 3, 103,                        /* q[b][c][a] = x3[a][b][c] */
		10, 110, 11, 111, 12, 112, 13, 113,
		0, 1, 2, 3,                                            /* the identity: j itself */
	};
	CHECK("trans, permute and .T move each element where the permutation says", ran && !memcmp(out, want, sizeof out));
	Buf dump = {0};
	tir_dump(&dump, k);
	CHECK("dump shows the permutations", strstr(buf_str(&dump), "trans perm=[1,0]") &&
						     strstr(buf_str(&dump), "trans perm=[2,0,1]") &&
						     strstr(buf_str(&dump), "trans perm=[1,2,0]"));
	buf_free(&dump);
	compiled_free(&c);
}

/* Axis analysis through a transpose: offsets contiguous along dim 0 are,
 * transposed, contiguous along the last dim (16-byte loads); the store
 * through the untransposed offsets is not. */
static const char trans_axis_src[] =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def k(x_ptr, y_ptr, BLOCK: tl.constexpr):\n"
	"    r = tl.arange(0, BLOCK)\n"
	"    off = r[:, None] + r[None, :] * BLOCK\n"
	"    x = tl.load(x_ptr + tl.trans(off))\n"
	"    tl.store(y_ptr + off, x)\n";

static void test_trans_axis(void)
{
	const char *defs[] = {"BLOCK=16"};
	Compiled c;
	TKernel *k = compile_text(&c, NULL, trans_axis_src, "*fp32,*fp32", defs, 1);
	CHECK("transposed offsets specialize", k != NULL);
	if (!k)
		return;
	int64_t div[2] = {16, 16};
	tir_axis_analysis(k, div);
	int widths[2] = {0}, n = 0;
	for (TValue *v = k->body->first; v && n < 2; v = v->next)
		if (v->op == TOP_LOAD || v->op == TOP_STORE)
			widths[n++] = tir_vector_width(v->args[0], NULL, 16);
	CHECK("contiguity follows the permutation (load 4 wide, store 1)", widths[0] == 4 && widths[1] == 1);
	compiled_free(&c);
}

/* ---- math functions against known values ---- */

static const char math_fmt[] =
	"import triton\nimport triton.language as tl\nfrom triton.language.extra import libdevice\n"
	"@triton.jit\n"
	"def k(x_ptr, y_ptr, z_ptr, out_ptr):\n"
	"    x = tl.load(x_ptr)\n"
	"    y = tl.load(y_ptr)\n"
	"    z = tl.load(z_ptr)\n"
	"    tl.store(out_ptr, %s)\n";

/* `expr` of the scalars x, y, z of dtype fp32 or fp64 (double: fp64),
 * interpreted and stored as fp64. */
static bool math_value(const char *expr, bool dbl, const double in[3], double *out)
{
	char src[512];
	snprintf(src, sizeof src, math_fmt, expr);
	Compiled c;
	TKernel *k = compile_text(&c, NULL, src, dbl ? "*fp64,*fp64,*fp64,*fp64" : "*fp32,*fp32,*fp32,*fp64", NULL, 0);
	float f[3] = {(float)in[0], (float)in[1], (float)in[2]};
	double d[3] = {in[0], in[1], in[2]};
	TArgValue args[4] = {{.ptr = dbl ? (void *)&d[0] : &f[0]}, {.ptr = dbl ? (void *)&d[1] : &f[1]},
			     {.ptr = dbl ? (void *)&d[2] : &f[2]}, {.ptr = out}};
	char err[200];
	bool ok = k && run(k, args, 1, 1, err, sizeof err) == 0;
	compiled_free(&c);
	return ok;
}

/* The interpreter's math functions in fp64 and fp32 against float64 values
 * (Python's math module, or the definition): within 1e-13 relative in fp64
 * (erfinv 1e-12), within fp32's rounding in fp32 (the inputs are fp32
 * values, or the functions well conditioned there). Integer results
 * exactly. */
static void test_math_values(void)
{
	static const struct {
		const char *expr;
		double x, y, z, want;
	} cases[] = {
		{"libdevice.expm1(x)", 1e-5, 0, 0, 1.0000050000166668e-05},
		{"libdevice.log10(x)", 1e-3, 0, 0, -3},
		{"libdevice.tan(x)", 1, 0, 0, 1.5574077246549023},
		{"libdevice.asin(x)", 0.5, 0, 0, 0.5235987755982989},
		{"libdevice.acos(x)", 0.5, 0, 0, 1.0471975511965979},
		{"libdevice.atan(x)", 1, 0, 0, 0.7853981633974483},
		{"libdevice.sinh(x)", 1, 0, 0, 1.1752011936438014},
		{"libdevice.cosh(x)", 1, 0, 0, 1.5430806348152437},
		{"libdevice.asinh(x)", 1, 0, 0, 0.881373587019543},
		{"libdevice.acosh(x)", 2, 0, 0, 1.3169578969248166},
		{"libdevice.atanh(x)", 0.5, 0, 0, 0.5493061443340548},
		{"libdevice.erfc(x)", 1, 0, 0, 0.15729920705028513},
		{"libdevice.erfinv(x)", 0.5, 0, 0, 0.4769362762044699},
		{"libdevice.erfinv(x)", -0.875, 0, 0, -1.0847870400692832},
		{"libdevice.erfinv(x)", 1 - 0x1p-10, 0, 0, 2.3314677736219482},
		{"libdevice.erfinv(x)", 1, 0, 0, INFINITY},
		{"libdevice.lgamma(x)", 0.5, 0, 0, 0.5723649429247001},
		{"libdevice.lgamma(x)", -0.5, 0, 0, 1.265512123484645},
		{"libdevice.lgamma(x)", -3, 0, 0, INFINITY},
		{"libdevice.cbrt(x)", -27, 0, 0, -3},
		{"libdevice.trunc(x)", -2.7, 0, 0, -2},
		{"libdevice.nearbyint(x)", 2.5, 0, 0, 2},
		{"libdevice.nearbyint(x)", -2.5, 0, 0, -2},
		{"libdevice.rint(x)", 3.5, 0, 0, 4},
		{"libdevice.round(x)", 2.5, 0, 0, 3},
		{"libdevice.round(x)", -2.5, 0, 0, -3},
		{"libdevice.round(x)", 0.49999997, 0, 0, 0},
		{"libdevice.signbit(x)", -0.0, 0, 0, 1},
		{"libdevice.signbit(x)", 1, 0, 0, 0},
		{"libdevice.signbit(x)", -NAN, 0, 0, 1},
		{"libdevice.ilogb(x)", 10, 0, 0, 3},
		{"libdevice.ilogb(x)", 0, 0, 0, INT32_MIN},
		{"libdevice.ilogb(x)", -INFINITY, 0, 0, INT32_MAX},
		{"libdevice.isnan(x)", NAN, 0, 0, 1},
		{"libdevice.isnan(x)", INFINITY, 0, 0, 0},
		{"libdevice.isinf(x)", -INFINITY, 0, 0, 1},
		{"libdevice.isinf(x)", 1e30, 0, 0, 0},
		{"libdevice.finitef(x)", INFINITY, 0, 0, 0},
		{"libdevice.finitef(x)", -3, 0, 0, 1},
		{"libdevice.pow(x, y)", 2, 10, 0, 1024},
		{"libdevice.pow(x, y)", 2, 0.5, 0, 1.4142135623730951},
		{"libdevice.pow(x, 3)", -2, 0, 0, -8},
		{"libdevice.atan2(x, y)", 1, -1, 0, 2.356194490192345},
		{"libdevice.hypot(x, y)", 3, 4, 0, 5},
		{"libdevice.copysign(x, y)", 3, -0.0, 0, -3},
		{"libdevice.fmod(x, y)", -7, 3, 0, -1},
		{"libdevice.fmod(x, y)", 7.5, -2, 0, 1.5},
		{"libdevice.ldexp(x, 4)", 3, 0, 0, 48},
		{"libdevice.ldexp(x, y.to(tl.int32))", 3, -2, 0, 0.75},
		/* (1 + 2^-12)^2 - (1 + 2^-11) = 2^-24: exact only when fused */
		{"tl.fma(x, y, z)", 1 + 0x1p-12, 1 + 0x1p-12, -(1 + 0x1p-11), 0x1p-24},
		{"libdevice.fma(x, 2.0, 1)", 3, 0, 0, 7},
	};
	int bad = 0;
	for (size_t i = 0; i < TC_COUNT(cases); i++) {
		for (int dbl = 0; dbl < 2; dbl++) {
			double in[3] = {cases[i].x, cases[i].y, cases[i].z}, got = NAN, want = cases[i].want;
			bool ok = math_value(cases[i].expr, dbl, in, &got);
			double tol = dbl ? (strstr(cases[i].expr, "erfinv") ? 1e-12 : 1e-13) : 6e-8;
			if (!dbl && fabs(want) < 1e38)
				want = (float)want;   /* fp32: the float64 value rounded (ties aside) */
			ok = ok && (got == want || fabs(got - want) <= tol * fabs(want));
			if (!ok) {
				printf("# %s at x=%g y=%g z=%g in %s: %.17g, want %.17g\n", cases[i].expr, cases[i].x, cases[i].y,
				       cases[i].z, dbl ? "fp64" : "fp32", got, cases[i].want);
				bad++;
			}
		}
	}
	CHECK("math functions in fp32 and fp64 match float64 values", bad == 0);
	double in[3] = {1, 2, 0}, got = 0;
	CHECK("nextafter in fp32 steps one fp32 ulp", math_value("libdevice.nextafter(x, y)", false, in, &got) &&
							      got == 1 + 0x1p-23);
	CHECK("nextafter in fp64 steps one fp64 ulp", math_value("libdevice.nextafter(x, y)", true, in, &got) &&
							      got == 1 + 0x1p-52);
}

/* An unknown function is an error at its call, naming it. */
static void test_math_errors(void)
{
	char src[512];
	snprintf(src, sizeof src, math_fmt, "libdevice.no_such_fn(x)");
	Compiled c;
	TKernel *k = compile_text(&c, NULL, src, "*fp32,*fp32,*fp32,*fp32", NULL, 0);
	const char *text = buf_str(&c.diag.text);
	CHECK("an unknown math function is a diagnostic naming it and its line",
	      !k && strstr(text, "test.py:9:23: error: unsupported function 'libdevice.no_such_fn'"));
	compiled_free(&c);
}

/* A value's dtype is a compile-time value: `is`, `is not`, `==` and `!=`
 * between dtypes, its classes and width pick branches while specializing,
 * as Inductor's `signbit(x) != 0 if x.dtype is tl.float32 else x < 0`
 * needs (only the branch taken is built). */
static const char dtype_src[] =
	"import triton\nimport triton.language as tl\nfrom triton.language.extra import libdevice\n"
	"@triton.jit\n"
	"def k(x_ptr, out_ptr, neg_ptr):\n"
	"    x = tl.load(x_ptr)\n"
	"    a = 1 if x.dtype is tl.float32 else 0\n"
	"    b = 2 if (x).dtype is not tl.float16 else 0\n"
	"    c = 4 if x.dtype == tl.float32 else 0\n"
	"    d = 8 if tl.int32 != x.dtype else 0\n"
	"    e = 16 if x.dtype.is_floating() else 0\n"
	"    f = 32 if not x.dtype.is_int() else 0\n"
	"    tl.store(out_ptr, a + b + c + d + e + f + 64 * x.dtype.primitive_bitwidth)\n"
	"    tl.store(neg_ptr, (libdevice.signbit(x) != 0) if (x).dtype is tl.float32 else x < 0)\n";

static void test_dtype_compare(void)
{
	static const struct {
		const char *sig;
		int want, neg;   /* of -0.0 (signbit 1, but not < 0) or -5 */
	} cases[] = {
		{"*fp32,*i32,*i32", 1 + 2 + 4 + 8 + 16 + 32 + 64 * 32, 1},
		{"*fp16,*i32,*i32", 8 + 16 + 32 + 64 * 16, 0},
		{"*i32,*i32,*i32", 2 + 64 * 32, 1},
		{"*i8,*i32,*i32", 2 + 8 + 64 * 8, 1},
	};
	for (size_t i = 0; i < TC_COUNT(cases); i++) {
		Compiled c;
		TKernel *k = compile_text(&c, NULL, dtype_src, cases[i].sig, NULL, 0);
		union { float f; uint16_t h; int32_t i; int8_t b; } x;
		switch (cases[i].sig[1]) {
		case 'f': if (cases[i].sig[3] == '3') x.f = -0.0f; else x.h = 0x8000; break;   /* -0.0 */
		default: if (cases[i].sig[2] == '3') x.i = -5; else x.b = -5; break;
		}
		int32_t out = -1, neg = -1;
		TArgValue args[3] = {{.ptr = &x}, {.ptr = &out}, {.ptr = &neg}};
		char err[200], name[128];
		bool ok = k && run(k, args, 1, 1, err, sizeof err) == 0;
		snprintf(name, sizeof name, "dtype comparisons are constants (%s)", cases[i].sig);
		CHECK(name, ok && out == cases[i].want && neg == cases[i].neg);
		compiled_free(&c);
	}
}

/* Integer // and % by 0 and of the lowest value by -1, as an H200 gives
 * them under Triton 3.6 (and the C target, tests/unit/test_exec.c). */
static const char intdiv_src[] =
	"import triton\nimport triton.language as tl\n"
	"@triton.jit\n"
	"def k(a_ptr, b_ptr, q_ptr, r_ptr):\n"
	"    o = tl.arange(0, 4)\n"
	"    a = tl.load(a_ptr + o)\n"
	"    b = tl.load(b_ptr + o)\n"
	"    tl.store(q_ptr + o, a // b)\n"
	"    tl.store(r_ptr + o, a % b)\n";

static void test_int_division_edges(void)
{
	static const char *const sigs[] = {"*i32,*i32,*i32,*i32", "*i64,*i64,*i64,*i64", "*i16,*i16,*i16,*i16",
					   "*i8,*i8,*i8,*i8", "*u8,*u8,*u8,*u8"};
	static const int bytes[] = {4, 8, 2, 1, 1};
	int bad = 0;
	for (int t = 0; t < 5; t++) {
		int bits = 8 * bytes[t];
		bool u = t == 4;
		int64_t lowest = u ? 0 : (int64_t)(~(uint64_t)0 << (bits - 1)), all_ones = u ? 255 : -1;
		int64_t a[4] = {7, u ? 200 : -7, lowest, 5}, b[4] = {0, 0, u ? 0 : -1, 2};
		int64_t wq[4] = {all_ones, all_ones, u ? all_ones : lowest, 2}, wr[4] = {7, u ? 200 : -7, 0, 1};
		unsigned char ab[32], bb[32], qb[32], rb[32];
		for (int i = 0; i < 4; i++) {
			memcpy(ab + i * bytes[t], &a[i], (size_t)bytes[t]);   /* little-endian: the low bytes */
			memcpy(bb + i * bytes[t], &b[i], (size_t)bytes[t]);
		}
		Compiled c;
		TKernel *k = compile_text(&c, NULL, intdiv_src, sigs[t], NULL, 0);
		TArgValue args[4] = {{.ptr = ab}, {.ptr = bb}, {.ptr = qb}, {.ptr = rb}};
		char err[200];
		if (!k || run(k, args, 1, 1, err, sizeof err) != 0) {
			bad++;
		} else {
			for (int i = 0; i < 4; i++) {
				int64_t q = 0, r = 0;
				memcpy(&q, qb + i * bytes[t], (size_t)bytes[t]);
				memcpy(&r, rb + i * bytes[t], (size_t)bytes[t]);
				if (!u && bits < 64) {   /* sign-extend */
					q = (int64_t)((uint64_t)q << (64 - bits)) >> (64 - bits);
					r = (int64_t)((uint64_t)r << (64 - bits)) >> (64 - bits);
				}
				if (q != wq[i] || r != wr[i]) {
					printf("# %s: %lld // %lld = %lld, %% = %lld\n", sigs[t], (long long)a[i], (long long)b[i],
					       (long long)q, (long long)r);
					bad++;
				}
			}
		}
		compiled_free(&c);
	}
	CHECK("x // 0 is all ones, x % 0 is x, INT_MIN // -1 is INT_MIN and % is 0, in every integer dtype", bad == 0);
}

/* The fp8 conversions (src/ir/fp.c) against values worked out by hand from
 * the formats and Triton 3.6's rules: ties to even, saturation, NaN codes,
 * subnormals, fp8e4b15's clamp and half-away rounding, fnuz zeros. */
static void test_fp8_values(void)
{
	static const struct { DType dt; float x; int code; } enc[] = {
		{DT_F8E4NV, 1.0f, 0x38}, {DT_F8E4NV, -2.0f, 0xc0}, {DT_F8E4NV, 448.0f, 0x7e},
		{DT_F8E4NV, 464.0f, 0x7e}, {DT_F8E4NV, 1000.0f, 0x7e}, {DT_F8E4NV, -INFINITY, 0xfe},
		{DT_F8E4NV, NAN, 0x7f}, {DT_F8E4NV, 0x1p-9f, 0x01}, {DT_F8E4NV, 0x1p-10f, 0x00},
		{DT_F8E4NV, 0x3p-10f, 0x02}, {DT_F8E4NV, 1.0625f, 0x38}, {DT_F8E4NV, 1.1875f, 0x3a},
		{DT_F8E4NV, -0.0f, 0x80}, {DT_F8E4NV, 0x1.fp-7f, 0x08},
		{DT_F8E5, 1.0f, 0x3c}, {DT_F8E5, 57344.0f, 0x7b}, {DT_F8E5, INFINITY, 0x7b},
		{DT_F8E5, 0x1p-16f, 0x01}, {DT_F8E5, 0x1p-17f, 0x00}, {DT_F8E5, 1.125f, 0x3c},
		{DT_F8E5, 1.375f, 0x3e}, {DT_F8E5, NAN, 0x7f},
		{DT_F8E4B15, 1.0f, 0x78}, {DT_F8E4B15, 1.8f, 0x7e}, {DT_F8E4B15, 1.0625f, 0x79},
		{DT_F8E4B15, NAN, 0x7e}, {DT_F8E4B15, -INFINITY, 0xfe}, {DT_F8E4B15, 0x1p-17f, 0x01},
		{DT_F8E4B15, 1.0f + 0x1p-12f, 0x78},
		{DT_F8E4B8, 1.0f, 0x40}, {DT_F8E4B8, 240.0f, 0x7f}, {DT_F8E4B8, 1e6f, 0x7f},
		{DT_F8E4B8, -0.0f, 0x00}, {DT_F8E4B8, NAN, 0x80}, {DT_F8E4B8, -0x1p-12f, 0x00},
		{DT_F8E5B16, 1.0f, 0x40}, {DT_F8E5B16, 57344.0f, 0x7f}, {DT_F8E5B16, NAN, 0x80},
		{DT_F8E5B16, 0x1p-17f, 0x01},
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof enc / sizeof enc[0]; i++) {
		int got = dtype_fp8_from_float(enc[i].dt, enc[i].x);
		if (got != enc[i].code) {
			printf("  %s(%a): 0x%02x, expected 0x%02x\n", dtype_name(enc[i].dt), enc[i].x, got, enc[i].code);
			bad++;
		}
	}
	CHECK("fp8: fp32 to each format rounds to nearest even and saturates as Triton 3.6", bad == 0);
	CHECK("fp8: codes decode", dtype_fp8_to_float(DT_F8E4NV, 0x01) == 0x1p-9f &&
				   isnan(dtype_fp8_to_float(DT_F8E4NV, 0xff)) &&
				   dtype_fp8_to_float(DT_F8E4NV, 0x7e) == 448.0f &&
				   dtype_fp8_to_float(DT_F8E5, 0x7c) == INFINITY && isnan(dtype_fp8_to_float(DT_F8E5, 0x7d)) &&
				   dtype_fp8_to_float(DT_F8E4B15, 0x7f) == 1.875f &&
				   dtype_fp8_to_float(DT_F8E4B15, 0xff) == -1.875f &&
				   isnan(dtype_fp8_to_float(DT_F8E4B8, 0x80)) && dtype_fp8_to_float(DT_F8E4B8, 0x7f) == 240.0f &&
				   dtype_fp8_to_float(DT_F8E5B16, 0x01) == 0x1p-17f);
	int trip = 0;
	for (int dt = DT_F8E4NV; dt <= DT_F8E5B16; dt++)
		for (int c = 0; c < 256; c++) {
			float v = dtype_fp8_to_float((DType)dt, (uint8_t)c);
			if (!isnan(v) && !isinf(v) && dtype_fp8_from_float((DType)dt, v) != c &&
			    !(dt == DT_F8E4B15 && (c & 0x7f) == 0x7f))   /* 1.875 clamps to 1.75 */
				trip++;
		}
	CHECK("fp8: every finite code converts back to itself", trip == 0);
	CHECK("fp8: fp8e5 to bf16 as Triton's bit trick", dtype_fp8e5_to_bf16(0x7c) == 65536.0f &&
		dtype_fp8e5_to_bf16(0xfd) == -81920.0f && dtype_fp8e5_to_bf16(0x3c) == 1.0f &&
		dtype_fp8e5_to_bf16(0x01) == 0x1p-16f);
	/* as registers hold it: the byte's value in fp32, then the trick */
	int trick = 0;
	for (int c = 0; c < 256; c++)
		trick += dtype_fp8e5_value_to_bf16(dtype_fp8_to_float(DT_F8E5, (uint8_t)c)) != dtype_fp8e5_to_bf16((uint8_t)c);
	CHECK("fp8: fp8e5 held in fp32 to bf16 as Triton's bit trick on its byte (inf and NaN too)", trick == 0 &&
		dtype_fp8e5_value_to_bf16(NAN) == 114688.0f);
}

int main(void)
{
	test_vector_width();
	test_rmsnorm();
	test_promotion();
	test_int_division();
	test_errors();
	test_runtime_loop_and_if();
	test_gemm_seed();
	test_dot_fp32();
	test_atomic_add();
	test_spin_wait();
	test_time_limit();
	test_device_assert();
	test_argmax();
	test_scan();
	test_pair_scan();
	test_bf16_scan();
	test_welford_loop();
	test_philox();
	test_philox64();
	test_hints();
	test_scalar_offsets();
	test_trans();
	test_trans_axis();
	test_math_values();
	test_math_errors();
	test_int_division_edges();
	test_dtype_compare();
	test_fp8_values();
	return failures ? 1 : 0;
}
