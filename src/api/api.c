/* api.c: the library entry points of include/tritonc.h, through the same
 * driver as `tritonc compile` (src/driver/driver.c). */
#include "tritonc.h"

#include "driver/driver.h"

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

typedef struct Param {
	char *name, *type, *value;   /* value: a constant's, else NULL */
	bool constant;
	int index;                   /* among the launch's arguments; -1: a constant */
	long long divisibility;
} Param;

struct tritonc_result {
	char *stage[STAGE_COUNT];    /* NULL: no text */
	char *notes, *name, *symbol, *target;
	int warp_size, num_warps, threads, dynamic_bytes, shared_bytes;
	Param *params;
	int nparams;
};

/* Every stage with a text, for tritonc_compile_kernel. */
#define ALL_STAGES ((1u << STAGE_COUNT) - 1)

/* Runs the driver on `source` for `options`, keeping the stages of
 * `keep` and stopping after `last`; the messages go to *diagnostics. The
 * caller reads `d` and then calls finish. */
static bool start(Driver *d, Arena *a, Diag *diag, Source *src, const char *source, const char *filename,
		  const tritonc_options *options, unsigned keep, Stage last, bool drop_trees)
{
	tritonc_options o = options ? *options : (tritonc_options){0};
	*src = (Source){.name = filename ? filename : "<source>", .text = source, .len = source ? strlen(source) : 0};
	*d = (Driver){.arena = a, .diag = diag, .src = src};
	d->opt = (DriverOptions){.kernel = o.kernel, .signature = o.signature, .defines = o.defines,
				 .ndefines = o.ndefines, .num_warps = o.num_warps, .num_stages = o.num_stages,
				 .keep = keep, .last = last, .pointer_hints = o.pointer_hints != 0, .drop_trees = drop_trees};
	char err[200];
	if (!source) {
		diag_plain(diag, DIAG_ERROR, "no source");
		return false;
	}
	if (!target_parse(o.target ? o.target : "cuda:sm_90", &d->opt.target, err, sizeof err)) {
		diag_plain(diag, DIAG_ERROR, "%s", err);
		return false;
	}
	if (d->opt.target.kind == TARGET_INTERP && keep == ALL_STAGES)   /* it has no passes, plan or SIMT */
		d->opt.keep &= ~(1u << STAGE_PASSES | 1u << STAGE_PLAN | 1u << STAGE_SIMT);
	return driver_compile(d);
}

static void finish(Driver *d, Arena *a, Diag *diag, char **diagnostics)
{
	if (diagnostics)
		*diagnostics = diag->text.len ? buf_detach(&diag->text) : NULL;
	buf_free(&diag->text);
	driver_free(d);
	arena_free(a);
}

static char *compile_here(const char *source, const char *filename, const tritonc_options *options,
			  char **diagnostics)
{
	Arena a = {0};
	Diag diag = {0};
	Source src;
	Driver d;
	unsigned mask = 1u << STAGE_CODE;
	char err[200];
	char *result = NULL;
	bool ok;
	if (options && options->dump && !driver_parse_dump(options->dump, &mask, err, sizeof err)) {
		diag_plain(&diag, DIAG_ERROR, "%s", err);
		d = (Driver){0};
		ok = false;
	} else {
		Stage last = STAGE_KERNELS;
		for (int s = 0; s < STAGE_COUNT; s++)
			if (mask & (1u << s))
				last = (Stage)s;
		ok = start(&d, &a, &diag, &src, source, filename, options, mask, last, true);   /* the texts alone are read */
	}
	if (ok) {
		Buf b = {0};
		driver_dump_text(&d, mask, &b);
		result = buf_detach(&b);
	}
	finish(&d, &a, &diag, diagnostics);
	return result;
}

/* ---- tritonc_result ---- */

/* A constant parameter's value as written: -D or a default first, then
 * Inductor's constants, then the parameter's default. */
static char *constant_text(const Driver *d, const Node *param)
{
	size_t n = strlen(param->name);
	for (int i = 0; i < d->ndefines; i++)
		if (!strncmp(d->defines[i], param->name, n) && d->defines[i][n] == '=')
			return base_strdup(d->defines[i] + n + 1);
	const Node *v = ast_dict_get(ast_dict_get(d->kernel->triton_meta, "constants"), param->name);
	if (!v)
		v = param->rhs;
	char buf[64];
	if (!v)
		return base_strdup("?");
	switch (v->kind) {
	case ND_INT: snprintf(buf, sizeof buf, "%lld", (long long)v->ival); break;
	case ND_FLOAT: snprintf(buf, sizeof buf, "%.17g", v->fval); break;
	case ND_TRUE: return base_strdup("True");
	case ND_FALSE: return base_strdup("False");
	case ND_NONE: return base_strdup("None");
	case ND_STR: return base_strdup(v->str);
	default: return base_strdup("?");
	}
	return base_strdup(buf);
}

static void fill_params(tritonc_result *r, const Driver *d)
{
	const Node *f = d->kernel->func;
	r->params = base_calloc((size_t)f->params.len + 1, sizeof *r->params);
	for (int p = 0; p < f->params.len; p++) {
		const Node *param = f->params.items[p];
		Param *out = &r->params[r->nparams++];
		out->name = base_strdup(param->name);
		out->index = -1;
		for (int i = 0; i < d->tir->nargs; i++) {
			const TValue *a = d->tir->args[i];
			if (strcmp(a->name, param->name))
				continue;
			Buf b = {0};
			tir_format_type(&b, &a->type);
			out->type = buf_detach(&b);
			out->index = i;
			out->divisibility = d->arg_div ? d->arg_div[i] : a->type.dtype == DT_PTR ? 16 : 1;
		}
		if (out->index < 0) {
			out->constant = true;
			out->type = base_strdup("constexpr");
			out->value = constant_text(d, param);
		}
	}
}

static tritonc_result *compile_kernel_here(const char *source, const char *filename, const tritonc_options *options,
					   char **diagnostics)
{
	Arena a = {0};
	Diag diag = {0};
	Source src;
	Driver d;
	unsigned keep = ALL_STAGES;
	tritonc_result *r = NULL;
	if (start(&d, &a, &diag, &src, source, filename, options, keep, STAGE_CODE, false)) {
		r = base_calloc(1, sizeof *r);
		for (int s = 0; s < STAGE_COUNT; s++)
			if (d.have[s])
				r->stage[s] = base_strdup(buf_str(&d.text[s]));
		r->notes = base_strdup(buf_str(&d.notes));
		r->name = base_strdup(d.kernel->name);
		r->target = base_strdup(d.opt.target.spec);
		r->warp_size = d.opt.target.warp_size;
		r->num_warps = d.tir->num_warps;
		if (d.simt) {
			size_t n = strlen(d.simt->name) + 8;
			r->symbol = base_malloc(n);
			snprintf(r->symbol, n, "%s%s", d.simt->name, d.opt.target.kind == TARGET_C ? "_launch" : "");
			r->warp_size = d.simt->warp_size;
			r->num_warps = d.simt->num_warps;
			r->threads = d.simt->threads;
			r->dynamic_bytes = d.simt->dynamic_bytes;
			r->shared_bytes = d.simt->shared_bytes;
		}
		fill_params(r, &d);
	}
	finish(&d, &a, &diag, diagnostics);
	return r;
}

void tritonc_result_free(tritonc_result *r)
{
	if (!r)
		return;
	for (int s = 0; s < STAGE_COUNT; s++)
		free(r->stage[s]);
	for (int i = 0; i < r->nparams; i++) {
		free(r->params[i].name);
		free(r->params[i].type);
		free(r->params[i].value);
	}
	free(r->params);
	free(r->notes);
	free(r->name);
	free(r->symbol);
	free(r->target);
	free(r);
}

const char *tritonc_result_stage(const tritonc_result *r, const char *stage)
{
	Stage s = r && stage ? driver_stage_parse(stage, strlen(stage)) : STAGE_COUNT;
	return s < STAGE_COUNT ? r->stage[s] : NULL;
}

const char *tritonc_result_code(const tritonc_result *r) { return r ? r->stage[STAGE_CODE] : NULL; }
const char *tritonc_result_tir(const tritonc_result *r) { return r ? r->stage[STAGE_TIR] : NULL; }
const char *tritonc_result_simt(const tritonc_result *r) { return r ? r->stage[STAGE_SIMT] : NULL; }
const char *tritonc_result_notes(const tritonc_result *r) { return r ? r->notes : NULL; }
const char *tritonc_result_name(const tritonc_result *r) { return r ? r->name : NULL; }
const char *tritonc_result_symbol(const tritonc_result *r) { return r ? r->symbol : NULL; }
const char *tritonc_result_target(const tritonc_result *r) { return r ? r->target : NULL; }
int tritonc_result_warp_size(const tritonc_result *r) { return r ? r->warp_size : 0; }
int tritonc_result_num_warps(const tritonc_result *r) { return r ? r->num_warps : 0; }
int tritonc_result_threads(const tritonc_result *r) { return r ? r->threads : 0; }
int tritonc_result_dynamic_shared_bytes(const tritonc_result *r) { return r ? r->dynamic_bytes : 0; }
int tritonc_result_shared_bytes(const tritonc_result *r) { return r ? r->shared_bytes : 0; }
int tritonc_result_num_params(const tritonc_result *r) { return r ? r->nparams : 0; }

static const Param *param(const tritonc_result *r, int i)
{
	return r && i >= 0 && i < r->nparams ? &r->params[i] : NULL;
}

const char *tritonc_result_param_name(const tritonc_result *r, int i)
{
	const Param *p = param(r, i);
	return p ? p->name : NULL;
}

const char *tritonc_result_param_type(const tritonc_result *r, int i)
{
	const Param *p = param(r, i);
	return p ? p->type : NULL;
}

int tritonc_result_param_is_constant(const tritonc_result *r, int i)
{
	const Param *p = param(r, i);
	return p && p->constant;
}

const char *tritonc_result_param_value(const tritonc_result *r, int i)
{
	const Param *p = param(r, i);
	return p ? p->value : NULL;
}

int tritonc_result_param_index(const tritonc_result *r, int i)
{
	const Param *p = param(r, i);
	return p ? p->index : -1;
}

long long tritonc_result_param_divisibility(const tritonc_result *r, int i)
{
	const Param *p = param(r, i);
	return p ? p->divisibility : 0;
}

/* Both entry points compile on a thread with a big stack: deep expressions
 * never overflow the caller's. */
typedef struct CompileCall {
	const char *source, *filename;
	const tritonc_options *options;
	char **diagnostics;
	char *text;
	tritonc_result *result;
} CompileCall;

static int compile_on_stack(void *p)
{
	CompileCall *c = p;
	c->text = compile_here(c->source, c->filename, c->options, c->diagnostics);
	return 0;
}

static int compile_kernel_on_stack(void *p)
{
	CompileCall *c = p;
	c->result = compile_kernel_here(c->source, c->filename, c->options, c->diagnostics);
	return 0;
}

char *tritonc_compile(const char *source, const char *filename, const tritonc_options *options,
		      char **diagnostics)
{
	CompileCall c = {source, filename, options, diagnostics, NULL, NULL};
	base_run_on_big_stack(compile_on_stack, &c);
	return c.text;
}

tritonc_result *tritonc_compile_kernel(const char *source, const char *filename, const tritonc_options *options,
				       char **diagnostics)
{
	CompileCall c = {source, filename, options, diagnostics, NULL, NULL};
	base_run_on_big_stack(compile_kernel_on_stack, &c);
	return c.result;
}
