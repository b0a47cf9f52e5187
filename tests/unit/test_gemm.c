/* test_gemm.c: the seed GEMM (tests/corpus/gemm.py) lowered to C and run on
 * the CPU against a float64 product. At warp width 32 the C runs NVIDIA's
 * mma.sync m16n8k16 lane by lane, at 64 AMD's MFMA 16x16x16, each with its
 * own fragment layout (the lowering decides which lane holds which element;
 * the C helpers model what the hardware then computes), so a wrong fragment
 * mapping gives wrong products here. Shapes that no block divides exercise
 * the masks; leading dimensions and K that are multiples of 16 (known to
 * the compiler, as Triton specializes them) let the loads become
 * asynchronous copies and the loop a pipeline num_stages deep. With the
 * target c:wgmma the C runs NVIDIA's wgmma instead, its operands read from
 * shared memory through the descriptors the lowering builds, as the GPU
 * reads them (swizzle included), and its accumulators spread over the
 * warpgroup's threads. Also the fp32 path (input_precision="ieee", exact
 * FMA). */
#include "driver/driver.h"
#include "emit/emit.h"
#include "ir/specialize.h"
#include "runtime/run.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static Arena arena;

static const Kernel *load_kernel(const char *path, Diag *d)
{
	size_t len;
	char *text = file_read(path, &len);
	if (!text)
		return NULL;
	Source *src = arena_alloc(&arena, sizeof *src);
	*src = (Source){.name = arena_strdup(&arena, path), .text = arena_strndup(&arena, text, len), .len = len};
	free(text);
	KernelList kl = {0};
	if (discover_kernels(&arena, d, src, &kl) < 1)
		return NULL;
	return kl.items[0];
}

typedef struct Gemm {
	int m, n, k;
	int bm, bn, bk, warps, stages;
	const char *dtype;          /* of A and B: "fp16", "bf16" */
	bool aligned;               /* leading dimensions padded to multiples of 16, and hinted */
	bool at, bt;                /* A stored K x M (x.T @ w), B stored N x K (x @ w.T) */
} Gemm;

typedef struct Result {
	bool ran;
	double rel_err;             /* max |C - ref| / max |ref| */
	bool matrix, pipelined;     /* what the emitted code does */
	bool wgmma;
	bool wgmma_regs;            /* some wgmma reads A from registers */
	bool tma;                   /* some operand is copied by the bulk tensor copy engine's model */
	bool quads;                 /* C is stored 16 bytes a thread after the quads transpose their runs */
	char err[512];
} Result;

static int pad16(int x)
{
	return (x + 15) / 16 * 16;
}

static Result run_gemm(const Gemm *g, const char *target)
{
	Result r = {0};
	Diag d = {.out = stderr};
	const Kernel *kern = load_kernel("tests/corpus/gemm.py", &d);
	char defs[6][32];
	const char *defines[6];
	snprintf(defs[0], sizeof defs[0], "BLOCK_M=%d", g->bm);
	snprintf(defs[1], sizeof defs[1], "BLOCK_N=%d", g->bn);
	snprintf(defs[2], sizeof defs[2], "BLOCK_K=%d", g->bk);
	snprintf(defs[3], sizeof defs[3], g->at ? "stride_am=1" : "stride_ak=1");
	snprintf(defs[4], sizeof defs[4], g->bt ? "stride_bk=1" : "stride_bn=1");
	snprintf(defs[5], sizeof defs[5], "stride_cn=1");
	for (int i = 0; i < 6; i++)
		defines[i] = defs[i];
	char sig[128];
	snprintf(sig, sizeof sig, "*%s,*%s,*fp16,i32,i32,i32,i32,i32,i32", g->dtype, g->dtype);
	SpecOptions opt = {.signature = sig, .defines = defines, .ndefines = 6, .num_warps = g->warps,
			   .num_stages = g->stages};
	TKernel *tk = kern ? spec_kernel(&arena, &d, kern, &opt) : NULL;
	Target t;
	char err[4096];
	if (!tk || !target_parse(target, &t, err, sizeof err))
		return r;
	/* A[m][k] at m * lda + k (at: k * lda + m), B[k][n] at k * ldb + n (bt: n * ldb + k) */
	int a_row = g->at ? g->m : g->k, b_row = g->bt ? g->k : g->n;
	int lda = g->aligned ? pad16(a_row) : a_row, ldb = g->aligned ? pad16(b_row) : b_row;
	int ldc = g->aligned ? pad16(g->n) : g->n;
	/* A_ptr B_ptr C_ptr M N K stride_am stride_bk stride_cm: what divides each */
	int64_t div[9] = {16, 16, 16, g->m % 16 ? 1 : 16, g->n % 16 ? 1 : 16, g->k % 16 ? 1 : 16,
			  g->aligned ? 16 : 1, g->aligned ? 16 : 1, g->aligned ? 16 : 1};
	driver_passes(&arena, tk, div);
	SKernel *sk = simt_lower(&arena, &d, kern->src, tk, &t);
	if (!sk)
		return r;
	Buf source = {0};
	emit_kernel(&source, sk);
	r.wgmma = strstr(buf_str(&source), "tc_wgmma(") != NULL;
	r.matrix = r.wgmma || strstr(buf_str(&source), t.warp_size == 32 ? "tc_mma_m16n8k16(" : "tc_mfma_16x16x16(");
	r.pipelined = strstr(buf_str(&source), "load_slot") != NULL;
	r.quads = strstr(buf_str(&source), "_runs_x2_x1[") != NULL;

	DType dt = tk->args[0]->type.elem;
	size_t na = (size_t)(g->at ? g->k : g->m) * lda, nb = (size_t)(g->bt ? g->n : g->k) * ldb, nc = (size_t)g->m * ldc;
	RunArg args[9] = {0};
	size_t counts[3] = {na, nb, nc};
	DType types[3] = {dt, dt, DT_F16};
	for (int i = 0; i < 3; i++) {
		args[i].bytes = counts[i] * (size_t)dtype_bytes(types[i]);
		args[i].host = base_malloc(args[i].bytes);
		run_fill(args[i].host, types[i], counts[i], i + 7, 16);   /* random, never zeros */
	}
	int64_t scalars[6] = {g->m, g->n, g->k, lda, ldb, ldc};
	for (int i = 0; i < 6; i++)
		args[3 + i].i = scalars[i];
	RunOptions ro = {.device = DEVICE_CPU, .grid = {(g->m + g->bm - 1) / g->bm, (g->n + g->bn - 1) / g->bn, 1},
			 .cpu_threads = 2, .cache_dir = test_cache_dir()};
	RunResult res;
	r.ran = run_kernel(sk, buf_str(&source), args, &ro, &res, err, sizeof err) == 0;
	if (!r.ran)
		snprintf(r.err, sizeof r.err, "%.500s", err);
	double max_ref = 0, max_diff = 0;
	for (int i = 0; r.ran && i < g->m; i++)
		for (int j = 0; j < g->n; j++) {
			double ref = 0;
			for (int kk = 0; kk < g->k; kk++)
				ref += run_element(args[0].host, dt, g->at ? (size_t)kk * lda + i : (size_t)i * lda + kk) *
				       run_element(args[1].host, dt, g->bt ? (size_t)j * ldb + kk : (size_t)kk * ldb + j);
			double got = run_element(args[2].host, DT_F16, (size_t)i * ldc + j);
			max_ref = fmax(max_ref, fabs(ref));
			max_diff = isnan(got) ? INFINITY : fmax(max_diff, fabs(got - ref));
		}
	r.rel_err = max_ref > 0 ? max_diff / max_ref : INFINITY;
	for (int i = 0; i < 3; i++)
		free(args[i].host);
	buf_free(&source);
	return r;
}

static void test_gemm(void)
{
	static const Gemm shapes[] = {
		{257, 129, 77, 0, 0, 0, 0, 0, "fp16", false, false, false},   /* masks everywhere; loads not vectorizable */
		{257, 129, 77, 0, 0, 0, 0, 0, "bf16", true, false, false},    /* padded rows: copies, masked edges */
		{64, 64, 64, 0, 0, 0, 0, 0, "fp16", true, false, false},
		{512, 512, 512, 0, 0, 0, 0, 0, "fp16", true, false, false},
		/* operands contiguous along their first dimension: x @ w.T, x.T @ w, both; masked edges */
		{200, 136, 96, 0, 0, 0, 0, 0, "fp16", true, false, true},
		{200, 136, 96, 0, 0, 0, 0, 0, "bf16", true, true, false},    /* M % 8: A's m mask cuts copies along M (their leading elements) */
		{192, 144, 96, 0, 0, 0, 0, 0, "bf16", true, true, false},
		{128, 192, 128, 0, 0, 0, 0, 0, "fp16", true, true, true},
	};
	static const int configs[][5] = {
		{64, 64, 32, 4, 2}, {128, 128, 64, 4, 3}, {128, 256, 64, 8, 4}, {64, 64, 32, 8, 1},
	};
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
		for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
			if (s == 3 && c != 1 && c != 2)
				continue;   /* the big shape with the two big blocks only: time */
			if (s >= 4 && c != 0 && c != 1)
				continue;   /* transposed operands with the two 4-warp blocks */
			for (int w = 0; w < 3; w++) {   /* mma.sync, MFMA, wgmma */
				Gemm g = shapes[s];
				g.bm = configs[c][0];
				g.bn = configs[c][1];
				g.bk = configs[c][2];
				g.warps = configs[c][3];
				g.stages = configs[c][4];
				static const char *const targets[] = {"c", "c:wave64", "c:wgmma"};
				Result r = run_gemm(&g, targets[w]);
				char name[200];
				snprintf(name, sizeof name, "gemm %s %dx%dx%d%s%s%s blocks %dx%dx%d warps=%d stages=%d W=%d: %s%s%s, rel err %.2e",
					 g.dtype, g.m, g.n, g.k, g.aligned ? " (rows padded)" : "", g.at ? " A.T" : "", g.bt ? " B.T" : "", g.bm, g.bn, g.bk, g.warps,
					 g.stages, w == 1 ? 64 : 32, r.wgmma ? "wgmma" : w == 1 ? "MFMA" : "mma.sync",
					 r.pipelined ? " async copies" : "", r.quads ? ", C stored by quads" : "",
					 r.rel_err);
				/* copies need 16-byte rows; a mask along them that cuts a copy (K, or M and N
				 * where they run along rows, not multiples of 8) leaves it its leading elements */
				bool copies = g.aligned;
				/* wgmma reads copied operands; a warpgroup's rows come in 64s */
				bool wgmma = w == 2 && copies && g.bm % (16 * g.warps) == 0;
				/* C in 16-byte stores where its rows are 16-byte aligned, from the layouts
				 * of mma.sync and wgmma (with N not a multiple of 8, the mask's bits
				 * travel along and the block's last columns are stored one by one) */
				bool quads = w != 1 && g.aligned;
				CHECK(name, r.ran && r.matrix && r.pipelined == copies && r.wgmma == wgmma && r.quads == quads &&
					    r.rel_err < 1e-2);
				if (!r.ran)
					printf("  %s\n", r.err);
			}
		}
	}
}

/* fp32 operands with input_precision="ieee" (tests/exec/matmul.py): FMA
 * in full fp32 at W=32, MFMA f32 16x16x4 at W=64, against float64 within
 * 1e-5 of the output's scale. */
static void test_ieee(void)
{
	Diag d = {.out = stderr};
	const Kernel *kern = load_kernel("tests/exec/matmul.py", &d);
	const char *defines[] = {"BM=32", "BN=32", "BK=16", "IEEE=1"};
	SpecOptions opt = {.signature = "*fp32,*fp32,*fp32,i32,i32,i32", .defines = defines, .ndefines = 4, .num_warps = 4};
	const int M = 130, N = 70, K = 77;
	for (int w = 0; w < 2; w++) {
		TKernel *tk = kern ? spec_kernel(&arena, &d, kern, &opt) : NULL;
		Target t;
		char err[4096];
		if (tk)
			driver_passes(&arena, tk, NULL);
		SKernel *sk = tk && target_parse(w ? "c:wave64" : "c", &t, err, sizeof err) ? simt_lower(&arena, &d, kern->src, tk, &t)
											 : NULL;
		Buf source = {0};
		RunArg args[6] = {0};
		size_t counts[3] = {(size_t)M * K, (size_t)K * N, (size_t)M * N};
		for (int i = 0; i < 3; i++) {
			args[i].bytes = counts[i] * 4;
			args[i].host = base_malloc(args[i].bytes);
			run_fill(args[i].host, DT_F32, counts[i], i + 3, 16);
		}
		args[3].i = M;
		args[4].i = N;
		args[5].i = K;
		bool ran = false;
		if (sk) {
			emit_kernel(&source, sk);
			RunOptions ro = {.device = DEVICE_CPU, .grid = {(M + 31) / 32, (N + 31) / 32, 1}, .cpu_threads = 2, .cache_dir = test_cache_dir()};
			RunResult res;
			ran = run_kernel(sk, buf_str(&source), args, &ro, &res, err, sizeof err) == 0;
		}
		double max_ref = 0, max_diff = 0;
		for (int i = 0; ran && i < M; i++)
			for (int j = 0; j < N; j++) {
				double ref = 0;
				for (int k = 0; k < K; k++)
					ref += (double)((float *)args[0].host)[i * K + k] * ((float *)args[1].host)[k * N + j];
				double got = ((float *)args[2].host)[i * N + j];
				max_ref = fmax(max_ref, fabs(ref));
				max_diff = isnan(got) ? INFINITY : fmax(max_diff, fabs(got - ref));
			}
		char name[160];
		snprintf(name, sizeof name, "gemm fp32 ieee %dx%dx%d W=%d: rel err %.2e", M, N, K, w ? 64 : 32,
			 max_ref > 0 ? max_diff / max_ref : INFINITY);
		CHECK(name, ran && max_ref > 0 && max_diff / max_ref < 1e-5);
		for (int i = 0; i < 3; i++)
			free(args[i].host);
		buf_free(&source);
	}
}

/* ---- tf32 and int8 on mma.sync and MFMA (tests/exec/gemm_acc.py) ----
 *
 * fp32 operands with input_precision="tf32" (Triton's default) go to
 * mma.sync m16n8k8 with tf32 operands, int8 ones with an int32 accumulator
 * to m16n8k32; the C target at W=32 (and c:wgmma, where these dots stay on
 * mma.sync) runs the instructions lane by lane (tc_mma_m16n8k8_tf32,
 * tc_mma_m16n8k32_s8), so a wrong fragment mapping gives wrong products.
 * At W=64 (c:wave64, gfx90a's instructions) fp32 dots of every precision
 * take MFMA 16x16x4 f32, int8 ones 16x16x16 i8; on c:cdna3 (gfx94x's) tf32
 * takes 16x16x8 xf32, int8 16x16x32 i8, each modelled lane by lane too.
 * tf32: within 1e-5 of a float64 product of the tf32-truncated inputs (the
 * data movement) and within 2e-3 of the scale of the exact one (tf32's own
 * error); int8: exact, over the whole int8 range. In a K loop the
 * operands stream through the cp.async pipeline as fp16 ones do (fp32
 * rows of unknown alignment by 4-byte copies). tf32x3 (three products of
 * the operands' tf32 parts and remainders on mma.sync, exact fp32 products
 * on MFMA) and ieee (FMA on NVIDIA) within 1e-5 of the exact product's
 * scale, as the FMA path in full fp32 (test_ieee). */
typedef enum { PREC_TF32, PREC_TF32X3, PREC_IEEE } AccPrec;

typedef struct AccCase {
	int m, n, k;
	bool int8, bt, aligned;
	AccPrec prec;               /* fp32 operands' input_precision */
} AccCase;

typedef struct AccResult {
	bool ran, matrix, pipelined;
	double rel_err, rel_err_tf32;   /* against the exact product, and against the tf32 inputs' (fp32) */
	int64_t wrong;                  /* int8: elements that differ */
	char err[512];
} AccResult;

static float tf32_of(float x)
{
	uint32_t u;
	memcpy(&u, &x, 4);
	u &= 0xffffe000u;
	memcpy(&x, &u, 4);
	return x;
}

static AccResult run_acc(const AccCase *c, int bm, int bn, int bk, int warps, int stages, const char *target)
{
	AccResult r = {0};
	Diag d = {.out = stderr};
	const Kernel *kern = load_kernel("tests/exec/gemm_acc.py", &d);
	char defs[6][32];
	const char *defines[6];
	snprintf(defs[0], 32, "ACC=%s", c->int8 ? "tl.int32" : "tl.float32");
	snprintf(defs[1], 32, "BT=%d", c->bt);
	snprintf(defs[2], 32, "BM=%d", bm);
	snprintf(defs[3], 32, "BN=%d", bn);
	snprintf(defs[4], 32, "BK=%d", bk);
	static const char *const precs[] = {"'tf32'", "'tf32x3'", "'ieee'"};
	snprintf(defs[5], 32, "PREC=%s", c->int8 ? "None" : precs[c->prec]);
	for (int i = 0; i < 6; i++)
		defines[i] = defs[i];
	const char *sig = c->int8 ? "*i8,*i8,*i32,i32,i32,i32,i32,i32,i32" : "*fp32,*fp32,*fp32,i32,i32,i32,i32,i32,i32";
	SpecOptions opt = {.signature = sig, .defines = defines, .ndefines = 6, .num_warps = warps, .num_stages = stages};
	TKernel *tk = kern ? spec_kernel(&arena, &d, kern, &opt) : NULL;
	Target t;
	char err[4096];
	if (!tk || !target_parse(target, &t, err, sizeof err))
		return r;
	int a_row = c->k, b_row = c->bt ? c->k : c->n;
	int lda = c->aligned ? pad16(a_row) : a_row, ldb = c->aligned ? pad16(b_row) : b_row;
	int ldc = c->aligned ? pad16(c->n) : c->n;
	int64_t div[9] = {16, 16, 16, c->m % 16 ? 1 : 16, c->n % 16 ? 1 : 16, c->k % 16 ? 1 : 16,
			  c->aligned ? 16 : 1, c->aligned ? 16 : 1, c->aligned ? 16 : 1};
	driver_passes(&arena, tk, div);
	SKernel *sk = simt_lower(&arena, &d, kern->src, tk, &t);
	if (!sk)
		return r;
	Buf source = {0};
	emit_kernel(&source, sk);
	/* the instruction the target takes, called from the kernel */
	const char *instr = c->int8 ? (t.matrix != MATRIX_MFMA ? "tc_mma_m16n8k32_s8(&" : t.cdna3 ? "tc_mfma_16x16x32_i8(&"
				       : "tc_mfma_16x16x16_i8(&")
			  : t.matrix != MATRIX_MFMA ? "tc_mma_m16n8k8_tf32(&"
			  : t.cdna3 && c->prec == PREC_TF32 ? "tc_mfma_16x16x8_xf32(&" : "tc_mfma_16x16x4_f32(&";
	r.matrix = strstr(buf_str(&source), instr) != NULL;
	r.pipelined = strstr(buf_str(&source), "load_slot") != NULL;
	DType dt = c->int8 ? DT_I8 : DT_F32, ct = c->int8 ? DT_I32 : DT_F32;
	size_t na = (size_t)c->m * lda, nb = (size_t)(c->bt ? c->n : c->k) * ldb, nc = (size_t)c->m * ldc;
	RunArg args[9] = {0};
	size_t counts[3] = {na, nb, nc};
	DType types[3] = {dt, dt, ct};
	for (int i = 0; i < 3; i++) {
		args[i].bytes = counts[i] * (size_t)dtype_bytes(types[i]);
		args[i].host = base_malloc(args[i].bytes);
		run_fill(args[i].host, types[i], counts[i], i + 5, 256);   /* int8: every value, -128 .. 127 */
	}
	int64_t scalars[6] = {c->m, c->n, c->k, lda, ldb, ldc};
	for (int i = 0; i < 6; i++)
		args[3 + i].i = scalars[i];
	RunOptions ro = {.device = DEVICE_CPU, .grid = {(c->m + bm - 1) / bm, (c->n + bn - 1) / bn, 1}, .cpu_threads = 2,
			 .cache_dir = test_cache_dir()};
	RunResult res;
	r.ran = run_kernel(sk, buf_str(&source), args, &ro, &res, err, sizeof err) == 0;
	if (!r.ran)
		snprintf(r.err, sizeof r.err, "%.500s", err);
	double max_ref = 0, max_diff = 0, max_diff_tf32 = 0;
	for (int i = 0; r.ran && i < c->m; i++)
		for (int j = 0; j < c->n; j++) {
			size_t ia = (size_t)i * lda, ib = c->bt ? (size_t)j * ldb : (size_t)j;
			size_t sb = c->bt ? 1 : (size_t)ldb;
			if (c->int8) {
				int64_t ref = 0;
				for (int kk = 0; kk < c->k; kk++)
					ref += (int64_t)((int8_t *)args[0].host)[ia + kk] * ((int8_t *)args[1].host)[ib + kk * sb];
				r.wrong += ((int32_t *)args[2].host)[(size_t)i * ldc + j] != ref;
				continue;
			}
			double ref = 0, ref32 = 0;
			for (int kk = 0; kk < c->k; kk++) {
				float x = ((float *)args[0].host)[ia + kk], y = ((float *)args[1].host)[ib + kk * sb];
				ref += (double)x * y;
				ref32 += (double)tf32_of(x) * tf32_of(y);
			}
			double got = ((float *)args[2].host)[(size_t)i * ldc + j];
			max_ref = fmax(max_ref, fabs(ref));
			max_diff = isnan(got) ? INFINITY : fmax(max_diff, fabs(got - ref));
			max_diff_tf32 = isnan(got) ? INFINITY : fmax(max_diff_tf32, fabs(got - ref32));
		}
	r.rel_err = c->int8 ? 0 : max_ref > 0 ? max_diff / max_ref : INFINITY;
	r.rel_err_tf32 = c->int8 ? 0 : max_ref > 0 ? max_diff_tf32 / max_ref : INFINITY;
	for (int i = 0; i < 3; i++)
		free(args[i].host);
	buf_free(&source);
	return r;
}

static void test_acc(void)
{
	static const AccCase cases[] = {
		{130, 70, 77, false, false, false, false},   {257, 129, 77, false, false, false, false},
		{257, 129, 77, false, true, true, false},    {130, 70, 77, true, false, false, false},
		{257, 129, 77, true, false, false, false},   {257, 129, 77, true, true, true, false},
		{128, 128, 128, false, false, true, false},  {128, 128, 128, true, false, true, false},
		{130, 70, 77, false, false, false, PREC_TF32X3}, {257, 129, 77, false, true, true, PREC_TF32X3},
		{130, 70, 77, false, false, false, PREC_IEEE}, {257, 129, 77, false, true, true, PREC_IEEE},
		/* one K step, fewer than the stages ahead: the steady loop of a
		 * peeled pipeline runs no iteration (src/gpu/peel.c) */
		{130, 70, 20, false, false, false, false},   {130, 70, 20, true, true, true, false},
	};
	static const int configs[][5] = {
		{64, 64, 32, 4, 1}, {64, 64, 32, 8, 2}, {128, 128, 64, 4, 3}, {128, 128, 64, 8, 2}, {64, 64, 64, 4, 3},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		for (size_t k = 0; k < sizeof configs / sizeof configs[0]; k++)
			for (int w = 0; w < 4; w++) {
				static const char *const targets[] = {"c", "c:wgmma", "c:wave64", "c:cdna3"};
				if (w > 0 && k != 2 && k != 4)
					continue;   /* the other targets with two blocks: time */
				const AccCase *c = &cases[i];
				const int *f = configs[k];
				AccResult r = run_acc(c, f[0], f[1], f[2], f[3], f[4], targets[w]);
				char name[240];
				static const char *const prec_names[] = {"tf32", "tf32x3", "ieee"};
				bool mfma = w >= 2, exact = !c->int8 && c->prec != PREC_TF32;
				snprintf(name, sizeof name, "gemm %s %dx%dx%d%s%s blocks %dx%dx%d warps=%d stages=%d %s: %s%s, %s",
					 c->int8 ? "int8" : prec_names[c->prec], c->m, c->n, c->k, c->aligned ? " (rows padded)" : "",
					 c->bt ? " B.T" : "", f[0], f[1], f[2], f[3], f[4], targets[w],
					 r.matrix ? (mfma ? "MFMA" : "mma.sync") : "FMA", r.pipelined ? " async copies" : "",
					 c->int8 ? "exact" : exact ? "within 1e-5" : "within tf32");
				/* ieee: FMA on NVIDIA, MFMA on AMD */
				bool matrix = mfma || c->int8 || c->prec != PREC_IEEE;
				/* copies of 4 to 16 bytes: fp32 elements one at a time where nothing is
				 * known of the rows, int8 ones only in rows padded to 16 */
				bool copies = matrix && (c->aligned || !c->int8);
				bool right = c->int8 ? r.wrong == 0 : exact ? r.rel_err < 1e-5 : r.rel_err < 2e-3 && r.rel_err_tf32 < 1e-5;
				CHECK(name, r.ran && r.matrix == matrix && r.pipelined == copies && right);
				if (!r.ran)
					printf("  %s\n", r.err);
				else if (!right)
					printf("  rel err %.2e, against the tf32 inputs %.2e, %lld wrong\n", r.rel_err, r.rel_err_tf32,
					       (long long)r.wrong);
			}
}

/* ---- tests/exec/gemm_tiles.py: the GEMMs of hand-written Triton ----
 *
 * `wrapped` (rows % M, columns % N, tutorial 03's form), `tile_loop` (a
 * loop over tiles around the K loop, tl.where and tl.multiple_of /
 * max_contiguous on the offsets, tutorial 09's persistent form, with fewer
 * programs than tiles) and `blocks` (tensor-descriptor loads, a @ b.T).
 * Each must keep its K loop pipelined (asynchronous copies into num_stages
 * slots) on every matrix unit the C target models, wgmma included, and
 * compute the product: sizes no block divides, and K not a multiple of 8
 * in most, so the copies at K's edge take only the elements before it
 * (a copy's leading elements, zeros after: cp.async's source size). */
typedef struct TileCase {
	const char *kernel, *signature;
	int m, n, k;
	int lda, ldb, ldc;          /* row strides in elements */
	bool bt;                    /* B stored N x K (the descriptor kernel's) */
	int bm, bn, bk, warps, stages, programs;
	bool pipelined;             /* what the K loop must be */
	bool counted;               /* copies of a run-time number of leading elements */
	bool across;                /* its pipeline carried across the tile loop (plan.c, plan_across_tiles) */
	const char *file;           /* NULL: tests/exec/gemm_tiles.py */
} TileCase;

static Result run_tiles(const TileCase *c, const char *target, bool *counted, bool *across)
{
	Result r = {0};
	Diag d = {.out = stderr};
	size_t len;
	const char *file = c->file ? c->file : "tests/exec/gemm_tiles.py";
	char *text = file_read(file, &len);
	if (!text)
		return r;
	Source *src = arena_alloc(&arena, sizeof *src);
	*src = (Source){.name = file, .text = arena_strndup(&arena, text, len), .len = len};
	free(text);
	KernelList kl = {0};
	const Kernel *kern = NULL;
	if (discover_kernels(&arena, &d, src, &kl) > 0)
		for (int i = 0; i < kl.len; i++)
			if (!strcmp(kl.items[i]->name, c->kernel))
				kern = kl.items[i];
	char defs[8][32];
	const char *defines[8];
	int nd = 0;
	snprintf(defs[nd++], 32, "BM=%d", c->bm);
	snprintf(defs[nd++], 32, "BN=%d", c->bn);
	snprintf(defs[nd++], 32, "BK=%d", c->bk);
	if (!c->bt) {
		snprintf(defs[nd++], 32, "GROUP=2");
		snprintf(defs[nd++], 32, "s_ak=1");
		snprintf(defs[nd++], 32, "s_bn=1");
		snprintf(defs[nd++], 32, "s_cn=1");
	}
	if (!strcmp(c->kernel, "tile_loop"))
		snprintf(defs[nd++], 32, "PROGRAMS=%d", c->programs);
	for (int i = 0; i < nd; i++)
		defines[i] = defs[i];
	int64_t hint[32] = {0};
	char sig[256];
	SigEntry bad;
	if (!kern || spec_signature_args(c->signature) > 32 || !spec_strip_hints(c->signature, sig, hint, &bad))
		return r;
	SpecOptions opt = {.signature = sig, .defines = defines, .ndefines = nd, .num_warps = c->warps,
			   .num_stages = c->stages};
	TKernel *tk = spec_kernel(&arena, &d, kern, &opt);
	Target t;
	char err[4096];
	if (!tk || !target_parse(target, &t, err, sizeof err))
		return r;
	int64_t div[32];
	for (int i = 0; i < tk->nargs && i < 32; i++)
		div[i] = tk->args[i]->type.dtype == DT_PTR ? 16 : hint[i] ? hint[i] : 1;
	driver_passes(&arena, tk, div);
	SKernel *sk = simt_lower(&arena, &d, kern->src, tk, &t);
	if (!sk)
		return r;
	Buf source = {0};
	emit_kernel(&source, sk);
	const char *cs = buf_str(&source);
	r.wgmma = strstr(cs, "tc_wgmma(") != NULL;
	r.matrix = r.wgmma || strstr(cs, t.warp_size == 32 ? "tc_mma_m16n8k16(" : "tc_mfma_16x16x16(");
	r.pipelined = strstr(cs, "load_slot") != NULL;
	*counted = strstr(cs, "tc_n = ") != NULL;
	*across = strstr(cs, "k_start") != NULL;
	r.tma = strstr(cs, "tc_tma_load_model(") != NULL;

	size_t na = (size_t)c->m * c->lda, nb = (size_t)(c->bt ? c->n : c->k) * c->ldb, nc = (size_t)c->m * c->ldc;
	size_t counts[3] = {na, nb, nc};
	RunArg args[32] = {0};
	void *bufs[3];
	for (int i = 0; i < 3; i++) {
		bufs[i] = base_malloc(counts[i] * 2);
		run_fill(bufs[i], DT_F16, counts[i], i + 11, 16);   /* random, never zeros */
	}
	int n = 0;
	if (c->bt) {   /* three descriptors (base, both extents, the row stride), then M, N, K */
		int64_t ext[3][3] = {{c->m, c->k, c->lda}, {c->n, c->k, c->ldb}, {c->m, c->n, c->ldc}};
		for (int i = 0; i < 3; i++) {
			args[n].host = bufs[i];
			args[n++].bytes = counts[i] * 2;
			for (int j = 0; j < 3; j++)
				args[n++].i = ext[i][j];
		}
		args[n++].i = c->m;
		args[n++].i = c->n;
		args[n++].i = c->k;
	} else {
		for (int i = 0; i < 3; i++) {
			args[n].host = bufs[i];
			args[n++].bytes = counts[i] * 2;
		}
		int64_t sc[6] = {c->m, c->n, c->k, c->lda, c->ldb, c->ldc};
		for (int i = 0; i < 6; i++)
			args[n++].i = sc[i];
	}
	int tiles_m = (c->m + c->bm - 1) / c->bm, tiles_n = (c->n + c->bn - 1) / c->bn;
	RunOptions ro = {.device = DEVICE_CPU, .cpu_threads = 2, .cache_dir = test_cache_dir()};
	ro.grid[0] = c->programs ? c->programs : c->bt ? tiles_m : tiles_m * tiles_n;
	ro.grid[1] = c->bt && !c->programs ? tiles_n : 1;
	ro.grid[2] = 1;
	RunResult res;
	r.ran = n == tk->nargs && run_kernel(sk, cs, args, &ro, &res, err, sizeof err) == 0;
	if (!r.ran)
		snprintf(r.err, sizeof r.err, "%.500s", n == tk->nargs ? err : "argument count");
	double max_ref = 0, max_diff = 0;
	for (int i = 0; r.ran && i < c->m; i++)
		for (int j = 0; j < c->n; j++) {
			double ref = 0;
			for (int kk = 0; kk < c->k; kk++)
				ref += run_element(bufs[0], DT_F16, (size_t)i * c->lda + kk) *
				       run_element(bufs[1], DT_F16, c->bt ? (size_t)j * c->ldb + kk : (size_t)kk * c->ldb + j);
			double got = run_element(bufs[2], DT_F16, (size_t)i * c->ldc + j);
			max_ref = fmax(max_ref, fabs(ref));
			max_diff = isnan(got) ? INFINITY : fmax(max_diff, fabs(got - ref));
		}
	r.rel_err = max_ref > 0 ? max_diff / max_ref : INFINITY;
	for (int i = 0; i < 3; i++)
		free(bufs[i]);
	buf_free(&source);
	return r;
}

static void test_tiles(void)
{
	static const char *const ptr_sig = "*fp16,*fp16,*fp16,i32:16,i32:16,i32,i32:16,i32:16,i32:16";
	static const char *const ptr_sig_k16 = "*fp16,*fp16,*fp16,i32,i32:16,i32:16,i32:16,i32:16,i32:16";
	static const char *const plain_sig = "*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32";
	static const char *const desc_sig = "tensordesc<fp16[128,64]>,tensordesc<fp16[128,64]>,tensordesc<fp16[128,128]>,i32,i32,i32";
	static const char *const desc_sig_small = "tensordesc<fp16[64,32]>,tensordesc<fp16[64,32]>,tensordesc<fp16[64,64]>,i32,i32,i32";
	static const char *const half_sig = "tensordesc<fp16[128,64]>,tensordesc<fp16[128,64]>,tensordesc<fp16[128,64]>,i32,i32,i32";
	static const char *const half_sig_small = "tensordesc<fp16[64,32]>,tensordesc<fp16[64,32]>,tensordesc<fp16[64,32]>,i32,i32,i32";
#define P "tests/exec/persistent.py"

	static const TileCase cases[] = {
		/* % M and % N, K's edge inside a copy; then M not a multiple of 16 (rows wrap anywhere), K hinted */
		{"wrapped", NULL, 208, 144, 77, 80, 144, 144, false, 128, 128, 64, 4, 3, 0, true, true, false, NULL},
		{"wrapped", NULL, 200, 144, 96, 96, 144, 144, false, 64, 64, 32, 4, 2, 0, true, false, false, NULL},
		/* three programs walk nine (then four) tiles, each K loop pipelined, the
		 * pipeline carried from tile to tile */
		{"tile_loop", NULL, 208, 144, 77, 80, 144, 144, false, 64, 64, 32, 4, 3, 3, true, true, true, NULL},
		{"tile_loop", NULL, 208, 144, 77, 80, 144, 144, false, 128, 128, 64, 4, 3, 3, true, true, true, NULL},
		/* row strides of no known divisibility, hinted by tl.multiple_of statements on the pointer
		 * tiles (rows of 80 and 144 elements: 16-byte multiples, as the hint says) */
		{"hinted", NULL, 208, 144, 77, 80, 144, 144, false, 128, 128, 64, 4, 3, 0, true, true, false, NULL},
		{"hinted", NULL, 200, 136, 96, 96, 136, 136, false, 64, 64, 32, 4, 2, 0, true, true, false, NULL},
		/* descriptors: rows padded to 16 bytes, extents anywhere */
		{"blocks", NULL, 200, 136, 77, 80, 80, 136, true, 128, 128, 64, 4, 3, 0, true, true, false, NULL},
		{"blocks", NULL, 200, 136, 77, 80, 80, 136, true, 64, 64, 32, 4, 2, 0, true, true, false, NULL},
		/* tests/exec/persistent.py: more tiles than programs, partial tiles, the
		 * tile loop's step num_programs; K of 3, 1 (fewer iterations than
		 * stages - 1: each tile fills and drains at run time) and 2 steps */
		{"persistent", NULL, 200, 144, 77, 80, 144, 144, false, 64, 64, 32, 4, 3, 4, true, true, true, P},
		{"persistent", NULL, 200, 144, 24, 24, 144, 144, false, 64, 64, 32, 4, 3, 4, true, true, true, P},
		{"persistent", NULL, 72, 200, 40, 40, 200, 200, false, 64, 64, 32, 4, 2, 2, true, true, true, P},
		{"persistent", NULL, 208, 144, 120, 120, 144, 144, false, 128, 128, 64, 4, 4, 3, true, true, true, P},
		/* the K loop's bounds are the tile's: filled and drained in every tile */
		{"rotated", NULL, 200, 144, 77, 80, 144, 144, false, 64, 64, 32, 4, 3, 4, true, true, false, P},
		/* descriptors, the epilogue in two halves through a reshape */
		{"persistent_blocks", NULL, 200, 136, 77, 80, 80, 136, true, 64, 64, 32, 4, 3, 5, true, true, true, P},
		{"persistent_blocks", NULL, 200, 136, 77, 80, 80, 136, true, 128, 128, 64, 4, 2, 1, true, true, true, P},
		/* grouped tile order, the blocks' offsets computed before the K loop:
		 * the next tile's bulk copies read them (plan_across_loop) */
		{"persistent_grouped", NULL, 328, 300, 136, 136, 136, 300, true, 128, 128, 64, 4, 3, 4, true, true, true, P},
		{"persistent_grouped", NULL, 328, 300, 136, 136, 136, 300, true, 64, 64, 32, 4, 2, 3, true, true, true, P},
	};
#undef P
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		TileCase c = cases[i];
		bool halves = c.file && c.bt;   /* persistent_blocks stores its tile in two halves */
		c.signature = c.bt ? (c.bm == 128 ? (halves ? half_sig : desc_sig) : (halves ? half_sig_small : desc_sig_small))
				   : !strcmp(c.kernel, "hinted") ? plain_sig : c.counted ? ptr_sig : ptr_sig_k16;
		for (int w = 0; w < 3; w++) {
			static const char *const targets[] = {"c", "c:wave64", "c:wgmma"};
			bool counted = false, across = false;
			Result r = run_tiles(&c, targets[w], &counted, &across);
			bool wgmma = w == 2 && c.bm % (16 * c.warps) == 0;
			/* host descriptors on wgmma: A and B by the bulk tensor copies,
			 * their boxes cut by the view's extents (zeros past M, N and K;
			 * A in its own row order, as the result's rows lie), so no copy
			 * is counted at K's edge */
			bool tma = wgmma && c.bt;
			char name[200];
			snprintf(name, sizeof name, "gemm_tiles %s %dx%dx%d blocks %dx%dx%d stages=%d %s: %s%s%s%s, rel err %.2e",
				 c.kernel, c.m, c.n, c.k, c.bm, c.bn, c.bk, c.stages, targets[w],
				 r.wgmma ? "wgmma" : w == 1 ? "MFMA" : "mma.sync",
				 r.tma ? " bulk tensor copies" : r.pipelined ? " async copies" : "",
				 counted ? " (counted at K's edge)" : "", across ? " across tiles" : "", r.rel_err);
			CHECK(name, r.ran && r.matrix && r.pipelined == c.pipelined && r.wgmma == wgmma && r.tma == tma &&
				    counted == (c.counted && !tma) && across == c.across && r.rel_err < 1e-2);
			if (!r.ran)
				printf("  %s\n", r.err);
		}
	}
}

/* ---- tests/exec/attention.py: online softmax, two dots a K/V block ----
 *
 * q @ k.T with q loaded once before the loop, p @ v with p made from the
 * softmax in registers: on c:wgmma the loop must be pipelined (K and V
 * copied ahead into num_stages slots, q written to shared memory once in
 * wgmma's layout, p packed from the softmax's registers into wgmma's A
 * registers, the model gathering A from every thread's words) and on the
 * other matrix units stay as it was; the output against float64 attention
 * of the same fp16 inputs, at sequence lengths no block divides, causal or
 * not, one warpgroup or two (BM = 128, 8 warps). */
static Result run_attention(int S, bool causal, int stages, int BM, int warps, const char *target)
{
	enum { D = 64, BN = 64 };
	Result r = {0};
	Diag d = {.out = stderr};
	const Kernel *kern = load_kernel("tests/exec/attention.py", &d);
	if (!kern)
		return r;
	const char *defines[] = {"D=64", BM == 128 ? "BM=128" : "BM=64", "BN=64", causal ? "CAUSAL=True" : "CAUSAL=False"};
	SpecOptions opt = {.signature = "*fp16,*fp16,*fp16,*fp16,i32,fp32", .defines = defines, .ndefines = 4,
			   .num_warps = warps, .num_stages = stages};
	TKernel *tk = spec_kernel(&arena, &d, kern, &opt);
	Target t;
	char err[4096];
	if (!tk || !target_parse(target, &t, err, sizeof err))
		return r;
	int64_t div[8] = {16, 16, 16, 16, 1, 1, 1, 1};
	driver_passes(&arena, tk, div);
	SKernel *sk = simt_lower(&arena, &d, kern->src, tk, &t);
	if (!sk)
		return r;
	Buf source = {0};
	emit_kernel(&source, sk);
	const char *cs = buf_str(&source);
	r.wgmma = strstr(cs, "tc_wgmma(") != NULL;
	r.wgmma_regs = strstr(cs, "tc_wgmma_ra(") != NULL;
	r.matrix = r.wgmma || strstr(cs, t.warp_size == 32 ? "tc_mma_m16n8k16(" : "tc_mfma_16x16x16(");
	r.pipelined = strstr(cs, "load_slot") != NULL;
	size_t n = (size_t)S * D;
	void *bufs[4];
	RunArg args[6] = {0};
	for (int i = 0; i < 4; i++) {
		bufs[i] = base_malloc(n * 2);
		run_fill(bufs[i], DT_F16, n, i + 21, 16);   /* random, never zeros */
		args[i].host = bufs[i];
		args[i].bytes = n * 2;
	}
	double scale = 0.125;
	args[4].i = S;
	args[5].f = scale;
	RunOptions ro = {.device = DEVICE_CPU, .cpu_threads = 2, .cache_dir = test_cache_dir(), .grid = {(S + BM - 1) / BM, 1, 1}};
	RunResult res;
	r.ran = run_kernel(sk, cs, args, &ro, &res, err, sizeof err) == 0;
	if (!r.ran)
		snprintf(r.err, sizeof r.err, "%.500s", err);
	double max_ref = 0, max_diff = 0, *w = base_malloc(sizeof *w * (size_t)S);
	for (int i = 0; r.ran && i < S; i++) {
		double top = -INFINITY, sum = 0;
		int last = causal ? i : S - 1;
		for (int j = 0; j <= last; j++) {
			double x = 0;
			for (int k = 0; k < D; k++)
				x += run_element(bufs[0], DT_F16, (size_t)i * D + k) * run_element(bufs[1], DT_F16, (size_t)j * D + k);
			w[j] = x * scale;
			top = fmax(top, w[j]);
		}
		for (int j = 0; j <= last; j++)
			sum += w[j] = exp(w[j] - top);
		for (int k = 0; k < D; k++) {
			double ref = 0;
			for (int j = 0; j <= last; j++)
				ref += w[j] * run_element(bufs[2], DT_F16, (size_t)j * D + k);
			ref /= sum;
			double got = run_element(bufs[3], DT_F16, (size_t)i * D + k);
			max_ref = fmax(max_ref, fabs(ref));
			max_diff = isnan(got) ? INFINITY : fmax(max_diff, fabs(got - ref));
		}
	}
	r.rel_err = max_ref > 0 ? max_diff / max_ref : INFINITY;
	free(w);
	for (int i = 0; i < 4; i++)
		free(bufs[i]);
	buf_free(&source);
	return r;
}

static void test_attention(void)
{
	static const struct { int s; bool causal; int stages, bm, warps; } cases[] = {
		{200, false, 2, 64, 4}, {200, true, 2, 64, 4}, {77, true, 3, 64, 4}, {130, false, 3, 64, 4},
		{300, true, 2, 128, 8},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		for (int w = 0; w < 3; w++) {
			static const char *const targets[] = {"c", "c:wave64", "c:wgmma"};
			Result r = run_attention(cases[i].s, cases[i].causal, cases[i].stages, cases[i].bm, cases[i].warps, targets[w]);
			char name[200];
			snprintf(name, sizeof name, "attention S=%d%s stages=%d BM=%d %d warps %s: %s%s%s, rel err %.2e", cases[i].s,
				 cases[i].causal ? " causal" : "", cases[i].stages, cases[i].bm, cases[i].warps, targets[w],
				 r.wgmma ? "wgmma" : w == 1 ? "MFMA" : "mma.sync", r.wgmma_regs ? " (p from registers)" : "",
				 r.pipelined ? " async copies" : "", r.rel_err);
			CHECK(name, r.ran && r.matrix && r.wgmma == (w == 2) && r.wgmma_regs == (w == 2) && r.pipelined == (w == 2) &&
				    r.rel_err < 1e-2);
			if (!r.ran)
				printf("  %s\n", r.err);
		}
}

int main(int argc, char **argv)
{
	/* `test_gemm tiles` (or attention, gemm, ieee, acc): one group */
	const char *only = argc > 1 ? argv[1] : NULL;
	if (!only || !strcmp(only, "attention"))
		test_attention();
	if (!only || !strcmp(only, "tiles"))
		test_tiles();
	if (!only || !strcmp(only, "gemm"))
		test_gemm();
	if (!only || !strcmp(only, "ieee"))
		test_ieee();
	if (!only || !strcmp(only, "acc"))
		test_acc();
	arena_free(&arena);
	return failures ? 1 : 0;
}
