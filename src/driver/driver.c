/* driver.c: the pipeline, stage by stage (driver_compile), and the text of
 * each stage for --dump. */
#include "driver/driver.h"

#include "emit/emit.h"
#include "ir/heuristics.h"
#include "ir/specialize.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

static const char *const stage_names[STAGE_COUNT] = {
	[STAGE_KERNELS] = "kernels", [STAGE_AST] = "ast", [STAGE_TIR] = "tir", [STAGE_PASSES] = "passes",
	[STAGE_PLAN] = "plan", [STAGE_SIMT] = "simt", [STAGE_CODE] = "code",
};

const char *driver_stage_name(Stage s)
{
	return s < STAGE_COUNT ? stage_names[s] : NULL;
}

Stage driver_stage_parse(const char *name, size_t len)
{
	for (int s = 0; s < STAGE_COUNT; s++)
		if (strlen(stage_names[s]) == len && !strncmp(stage_names[s], name, len))
			return (Stage)s;
	return STAGE_COUNT;
}

bool driver_parse_dump(const char *list, unsigned *mask, char *err, size_t errlen)
{
	*mask = 0;
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");
		Stage s = driver_stage_parse(p, len);
		if (s == STAGE_COUNT) {
			snprintf(err, errlen, "unknown --dump stage '%.*s' (expected kernels, ast, tir, passes, plan, simt or code)",
				 (int)len, p);
			return false;
		}
		*mask |= 1u << s;
		p += len;
		if (!*p)
			return true;
	}
}

/* ---- the stages ---- */

static void print_dict(Buf *b, const Node *dict)
{
	for (int i = 0; dict && i < dict->items.len; i++) {
		const Node *k = dict->items.items[i], *v = dict->values.items[i];
		if (k && k->kind == ND_STR)
			buf_printf(b, "%s%s=", i ? ", " : "", k->str);
		if (v->kind == ND_INT)
			buf_printf(b, "%lld", (long long)v->ival);
		else if (v->kind == ND_STR)
			buf_printf(b, "%s", v->str);
		else
			buf_puts(b, "...");
	}
}

void driver_list_kernels(Buf *b, const Source *src, const KernelList *kl)
{
	Arena a = {0};
	LineTable *lines = NULL;   /* of the last kernel's source: a rescan per kernel was quadratic */
	for (int i = 0; i < kl->len; i++) {
		const Kernel *k = kl->items[i];
		int line, col;
		if (!lines || lines->src != k->src)
			lines = base_line_table(&a, k->src);
		base_line_table_linecol(lines, k->func->offset, &line, &col);
		buf_printf(b, "%s  (%s:%d, %s)\n", k->name, src->name, line, discover_decor_name(k->decor));
		for (int p = 0; p < k->func->params.len; p++) {
			const Node *param = k->func->params.items[p];
			const char *ty = discover_sig_type(k, param->name);
			bool cx = param->lhs && param->lhs->kind == ND_ATTR && !strcmp(param->lhs->name, "constexpr");
			buf_printf(b, "    %-12s %s\n", param->name, ty ? ty : cx ? "constexpr" : "?");
		}
		if (k->size_hints) {
			buf_puts(b, "    size_hints: ");
			print_dict(b, k->size_hints);
			buf_putc(b, '\n');
		}
	}
	if (kl->len == 0)
		buf_printf(b, "no kernels in %s\n", src->name);
	arena_free(&a);
}

/* The kernel named by opt.kernel, or the only one. */
static const Kernel *pick(Driver *d)
{
	const KernelList *kl = &d->kernels;
	const char *name = d->opt.kernel;
	for (int i = 0; i < kl->len; i++)
		if (name ? !strcmp(kl->items[i]->name, name) : kl->len == 1)
			return kl->items[i];
	if (name)
		diag_plain(d->diag, DIAG_ERROR, "no kernel '%s' in %s", name, d->src->name);
	else if (kl->len == 0)
		diag_plain(d->diag, DIAG_ERROR, "%s has no @triton.jit kernel", d->src->name);
	else
		diag_plain(d->diag, DIAG_ERROR, "%s has %d kernels; choose one by name (-k NAME)", d->src->name, kl->len);
	return NULL;
}

/* Block sizes and warps for an Inductor kernel given none (heuristics.c),
 * each said as a note so the choice is never silent. */
static void apply_defaults(Driver *d)
{
	const Kernel *k = d->kernel;
	BlockDefaults dflt = inductor_block_defaults(k, d->opt.defines, d->opt.ndefines);
	d->defines = arena_alloc(d->arena, sizeof *d->defines * (size_t)(d->opt.ndefines + dflt.count + 1));
	for (int i = 0; i < d->opt.ndefines; i++)
		d->defines[d->ndefines++] = d->opt.defines[i];
	for (int i = 0; i < dflt.count; i++) {
		const char *text = arena_strdup(d->arena, dflt.text[i]);
		d->defines[d->ndefines++] = text;
		int namelen = (int)(strchr(text, '=') - text);
		buf_printf(&d->notes, "%s: no -D %.*s given, using %s\n", k->name, namelen, text, text);
		diag_plain(d->diag, DIAG_NOTE, "%s: no -D %.*s given, using %s", k->name, namelen, text, text);
	}
	d->num_warps = d->opt.num_warps > 0 ? d->opt.num_warps : 4;
	if (dflt.num_warps && d->opt.num_warps <= 0 && dflt.count) {
		d->num_warps = dflt.num_warps;
		buf_printf(&d->notes, "%s: using %d warps\n", k->name, d->num_warps);
		diag_plain(d->diag, DIAG_NOTE, "%s: using %d warps", k->name, d->num_warps);
	}
}

/* "*fp32:16,i32:16,i32" -> "*fp32,i32,i32" and a hint for each entry, as
 * Triton's tt.divisibility: the argument (bytes for pointers) is a
 * multiple of 16. */
static bool strip_hints(Driver *d)
{
	const char *sig = d->opt.signature;
	if (!sig)
		return true;
	d->nhints = spec_signature_args(sig);
	d->hints = arena_alloc(d->arena, sizeof *d->hints * (size_t)(d->nhints + 1));
	char *out = arena_alloc(d->arena, strlen(sig) + 1);
	SigEntry bad;
	if (!spec_strip_hints(sig, out, d->hints, &bad)) {
		diag_plain(d->diag, DIAG_ERROR, "signature entry %d '%.*s': a hint must be ':16' (divisible by 16)", bad.number,
			   bad.len, bad.text);
		return false;
	}
	d->signature = out;
	return true;
}

/* What divides each argument: 16 bytes for pointers, as Triton assumes of
 * the tensors it is given; the signature's hints for the others; then what
 * the caller knows of the values (opt.bind). */
static bool divisibility(Driver *d)
{
	const TKernel *tk = d->tir;
	d->arg_div = arena_alloc(d->arena, sizeof *d->arg_div * (size_t)(tk->nargs + 1));
	for (int i = 0; i < tk->nargs; i++) {
		bool ptr = tk->args[i]->type.dtype == DT_PTR;
		int64_t hint = i < d->nhints && d->hints[i] ? d->hints[i] : 0;
		if (ptr && !d->opt.pointer_hints)
			d->arg_div[i] = 16;
		else if (hint)
			d->arg_div[i] = hint;
		else   /* an unhinted pointer is aligned to its element, as any buffer of them is */
			d->arg_div[i] = ptr ? dtype_bytes(tk->args[i]->type.elem) : 1;
	}
	return !d->opt.bind || d->opt.bind(d->opt.ctx, d->kernel, tk, d->arg_div);
}

void driver_passes(Arena *a, TKernel *tk, const int64_t *div)
{
	if (!div) {
		int64_t *dflt = arena_alloc(a, sizeof *dflt * (size_t)(tk->nargs + 1));
		for (int i = 0; i < tk->nargs; i++)
			dflt[i] = tk->args[i]->type.dtype == DT_PTR ? 16 : 1;
		div = dflt;
	}
	tir_combine_dot_add(tk);
	tir_dce(tk);
	tir_axis_analysis(tk, div);
}

static bool want(const Driver *d, Stage s)
{
	return d->opt.keep & (1u << s);
}

/* Marks stage s made; true when a later one was asked for. */
static bool more(Driver *d, Stage s)
{
	d->have[s] = true;
	return s < d->opt.last;
}

static bool compile_stages(Driver *d, Arena *trees)
{
	bool interp = d->opt.target.kind == TARGET_INTERP;
	if (interp && (want(d, STAGE_PASSES) || want(d, STAGE_PLAN) || want(d, STAGE_SIMT))) {
		diag_plain(d->diag, DIAG_ERROR, "the interp target runs the tile IR: it has no passes, plan or simt stage");
		return false;
	}

	/* discover */
	if (discover_kernels_in(d->arena, trees, d->diag, d->src, &d->kernels) < 0)
		return false;
	if (want(d, STAGE_KERNELS))
		driver_list_kernels(&d->text[STAGE_KERNELS], d->src, &d->kernels);
	if (!more(d, STAGE_KERNELS))
		return true;

	/* pick */
	if (!(d->kernel = pick(d)))
		return false;
	if (want(d, STAGE_AST))
		ast_dump(&d->text[STAGE_AST], d->kernel->func);
	if (!more(d, STAGE_AST))
		return true;

	/* defaults, then specialize */
	apply_defaults(d);
	if (!strip_hints(d))
		return false;
	SpecOptions spec = {.signature = d->signature, .defines = d->defines, .ndefines = d->ndefines,
			    .num_warps = d->num_warps, .num_stages = d->opt.num_stages};
	if (!(d->tir = spec_kernel(d->arena, d->diag, d->kernel, &spec)))
		return false;
	if (want(d, STAGE_TIR) || interp)
		tir_dump(&d->text[STAGE_TIR], d->tir);
	if (interp) {   /* what the interpreter runs is the tile IR itself: its code */
		buf_puts(&d->text[STAGE_CODE], buf_str(&d->text[STAGE_TIR]));
		more(d, STAGE_TIR);
		more(d, STAGE_CODE);
		return true;
	}
	if (!more(d, STAGE_TIR))
		return true;

	/* tile-IR passes */
	if (!divisibility(d))
		return false;
	driver_passes(d->arena, d->tir, d->arg_div);
	if (want(d, STAGE_PASSES))
		tir_dump_axis(&d->text[STAGE_PASSES], d->tir);
	if (!more(d, STAGE_PASSES))
		return true;

	/* Nothing after this reads the trees (the tile IR holds copies of the
	 * names): a long kernel's 100 MB of nodes are already-touched memory
	 * for the plan and the SIMT statements. */
	const Source *src = d->kernel->src;
	if (d->opt.drop_trees) {
		arena_recycle(d->arena, trees);
		d->kernels = (KernelList){0};
		d->kernel = NULL;
	}

	/* plan: frames, layouts, matrix units, pipelines */
	if (!(d->plan = simt_plan(d->arena, d->diag, src, d->tir, &d->opt.target)))
		return false;
	if (want(d, STAGE_PLAN))
		plan_dump(&d->text[STAGE_PLAN], d->plan);
	if (!more(d, STAGE_PLAN))
		return true;

	/* emit SIMT by the plan, then give the shared arrays their bytes */
	if (!(d->simt = simt_emit(d->arena, d->diag, src, d->plan)) || !simt_allocate(d->diag, d->simt))
		return false;
	if (want(d, STAGE_SIMT))
		simt_dump(&d->text[STAGE_SIMT], d->simt);
	if (!more(d, STAGE_SIMT))
		return true;

	/* print */
	if (want(d, STAGE_CODE))
		emit_kernel(&d->text[STAGE_CODE], d->simt);
	more(d, STAGE_CODE);
	return true;
}

bool driver_compile(Driver *d)
{
	/* held in the compile's arena, which takes its blocks at the end
	 * (what drop_trees did not give away is freed with it) */
	Arena *trees = arena_alloc(d->arena, sizeof *trees);
	bool ok = compile_stages(d, trees);
	arena_adopt(d->arena, trees);
	return ok;
}

void driver_free(Driver *d)
{
	buf_free(&d->notes);
	for (int s = 0; s < STAGE_COUNT; s++)
		buf_free(&d->text[s]);
}

void driver_dump_text(Driver *d, unsigned mask, Buf *out)
{
	bool several = mask & (mask - 1);
	for (int s = 0; s < STAGE_COUNT; s++) {
		if (!(mask & (1u << s)) || !d->have[s])
			continue;
		if (!several && !out->data) {   /* one stage: its text moves, not a copy of megabytes */
			*out = d->text[s];
			d->text[s] = (Buf){0};
			continue;
		}
		if (several)
			buf_printf(out, "// ---- %s ----\n", stage_names[s]);
		buf_puts(out, buf_str(&d->text[s]));
	}
}
