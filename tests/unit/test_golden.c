/* test_golden.c: corpus kernels, from their source text through discovery,
 * parsing, specialization and the tile-IR interpreter, against the values
 * real Triton produced on a GPU for the same inputs (tests/golden/). */
#include "base/json.h"
#include "ir/specialize.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void report(bool ok, const char *name, const char *why)
{
	if (ok)
		printf("PASS %s\n", name);
	else {
		printf("FAIL %s: %s\n", name, why);
		failures++;
	}
}

static double read_elem(DType dt, const void *base, int64_t i)
{
	const char *p = (const char *)base + i * dtype_bytes(dt);
	if (dt == DT_I64 || dt == DT_I32) {
		int64_t x = 0;
		if (dt == DT_I64)
			memcpy(&x, p, 8);
		else {
			int32_t y;
			memcpy(&y, p, 4);
			x = y;
		}
		return (double)x;
	}
	if (dt == DT_F32) {
		float f;
		memcpy(&f, p, 4);
		return f;
	}
	uint16_t h;
	memcpy(&h, p, 2);
	return dt == DT_F16 ? fp16_to_float(h) : bf16_to_float(h);
}

/* The hash of inputs.md, before its mapping to [-1, 1). */
static uint32_t golden_hash(uint32_t i, uint32_t arg)
{
	uint32_t h = i * 0x9E3779B9u + (arg + 1) * 0x85EBCA6Bu;
	h ^= h >> 16;
	h *= 0x85EBCA6Bu;
	h ^= h >> 13;
	h *= 0xC2B2AE35u;
	h ^= h >> 16;
	return h;
}

/* Integer buffers: h % range for index inputs, -777 (a value no index
 * kernel writes) for poisoned outputs. */
static void fill_int(DType dt, void *base, int64_t n, uint32_t arg, uint32_t range, bool poison)
{
	for (int64_t i = 0; i < n; i++) {
		int64_t v = poison ? -777 : (int64_t)(golden_hash((uint32_t)i, arg) % (range ? range : 1));
		char *p = (char *)base + i * dtype_bytes(dt);
		if (dt == DT_I64)
			memcpy(p, &v, 8);
		else {
			int32_t w = (int32_t)v;
			memcpy(p, &w, 4);
		}
	}
}

static void fill(DType dt, void *base, int64_t n, uint32_t arg, bool poison)
{
	for (int64_t i = 0; i < n; i++) {
		float v = poison ? NAN : hash_input((uint32_t)i, arg);
		char *p = (char *)base + i * dtype_bytes(dt);
		if (dt == DT_F32)
			memcpy(p, &v, 4);
		else {
			uint16_t h = dt == DT_F16 ? fp16_from_float(v) : bf16_from_float(v);
			memcpy(p, &h, 2);
		}
	}
}

static int64_t numel(const Json *shape)
{
	int64_t n = 1;
	for (int i = 0; shape && i < shape->len; i++)
		n *= (int64_t)json_num(json_at(shape, i), 1);
	return n;
}

/* Element operations the interpreter may spend per output: programs
 * beyond it are not run and the positions they write are skipped, so the
 * big kernels (32 unrolled steps over 1024 columns) stay a few seconds.
 * The positions come first and last, then random. */
#define WORK_BUDGET 1e8

static double block_work(const TBlock *b)
{
	double w = 0;
	for (const TValue *v = b->first; v; v = v->next) {
		double n = 1;
		for (int d = 0; d < v->type.rank; d++)
			n *= v->type.shape[d];
		w += n + (v->body ? block_work(v->body) : 0) + (v->orelse ? block_work(v->orelse) : 0);
	}
	return w;
}

static bool has_atomics(const TBlock *b)
{
	for (const TValue *v = b->first; v; v = v->next)
		if (v->op == TOP_ATOMIC || (v->body && has_atomics(v->body)) || (v->orelse && has_atomics(v->orelse)))
			return true;
	return false;
}

/* Which program writes flat output position `at`. Grid1D kernels cover
 * their row-major output in order: at * programs / numel. Grid2D kernels
 * (Inductor's YBLOCK x XBLOCK tiles, x fastest in memory and in axis 0 of
 * the grid) write [y, x] at y * xnumel + x. */
typedef struct GridMap {
	int64_t grid0, xnumel, xblock, yblock;
} GridMap;

static int64_t program_of(const GridMap *m, int64_t at, int64_t programs, int64_t numel)
{
	if (!m->xnumel)
		return at * programs / numel;
	int64_t x = at % m->xnumel, y = at / m->xnumel;
	return x / m->xblock + y / m->yblock * m->grid0;
}

static int64_t scalar_arg(const Json *args, const TArgValue *vals, const char *name)
{
	for (int i = 0; i < args->len; i++)
		if (!strcmp(json_str(json_get(json_at(args, i), "name"), ""), name))
			return vals[i].i;
	return 0;
}

/* One golden file: returns a failure reason or NULL. Outputs are poisoned
 * with NaN first, so a position the kernel never writes fails. */
static const char *run_golden(const char *name, char *why, size_t whylen)
{
	Arena a = {0};
	char path[256];
	snprintf(path, sizeof path, "tests/golden/%s.json", name);
	size_t len;
	char *text = file_read(path, &len);
	Json *g = text ? json_parse(&a, text, len, NULL) : NULL;
	if (!g)
		return "cannot read the golden file";
	const char *file = json_str(json_get(g, "file"), "");
	const char *kname = json_str(json_get(g, "kernel"), "");
	size_t srclen;
	char *srctext = file_read(file, &srclen);
	if (!srctext)
		return "cannot read the kernel's source";
	Source src = {.name = file, .text = srctext, .len = srclen};
	Diag d = {.out = stdout};
	KernelList kl = {0};
	const Kernel *k = NULL;
	if (discover_kernels(&a, &d, &src, &kl) > 0)
		for (int i = 0; i < kl.len; i++)
			if (!strcmp(kl.items[i]->name, kname))
				k = kl.items[i];
	if (!k)
		return "kernel not found in its source";

	/* Signature and buffers from the golden file's argument list. */
	Json *args = json_get(g, "args");
	Json *cx = json_get(g, "constexprs");
	Buf sig = {0};
	TArgValue *vals = xcalloc((size_t)args->len, sizeof *vals);
	DType *dts = xcalloc((size_t)args->len, sizeof *dts);
	int64_t *sizes = xcalloc((size_t)args->len, sizeof *sizes);
	int *kargs = xcalloc((size_t)args->len, sizeof *kargs);  /* kernel argument -> golden argument */
	int nk = 0;
	for (int i = 0; i < args->len; i++) {
		Json *arg = json_at(args, i);
		const char *init = json_str(json_get(arg, "init"), "");
		const char *dt = json_str(json_get(arg, "dtype"), "");
		DType t = DT_F32;
		dtype_parse(dt, &t);
		dts[i] = t;
		bool scalar = !strcmp(init, "scalar");
		if (!strcmp(dt, "constexpr")) {
			continue;   /* bound from the kernel's own constants, not passed */
		}
		buf_printf(&sig, "%s%s%s", sig.len ? "," : "", scalar ? "" : "*", dt);
		kargs[nk++] = i;
		if (scalar) {
			vals[i].i = (int64_t)json_num(json_get(arg, "value"), 0);
			continue;
		}
		sizes[i] = numel(json_get(arg, "shape"));
		vals[i].ptr = xmalloc((size_t)(sizes[i] * dtype_bytes(t)));
		bool output = json_get(json_get(g, "outputs"), json_str(json_get(arg, "name"), "")) != NULL;
		bool hashed = !strcmp(init, "hash");
		uint32_t ai = (uint32_t)json_num(json_get(arg, "arg_index"), i);
		if (dtype_is_float(t))
			fill(t, vals[i].ptr, sizes[i], ai, output && !hashed);
		else
			fill_int(t, vals[i].ptr, sizes[i], ai, (uint32_t)json_num(json_get(arg, "range"), 0), output && !hashed);
	}
	const char *defines[8];
	int ndef = 0;
	for (int i = 0; cx && i < cx->len && ndef < 8; i++)
		defines[ndef++] = arena_printf(&a, "%s=%lld", cx->keys[i], (long long)json_num(cx->items[i], 0));
	SpecOptions opt = {.signature = buf_str(&sig), .defines = defines, .ndefines = ndef,
			   .num_warps = (int)json_num(json_get(g, "num_warps"), 4)};
	TKernel *tk = specialize(&a, &d, k, &opt);
	const char *fail = NULL;
	if (!tk) {
		fail = "specialization failed";
		goto done;
	}
	/* Outputs accumulated atomically start from their zeros, not poison. */
	for (int i = 0; has_atomics(tk->body) && i < args->len; i++)
		if (vals[i].ptr && !strcmp(json_str(json_get(json_at(args, i), "init"), ""), "zeros"))
			memset(vals[i].ptr, 0, (size_t)(sizes[i] * dtype_bytes(dts[i])));
	/* The kernel's arguments, in its own order (constexprs are not passed). */
	TArgValue *kvals = xcalloc((size_t)nk + 1, sizeof *kvals);
	for (int i = 0; i < nk; i++)
		kvals[i] = vals[kargs[i]];
	int grid[3];
	for (int i = 0; i < 3; i++)
		grid[i] = (int)json_num(json_at(json_get(g, "grid"), i), 1);

	/* Run the programs that write the sampled positions (see
	 * program_of), or every program when the kernel adds atomically. */
	Json *outs = json_get(g, "outputs");
	int64_t programs = (int64_t)grid[0] * grid[1] * grid[2];
	char err[256];
	bool whole_grid = has_atomics(tk->body);
	if (whole_grid && tir_interpret(tk, kvals, grid, err, sizeof err) != 0) {
		snprintf(why, whylen, "interpreter: %s", err);
		fail = why;
	}
	GridMap map = {.grid0 = grid[0]};
	if (grid[1] > 1) {
		map.xnumel = scalar_arg(args, vals, "xnumel");
		map.xblock = (int64_t)json_num(json_get(cx, "XBLOCK"), 1);
		map.yblock = (int64_t)json_num(json_get(cx, "YBLOCK"), 1);
	}
	for (int o = 0; o < outs->len && !fail; o++) {
		int ai = -1;
		for (int i = 0; i < args->len; i++)
			if (!strcmp(json_str(json_get(json_at(args, i), "name"), ""), outs->keys[o]))
				ai = i;
		Json *pos = json_get(outs->items[o], "positions"), *want = json_get(outs->items[o], "values");
		if (ai < 0 || !pos || !want || pos->len != want->len || pos->len == 0) {
			fail = "malformed outputs";
			break;
		}
		unsigned char *done_pid = xcalloc((size_t)programs, 1);
		double worst = 0;
		double tol = dts[ai] == DT_F32 ? 1e-5 : dtype_is_float(dts[ai]) ? 1e-2 : 0;
		int checked = 0, run = 0, max_programs = (int)fmax(16, WORK_BUDGET / block_work(tk->body));
		for (int p = 0; p < pos->len && !fail && !whole_grid; p++) {
			int64_t at = (int64_t)json_num(json_at(pos, p), 0);
			int64_t pid = program_of(&map, at, programs, sizes[ai]);
			if (!done_pid[pid] && run < max_programs) {
				run++;
				done_pid[pid] = 1;
				if (tir_interpret_range(tk, kvals, grid, pid, 1, err, sizeof err) != 0) {
					snprintf(why, whylen, "interpreter: %s", err);
					fail = why;
				}
			}
		}
		/* Errors are relative to each value, or to the outputs' RMS for
		 * values near zero (sums that cancel), whichever is larger. */
		double rms = 0;
		for (int p = 0; p < want->len; p++)
			rms += json_num(json_at(want, p), 0) * json_num(json_at(want, p), 0);
		rms = fmax(sqrt(rms / want->len), 1e-6);
		for (int p = 0; p < pos->len && !fail; p++) {
			int64_t at = (int64_t)json_num(json_at(pos, p), 0);
			if (!whole_grid && !done_pid[program_of(&map, at, programs, sizes[ai])])
				continue;
			checked++;
			double got = read_elem(dts[ai], vals[ai].ptr, at), w = json_num(json_at(want, p), NAN);
			double e = fabs(got - w) / fmax(fabs(w), rms);
			worst = isnan(e) ? INFINITY : fmax(worst, e);
		}
		free(done_pid);
		printf("# %s.%s: max relative error %.3g at %d positions\n", name, outs->keys[o], worst, checked);
		if (!fail && !(worst <= tol)) {
			snprintf(why, whylen, "max relative error %.3g over tolerance %g", worst, tol);
			fail = why;
		}
	}
	free(kvals);
done:
	free(kargs);
	for (int i = 0; i < args->len; i++)
		free(vals[i].ptr);
	free(vals);
	free(dts);
	free(sizes);
	buf_free(&sig);
	buf_free(&d.text);
	free(text);
	free(srctext);
	arena_free(&a);
	return fail;
}

int main(int argc, char **argv)
{
	static const char *cases[] = {
		"rmsnorm_inductor_r37", "rmsnorm_f32_4096", "rmsnorm_bf16_4096", "softmax_f32_1024",
		"add_relu_mul_f32", "gelu_tanh_bf16", "swiglu_bf16", "broadcast_bias_f16",
		"layernorm_f32_1024", "log_softmax_f32_777", "colsum_f32_k0", "colsum_f32_k1",
		"mean_all_f32_k0", "index_add_f32_k0", "transpose_add_f32", "cumsum_f32",
		"embedding_f32", "index_add_f32_k1", "max_argmax_f32", "mean_all_f32_k1", "softmax_f16_32000",
		"var_mean_f32",
	};
	for (size_t i = 0; i < TC_COUNT(cases); i++) {
		if (argc > 1 && strcmp(argv[1], cases[i]))
			continue;
		char why[300];
		const char *fail = run_golden(cases[i], why, sizeof why);
		char name[128];
		snprintf(name, sizeof name, "interpreter matches Triton: %s", cases[i]);
		report(!fail, name, fail ? fail : "");
	}
	return failures ? 1 : 0;
}
