/* compile.c: the one place where the export calls the compiler's stages
 * (through the driver, src/driver/driver.c, up to the SIMT IR), then prints
 * the code under the variant's own name. */
#include "export/internal.h"

#include "driver/driver.h"
#include "emit/emit.h"
#include "gpu/simt.h"
#include "ir/heuristics.h"
#include "ir/specialize.h"
#include "triton/triton.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	/* the driver's stages up to SIMT: -D, then the block sizes an Inductor
	 * kernel needs and none gives (as notes, when asked for); a pointer is
	 * 16-byte aligned only where hinted, since the caller's buffers may
	 * start anywhere (the dispatch checks the hinted ones) */
	Diag quiet = {0};
	Driver dr = {.arena = a, .diag = notes ? d : &quiet, .src = src};
	dr.opt = (DriverOptions){.kernel = kernel, .signature = spec->signature[0] ? spec->signature : NULL,
				 .defines = (const char *const *)spec->defines, .ndefines = spec->ndefines,
				 .num_warps = spec->num_warps, .num_stages = spec->num_stages, .target = *target,
				 .last = STAGE_SIMT, .pointer_hints = true};
	dr.opt.target.no_tensor_maps = true;   /* the exported launchers encode none (yet) */
	bool ok = driver_compile(&dr);
	driver_free(&dr);
	if (!notes) {
		d->errors += quiet.errors;
		if (quiet.errors)
			buf_puts(&d->text, buf_str(&quiet.text));
		if (quiet.errors && d->out)
			fputs(buf_str(&quiet.text), d->out);
		buf_free(&quiet.text);
	}
	if (!ok)
		return NULL;
	const Kernel *k = dr.kernel;
	TKernel *tk = dr.tir;
	SKernel *sk = dr.simt;
	int64_t *hints = dr.hints;
	const char **defines = dr.defines;
	if (sk->ntmaps) {   /* not asked for (no_tensor_maps): the launchers would pass too few parameters */
		diag_plain(d, DIAG_ERROR, "%s: kernel '%s' was lowered to the bulk tensor copy engine, whose tensor maps "
			   "exported launchers do not pass", spec->file, kernel);
		return NULL;
	}
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
		a16[i] = hints && i < dr.nhints && hints[i] == 16;
	}
	*info = (ExLowered){.param_names = pn, .param_constexpr = pc, .nparams = np, .arg_names = an,
			    .arg_types = at, .arg_div16 = a16, .nargs = tk->nargs, .defines = defines, .ndefines = dr.ndefines,
			    .split_scan = inductor_split_scan_grid(k),
			    .inductor_grid = has_param(k, "xnumel") && has_param(k, "XBLOCK"),
			    .has_ynumel = has_param(k, "ynumel") && has_param(k, "YBLOCK")};
	return code;
}
