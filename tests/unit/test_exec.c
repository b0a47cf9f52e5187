/* test_exec.c: kernels lowered to C and run on the CPU, at warp widths 32
 * and 64, against the tile-IR interpreter and, for the seed RMSNorm, a
 * float64 reference. The C is the very lowering the GPUs get (shuffles,
 * shared memory, guards); only the printer differs. Also shows that the
 * lowering depends on the warp width: code lowered for 32 lanes and run on
 * 64-lane warps computes wrong sums. */
#include "driver/driver.h"
#include "emit/emit.h"
#include "gpu/lower_ops.h"
#include "ir/specialize.h"
#include "runtime/run.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One run: a kernel, its compile-time choices and its arguments. */
typedef struct Case {
	const char *file;
	const char *kernel;         /* NULL: the first in the file */
	const char *signature;      /* NULL: the Inductor kernel's own; "i32:16" hints a multiple of 16 */
	const char *defines[8];
	int num_warps;
	const char *target;         /* "c" or "c:wave64" */
	int run_width;              /* 0: the lowered width */
	int int_range;              /* integer inputs in [0, int_range); 0: 16 */
	int64_t scalars[16];        /* the scalar arguments, in order */
	int64_t counts[6];          /* buffer element counts, in order of the pointer arguments */
	int grid;
	int grid_y;                 /* 0: 1 */
	bool scans_in_shared;       /* every scan through shared memory, one thread a row */
	unsigned zeroed;            /* pointer arguments (bit i: the i-th) that start at zero, not random */
	unsigned scratch;           /* pointer arguments not compared (a split scan's workspace) */
	int num_stages;             /* 0: the default (3) */
} Case;

typedef struct Outcome {
	bool ran;
	bool kernel_ran;            /* the lowered kernel ran through (the interpreter not yet asked) */
	size_t wrong;               /* elements differing from the interpreter */
	double max_err;
	void *out;                  /* the last buffer after the run */
	void *bufs[6];              /* every buffer after the run, in order (caller frees) */
	int64_t ulps[6];            /* fp32 buffers: largest distance from the interpreter in ulps */
	void *in[2];                /* the first two buffers as generated (caller frees) */
	char err[512];              /* why it did not run */
} Outcome;

static Arena arena;

/* The largest distance between two fp32 arrays in units in the last place:
 * the bit patterns as integers ordered like the floats, subtracted. */
static int64_t max_ulps(const float *a, const float *b, size_t n)
{
	int64_t worst = 0;
	for (size_t i = 0; i < n; i++) {
		int32_t x, y;
		memcpy(&x, &a[i], 4);
		memcpy(&y, &b[i], 4);
		int64_t ox = x < 0 ? (int64_t)INT32_MIN - x : x, oy = y < 0 ? (int64_t)INT32_MIN - y : y;
		int64_t d = ox > oy ? ox - oy : oy - ox;
		if (d > worst)
			worst = d;
	}
	return worst;
}

static const Kernel *load_kernel(const char *path, const char *name, Diag *d)
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
	for (int i = 0; name && i < kl.len; i++)
		if (!strcmp(kl.items[i]->name, name))
			return kl.items[i];
	return name ? NULL : kl.items[0];
}

/* Lowers, runs on the CPU, and compares every buffer with the interpreter. */
static Outcome run_case(const Case *c)
{
	Outcome o = {0};
	Diag d = {.out = stderr};
	const Kernel *k = load_kernel(c->file, c->kernel, &d);
	int ndef = 0;
	while (ndef < 8 && c->defines[ndef])
		ndef++;
	int nhints = c->signature ? spec_signature_args(c->signature) : 0;
	int64_t *hint = base_calloc((size_t)nhints + 1, sizeof *hint);
	char *sig = c->signature ? base_strdup(c->signature) : NULL;
	SigEntry bad;
	if (sig && !spec_strip_hints(c->signature, sig, hint, &bad))
		k = NULL;
	SpecOptions opt = {.signature = sig, .defines = (const char **)c->defines, .ndefines = ndef,
			   .num_warps = c->num_warps, .num_stages = c->num_stages};
	TKernel *tk = k ? spec_kernel(&arena, &d, k, &opt) : NULL;
	free(sig);
	Target t;
	char err[4096];
	if (!tk || !target_parse(c->target, &t, err, sizeof err)) {
		free(hint);
		return o;
	}
	int n = tk->nargs, si = 0, pi = 0;
	RunArg *args = base_calloc((size_t)n, sizeof *args);
	TArgValue *targs = base_calloc((size_t)n, sizeof *targs);
	void **ref = base_calloc((size_t)n, sizeof *ref);
	size_t *counts = base_calloc((size_t)n, sizeof *counts);
	for (int i = 0; i < n; i++) {
		const Type *ty = &tk->args[i]->type;
		if (ty->dtype != DT_PTR) {
			args[i].i = targs[i].i = c->scalars[si++];
			continue;
		}
		counts[i] = (size_t)c->counts[pi++];
		args[i].bytes = counts[i] * (size_t)dtype_bytes(ty->elem);
		args[i].host = base_calloc(args[i].bytes, 1);
		if (!(c->zeroed & (1u << (pi - 1))))
			run_fill(args[i].host, ty->elem, counts[i], i, c->int_range ? c->int_range : 16);
		ref[i] = base_malloc(args[i].bytes);
		memcpy(ref[i], args[i].host, args[i].bytes);
		targs[i].ptr = ref[i];
		if (pi <= 2) {
			o.in[pi - 1] = base_malloc(args[i].bytes);
			memcpy(o.in[pi - 1], args[i].host, args[i].bytes);
		}
	}
	int64_t *div = base_calloc((size_t)n + 1, sizeof *div);   /* what the hints say, as the CLI passes it */
	for (int i = 0; i < n; i++)
		div[i] = tk->args[i]->type.dtype == DT_PTR ? 16 : i < nhints && hint[i] ? hint[i] : 1;
	free(hint);
	lower_scan_in_shared_memory = c->scans_in_shared;
	driver_passes(&arena, tk, div);
	SKernel *sk = simt_lower(&arena, &d, k->src, tk, &t);
	lower_scan_in_shared_memory = false;
	free(div);
	Buf source = {0};
	int grid[3] = {c->grid, c->grid_y ? c->grid_y : 1, 1};
	if (sk) {
		emit_kernel(&source, sk);
		RunOptions ro = {.device = DEVICE_CPU, .grid = {grid[0], grid[1], 1}, .run_width = c->run_width, .cpu_threads = 2,
				 .cache_dir = test_cache_dir()};
		RunResult res;
		o.kernel_ran = run_kernel(sk, buf_str(&source), args, &ro, &res, err, sizeof err) == 0;
		o.ran = o.kernel_ran && tir_interpret(tk, targs, grid, err, sizeof err) == 0;
		if (!o.ran)
			snprintf(o.err, sizeof o.err, "%.400s", err);
	}
	for (int i = 0, nb = 0; i < n; i++) {
		if (!args[i].host)
			continue;
		DType dt = tk->args[i]->type.elem;
		double e = 0;
		size_t first;
		if (o.ran && !(c->scratch & (1u << nb)))
			o.wrong += run_compare(args[i].host, ref[i], dt, counts[i], run_tolerance(dt), &e, &first);
		if (o.ran && dt == DT_F32)
			o.ulps[nb] = max_ulps(args[i].host, ref[i], counts[i]);
		o.max_err = fmax(o.max_err, e);
		o.out = o.bufs[nb++] = args[i].host;
		free(ref[i]);
	}
	buf_free(&source);
	free(args);
	free(targs);
	free(ref);
	free(counts);
	return o;
}

static void free_outcome(Outcome *o)
{
	for (int i = 0; i < 6; i++)
		free(o->bufs[i]);
	free(o->in[0]);
	free(o->in[1]);
}

/* The seed kernel's function in float64: out = x * rsqrt(mean(x^2) + 1e-6) * w
 * over the first `cols` of each 4096-wide row. Largest error relative to
 * max(|ref|, rms of ref). */
static double rmsnorm_error(const Outcome *o, DType dt, int rows, int cols)
{
	double worst = 0, sum_sq = 0;
	double *ref = base_calloc((size_t)rows * cols, sizeof *ref);
	for (int r = 0; r < rows; r++) {
		double ss = 0;
		for (int c = 0; c < cols; c++) {
			double x = dt == DT_F32 ? ((float *)o->in[0])[r * 4096 + c] : dtype_bf16_to_float(((uint16_t *)o->in[0])[r * 4096 + c]);
			ss += x * x;
		}
		double rstd = 1 / sqrt(ss / 4096.0 + 1e-6);   /* the kernel divides by 4096 */
		for (int c = 0; c < cols; c++) {
			double x = dt == DT_F32 ? ((float *)o->in[0])[r * 4096 + c] : dtype_bf16_to_float(((uint16_t *)o->in[0])[r * 4096 + c]);
			double w = dt == DT_F32 ? ((float *)o->in[1])[c] : dtype_bf16_to_float(((uint16_t *)o->in[1])[c]);
			ref[r * cols + c] = x * rstd * w;
			sum_sq += ref[r * cols + c] * ref[r * cols + c];
		}
	}
	double rms = sqrt(sum_sq / ((double)rows * cols));
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++) {
			double got = dt == DT_F32 ? ((float *)o->out)[r * 4096 + c] : dtype_bf16_to_float(((uint16_t *)o->out)[r * 4096 + c]);
			double e = isnan(got) ? INFINITY : fabs(got - ref[r * cols + c]) / fmax(fabs(ref[r * cols + c]), rms);
			worst = fmax(worst, e);
		}
	free(ref);
	return worst;
}

/* The seed kernel over a grid of shapes: 37 rows (no XBLOCK divides it),
 * rows of 3000 (< RBLOCK = 4096, so the masks matter). */
static void test_seed(void)
{
	static const char *const xblocks[] = {"XBLOCK=1", "XBLOCK=2", "XBLOCK=4"};
	static const int xb[] = {1, 2, 4};
	const int rows = 37, cols = 3000;
	for (int dti = 0; dti < 2; dti++) {
		DType dt = dti ? DT_BF16 : DT_F32;
		const char *sig = dti ? "*bf16,*bf16,*bf16,i32,i32" : "*fp32,*fp32,*fp32,i32,i32";
		for (int w = 0; w < 2; w++) {
			for (int nw = 1; nw <= 16; nw *= 2) {
				for (int x = 0; x < 3; x++) {
					/* bf16: fewer combinations, the lowering is the same */
					if (dti && (nw == 2 || nw == 8 || x == 1))
						continue;
					Case c = {.file = "tests/corpus/rmsnorm_inductor.py", .signature = sig,
						  .defines = {xblocks[x]}, .num_warps = nw, .target = w ? "c:wave64" : "c",
						  .scalars = {rows, cols}, .counts = {rows * 4096, 4096, rows * 4096},
						  .grid = (rows + xb[x] - 1) / xb[x]};
					Outcome o = run_case(&c);
					char name[128];
					snprintf(name, sizeof name, "exec seed %s W=%d warps=%d %s", dti ? "bf16" : "fp32",
						 w ? 64 : 32, nw, xblocks[x]);
					CHECK(name, o.ran && o.wrong == 0);
					if (o.ran) {
						double e = rmsnorm_error(&o, dt, rows, cols);
						snprintf(name, sizeof name, "exec seed %s W=%d warps=%d %s vs float64", dti ? "bf16" : "fp32",
							 w ? 64 : 32, nw, xblocks[x]);
						CHECK(name, e < (dti ? 1e-2 : 1e-5));
					}
					free_outcome(&o);
				}
			}
		}
	}
}

/* Lowered for 32-lane warps and run on 64-lane ones, the reduction must go
 * wrong: the layout's lane and warp bits no longer describe the threads.
 * Lowered for 64 and run at 64 it is right (test_seed). (With one warp of
 * 32 threads the 64-lane run is right too: the upper lanes do not exist.) */
static void test_width_matters(void)
{
	static const int warps[] = {2, 4, 8};
	for (int i = 0; i < 3; i++) {
		Case c = {.file = "tests/corpus/rmsnorm_inductor.py", .signature = "*fp32,*fp32,*fp32,i32,i32",
			  .defines = {"XBLOCK=2"}, .num_warps = warps[i], .target = "c", .run_width = 64,
			  .scalars = {37, 4096}, .counts = {37 * 4096, 4096, 37 * 4096}, .grid = 19};
		Outcome o = run_case(&c);
		char name[128];
		snprintf(name, sizeof name, "exec seed lowered for W=32, run at 64 (warps=%d): wrong sums", warps[i]);
		CHECK(name, o.ran && o.wrong > 0);
		free_outcome(&o);
		c.target = "c:wave64";
		o = run_case(&c);
		snprintf(name, sizeof name, "exec seed lowered for W=64, run at 64 (warps=%d): right", warps[i]);
		CHECK(name, o.ran && o.wrong == 0);
		free_outcome(&o);
	}
}

/* Inductor kernels with the block sizes their decorators would pick. */
static void test_inductor(void)
{
	/* The modules fix their sizes inside the kernels; a small grid runs the
	 * first rows (or blocks), so the buffers need only hold those. */
	static const Case cases[] = {
		{.file = "tests/corpus/rmsnorm_f32_4096.py", .defines = {"XBLOCK=1", "R0_BLOCK=1024"}, .num_warps = 8,
		 .scalars = {8192, 4096}, .counts = {6 * 4096, 4096, 6 * 4096}, .grid = 6},
		{.file = "tests/corpus/softmax_f32_1024.py", .defines = {"XBLOCK=1"}, .num_warps = 8,
		 .scalars = {16384, 1024}, .counts = {9 * 1024, 9 * 1024}, .grid = 9},
		{.file = "tests/corpus/add_relu_mul_f32.py", .defines = {"XBLOCK=1024"}, .num_warps = 4,
		 .scalars = {16777216}, .counts = {6144, 6144, 6144, 6144}, .grid = 6},
		{.file = "tests/corpus/layernorm_f32_1024.py", .defines = {"XBLOCK=1"}, .num_warps = 8,
		 .scalars = {16384, 1024}, .counts = {5 * 1024, 1024, 1024, 5 * 1024}, .grid = 5},
		{.file = "tests/corpus/log_softmax_f32_777.py", .defines = {"XBLOCK=1"}, .num_warps = 8,
		 .scalars = {4096, 777}, .counts = {7 * 777, 7 * 777}, .grid = 7},
		{.file = "tests/corpus/gelu_tanh_bf16.py", .defines = {"XBLOCK=1024"}, .num_warps = 4,
		 .scalars = {16777216}, .counts = {5120, 5120}, .grid = 5},
		{.file = "tests/corpus/swiglu_bf16.py", .defines = {"XBLOCK=1024"}, .num_warps = 4,
		 .scalars = {45088768}, .counts = {3072, 3072, 3072}, .grid = 3},
		{.file = "tests/corpus/broadcast_bias_f16.py", .defines = {"XBLOCK=1024"}, .num_warps = 4,
		 .scalars = {12288000}, .counts = {4096, 4096, 4096}, .grid = 4},
		{.file = "tests/corpus/colsum_f32.py", .kernel = "triton_per_fused_sum_1", .defines = {"XBLOCK=1"},
		 .num_warps = 8, .scalars = {4096, 32}, .counts = {131072, 4096}, .grid = 8},
		{.file = "tests/corpus/mean_all_f32.py", .kernel = "triton_red_fused_mean_0", .defines = {"XBLOCK=1", "R0_BLOCK=4096"},
		 .num_warps = 8, .scalars = {512, 32768}, .counts = {4 * 32768, 512}, .grid = 4},
		{.file = "tests/corpus/mean_all_f32.py", .kernel = "triton_per_fused_mean_1", .defines = {"XBLOCK=1"},
		 .num_warps = 4, .scalars = {1, 512}, .counts = {1, 512}, .grid = 1},
		{.file = "tests/corpus/var_mean_f32.py", .defines = {"XBLOCK=1", "R0_BLOCK=1024"}, .num_warps = 8,
		 .scalars = {4096, 2048}, .counts = {4096, 3 * 2048, 4096}, .grid = 3},
		{.file = "tests/corpus/softmax_f16_32000.py", .defines = {"XBLOCK=1", "R0_BLOCK=4096"}, .num_warps = 8,
		 .scalars = {512, 32000}, .counts = {2 * 32000, 2 * 32000}, .grid = 2},
		{.file = "tests/corpus/rmsnorm_bf16_4096.py", .defines = {"XBLOCK=1", "R0_BLOCK=2048"}, .num_warps = 8,
		 .scalars = {8192, 4096}, .counts = {5 * 4096, 4096, 5 * 4096}, .grid = 5},
		{.file = "tests/corpus/transpose_add_f32.py", .defines = {"YBLOCK=16", "XBLOCK=32"}, .num_warps = 4,
		 .scalars = {4096, 4096}, .counts = {262144, 262144, 262144}, .grid = 2, .grid_y = 3},
		{.file = "tests/corpus/index_add_f32.py", .kernel = "triton_poi_fused_index_add_0", .defines = {"XBLOCK=1024"},
		 .num_warps = 4, .scalars = {256000}, .counts = {4096, 4096}, .grid = 3},
		{.file = "tests/corpus/max_argmax_f32.py", .defines = {"XBLOCK=1", "R0_BLOCK=1024"}, .num_warps = 8,
		 .scalars = {4096, 3333}, .counts = {6 * 3333, 4096, 4096}, .grid = 6},
		{.file = "tests/corpus/embedding_f32.py", .defines = {"XBLOCK=1024"}, .num_warps = 4,
		 .scalars = {6291456}, .counts = {8, 16 * 768, 4096}, .grid = 4},
		{.file = "tests/corpus/index_add_f32.py", .kernel = "triton_poi_fused_index_add_1",
		 .defines = {"YBLOCK=16", "XBLOCK=32"}, .num_warps = 4, .scalars = {8192, 256},
		 .counts = {8192, 48 * 256, 16 * 256}, .grid = 8, .grid_y = 3},
		{.file = "tests/corpus/gemm.py", .signature = "*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32",
		 .defines = {"BLOCK_M=64", "BLOCK_N=32", "BLOCK_K=16"}, .num_warps = 4,
		 .scalars = {100, 72, 80, 80, 1, 72, 1, 72, 1}, .counts = {8000, 5760, 7200}, .grid = 2, .grid_y = 3},
		{.file = "tests/corpus/cumsum_f32.py", .defines = {"XBLOCK=1"}, .num_warps = 8,
		 .scalars = {4096, 1024}, .counts = {8 * 1024, 8 * 1024}, .grid = 8},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (int w = 0; w < 2; w++) {
			Case c = cases[i];
			c.target = w ? "c:wave64" : "c";
			Outcome o = run_case(&c);
			char name[160];
			snprintf(name, sizeof name, "exec %s%s%s %s%s%s W=%d matches the interpreter", strrchr(c.file, '/') + 1,
				 c.kernel ? " " : "", c.kernel ? c.kernel : "", c.defines[0], c.defines[1] ? " " : "",
				 c.defines[1] ? c.defines[1] : "", w ? 64 : 32);
			CHECK(name, o.ran && o.wrong == 0);
			free_outcome(&o);
		}
	}
}

/* Scans (tests/exec/scan.py): sums, products and jitted combines of one
 * and two tensors, forward and reverse, along rows shorter than a warp and
 * longer than the block, along either axis of 2-D tiles, with wrapped
 * copies along the axis and across it, in a loop, on a tl.dot's result;
 * then some of them through shared memory, the path for layouts the
 * shuffles do not handle. */
static void test_scans(void)
{
#define TILES(rows, cols, axis, rev, warps, shared)                                                                \
	{.file = "tests/exec/scan.py", .kernel = "tiles", .signature = "*fp32,*i32,*fp32,*i32",                      \
	 .defines = {"ROWS=" #rows, "COLS=" #cols, "AXIS=" #axis, "REVERSE=" #rev}, .num_warps = warps,              \
	 .counts = {3 * rows * cols, 3 * rows * cols, 12 * rows * cols, 9 * rows * cols}, .grid = 3,                 \
	 .scans_in_shared = shared}
#define LINE(block, n, warps, rev, shared)                                                                         \
	{.file = "tests/exec/scan.py", .kernel = "line", .signature = "*fp32,*i32,*fp32,*i32,i32",                   \
	 .defines = {"BLOCK=" #block, "REVERSE=" #rev}, .num_warps = warps, .scalars = {n},                          \
	 .counts = {n, n, 4 * n, 3 * n}, .grid = (n + block - 1) / block, .scans_in_shared = shared}
	static const Case cases[] = {
		TILES(4, 64, 1, 0, 2, false),
		TILES(32, 8, 1, 1, 4, false),      /* rows shorter than a warp */
		TILES(1, 2048, 1, 0, 4, false),    /* longer than the block */
		TILES(1, 2048, 1, 1, 2, false),
		TILES(64, 16, 0, 0, 4, false),     /* along axis 0, several repetitions */
		TILES(64, 16, 0, 1, 8, false),
		TILES(8, 32, 0, 1, 8, false),      /* more warps along the axis than it needs */
		TILES(2, 16, 1, 0, 4, false),      /* wrapped copies across the axis */
		TILES(128, 4, 0, 0, 2, false),
		LINE(16, 40, 2, 0, false),         /* more lanes than elements */
		LINE(4096, 5000, 4, 1, false),
		LINE(256, 700, 8, 0, false),
		LINE(2, 5, 1, 1, false),
		TILES(4, 64, 1, 0, 2, true),
		TILES(64, 16, 0, 1, 4, true),
		LINE(16, 40, 2, 1, true),
		LINE(256, 700, 8, 0, true),
		{.file = "tests/exec/scan.py", .kernel = "chunks", .signature = "*fp32,*fp32,i32", .defines = {"BLOCK=256"},
		 .num_warps = 4, .scalars = {1000}, .counts = {3000, 3000}, .grid = 3},
		{.file = "tests/exec/scan.py", .kernel = "chunks", .signature = "*fp32,*fp32,i32", .defines = {"BLOCK=64"},
		 .num_warps = 2, .scalars = {300}, .counts = {600, 600}, .grid = 2},
		{.file = "tests/exec/scan.py", .kernel = "dot_scan", .signature = "*fp16,*fp16,*fp32",
		 .defines = {"M=64", "N=32", "K=32"}, .num_warps = 4, .counts = {2048, 1024, 4096}, .grid = 1},
		{.file = "tests/exec/scan.py", .kernel = "dot_scan", .signature = "*fp16,*fp16,*fp32",
		 .defines = {"M=16", "N=16", "K=16"}, .num_warps = 1, .counts = {256, 256, 512}, .grid = 1},
		{.file = "tests/corpus/cumsum_f32.py", .defines = {"XBLOCK=2"}, .num_warps = 4, .scalars = {4096, 1024},
		 .counts = {8 * 1024, 8 * 1024}, .grid = 4},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (int w = 0; w < 2; w++) {
			Case c = cases[i];
			c.target = w ? "c:wave64" : "c";
			Outcome o = run_case(&c);
			char name[200];
			int len = snprintf(name, sizeof name, "exec %s", strrchr(c.file, '/') + 1);
			if (c.kernel)
				len += snprintf(name + len, sizeof name - (size_t)len, " %s", c.kernel);
			for (int j = 0; j < 8 && c.defines[j]; j++)
				len += snprintf(name + len, sizeof name - (size_t)len, " %s", c.defines[j]);
			snprintf(name + len, sizeof name - (size_t)len, " warps=%d%s W=%d matches the interpreter", c.num_warps,
				 c.scans_in_shared ? " through shared memory" : "", w ? 64 : 32);
			CHECK(name, o.ran && o.wrong == 0);
			if (!o.ran)
				printf("# %s\n", o.err);
			free_outcome(&o);
		}
	}
#undef TILES
#undef LINE
}

static void case_name(char *name, size_t size, const Case *c, int w, const char *what)
{
	int len = snprintf(name, size, "exec %s", strrchr(c->file, '/') + 1);
	if (c->kernel)
		len += snprintf(name + len, size - (size_t)len, " %s", c->kernel);
	for (int j = 0; j < 8 && c->defines[j]; j++)
		len += snprintf(name + len, size - (size_t)len, " %s", c->defines[j]);
	snprintf(name + len, size - (size_t)len, " warps=%d W=%d %s", c->num_warps, w ? 64 : 32, what);
}

/* The input x of tests/exec/reduce.py's `indices` at element e, NaNs put in. */
static float indices_x(const Outcome *o, bool nans, int e)
{
	float x = ((const float *)o->in[0])[e];
	return nans && x > 0.875f ? NAN : x;
}

/* Its row argmaxes, the argmaxes of k's rows (ties to the first), the
 * sum of the tile, computed here. */
static bool indices_direct(const Outcome *o, int rows, int cols, bool nans, int grid)
{
	const int32_t *k = o->in[1], *idx = o->bufs[3];
	const float *out = o->bufs[2];
	for (int p = 0; p < grid; p++) {
		const int32_t *pi = idx + p * (3 * rows + 2 * cols + 1);
		const float *po = out + p * (rows + cols + 3);
		double sum = 0, size = 0;
		for (int r = 0; r < rows; r++) {
			int best = 0, kbest = 0, e0 = p * rows * cols + r * cols;
			for (int c = 0; c < cols; c++) {
				float x = indices_x(o, nans, e0 + c), b = indices_x(o, nans, e0 + best);
				if (!isnan(b) && (isnan(x) || x > b))
					best = c;
				if (k[e0 + c] > k[e0 + kbest])
					kbest = c;
				sum += x;
				size += fabs(x);
			}
			if (pi[r] != best || pi[rows + cols + r] != kbest || pi[2 * rows + 2 * cols + r] != best)
				return false;
		}
		bool sum_nan = isnan(sum), got_nan = isnan(po[rows + cols]);
		if (sum_nan != got_nan || (!sum_nan && fabs(po[rows + cols] - sum) > 1e-5 * size))
			return false;
	}
	return true;
}

/* combines' integer results computed here: where k is largest along the
 * axis (the first place), its maxima, its xor, the count of its ones. */
static bool combines_direct(const Outcome *o, int rows, int cols, int axis, int grid)
{
	const int32_t *k = o->in[1], *idx = o->bufs[3];
	int other = axis ? rows : cols, len = axis ? cols : rows;
	for (int p = 0; p < grid; p++) {
		const int32_t *tile = k + p * rows * cols, *got = idx + p * (4 * other + 1);
		int ones = 0;
		for (int e = 0; e < rows * cols; e++)
			ones += tile[e] == 1;
		if (got[4 * other] != ones)
			return false;
		for (int i = 0; i < other; i++) {
			int best = -1, x = 0;
			for (int j = 0; j < len; j++) {
				int e = axis ? i * cols + j : j * cols + i;
				if (best < 0 || tile[e] > tile[best])
					best = e;
				x ^= tile[e];
			}
			if (got[other + i] != best || got[2 * other + i] != tile[best] || got[3 * other + i] != x)
				return false;
		}
	}
	return true;
}

/* tl.argmax / argmin, tl.max with return_indices, reductions over every
 * axis, keep_dims, the tensor methods and tl.reduce with jitted combines
 * of one, two and three tensors (tests/exec/reduce.py): tiles
 * with rows shorter than a warp, longer than the block, wrapped copies,
 * NaNs; at W=32 and 64 against the interpreter, and the indices against a
 * direct computation. */
static void test_reductions(void)
{
#define INDICES(rows, cols, nans, warps)                                                                           \
	{.file = "tests/exec/reduce.py", .kernel = "indices", .signature = "*fp32,*i32,*fp32,*i32",                  \
	 .defines = {"ROWS=" #rows, "COLS=" #cols, "NANS=" #nans}, .num_warps = warps,                               \
	 .counts = {3 * rows * cols, 3 * rows * cols, 3 * (rows + cols + 3), 3 * (3 * rows + 2 * cols + 1)},        \
	 .grid = 3, .int_range = 5}
#define COMBINES(rows, cols, axis, other, warps)                                                                   \
	{.file = "tests/exec/reduce.py", .kernel = "combines", .signature = "*fp32,*i32,*fp32,*i32",                 \
	 .defines = {"ROWS=" #rows, "COLS=" #cols, "AXIS=" #axis, "OTHER=" #other}, .num_warps = warps,             \
	 .counts = {3 * rows * cols, 3 * rows * cols, 3 * (3 * other + 2), 3 * (4 * other + 1)}, .grid = 3,          \
	 .int_range = 4}
#define LINE(block, n, warps)                                                                                     \
	{.file = "tests/exec/reduce.py", .kernel = "line", .signature = "*fp32,*i32,i32",                            \
	 .defines = {"BLOCK=" #block}, .num_warps = warps, .scalars = {n}, .counts = {n, 3}, .grid = 1}
	static const Case cases[] = {
		INDICES(8, 32, 0, 4),
		INDICES(8, 32, 1, 4),
		INDICES(2, 16, 1, 4),      /* wrapped copies along both axes */
		INDICES(32, 8, 0, 2),
		INDICES(4, 256, 1, 8),
		INDICES(64, 64, 1, 8),
		INDICES(1, 1024, 0, 4),
		LINE(1024, 1000, 4),
		LINE(4096, 4000, 8),
		LINE(16, 5, 1),
		COMBINES(8, 32, 1, 8, 4),
		COMBINES(8, 32, 0, 32, 4),
		COMBINES(2, 16, 1, 2, 4),     /* wrapped copies: lanes and warps beyond the tile */
		COMBINES(2, 16, 0, 16, 8),
		COMBINES(64, 64, 0, 64, 8),    /* warps along the axis */
		COMBINES(4, 512, 1, 4, 8),    /* repetitions along the axis */
		COMBINES(128, 4, 0, 4, 2),
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (int w = 0; w < 2; w++) {
			Case c = cases[i];
			c.target = w ? "c:wave64" : "c";
			Outcome o = run_case(&c);
			char name[200];
			case_name(name, sizeof name, &c, w, "matches the interpreter");
			CHECK(name, o.ran && o.wrong == 0);
			if (!o.ran)
				printf("# %s\n", o.err);
			if (o.ran && !strcmp(c.kernel, "indices")) {
				int rows = atoi(c.defines[0] + 5), cols = atoi(c.defines[1] + 5);
				case_name(name, sizeof name, &c, w, "argmax and the sum of the tile as computed directly");
				CHECK(name, indices_direct(&o, rows, cols, c.defines[2][5] == '1', c.grid));
			}
			if (o.ran && !strcmp(c.kernel, "combines")) {
				int rows = atoi(c.defines[0] + 5), cols = atoi(c.defines[1] + 5), axis = atoi(c.defines[2] + 5);
				case_name(name, sizeof name, &c, w, "pairs, xor and counts as computed directly");
				CHECK(name, combines_direct(&o, rows, cols, axis, c.grid));
			}
			if (o.ran && !strcmp(c.kernel, "line")) {
				const float *x = o.in[0];
				const int32_t *got = o.bufs[1];
				int n = (int)c.scalars[0], hi = 0, lo = 0;
				for (int e = 1; e < n; e++) {
					hi = x[e] > x[hi] ? e : hi;
					lo = x[e] < x[lo] ? e : lo;
				}
				case_name(name, sizeof name, &c, w, "argmax, argmin and the count as computed directly");
				CHECK(name, got[0] == hi && got[1] == lo && got[2] == n);
			}
			free_outcome(&o);
		}
	}
#undef INDICES
#undef COMBINES
#undef LINE
}

/* Collatz steps of k + 1 (at most `limit`), how many were odd, and the
 * last values, computed here. */
static bool collatz_direct(const Outcome *o, int limit, int block, int grid)
{
	const int32_t *k = o->in[0], *out = o->bufs[1];
	for (int p = 0; p < grid; p++) {
		int64_t v = k[p] + 1;
		int count = 0, odd = 0;
		int32_t trail[256] = {0};
		while (v != 1 && count < limit) {
			if (v % 2 == 0) {
				v /= 2;
			} else {
				v = 3 * v + 1;
				odd++;
			}
			trail[count % block] = (int32_t)v;
			count++;
		}
		const int32_t *got = out + p * (block + 2);
		if (got[block] != count || got[block + 1] != odd || memcmp(got, trail, sizeof *trail * (size_t)block))
			return false;
	}
	return true;
}

/* Run-time while loops (tests/exec/whiles.py): on a carried scalar, on
 * loaded data with an if inside, on a reduction of the carried tile (across
 * warps every iteration); at W=32 and 64 against the interpreter and a
 * direct computation. */
static void test_whiles(void)
{
	static const Case cases[] = {
		{.file = "tests/exec/whiles.py", .kernel = "strided", .signature = "*fp32,*fp32,i32", .defines = {"BLOCK=256"},
		 .num_warps = 4, .scalars = {3000}, .counts = {3000, 4 * 257}, .grid = 4},
		{.file = "tests/exec/whiles.py", .kernel = "strided", .signature = "*fp32,*fp32,i32", .defines = {"BLOCK=64"},
		 .num_warps = 2, .scalars = {100}, .counts = {100, 3 * 65}, .grid = 3},
		{.file = "tests/exec/whiles.py", .kernel = "collatz", .signature = "*i32,*i32",
		 .defines = {"LIMIT=100", "BLOCK=32"}, .num_warps = 1, .int_range = 60, .counts = {16, 16 * 34}, .grid = 16},
		{.file = "tests/exec/whiles.py", .kernel = "collatz", .signature = "*i32,*i32",
		 .defines = {"LIMIT=20", "BLOCK=128"}, .num_warps = 4, .int_range = 1000, .counts = {8, 8 * 130}, .grid = 8},
		{.file = "tests/exec/whiles.py", .kernel = "shrink", .signature = "*fp32,*fp32", .defines = {"BLOCK=1024"},
		 .num_warps = 8, .counts = {3 * 1024, 3 * 1025}, .grid = 3},
		{.file = "tests/exec/whiles.py", .kernel = "shrink", .signature = "*fp32,*fp32", .defines = {"BLOCK=16"},
		 .num_warps = 2, .counts = {5 * 16, 5 * 17}, .grid = 5},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (int w = 0; w < 2; w++) {
			Case c = cases[i];
			c.target = w ? "c:wave64" : "c";
			Outcome o = run_case(&c);
			char name[200];
			case_name(name, sizeof name, &c, w, "matches the interpreter");
			CHECK(name, o.ran && o.wrong == 0);
			if (!o.ran)
				printf("# %s\n", o.err);
			if (o.ran && !strcmp(c.kernel, "collatz")) {
				case_name(name, sizeof name, &c, w, "steps as computed directly");
				CHECK(name, collatz_direct(&o, atoi(c.defines[0] + 6), atoi(c.defines[1] + 6), c.grid));
			}
			if (o.ran && !strcmp(c.kernel, "strided")) {
				int block = atoi(c.defines[0] + 6), n = (int)c.scalars[0], ok = 1;
				const float *x = o.in[0], *out = o.bufs[1];
				for (int p = 0; p < c.grid; p++) {
					int rounds = 0;
					for (int b = p; b * block < n; b += c.grid)
						rounds++;
					ok &= out[c.grid * block + p] == rounds;
					for (int e = 0; e < block; e++) {
						double sum = 0;
						for (int b = p; b * block < n; b += c.grid)
							sum += b * block + e < n ? x[b * block + e] : 0;
						ok &= fabs(out[p * block + e] - sum) < 1e-5 * (1 + fabs(sum));
					}
				}
				case_name(name, sizeof name, &c, w, "sums and rounds as computed directly");
				CHECK(name, ok);
			}
			if (o.ran && !strcmp(c.kernel, "shrink")) {
				int block = atoi(c.defines[0] + 6), ok = 1;
				const float *x = o.in[0], *out = o.bufs[1];
				for (int p = 0; p < c.grid; p++) {
					float m = 0;
					for (int e = 0; e < block; e++)
						m = fmaxf(m, fabsf(x[p * block + e]));
					int h = 0;
					for (; m >= 0.125f; m *= 0.5f)
						h++;
					ok &= out[p * (block + 1) + block] == h;
					for (int e = 0; e < block; e++)
						ok &= out[p * (block + 1) + e] == ldexpf(x[p * block + e], -h) + 1 + 2;
				}
				case_name(name, sizeof name, &c, w, "halvings as computed directly");
				CHECK(name, ok);
			}
			free_outcome(&o);
		}
	}
}

/* tests/exec/jumps.py's first_negative computed here. */
static bool first_negative_direct(const Outcome *o, int chunks, int block, int grid)
{
	const float *x = o->in[0], *out = o->bufs[1];
	const int32_t *idx = o->bufs[2];
	for (int p = 0; p < grid; p++) {
		const float *base = x + p * chunks * block;
		int found = -1, skipped = 0, used[64] = {0};
		for (int c = 0; c < chunks && c < 64; c++) {
			if (base[c * block] > 0.5f) {
				skipped++;
				continue;
			}
			double sum = 0;
			for (int e = 0; e < block; e++)
				sum += base[c * block + e];
			if (sum < 0) {
				found = c;
				break;
			}
			used[c] = 1;
		}
		if (idx[2 * p] != found || idx[2 * p + 1] != skipped) {
			printf("# program %d: found %d skipped %d, expected %d %d\n", p, idx[2 * p], idx[2 * p + 1], found, skipped);
			return false;
		}
		for (int e = 0; e < block; e++) {
			double acc = 0;
			for (int c = 0; c < chunks && c < 64; c++)
				acc += used[c] ? base[c * block + e] : 0;
			if (fabs(out[p * block + e] - acc) > 1e-5 * (1 + fabs(acc)))
				return false;
		}
	}
	return true;
}

/* and scan_table */
static bool scan_table_direct(const Outcome *o, int n, int limit, int grid)
{
	const int32_t *t = o->in[0], *out = o->bufs[1];
	for (int p = 0; p < grid; p++) {
		int k = 0, total = 0, stop = -1;
		while (k < n) {
			int v = t[p * n + k];
			k++;
			if (v % 3 == 0)
				continue;
			if (v > limit) {
				stop = k - 1;
				break;
			}
			total += v;
		}
		total += 2000;
		if (out[3 * p] != total || out[3 * p + 1] != stop || out[3 * p + 2] != k)
			return false;
	}
	return true;
}

/* break and continue (tests/exec/jumps.py) in a loop with run-time bounds,
 * a while loop and an unrolled loop, at W=32 and 64. */
/* tests/exec/early_return.py, computed here: the programs that return
 * early write nothing after the return. */
static bool early_return_direct(const Outcome *o, const Case *c)
{
	int bad = 0;
	if (!strcmp(c->kernel, "rows_early")) {   /* y = 2 x + 1 on the rows, the rest untouched */
		const float *x = o->in[0], *y0 = o->in[1], *y = o->bufs[1];
		int rows = (int)c->scalars[0], cols = (int)c->scalars[1];
		for (int k = 0; k < c->grid * cols; k++)
			bad += k < rows * cols ? y[k] != x[k] * 2.0f + 1.0f : memcmp(&y[k], &y0[k], 4) != 0;
	} else if (!strcmp(c->kernel, "find_first")) {   /* the first index past LIMIT, or -7 */
		const int32_t *x = o->in[0], *out = o->bufs[1];
		int n = (int)c->scalars[0], limit = (int)c->scalars[1], none = 0;
		for (int r = 0; r < c->grid; r++) {
			int want = -7;
			for (int k = n - 1; k >= 0; k--)
				want = x[r * n + k] > limit ? k : want;
			bad += out[r] != want;
			none += want == -7;
		}
		printf("# find_first n=%d: %d of %d rows without a value past %d\n", n, none, c->grid, limit);
	} else {   /* helper_return: y[pid] for odd programs only; y[64 + pid] the while loop's k, but program 3 */
		const float *x = o->in[0], *y0 = o->in[1], *y = o->bufs[1], *z = o->bufs[2];
		int n = (int)c->scalars[0], b = atoi(c->defines[0] + 2);
		for (int p = 0; p < c->grid; p++) {
			if (p % 2 == 0)
				bad += memcmp(&y[p], &y0[p], 4) != 0;
			int k = p;
			while (k < n && k != 5 * b + 3)
				k += b;
			bad += k < n ? memcmp(&y[64 + p], &y0[64 + p], 4) != 0 : y[64 + p] != (float)k;
		}
		for (int k = 0; k < n; k++)
			bad += z[k] != x[k] + 1.0f;
	}
	return bad == 0;
}

static void test_jumps(void)
{
	static const Case cases[] = {
		{.file = "tests/exec/jumps.py", .kernel = "first_negative", .signature = "*fp32,*fp32,*i32,i32",
		 .defines = {"BLOCK=64"}, .num_warps = 2, .scalars = {12}, .counts = {8 * 12 * 64, 8 * 64, 16}, .grid = 8},
		{.file = "tests/exec/jumps.py", .kernel = "first_negative", .signature = "*fp32,*fp32,*i32,i32",
		 .defines = {"BLOCK=1024"}, .num_warps = 8, .scalars = {5}, .counts = {4 * 5 * 1024, 4 * 1024, 8}, .grid = 4},
		{.file = "tests/exec/jumps.py", .kernel = "scan_table", .signature = "*i32,*i32,i32", .defines = {"LIMIT=90"},
		 .num_warps = 1, .int_range = 100, .scalars = {40}, .counts = {16 * 40, 48}, .grid = 16},
		{.file = "tests/exec/jumps.py", .kernel = "scan_table", .signature = "*i32,*i32,i32", .defines = {"LIMIT=99"},
		 .num_warps = 4, .int_range = 100, .scalars = {30}, .counts = {8 * 30, 24}, .grid = 8},
		{.file = "tests/exec/early_return.py", .kernel = "rows_early", .signature = "*fp32,*fp32,i32,i32",
		 .defines = {"B=64"}, .num_warps = 2, .scalars = {5, 50}, .counts = {5 * 50, 8 * 50}, .grid = 8},
		{.file = "tests/exec/early_return.py", .kernel = "find_first", .signature = "*i32,*i32,i32,i32",
		 .defines = {"B=32"}, .num_warps = 1, .int_range = 100, .scalars = {300, 98}, .counts = {16 * 300, 16},
		 .grid = 16},
		{.file = "tests/exec/early_return.py", .kernel = "find_first", .signature = "*i32,*i32,i32,i32",
		 .defines = {"B=16"}, .num_warps = 4, .int_range = 100, .scalars = {100, 98}, .counts = {16 * 100, 16},
		 .grid = 16},
		{.file = "tests/exec/early_return.py", .kernel = "helper_return", .signature = "*fp32,*fp32,*fp32,i32",
		 .defines = {"B=64"}, .num_warps = 2, .scalars = {1000}, .counts = {1000, 128, 1000}, .grid = 16},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (int w = 0; w < 2; w++) {
			Case c = cases[i];
			c.target = w ? "c:wave64" : "c";
			Outcome o = run_case(&c);
			char name[200];
			case_name(name, sizeof name, &c, w, "matches the interpreter");
			CHECK(name, o.ran && o.wrong == 0);
			if (!o.ran)
				printf("# %s\n", o.err);
			case_name(name, sizeof name, &c, w, "as computed directly");
			if (o.ran && !strcmp(c.kernel, "first_negative"))
				CHECK(name, first_negative_direct(&o, (int)c.scalars[0], atoi(c.defines[0] + 6), c.grid));
			if (o.ran && !strcmp(c.kernel, "scan_table"))
				CHECK(name, scan_table_direct(&o, (int)c.scalars[0], atoi(c.defines[0] + 6), c.grid));
			if (o.ran && !strcmp(c.file, "tests/exec/early_return.py"))
				CHECK(name, early_return_direct(&o, &c));
			free_outcome(&o);
		}
	}
}

/* A failing tl.device_assert stops the run with the program and message. */
static void test_assert(void)
{
	for (int w = 0; w < 2; w++) {
		Case c = {.file = "tests/exec/gather.py", .signature = "*i32,*fp32,*fp32,i32",
			  .defines = {"LIMIT=10", "BLOCK=128"}, .num_warps = 2, .target = w ? "c:wave64" : "c",
			  .scalars = {1000}, .counts = {1000, 16, 1000}, .grid = 8};
		Outcome o = run_case(&c);
		CHECK(w ? "exec device_assert fails the run (W=64)" : "exec device_assert fails the run (W=32)",
		      !o.kernel_ran && strstr(o.err, "device assertion failed: index out of range") &&
			      strstr(o.err, "program ("));
		free_outcome(&o);
		/* one failing element, the second of its thread: every element is checked */
		Case one = {.file = "tests/exec/gather.py", .kernel = "assert_one", .signature = "*i32,i32",
			    .defines = {"BAD=77", "BLOCK=512"}, .num_warps = 2, .target = w ? "c:wave64" : "c",
			    .scalars = {1000}, .counts = {1000}, .grid = 2};
		o = run_case(&one);
		CHECK(w ? "exec device_assert checks every element (W=64)" : "exec device_assert checks every element (W=32)",
		      !o.kernel_ran && strstr(o.err, "program (0, 0, 0): device assertion failed: element BAD reached"));
		free_outcome(&o);
		one.defines[0] = "BAD=5000";   /* out of range: nothing fails */
		o = run_case(&one);
		CHECK(w ? "exec device_assert passes when no element fails (W=64)"
			: "exec device_assert passes when no element fails (W=32)", o.ran && o.wrong == 0);
		free_outcome(&o);
	}
}

/* Philox-4x32 as Random123 defines it (Salmon et al., SC'11), written apart
 * from the compiler: the whole 128-bit counter, 64-bit products, the key
 * bumped before every round but the first. */
static void philox_ref(const uint32_t ctr[4], const uint32_t key[2], int rounds, uint32_t out[4])
{
	uint32_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]}, k0 = key[0], k1 = key[1];
	for (int r = 0; r < rounds; r++) {
		if (r) {
			k0 += 0x9E3779B9u;
			k1 += 0xBB67AE85u;
		}
		uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
		uint32_t next[4] = {(uint32_t)(p1 >> 32) ^ c[1] ^ k0, (uint32_t)p1, (uint32_t)(p0 >> 32) ^ c[3] ^ k1,
				    (uint32_t)p0};
		memcpy(c, next, sizeof c);
	}
	memcpy(out, c, sizeof c);
}

/* Triton's randint4x(seed, offset): the counter (offset mod 2^32,
 * offset >> 32, 0, 0), the key (seed mod 2^32, seed >> 32). */
static void randint4x_ref(int64_t seed, uint64_t offset, int rounds, uint32_t out[4])
{
	uint32_t ctr[4] = {(uint32_t)offset, (uint32_t)(offset >> 32), 0, 0};
	uint32_t key[2] = {(uint32_t)seed, (uint32_t)((uint64_t)seed >> 32)};
	philox_ref(ctr, key, rounds, out);
}

/* Triton's uint_to_uniform_float of a 32-bit word */
static float uniform_ref(uint32_t w)
{
	int32_t s = (int32_t)w;
	return (float)(s < 0 ? -(int64_t)s - 1 : s) * 4.6566127342e-10f;
}

/* What Triton 3.6 gave on an H200 (test_interp.c checks the interpreter
 * against the same values): randint4x, rand and randn at seed 2^40 + 3,
 * offsets 0 and 1. */
static const int64_t triton_seed = (INT64_C(1) << 40) + 3;
static const uint32_t triton_words[8] = {0x55d6fab1, 0xb1404635, 0xb7259aaa, 0xe70cf7c6,
					 0x23d24d0e, 0xa8df4fde, 0x05601c1e, 0xc05af117};

/* The reference against Random123's known answers (Philox-4x32-10) and
 * against Triton's words, 64-bit offsets included. */
static void test_philox_reference(void)
{
	static const uint32_t kat[3][10] = {   /* counter, key, result */
		{0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
		{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d, 0x41c83b0e,
		 0xa20bc7c6, 0x6d5451fd},
		{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09, 0x94fdcceb,
		 0x5001e420, 0x24126ea1},
	};
	bool ok = true;
	uint32_t w[4];
	for (int i = 0; i < 3; i++) {
		philox_ref(kat[i], kat[i] + 4, 10, w);
		ok &= !memcmp(w, kat[i] + 6, sizeof w);
	}
	CHECK("exec philox reference gives Random123's known answers", ok);
	ok = true;
	for (int i = 0; i < 2; i++) {
		randint4x_ref(triton_seed, (uint64_t)i, 10, w);
		ok &= !memcmp(w, triton_words + 4 * i, sizeof w);
	}
	/* int64 offsets 1234567890123 and the next (seed 0), the first at seed
	 * 99: words 0 and 3, from Triton 3.6 on an H200 */
	static const uint32_t wide[3][4] = {{0, 0, 0x57efcfd5, 0xa8fc1fa7}, {0, 1, 0xba788377, 0x601e54cb},
					    {99, 0, 0x7d285b9b, 0x8f864771}};
	for (int i = 0; i < 3; i++) {
		randint4x_ref(wide[i][0], UINT64_C(1234567890123) + wide[i][1], 10, w);
		ok &= w[0] == wide[i][2] && w[3] == wide[i][3];
	}
	CHECK("exec philox reference gives Triton 3.6's randint4x, 32- and 64-bit offsets", ok);
}

/* One run of tests/exec/philox.py against the reference. Per offset k:
 * 5 floats (rand, rand4x) and 8 words (randint4x at k; randint at k + 7
 * with 7 rounds; words 0, 1 and 3 of randint4x at the int64 offset
 * k * (2^32 + 1) - 2). */
static bool philox_matches_ref(const Outcome *o, int64_t seed, int n)
{
	const float *u = o->bufs[0];
	const uint32_t *bits = o->bufs[2];
	bool ok = true;
	for (int k = 0; k < n; k++) {
		uint32_t w[4], w7[4], far[4];
		randint4x_ref(seed, (uint64_t)k, 10, w);
		randint4x_ref(seed, (uint64_t)k + 7, 7, w7);
		randint4x_ref(seed, (uint64_t)k * UINT64_C(0x100000001) - 2, 10, far);
		const uint32_t *got = bits + 8 * k;
		ok &= !memcmp(got, w, sizeof w) && got[4] == w7[0] && got[5] == far[0] && got[6] == far[1] && got[7] == far[3];
		ok &= u[5 * k] == uniform_ref(w[0]);
		for (int j = 0; j < 4; j++)
			ok &= u[5 * k + 1 + j] == uniform_ref(w[j]);
	}
	return ok;
}

/* tests/exec/philox.py lowered to C: the words and tl.rand bit for bit
 * with the interpreter, the reference and Triton; randn within 2 ulp of
 * the interpreter: the C library's fp32 logf and cosf (each within 1 ulp,
 * not always correctly rounded) against float64 log and cos rounded once,
 * and the product r * cos(theta) carries both differences. */
static void test_philox(void)
{
	static const struct {
		const char *signature;
		int64_t seed;
		int block, num_warps, grid;
	} runs[] = {
		{"i64,*fp32,*fp32,*u32", (INT64_C(1) << 40) + 3, 64, 4, 3},   /* fewer elements than threads */
		{"i32,*fp32,*fp32,*u32", -5, 256, 2, 2},                       /* sign-extended into the key */
		{"i64,*fp32,*fp32,*u32", 0, 128, 1, 2},
		{"i64,*fp32,*fp32,*u32", -1, 512, 4, 1},
	};
	int64_t worst_normal = 0;
	for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
		for (int wi = 0; wi < 2; wi++) {
			int64_t seed = runs[r].seed;
			int n = runs[r].block * runs[r].grid;
			char block[32], what[80], name[200];
			snprintf(block, sizeof block, "BLOCK=%d", runs[r].block);
			snprintf(what, sizeof what, "exec philox.py seed=%lld %s W=%d", (long long)seed, block, wi ? 64 : 32);
			Case c = {.file = "tests/exec/philox.py", .kernel = "philox", .signature = runs[r].signature,
				  .defines = {block}, .num_warps = runs[r].num_warps, .target = wi ? "c:wave64" : "c",
				  .scalars = {seed}, .counts = {5 * n, 5 * n, 8 * n}, .grid = runs[r].grid};
			Outcome o = run_case(&c);
			snprintf(name, sizeof name, "%s: integers and tl.rand match the interpreter bit for bit", what);
			CHECK(name, o.ran && o.wrong == 0 && o.ulps[0] == 0);
			snprintf(name, sizeof name, "%s: the words are Philox-4x32, rand and rand4x their uniform floats", what);
			CHECK(name, o.ran && philox_matches_ref(&o, seed, n));
			worst_normal = o.ulps[1] > worst_normal ? o.ulps[1] : worst_normal;
			const uint32_t *bits = o.bufs[2];
			const float *u = o.bufs[0], *nrm = o.bufs[1];
			if (o.ran && seed == 0) {
				snprintf(name, sizeof name, "%s: offset 0 gives Random123's known answer", what);
				CHECK(name, bits[0] == 0x6627e8d5 && bits[1] == 0xe169c58d && bits[2] == 0xbc57ac4c &&
						    bits[3] == 0x9b00dbd8);
			}
			if (o.ran && seed == triton_seed) {
				snprintf(name, sizeof name, "%s: randint4x and rand as Triton 3.6 bit for bit, randn within 4 ulp",
					 what);
				CHECK(name, !memcmp(bits, triton_words, 16) && !memcmp(bits + 8, triton_words + 4, 16) &&
						    u[0] == 0x1.575be8p-1f && u[5] == 0x1.1e9266p-2f &&
						    fabs(nrm[0] - -0x1.56e2fcp-1) < 4 * 0x1p-24 &&
						    fabs(nrm[5] - -0x1.58b95cp-1) < 4 * 0x1p-24);
			}
			free_outcome(&o);
		}
	}
	printf("# randn and randn4x: at most %lld ulp from the interpreter\n", (long long)worst_normal);
	CHECK("exec philox randn and randn4x within 2 ulp of the interpreter", worst_normal <= 2);
}

/* The math functions (tests/exec/mathfns.py) in each float dtype, the
 * C target at W=32 and 64 against the interpreter; then integer // and %
 * (tests/exec/intdiv.py) in each integer dtype, where lanes masked off
 * with other=0 divide by 0 and the lowest value is divided by -1: no trap,
 * and what the GPU gives. */
static void test_math(void)
{
	static const char *const floats[] = {"fp32", "fp64", "fp16", "bf16"};
	for (int f = 0; f < 4; f++) {
		for (int w = 0; w < 2; w++) {
			char sig[64], name[128];
			snprintf(sig, sizeof sig, "*%s,*%s,*%s,*i32", floats[f], floats[f], floats[f]);
			Case c = {.file = "tests/exec/mathfns.py", .signature = sig, .defines = {"BLOCK=256"}, .num_warps = 4,
				  .target = w ? "c:wave64" : "c", .counts = {256, 256, 29 * 256, 5 * 256}, .grid = 1};
			Outcome o = run_case(&c);
			snprintf(name, sizeof name, "exec mathfns.py %s W=%d matches the interpreter", floats[f], w ? 64 : 32);
			CHECK(name, o.ran && o.wrong == 0);
			free_outcome(&o);
		}
	}
	static const char *const ints[] = {"i32", "i64", "i16", "i8", "u8", "u16", "u32", "u64"};
	for (int t = 0; t < 8; t++) {
		for (int w = 0; w < 2; w++) {
			char sig[64], name[128];
			snprintf(sig, sizeof sig, "*%s,*%s,*%s,*%s,i32", ints[t], ints[t], ints[t], ints[t]);
			Case c = {.file = "tests/exec/intdiv.py", .signature = sig, .defines = {"BLOCK=128"}, .num_warps = 2,
				  .target = w ? "c:wave64" : "c", .int_range = 8, .scalars = {1000},
				  .counts = {1024, 1024, 1024, 1024}, .grid = 8};
			Outcome o = run_case(&c);
			snprintf(name, sizeof name, "exec intdiv.py %s W=%d matches the interpreter", ints[t], w ? 64 : 32);
			CHECK(name, o.ran && o.wrong == 0);
			if (o.ran && t == 0 && w == 0) {   /* beyond n = 1000: a = 0, b = 0, but every 8th a = INT_MIN, b = -1 */
				const int32_t *q = o.bufs[2], *r = o.bufs[3];
				CHECK("exec intdiv i32: 0 // 0 = -1, 0 % 0 = 0", q[1000] == -1 && r[1000] == 0);
				CHECK("exec intdiv i32: INT_MIN // -1 = INT_MIN, INT_MIN % -1 = 0",
				      q[1015] == INT32_MIN && r[1015] == 0);
			}
			if (o.ran && t == 4 && w == 0) {
				const uint8_t *q = o.bufs[2];
				CHECK("exec intdiv u8: 0 // 0 = 255", q[1000] == 255);
			}
			if (o.ran && t == 5 && w == 0) {
				const uint16_t *q = o.bufs[2];
				CHECK("exec intdiv u16: 0 // 0 = 65535", q[1000] == 65535);
			}
			free_outcome(&o);
		}
	}
}

/* ---- atomics and split scans ---- */

/* tests/exec/atomics.py's rmw, computed here: the old values of the words
 * of their own, and what the shared words hold after every program. Every
 * lane of the grid (programs * block, n of them live) owns 7 words, the
 * programs' words come after them. */
static bool rmw_direct(const Outcome *o, int n, int programs, int block)
{
	const int32_t *x = o->in[0], *own_in = o->in[1], *own = o->bufs[1], *shared = o->bufs[2], *old = o->bufs[3];
	bool ok = true;
	int lanes = programs * block;
	for (int e = 0; e < n; e++) {
		const int32_t *w = own_in + 7 * e;
		int32_t xe = x[e], expected = xe % 2 == 0 ? w[1] : -1;
		int32_t want_old[7] = {w[0], w[1], w[2], w[3], w[4], w[5], w[6]};
		int32_t want_new[7] = {xe, w[1] == expected ? xe + 100 : w[1], w[2] > xe - 8 ? w[2] : xe - 8,
				       w[3] < xe - 8 ? w[3] : xe - 8, w[4] & xe, w[5] | xe * 16, w[6] ^ xe};
		for (int j = 0; j < 7; j++)
			ok &= old[7 * e + j] == want_old[j] && own[7 * e + j] == want_new[j];
		ok &= old[7 * lanes + e] == xe + own_in[7 * lanes + e / block];
	}
	for (int p = 0; p < programs; p++)
		ok &= own[7 * lanes + p] == p;
	/* the shared words from their initial values (o->in holds only two buffers: recomputed) */
	int32_t mx = INT32_MIN, mn = INT32_MAX, bits_or = 0, bits_and = -1, xr = 0, sum = 0;
	for (int e = 0; e < n; e++) {
		mx = x[e] > mx ? x[e] : mx;
		mn = x[e] < mn ? x[e] : mn;
		bits_or |= 1 << x[e];
		bits_and &= ~(1 << x[e]);
		xr ^= x[e];
		sum += x[e];
	}
	int32_t init[6];
	run_fill(init, DT_I32, 6, 2, 16);
	ok &= shared[0] == (init[0] > mx ? init[0] : mx) && shared[1] == (init[1] < mn ? init[1] : mn);
	ok &= shared[2] == (init[2] | bits_or) && shared[3] == (init[3] & bits_and) && shared[4] == (init[4] ^ xr);
	return ok && shared[5] == init[5] + sum;
}

/* tests/exec/atomics.py: each atomic on the words it owns and on shared
 * ones, fp32 exchange and compare-and-swap, programs passing one after
 * another (each waits for the one before, on another CPU thread), and a
 * compare-and-swap lock. */
static void test_atomics(void)
{
	const int n = 300, block = 64, programs = 5;
	for (int w = 0; w < 2; w++) {
		const char *target = w ? "c:wave64" : "c";
		char name[160];
		Case c = {.file = "tests/exec/atomics.py", .kernel = "rmw", .signature = "*i32,*i32,*i32,*i32,i32",
			  .defines = {"BLOCK=64"}, .num_warps = 2, .target = target, .scalars = {n},
			  .counts = {n, 7 * programs * block + programs, 6, 8 * programs * block}, .grid = programs};
		Outcome o = run_case(&c);
		snprintf(name, sizeof name, "exec atomics.py rmw W=%d matches the interpreter", w ? 64 : 32);
		CHECK(name, o.ran && o.wrong == 0);
		snprintf(name, sizeof name, "exec atomics.py rmw W=%d: xchg, cas, max, min, and, or, xor, add as computed here",
			 w ? 64 : 32);
		CHECK(name, o.ran && rmw_direct(&o, n, programs, block));
		free_outcome(&o);

		c = (Case){.file = "tests/exec/atomics.py", .kernel = "floats", .signature = "*fp32,*fp32,*fp32",
			   .defines = {"BLOCK=128"}, .num_warps = 4, .target = target, .counts = {256, 512, 512}, .grid = 2};
		o = run_case(&c);
		bool direct = o.ran;
		const float *x = o.in[0], *own_in = o.in[1], *own = o.bufs[1], *old = o.bufs[2];
		for (int e = 0; direct && e < 256; e++)
			direct = old[2 * e] == own_in[2 * e] && own[2 * e] == x[e] && old[2 * e + 1] == own_in[2 * e + 1] &&
				 own[2 * e + 1] == (e % 2 == 0 ? -x[e] : own_in[2 * e + 1]);
		snprintf(name, sizeof name, "exec atomics.py floats W=%d: fp32 xchg and cas, as the interpreter and here",
			 w ? 64 : 32);
		CHECK(name, o.ran && o.wrong == 0 && direct);
		free_outcome(&o);

		c = (Case){.file = "tests/exec/atomics.py", .kernel = "ordered", .signature = "*i32,*i32,*i32,*i32",
			   .defines = {"BLOCK=64"}, .num_warps = 2, .target = target, .counts = {1, 1, 12 * 64, 12},
			   .grid = 12, .zeroed = 3};
		o = run_case(&c);
		direct = o.ran;
		int32_t total = 0;
		for (int p = 0; direct && p < 12; p++) {
			direct = ((const int32_t *)o.bufs[3])[p] == total;
			for (int e = 0; e < 64; e++)
				total += ((const int32_t *)o.bufs[2])[64 * p + e];
		}
		snprintf(name, sizeof name, "exec atomics.py ordered W=%d: 12 programs in turn, each after the one before",
			 w ? 64 : 32);
		CHECK(name, o.ran && o.wrong == 0 && direct && *(const int32_t *)o.bufs[0] == 12 &&
				    *(const int32_t *)o.bufs[1] == total);
		free_outcome(&o);

		c = (Case){.file = "tests/exec/atomics.py", .kernel = "locked", .signature = "*i32,*i32,*i32",
			   .defines = {"BLOCK=32"}, .num_warps = 1, .target = target, .counts = {1, 1, 16 * 32}, .grid = 16,
			   .zeroed = 3};
		o = run_case(&c);
		total = 0;
		for (int e = 0; o.ran && e < 16 * 32; e++)
			total += ((const int32_t *)o.bufs[2])[e];
		snprintf(name, sizeof name, "exec atomics.py locked W=%d: a compare-and-swap lock around a sum", w ? 64 : 32);
		CHECK(name, o.ran && o.wrong == 0 && *(const int32_t *)o.bufs[0] == 0 && *(const int32_t *)o.bufs[1] == total);
		free_outcome(&o);
	}
}

/* The largest error of a scan along dim 0 of the rows x xnumel tensor
 * o->in[0] (a sum, or with `max` a running maximum), in its first `cols`
 * columns, against float64: relative to max(|ref|, rms of ref) over them. */
static double split_scan_error(const Outcome *o, DType dt, int rows, int xnumel, int cols, bool max)
{
	double *ref = base_calloc((size_t)rows * cols, sizeof *ref), sum_sq = 0, worst = 0;
	for (int c = 0; c < cols; c++) {
		double acc = max ? -INFINITY : 0;
		for (int r = 0; r < rows; r++) {
			double x = run_element(o->in[0], dt, (size_t)r * xnumel + c);
			acc = max ? fmax(acc, x) : acc + x;
			ref[r * cols + c] = acc;
			sum_sq += acc * acc;
		}
	}
	double rms = sqrt(sum_sq / ((double)rows * cols));
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++)
			worst = fmax(worst, run_element_error(run_element(o->bufs[1], dt, (size_t)r * xnumel + c),
							      ref[r * cols + c], rms));
	free(ref);
	return worst;
}

/* Inductor's split scan: tests/heldout/cumsum_bf16.py (a cumsum along dim
 * 0 of a 512 x 1024 bf16 tensor; its first 6 columns) with its default
 * R0_BLOCK, 256 (two programs a column), and 64 (eight), then
 * tests/exec/splitscan.py's with an odd number of rows, so the last
 * program's mask cuts its block: sums and running maxima (the 32-bit
 * lookback) and int64 sums (the _64 variant). Each against the interpreter
 * and against float64; the workspace starts zeroed, as the module's call()
 * has it, and is not compared. */
static void test_split_scans(void)
{
	static const struct {
		Case c;
		DType dt;
		int rows, xnumel;
		bool max;
	} runs[] = {
		{{.file = "tests/heldout/cumsum_bf16.py", .defines = {"R0_BLOCK=256"}, .num_warps = 4,
		  .scalars = {1024, 512}, .counts = {512 * 1024, 512 * 1024, 2 * 6 * 24}, .grid = 2, .grid_y = 6,
		  .zeroed = 4, .scratch = 4}, DT_BF16, 512, 1024, false},
		{{.file = "tests/heldout/cumsum_bf16.py", .defines = {"R0_BLOCK=64"}, .num_warps = 2,
		  .scalars = {1024, 512}, .counts = {512 * 1024, 512 * 1024, 8 * 6 * 24}, .grid = 8, .grid_y = 6,
		  .zeroed = 4, .scratch = 4}, DT_BF16, 512, 1024, false},
		{{.file = "tests/exec/splitscan.py", .kernel = "split_scan", .signature = "*fp32,*fp32,*u8,i32,i32",
		  .defines = {"MAX=0", "R0_BLOCK=64"}, .num_warps = 2, .scalars = {5, 777},
		  .counts = {777 * 5, 777 * 5, 13 * 5 * 24}, .grid = 13, .grid_y = 5, .zeroed = 4, .scratch = 4},
		 DT_F32, 777, 5, false},
		{{.file = "tests/exec/splitscan.py", .kernel = "split_scan", .signature = "*fp32,*fp32,*u8,i32,i32",
		  .defines = {"MAX=1", "R0_BLOCK=128"}, .num_warps = 4, .scalars = {3, 777},
		  .counts = {777 * 3, 777 * 3, 7 * 3 * 24}, .grid = 7, .grid_y = 3, .zeroed = 4, .scratch = 4},
		 DT_F32, 777, 3, true},
		{{.file = "tests/exec/splitscan.py", .kernel = "split_scan64", .signature = "*i64,*i64,*u8,i32,i32",
		  .defines = {"R0_BLOCK=32"}, .num_warps = 1, .scalars = {4, 333},
		  .counts = {333 * 4, 333 * 4, 11 * 4 * 24}, .grid = 11, .grid_y = 4, .zeroed = 4, .scratch = 4},
		 DT_I64, 333, 4, false},
	};
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		for (int w = 0; w < 2; w++) {
			Case c = runs[i].c;
			c.target = w ? "c:wave64" : "c";
			Outcome o = run_case(&c);
			char name[200];
			case_name(name, sizeof name, &c, w, "matches the interpreter");
			CHECK(name, o.ran && o.wrong == 0);
			if (!o.ran)
				printf("# %s\n", o.err);
			double e = o.ran ? split_scan_error(&o, runs[i].dt, runs[i].rows, runs[i].xnumel, c.grid_y, runs[i].max)
					 : INFINITY;
			case_name(name, sizeof name, &c, w, "matches float64");
			CHECK(name, e <= run_tolerance(runs[i].dt));
			free_outcome(&o);
		}
	}
}

/* tests/exec/rounding.py, worked out here: fp32 to fp16 and bf16 toward
 * zero (cvt.rz), NaNs aside (any NaN will do). */
static uint16_t f16_rtz(uint32_t u)
{
	uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
	if (a >= 0x7f800000u)
		return (uint16_t)(sign | (a == 0x7f800000u ? 0x7c00u : 0x7e00u));
	if (a >= 0x477ff000u)   /* 65520 and past: the largest finite */
		return (uint16_t)(sign | 0x7bffu);
	int e = (int)(a >> 23) - 127;
	if (e < -24)
		return (uint16_t)sign;
	if (e < -14) {   /* a subnormal half: the mantissa with its implicit bit, shifted */
		uint32_t m = (a & 0x7fffffu) | 0x800000u;
		return (uint16_t)(sign | (m >> (13 + (-14 - e))));
	}
	return (uint16_t)(sign | (uint32_t)(e + 15) << 10 | ((a >> 13) & 0x3ffu));
}

static bool rtz_direct(const Outcome *o, int n)
{
	const int32_t *in = o->in[0];
	const uint16_t *h = o->bufs[1], *bf = o->bufs[2];
	int bad = 0, nans = 0;
	for (int i = 0; i < n; i++) {
		uint32_t bits = (uint32_t)in[i];
		if (i % 4 >= 2)
			bits = (bits & 0x7fffffu) | (100u + (bits >> 23) % 50u) << 23;
		if (i % 2)
			bits ^= 0x80000000u;
		if ((bits & 0x7fffffffu) > 0x7f800000u) {
			nans++;
			bad += (h[i] & 0x7fffu) <= 0x7c00u || (bf[i] & 0x7fffu) <= 0x7f80u;
			continue;
		}
		bad += h[i] != f16_rtz(bits) || bf[i] != (uint16_t)(bits >> 16);
	}
	printf("# rtz: %d of %d inputs NaN\n", nans, n);
	return bad == 0;
}

/* The language beyond Inductor's (tests/exec/lang.py, descriptors.py):
 * builtins, string / dtype / None / tuple constexprs, tuple helpers,
 * int64 <-> pointer casts, and tensor descriptors, against the
 * interpreter at both widths; the descriptors also against their meaning
 * (zeros outside the view, nothing written outside it). */
static void test_lang(void)
{
	static const Case cases[] = {
		{.file = "tests/exec/lang.py", .kernel = "builtins", .signature = "*fp32,*fp16,*fp32,i32,i32",
		 .defines = {"BLOCK=64", "ACT=\"leaky\"", "OUT=tl.float16", "BIAS=0.5", "PAIR=(2, 3)"}, .num_warps = 2,
		 .scalars = {1000, 50}, .counts = {1000, 1000, 1000}, .grid = 16},
		{.file = "tests/exec/lang.py", .kernel = "builtins", .signature = "*fp32,*fp32,*fp32,i32,i32",
		 .defines = {"BLOCK=128", "ACT='square'", "OUT=tl.float32", "BIAS=None", "PAIR=(-1, 0.5)"}, .num_warps = 4,
		 .scalars = {777, 100}, .counts = {777, 777, 777}, .grid = 7},
		{.file = "tests/exec/lang.py", .kernel = "pointers", .signature = "*i64,*fp32,*fp32,i32",
		 .defines = {"BLOCK=128"}, .num_warps = 4, .scalars = {1000}, .counts = {1000, 1000, 1000}, .grid = 8},
		{.file = "tests/exec/descriptors.py", .kernel = "tiles", .signature = "*fp32,*fp32,i32,i32",
		 .defines = {"BM=16", "BN=32"}, .num_warps = 4, .scalars = {37, 45}, .counts = {37 * 45, 37 * 45},
		 .grid = 3, .grid_y = 2, .zeroed = 2},
		{.file = "tests/exec/descriptors.py", .kernel = "from_host",
		 .signature = "tensordesc<fp32[16,32]>,tensordesc<fp16[16,32]>,i32", .defines = {"BK=32"}, .num_warps = 4,
		 .scalars = {37, 75, 80, 37, 32, 32, 75}, .counts = {37 * 80, 37 * 32}, .grid = 3},
		{.file = "tests/exec/descriptors.py", .kernel = "cube", .signature = "*fp32,*fp32,i32,i32,i32",
		 .defines = {"BA=2", "BB=4", "BC=8"}, .num_warps = 2, .scalars = {3, 10, 7}, .counts = {210, 105},
		 .grid = 2, .grid_y = 2},
		{.file = "tests/exec/uint16.py", .kernel = "mix16", .signature = "*u16,*u16,*i16,*u16,*i32,*fp32,i32",
		 .defines = {"B=128"}, .num_warps = 4, .int_range = 65536, .scalars = {1000},
		 .counts = {1000, 1000, 1000, 7000, 4128, 2000}, .grid = 8},
		{.file = "tests/exec/uint16.py", .kernel = "scale16", .signature = "*u16,*u16,i32,i32",
		 .defines = {"B=16"}, .num_warps = 2, .int_range = 65536, .scalars = {50, 300}, .counts = {150, 150},
		 .grid = 4},
#define BMM(sig, acc, prec)                                                                                       \
	{.file = "tests/exec/dot3.py", .kernel = "bmm", .signature = sig,                                        \
	 .defines = {"ACC=" acc, "PREC=" prec, "BB=2", "BM=16", "BN=32", "BK=16"}, .num_warps = 4,             \
	 .scalars = {3, 37, 20, 45}, .counts = {3 * 37 * 45, 3 * 45 * 20, 3 * 37 * 20}, .grid = 3, .grid_y = 2}
		BMM("*fp16,*fp16,*fp32,i32,i32,i32,i32", "tl.float32", "None"),
		BMM("*fp32,*fp32,*fp32,i32,i32,i32,i32", "tl.float32", "'tf32'"),
		BMM("*fp32,*fp32,*fp32,i32,i32,i32,i32", "tl.float32", "'ieee'"),
		BMM("*bf16,*bf16,*fp32,i32,i32,i32,i32", "tl.float32", "None"),
		BMM("*i8,*i8,*i32,i32,i32,i32,i32", "tl.int32", "None"),
#undef BMM
		{.file = "tests/exec/rounding.py", .kernel = "downcast", .signature = "*i32,*fp16,*bf16,*fp16,i32",
		 .defines = {"B=256"}, .num_warps = 4, .int_range = 2147483647, .scalars = {3000},
		 .counts = {3000, 3000, 3000, 3000}, .grid = 12},
		{.file = "tests/exec/dot3.py", .kernel = "bmm_once", .signature = "*fp16,*fp16,*fp16,i32,i32,i32,i32",
		 .defines = {"BB=2", "BM=16", "BN=32", "BK=32"}, .num_warps = 4, .scalars = {3, 13, 20, 30},
		 .counts = {3 * 13 * 30, 3 * 20 * 30, 3 * 13 * 20}, .grid = 2},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (int w = 0; w < 2; w++) {
			Case c = cases[i];
			c.target = w ? "c:wave64" : "c";
			Outcome o = run_case(&c);
			char name[240];
			case_name(name, sizeof name, &c, w, "matches the interpreter");
			CHECK(name, o.ran && o.wrong == 0);
			if (!o.ran)
				printf("# %s\n", o.err);
			if (o.ran && i == 3) {   /* tiles: y = 2 x + x one row up (zero above row 0); M x N of 37 x 45 */
				const float *x = o.in[0], *y = o.bufs[1];
				int bad = 0;
				for (int r = 0; r < 37; r++)
					for (int k = 0; k < 45; k++) {
						float want = 2.0f * x[r * 45 + k] + (r ? x[(r - 1) * 45 + k] : 0.0f);
						bad += y[r * 45 + k] != want;
					}
				case_name(name, sizeof name, &c, w, "reads zeros above the view");
				CHECK(name, bad == 0);
			}
			if (o.ran && i == 4) {   /* from_host: y[r, j] = sum over k of x[r, k + 32 t], k + 32 t < 75 */
				const float *x = o.in[0];
				const uint16_t *y = o.bufs[1];
				int bad = 0;
				for (int r = 0; r < 37; r++)
					for (int j = 0; j < 32; j++) {
						double want = 0;
						for (int k = j; k < 75; k += 32)
							want += x[r * 80 + k];
						bad += fabs(dtype_fp16_to_float(y[r * 32 + j]) - want) > 1e-2 * fmax(1, fabs(want));
					}
				case_name(name, sizeof name, &c, w, "ignores the columns past the view");
				CHECK(name, bad == 0);
			}
			if (o.ran && i == 5) {   /* cube: y[a, b, c] = x[a, 2 b, c] + 1 for the 3 x 5 x 7 view */
				const float *x = o.in[0], *y = o.bufs[1];
				int bad = 0;
				for (int a = 0; a < 3; a++)
					for (int b = 0; b < 5; b++)
						for (int k = 0; k < 7; k++)
							bad += y[(a * 5 + b) * 7 + k] != x[(a * 10 + 2 * b) * 7 + k] + 1.0f;
				case_name(name, sizeof name, &c, w, "reads a strided 3-D view");
				CHECK(name, bad == 0);
			}
			if (o.ran && !strcmp(c.file, "tests/exec/rounding.py")) {
				case_name(name, sizeof name, &c, w, "rounds toward zero bit by bit");
				CHECK(name, rtz_direct(&o, (int)c.scalars[0]));
			}
			free_outcome(&o);
		}
	}
}

/* Shape functions (tests/exec/shapes.py) against the interpreter at both
 * widths and against what they mean. */
static void test_shapes(void)
{
	static const Case cases[] = {
		{.file = "tests/exec/shapes.py", .kernel = "halves", .signature = "*fp32,*fp32,*fp32,i32,i32",
		 .defines = {"BM=16", "BN=32"}, .num_warps = 4, .scalars = {37, 90}, .counts = {37 * 90, 37 * 45, 37 * 45},
		 .grid = 3, .grid_y = 3},
		{.file = "tests/exec/shapes.py", .kernel = "mix", .signature = "*fp32,*fp32,*fp32,*fp32,*fp32,i32",
		 .defines = {"B=64"}, .num_warps = 2, .scalars = {200}, .counts = {200, 200, 400, 400, 200}, .grid = 4},
		{.file = "tests/exec/shapes.py", .kernel = "flat", .signature = "*fp32,*fp32,*fp32",
		 .defines = {"R=8", "C=16"}, .num_warps = 4, .counts = {384, 384, 192}, .grid = 3},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (int w = 0; w < 2; w++) {
			Case c = cases[i];
			c.target = w ? "c:wave64" : "c";
			Outcome o = run_case(&c);
			char name[240];
			case_name(name, sizeof name, &c, w, "matches the interpreter");
			CHECK(name, o.ran && o.wrong == 0);
			if (!o.ran) {
				printf("# %s\n", o.err);
				free_outcome(&o);
				continue;
			}
			int bad = 0;
			if (i == 0) {   /* lo / hi: the left and right 16 columns of each 32-column block */
				const float *x = o.in[0], *lo = o.bufs[1], *hi = o.bufs[2];
				for (int r = 0; r < 37; r++)
					for (int h = 0; h < 45; h++) {
						int col = (h / 16) * 32 + h % 16;
						float wl = col < 90 ? x[r * 90 + col] : -1.0f, wh = col + 16 < 90 ? x[r * 90 + col + 16] : -1.0f;
						bad += lo[r * 45 + h] != wl || hi[r * 45 + h] != wh;
					}
				case_name(name, sizeof name, &c, w, "splits each block into its halves");
			} else if (i == 1) {   /* interleave, cat by blocks of 64, clamp */
				const float *a = o.in[0], *b = o.in[1], *il = o.bufs[2], *cat = o.bufs[3], *cl = o.bufs[4];
				for (int j = 0; j < 400; j++) {
					bad += il[j] != (j % 2 ? b[j / 2] : a[j / 2]);
					int blk = j / 128, e = j % 128, src = blk * 64 + e % 64;
					float want = src < 200 ? (e < 64 ? a[src] : b[src]) : 0.0f;
					bad += cat[j] != want;
				}
				for (int j = 0; j < 200; j++)
					bad += cl[j] != fminf(fmaxf(a[j] * 3.0f, -1.0f), 0.5f);
				case_name(name, sizeof name, &c, w, "interleaves, concatenates and clamps");
			} else {   /* y = 2 x flattened; z[h, c] = x[2 h, c] + x[2 h + 1, c] */
				const float *x = o.in[0], *y = o.bufs[1], *z = o.bufs[2];
				for (int j = 0; j < 384; j++)
					bad += y[j] != 2.0f * x[j];
				for (int p = 0; p < 3; p++)
					for (int h = 0; h < 4; h++)
						for (int k = 0; k < 16; k++)
							bad += z[p * 64 + h * 16 + k] != x[p * 128 + 2 * h * 16 + k] + x[p * 128 + (2 * h + 1) * 16 + k];
				case_name(name, sizeof name, &c, w, "reshapes in row-major order");
			}
			CHECK(name, bad == 0);
			free_outcome(&o);
		}
	}
}

/* With arguments, only the groups named (seed, width, inductor, scans,
 * reductions, whiles, jumps, assert, philox, math, atomics, splitscan, lang, shapes). */
/* Host descriptors' blocks by the bulk tensor copy engine (tests/exec/attention_desc.py: K and V
 * of an attention loop, q and o descriptors too): on c:wgmma the copies' model (the box into the
 * hardware's swizzle, zeros past S, the mbarriers' phases and bytes) against the interpreter at
 * sequences no block divides, 2 and 3 stages; on c the same kernel by pointer loads. */
static void test_tma(void)
{
	static const char *const sig = "tensordesc<fp16[64,64]>,tensordesc<fp16[64,64]>,tensordesc<fp16[64,64]>,"
				       "tensordesc<fp16[64,64]>,i32";
	static const Case cases[] = {
		{.file = "tests/exec/attention_desc.py", .kernel = "attn_desc", .signature = sig,
		 .defines = {"D=64", "BM=64", "BN=64", "SCALE=0.125"}, .num_warps = 4, .num_stages = 2,
		 .scalars = {200, 64, 64, 200, 64, 64, 200, 64, 64, 200, 64, 64, 200},
		 .counts = {200 * 64, 200 * 64, 200 * 64, 200 * 64}, .grid = 4},
		{.file = "tests/exec/attention_desc.py", .kernel = "attn_desc", .signature = sig,
		 .defines = {"D=64", "BM=64", "BN=64", "SCALE=0.125"}, .num_warps = 4, .num_stages = 3,
		 .scalars = {130, 64, 64, 130, 64, 64, 130, 64, 64, 130, 64, 64, 130},
		 .counts = {130 * 64, 130 * 64, 130 * 64, 130 * 64}, .grid = 3},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		for (int w = 0; w < 2; w++) {
			Case c = cases[i];
			c.target = w ? "c:wgmma" : "c";
			Outcome o = run_case(&c);
			char name[240], what[120];
			snprintf(what, sizeof what, "S=%d stages=%d %s: %s", (int)c.scalars[12], c.num_stages, c.target,
				 w ? "bulk tensor copies (model) match the interpreter" : "matches the interpreter");
			case_name(name, sizeof name, &c, 0, what);
			CHECK(name, o.ran && o.wrong == 0);
			if (!o.ran)
				printf("# %s\n", o.err);
			free_outcome(&o);
		}
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*run)(void);
	} groups[] = {
		{"seed", test_seed}, {"width", test_width_matters}, {"inductor", test_inductor}, {"scans", test_scans},
		{"reductions", test_reductions}, {"whiles", test_whiles}, {"jumps", test_jumps},
		{"assert", test_assert}, {"philox", test_philox_reference},
		{"philox", test_philox}, {"math", test_math}, {"atomics", test_atomics}, {"splitscan", test_split_scans},
		{"lang", test_lang}, {"shapes", test_shapes}, {"tma", test_tma},
	};
	for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
		bool named = argc < 2;
		for (int i = 1; i < argc; i++)
			named |= !strcmp(argv[i], groups[g].name);
		if (named)
			groups[g].run();
	}
	arena_free(&arena);
	return failures ? 1 : 0;
}
