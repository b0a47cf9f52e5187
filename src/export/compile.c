/* compile.c: the one place where the export calls the compiler's stages
 * (discover, defaults, specialize, lower, emit), so that it follows the
 * compiler's driver when that changes. */
#include "export/internal.h"

#include "emit/emit.h"
#include "gpu/simt.h"
#include "ir/heuristics.h"
#include "ir/specialize.h"
#include "triton/triton.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const Kernel *find_kernel(Diag *d, const KernelList *kl, const char *name, const char *file)
{
	for (int i = 0; i < kl->len; i++)
		if (name ? !strcmp(kl->items[i]->name, name) : kl->len == 1)
			return kl->items[i];
	if (name)
		diag_plain(d, DIAG_ERROR, "no kernel '%s' in %s", name, file);
	else
		diag_plain(d, DIAG_ERROR, "%s has %d kernels; choose one with -k", file, kl->len);
	return NULL;
}

static bool is_constexpr(const Node *param)
{
	return param->lhs && param->lhs->kind == ND_ATTR && !strcmp(param->lhs->name, "constexpr");
}

static bool has_param(const Kernel *k, const char *name)
{
	for (int p = 0; p < k->func->params.len; p++)
		if (!strcmp(k->func->params.items[p]->name, name))
			return true;
	return false;
}

ExCode *export_compile(Arena *a, Diag *d, const ExSpec *spec, const char *kernel, const Target *target,
		       const char *fn, bool notes, ExLowered *info)
{
	size_t len;
	char *text = file_read(spec->file, &len);
	if (!text) {
		diag_plain(d, DIAG_ERROR, "cannot read '%s': %s", spec->file, strerror(errno));
		return NULL;
	}
	char *kept = arena_strndup(a, text, len);   /* the source lives as long as the arena */
	free(text);
	Source *src = arena_alloc(a, sizeof *src);
	*src = (Source){.name = arena_strdup(a, spec->file), .text = kept, .len = len};
	KernelList kl = {0};
	if (discover_kernels(a, d, src, &kl) < 0)
		return NULL;
	const Kernel *k = find_kernel(d, &kl, kernel, spec->file);
	if (!k)
		return NULL;

	/* -D, then the block sizes an Inductor kernel needs and none gives (as notes) */
	BlockDefaults dflt = inductor_block_defaults(k, (const char *const *)spec->defines, spec->ndefines);
	const char **defines = arena_alloc(a, sizeof *defines * (size_t)(spec->ndefines + dflt.count + 1));
	for (int i = 0; i < spec->ndefines; i++)
		defines[i] = spec->defines[i];
	for (int i = 0; i < dflt.count; i++) {
		defines[spec->ndefines + i] = arena_strdup(a, dflt.text[i]);
		if (notes)
			diag_plain(d, DIAG_NOTE, "%s: no -D given for it, using %s", k->name, dflt.text[i]);
	}
	SpecOptions so = {.defines = defines, .ndefines = spec->ndefines + dflt.count,
			  .num_warps = spec->num_warps ? spec->num_warps : 4, .num_stages = spec->num_stages};
	if (!spec->num_warps && dflt.count && dflt.num_warps)
		so.num_warps = dflt.num_warps;
	int64_t *hints = NULL;
	if (spec->signature[0]) {
		size_t n = strlen(spec->signature) + 1;
		char *stripped = arena_alloc(a, n);
		hints = arena_alloc(a, sizeof *hints * n);
		if (!spec_strip_hints(spec->signature, stripped, hints, (int)n)) {
			diag_plain(d, DIAG_ERROR, "a signature hint must be ':16' (divisible by 16)");
			return NULL;
		}
		so.signature = stripped;
	}
	TKernel *tk = specialize(a, d, k, &so);
	if (!tk)
		return NULL;
	/* What divides each argument: the hints; an unhinted pointer is only
	 * known to be aligned to its element, since the caller's buffers may
	 * start anywhere (the dispatch checks the hinted ones). */
	int64_t *div = arena_alloc(a, sizeof *div * (size_t)(tk->nargs + 1));
	for (int i = 0; i < tk->nargs; i++) {
		const Type *t = &tk->args[i]->type;
		bool hinted = hints && hints[i] == 16;
		div[i] = hinted ? 16 : t->dtype == DT_PTR ? dtype_bytes(t->elem) : 1;
	}
	SKernel *sk = simt_lower(a, d, k->src, tk, target, div);
	if (!sk)
		return NULL;
	sk->name = fn;
	Buf b = {0};
	emit_kernel(&b, sk);
	ExCode *code = arena_alloc(a, sizeof *code);
	code->target = *target;
	code->source = arena_strdup(a, buf_str(&b));
	code->threads = sk->threads;
	code->dynamic_bytes = sk->dynamic_bytes;
	buf_free(&b);

	int np = k->func->params.len;
	const char **pn = arena_alloc(a, sizeof *pn * (size_t)(np + 1));
	bool *pc = arena_alloc(a, sizeof *pc * (size_t)(np + 1));
	for (int p = 0; p < np; p++) {
		pn[p] = k->func->params.items[p]->name;
		pc[p] = is_constexpr(k->func->params.items[p]);
	}
	const char **an = arena_alloc(a, sizeof *an * (size_t)(tk->nargs + 1));
	Type *at = arena_alloc(a, sizeof *at * (size_t)(tk->nargs + 1));
	bool *a16 = arena_alloc(a, sizeof *a16 * (size_t)(tk->nargs + 1));
	for (int i = 0; i < tk->nargs; i++) {
		an[i] = tk->args[i]->name;
		at[i] = tk->args[i]->type;
		a16[i] = hints && hints[i] == 16;
	}
	*info = (ExLowered){.param_names = pn, .param_constexpr = pc, .nparams = np, .arg_names = an,
			    .arg_types = at, .arg_div16 = a16, .nargs = tk->nargs, .defines = defines, .ndefines = so.ndefines,
			    .split_scan = inductor_split_scan_grid(k),
			    .inductor_grid = has_param(k, "xnumel") && has_param(k, "XBLOCK"),
			    .has_ynumel = has_param(k, "ynumel") && has_param(k, "YBLOCK")};
	return code;
}
