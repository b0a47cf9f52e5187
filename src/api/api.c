/* api.c: the library entry points of include/tritonc.h, the same stages as
 * `tritonc compile`. */
#include "tritonc.h"

#include "emit/emit.h"
#include "gpu/simt.h"
#include "ir/heuristics.h"
#include "ir/specialize.h"
#include "triton/triton.h"

#include <stdlib.h>
#include <string.h>

const char *tritonc_version(void)
{
	return "0.1";
}

void tritonc_free(void *p)
{
	free(p);
}

static const Kernel *find_kernel(const KernelList *kl, const char *name, Diag *d)
{
	for (int i = 0; i < kl->len; i++)
		if (name ? !strcmp(kl->items[i]->name, name) : kl->len == 1)
			return kl->items[i];
	if (name)
		diag_plain(d, DIAG_ERROR, "no kernel '%s' in the source", name);
	else if (kl->len == 0)
		diag_plain(d, DIAG_ERROR, "the source has no @triton.jit kernel");
	else
		diag_plain(d, DIAG_ERROR, "the source has %d kernels; name one", kl->len);
	return NULL;
}

/* The signature without its ":16" hints, which go to div. */
static const char *strip_hints(Arena *a, const char *sig, int64_t *div, int max, Diag *d)
{
	if (!sig)
		return NULL;
	char *out = arena_strdup(a, sig);
	if (spec_strip_hints(sig, out, div, max))
		return out;
	diag_plain(d, DIAG_ERROR, "a signature hint must be ':16' (divisible by 16)");
	return NULL;
}

static char *compile_here(const char *source, const char *filename, const tritonc_options *options,
			  char **diagnostics)
{
	tritonc_options o = options ? *options : (tritonc_options){0};
	Arena a = {0};
	Diag d = {0};
	char *result = NULL;
	Source src = {.name = filename ? filename : "<source>", .text = source, .len = source ? strlen(source) : 0};
	Target target;
	char err[200];
	int64_t hints[64] = {0};
	KernelList kl = {0};
	if (!source)
		diag_plain(&d, DIAG_ERROR, "no source");
	else if (!target_parse(o.target ? o.target : "cuda:sm_90", &target, err, sizeof err))
		diag_plain(&d, DIAG_ERROR, "%s", err);
	else if (discover_kernels(&a, &d, &src, &kl) >= 0) {
		const Kernel *k = find_kernel(&kl, o.kernel, &d);
		SpecOptions spec = {.signature = strip_hints(&a, o.signature, hints, 64, &d),
				    .defines = (const char **)o.defines, .ndefines = o.ndefines,
				    .num_warps = o.num_warps > 0 ? o.num_warps : 4, .num_stages = o.num_stages};
		BlockDefaults dflt = {0};
		if (k) {   /* an Inductor kernel's block sizes, where none are given */
			dflt = inductor_block_defaults(k, o.defines, o.ndefines);
			const char **all = arena_alloc(&a, sizeof *all * (size_t)(o.ndefines + dflt.count + 1));
			for (int i = 0; i < o.ndefines; i++)
				all[i] = o.defines[i];
			for (int i = 0; i < dflt.count; i++)
				all[o.ndefines + i] = dflt.text[i];
			spec.defines = all;
			spec.ndefines = o.ndefines + dflt.count;
			if (dflt.count && dflt.num_warps && o.num_warps <= 0)
				spec.num_warps = dflt.num_warps;
		}
		TKernel *tk = k && !d.errors ? specialize(&a, &d, k, &spec) : NULL;
		bool tile_only = tk && (target.kind == TARGET_INTERP || (o.dump && !strcmp(o.dump, "tir")));
		int64_t *div = tk ? arena_alloc(&a, sizeof(int64_t) * (size_t)(tk->nargs + 1)) : NULL;
		for (int i = 0; tk && i < tk->nargs; i++)
			div[i] = tk->args[i]->type.dtype == DT_PTR ? 16 : i < 64 && hints[i] ? hints[i] : 1;
		SKernel *sk = tk && !tile_only ? simt_lower(&a, &d, k->src, tk, &target, div) : NULL;
		Buf b = {0};
		if (tile_only)
			tir_dump(&b, tk);
		else if (sk && o.dump)
			simt_dump(&b, sk);
		else if (sk)
			emit_kernel(&b, sk);
		if (tile_only || sk)
			result = buf_detach(&b);
	}
	if (diagnostics)
		*diagnostics = d.text.len ? buf_detach(&d.text) : NULL;
	buf_free(&d.text);
	arena_free(&a);
	return result;
}

typedef struct CompileCall {
	const char *source, *filename;
	const tritonc_options *options;
	char **diagnostics;
	char *result;
} CompileCall;

static int compile_on_stack(void *p)
{
	CompileCall *c = p;
	c->result = compile_here(c->source, c->filename, c->options, c->diagnostics);
	return 0;
}

/* On a thread with a big stack: deep expressions never overflow the caller's. */
char *tritonc_compile(const char *source, const char *filename, const tritonc_options *options,
		      char **diagnostics)
{
	CompileCall c = {source, filename, options, diagnostics, NULL};
	run_on_big_stack(compile_on_stack, &c);
	return c.result;
}
