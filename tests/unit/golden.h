/* golden.h: golden files (tests/triton_values/inputs.md), shared by test_golden
 * (the corpus, through the interpreter) and test_heldout (Inductor kernels
 * of operations outside the corpus, through the interpreter and lowered for
 * a target and run whole).
 *
 * A golden file names a kernel, its constexprs, grid and arguments, and
 * the values real Triton wrote at a few hundred positions of each output.
 * golden_open builds the inputs by the same formula the generator used and
 * specializes the kernel; golden_fill (re)initializes the buffers, outputs
 * poisoned so that a position never written fails; golden_compare checks
 * the positions. */
#ifndef TC_TEST_GOLDEN_H
#define TC_TEST_GOLDEN_H

#include "base/json.h"
#include "ir/specialize.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct Golden {
	Arena a;
	Diag diag;
	char *text, *srctext;
	Json *g, *args, *outs;
	const Kernel *k;
	TKernel *tk;
	int nargs;            /* the golden file's arguments (constexprs included) */
	DType *dts;           /* element type of each */
	int64_t *sizes;       /* buffers: elements */
	TArgValue *vals;      /* buffers: their memory; scalars: their value */
	int *kargs;           /* kernel argument -> golden argument */
	int nk;
	int grid[3];
	bool atomics;         /* the kernel adds atomically: outputs start from zeros */
} Golden;

/* Stores element i: an integer for integer and bool types (bools are
 * nonzero-ness, as torch's .to(torch.bool)), a float for float types. */
static void golden_store(DType dt, void *base, int64_t i, int64_t n, double f)
{
	char *p = (char *)base + i * dtype_bytes(dt);
	switch (dt) {
	case DT_I1: *(int8_t *)p = n != 0; break;
	case DT_I8: case DT_U8: *(int8_t *)p = (int8_t)n; break;
	case DT_I16: case DT_U16: { int16_t x = (int16_t)n; memcpy(p, &x, 2); break; }
	case DT_I32: case DT_U32: { int32_t x = (int32_t)n; memcpy(p, &x, 4); break; }
	case DT_I64: case DT_U64: memcpy(p, &n, 8); break;
	case DT_F32: { float x = (float)f; memcpy(p, &x, 4); break; }
	case DT_F64: memcpy(p, &f, 8); break;
	case DT_F16: { uint16_t h = dtype_fp16_from_float((float)f); memcpy(p, &h, 2); break; }
	case DT_BF16: { uint16_t h = dtype_bf16_from_float((float)f); memcpy(p, &h, 2); break; }
	case DT_F8E4NV: case DT_F8E5: case DT_F8E4B15: case DT_F8E4B8: case DT_F8E5B16:
		*(uint8_t *)p = dtype_fp8_from_float(dt, (float)f);
		break;
	case DT_PTR: break;
	}
}

/* Every buffer from its init: "hash" inputs by the formula (integers:
 * h % range + offset), outputs ("zeros") poisoned with NaN, or -777 for
 * integers (a value no index kernel writes), or zeros when the kernel adds
 * atomically into them. */
static void golden_fill(Golden *G)
{
	for (int i = 0; i < G->nargs; i++) {
		Json *arg = json_at(G->args, i);
		if (!G->vals[i].ptr)
			continue;
		DType t = G->dts[i];
		bool hashed = !strcmp(json_str(json_get(arg, "init"), ""), "hash");
		uint32_t ai = (uint32_t)json_num(json_get(arg, "arg_index"), i);
		uint32_t range = (uint32_t)json_num(json_get(arg, "range"), 0);
		int64_t offset = (int64_t)json_num(json_get(arg, "offset"), 0);
		for (int64_t e = 0; e < G->sizes[i]; e++) {
			if (hashed) {
				uint32_t h = run_hash((uint32_t)e, ai);
				golden_store(t, G->vals[i].ptr, e, (int64_t)(h % (range ? range : 1)) + offset,
					     hash_input((uint32_t)e, ai));
			} else if (G->atomics)
				golden_store(t, G->vals[i].ptr, e, 0, 0.0);
			else
				golden_store(t, G->vals[i].ptr, e, -777, NAN);
		}
	}
}

static void report(bool ok, const char *name, const char *why)
{
	if (ok)
		printf("PASS %s\n", name);
	else {
		printf("FAIL %s: %s\n", name, why);
		failures++;
	}
}

/* Element operations of one program (nested blocks counted once): what
 * the interpreter would spend on it. */
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

static int64_t golden_numel(const Json *shape)
{
	int64_t n = 1;
	for (int i = 0; shape && i < shape->len; i++)
		n *= (int64_t)json_num(json_at(shape, i), 1);
	return n;
}

static bool golden_has_atomics(const TBlock *b)
{
	for (const TValue *v = b->first; v; v = v->next)
		if (v->op == TOP_ATOMIC || (v->body && golden_has_atomics(v->body)) ||
		    (v->orelse && golden_has_atomics(v->orelse)))
			return true;
	return false;
}

static void golden_close(Golden *G)
{
	for (int i = 0; i < G->nargs && G->vals; i++)
		free(G->vals[i].ptr);
	free(G->vals);
	free(G->dts);
	free(G->sizes);
	free(G->kargs);
	buf_free(&G->diag.text);
	free(G->text);
	free(G->srctext);
	arena_free(&G->a);
	memset(G, 0, sizeof *G);
}

/* Reads `path`, finds its kernel, specializes it with the file's argument
 * types and constexprs, and allocates and fills the buffers. Returns NULL
 * or why not (diagnostics go to `diag_out`). */
static const char *golden_open(Golden *G, const char *path, FILE *diag_out)
{
	memset(G, 0, sizeof *G);
	G->diag.out = diag_out;
	size_t len;
	G->text = file_read(path, &len);
	G->g = G->text ? json_parse(&G->a, G->text, len, NULL) : NULL;
	if (!G->g)
		return "cannot read the golden file";
	const char *file = json_str(json_get(G->g, "file"), "");
	const char *kname = json_str(json_get(G->g, "kernel"), "");
	size_t srclen;
	G->srctext = file_read(file, &srclen);
	if (!G->srctext)
		return "cannot read the kernel's source";
	Source *src = arena_alloc(&G->a, sizeof *src);
	*src = (Source){.name = arena_strdup(&G->a, file), .text = G->srctext, .len = srclen};
	KernelList kl = {0};
	if (discover_kernels(&G->a, &G->diag, src, &kl) > 0)
		for (int i = 0; i < kl.len; i++)
			if (!strcmp(kl.items[i]->name, kname))
				G->k = kl.items[i];
	if (!G->k)
		return "kernel not found in its source";

	/* The signature and buffers from the argument list; constexprs are
	 * bound from the kernel's own constants, not passed. */
	G->args = json_get(G->g, "args");
	G->outs = json_get(G->g, "outputs");
	G->nargs = G->args ? G->args->len : 0;
	G->vals = base_calloc((size_t)G->nargs + 1, sizeof *G->vals);
	G->dts = base_calloc((size_t)G->nargs + 1, sizeof *G->dts);
	G->sizes = base_calloc((size_t)G->nargs + 1, sizeof *G->sizes);
	G->kargs = base_calloc((size_t)G->nargs + 1, sizeof *G->kargs);
	Buf sig = {0};
	for (int i = 0; i < G->nargs; i++) {
		Json *arg = json_at(G->args, i);
		const char *dt = json_str(json_get(arg, "dtype"), "");
		if (!strcmp(dt, "constexpr"))
			continue;
		DType t = DT_F32;
		if (!dtype_parse(dt, &t)) {
			buf_free(&sig);
			return "an argument's dtype is unknown";
		}
		G->dts[i] = t;
		bool scalar = !strcmp(json_str(json_get(arg, "init"), ""), "scalar");
		buf_printf(&sig, "%s%s%s", sig.len ? "," : "", scalar ? "" : "*", dt);
		G->kargs[G->nk++] = i;
		if (scalar) {
			G->vals[i].i = (int64_t)json_num(json_get(arg, "value"), 0);
			continue;
		}
		G->sizes[i] = golden_numel(json_get(arg, "shape"));
		G->vals[i].ptr = base_malloc((size_t)(G->sizes[i] * dtype_bytes(t)) + 1);
	}
	Json *cx = json_get(G->g, "constexprs");
	const char *defines[8];
	int ndef = 0;
	for (int i = 0; cx && i < cx->len && ndef < 8; i++)
		defines[ndef++] = arena_printf(&G->a, "%s=%lld", cx->keys[i], (long long)json_num(cx->items[i], 0));
	SpecOptions opt = {.signature = arena_strdup(&G->a, buf_str(&sig)), .defines = defines, .ndefines = ndef,
			   .num_warps = (int)json_num(json_get(G->g, "num_warps"), 4)};
	buf_free(&sig);
	G->tk = spec_kernel(&G->a, &G->diag, G->k, &opt);
	if (!G->tk)
		return "specialization failed";
	G->atomics = golden_has_atomics(G->tk->body);
	for (int i = 0; i < 3; i++)
		G->grid[i] = (int)json_num(json_at(json_get(G->g, "grid"), i), 1);
	golden_fill(G);
	return NULL;
}

/* The kernel's arguments in its own order (constexprs are not passed). */
static TArgValue *golden_kernel_args(const Golden *G)
{
	TArgValue *kv = base_calloc((size_t)G->nk + 1, sizeof *kv);
	for (int i = 0; i < G->nk; i++)
		kv[i] = G->vals[G->kargs[i]];
	return kv;
}

static int golden_arg_named(const Golden *G, const char *name)
{
	for (int i = 0; i < G->nargs; i++)
		if (!strcmp(json_str(json_get(json_at(G->args, i), "name"), ""), name))
			return i;
	return -1;
}

/* The tolerance: fp32 1e-5 and fp64 1e-9 relative, fp16/bf16 1e-2,
 * integers and bools exact. */
static double golden_tolerance(DType dt)
{
	return dt == DT_F32 ? 1e-5 : dt == DT_F64 ? 1e-9 : dtype_is_float(dt) ? 1e-2 : 0;
}

/* Compares every output at its positions, skipping those for which
 * `skip(G, output's argument, position, ctx)` is true (their program did not
 * run; NULL: none skipped). Errors are relative to
 * each value or to the outputs' RMS for values near zero (sums that
 * cancel), whichever is larger; NaN where Triton has a number fails, NaN
 * where Triton has NaN passes. `label` prefixes the printed errors. */
static const char *golden_compare(const Golden *G, const char *label, bool (*skip)(const Golden *, int, int64_t, void *),
				  void *ctx, char *why, size_t whylen)
{
	for (int o = 0; G->outs && o < G->outs->len; o++) {
		int ai = golden_arg_named(G, G->outs->keys[o]);
		Json *pos = json_get(G->outs->items[o], "positions"), *want = json_get(G->outs->items[o], "values");
		if (ai < 0 || !G->vals[ai].ptr || !pos || !want || pos->len != want->len || pos->len == 0)
			return "malformed outputs";
		double rms = 0;
		for (int p = 0; p < want->len; p++) {
			double w = json_num(json_at(want, p), 0);
			rms += isfinite(w) ? w * w : 0;
		}
		rms = fmax(sqrt(rms / want->len), 1e-6);
		double worst = 0;
		int checked = 0;
		int64_t worst_at = -1;
		for (int p = 0; p < pos->len; p++) {
			int64_t at = (int64_t)json_num(json_at(pos, p), 0);
			if (at < 0 || at >= G->sizes[ai])
				return "a position lies outside its buffer";
			if (skip && skip(G, ai, at, ctx))
				continue;
			checked++;
			Json *wj = json_at(want, p);
			double got = run_element(G->vals[ai].ptr, G->dts[ai], (size_t)at);
			double w = wj && wj->kind == JSON_NUMBER ? wj->number : NAN;
			double e;
			if (isnan(w) || isnan(got))
				e = isnan(w) && isnan(got) ? 0 : INFINITY;
			else if (isinf(w) || isinf(got))
				e = w == got ? 0 : INFINITY;
			else
				e = fabs(got - w) / fmax(fabs(w), rms);
			if (e > worst || (e == worst && worst_at < 0)) {
				worst = e;
				worst_at = at;
			}
		}
		printf("# %s.%s: max relative error %.3g at %d positions\n", label, G->outs->keys[o], worst, checked);
		if (!(worst <= golden_tolerance(G->dts[ai]))) {
			snprintf(why, whylen, "%s: max relative error %.3g at position %lld over tolerance %g",
				 G->outs->keys[o], worst, (long long)worst_at, golden_tolerance(G->dts[ai]));
			return why;
		}
	}
	return NULL;
}

#endif
