/* export.c: one `tritonc export`: the variant list of the folder, every
 * variant lowered for every target, the launcher's parameters and the
 * dispatch order, then each target's files (docs/export.md). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "export/internal.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- NAME.variants: one line a variant, fields separated by tabs ---- */

static char *manifest_path(Arena *a, const char *dir, const char *name)
{
	return arena_printf(a, "%s/%s.variants", dir, name);
}

static void spec_write(Buf *b, const ExSpec *s)
{
	buf_printf(b, "file=%s\tsig=%s\tgrid=%s\twarps=%d\tstages=%d", s->file, s->signature, s->grid, s->num_warps,
		   s->num_stages);
	for (int i = 0; i < s->ndefines; i++)
		buf_printf(b, "\tD=%s", s->defines[i]);
	buf_putc(b, '\n');
}

/* Parses one line of NAME.variants; false when it is not one. */
static bool spec_parse(Arena *a, char *line, ExSpec *s)
{
	memset(s, 0, sizeof *s);
	int nfields = 1;
	for (char *c = line; *c; c++)
		nfields += *c == '\t';
	s->defines = arena_alloc(a, sizeof *s->defines * (size_t)nfields);
	for (char *field = strtok(line, "\t"); field; field = strtok(NULL, "\t")) {
		char *eq = strchr(field, '=');
		if (!eq)
			return false;
		*eq = '\0';
		char *v = arena_strdup(a, eq + 1);
		if (!strcmp(field, "file"))
			s->file = v;
		else if (!strcmp(field, "sig"))
			s->signature = v;
		else if (!strcmp(field, "grid"))
			s->grid = v;
		else if (!strcmp(field, "warps"))
			s->num_warps = atoi(v);
		else if (!strcmp(field, "stages"))
			s->num_stages = atoi(v);
		else if (!strcmp(field, "D"))
			s->defines[s->ndefines++] = v;
		else
			return false;
	}
	if (!s->signature)
		s->signature = "";
	if (!s->grid)
		s->grid = "";
	return s->file != NULL;
}

static bool same_spec(const ExSpec *x, const ExSpec *y)
{
	if (strcmp(x->file, y->file) || strcmp(x->signature, y->signature) || strcmp(x->grid, y->grid) ||
	    x->num_warps != y->num_warps || x->num_stages != y->num_stages || x->ndefines != y->ndefines)
		return false;
	for (int i = 0; i < x->ndefines; i++)   /* the same set, in any order */
		for (int j = 0;; j++) {
			if (j == y->ndefines)
				return false;
			if (!strcmp(x->defines[i], y->defines[j]))
				break;
		}
	return true;
}

/* The variants already in the folder, then `fresh` in place of its equal or
 * at the end. -1 after saying why. */
static int read_variants(Arena *a, const char *path, const ExSpec *fresh, ExSpec **out, FILE *errors)
{
	size_t len = 0;
	char *text = file_read(path, &len);
	int n = 0, cap = 8;
	ExSpec *v = arena_alloc(a, sizeof *v * (size_t)cap);
	bool replaced = false;
	int lineno = 0;
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (!*line)
			continue;
		if (n + 1 >= cap) {
			ExSpec *grown = arena_alloc(a, sizeof *v * (size_t)(cap *= 2));
			memcpy(grown, v, sizeof *v * (size_t)n);
			v = grown;
		}
		char *copy = arena_strdup(a, line);
		if (!spec_parse(a, copy, &v[n])) {
			fprintf(errors, "%s:%d: error: not a line of a variants file (export into an empty folder, or "
					"remove it)\n", path, lineno);
			free(text);
			return -1;
		}
		if (same_spec(&v[n], fresh)) {
			v[n] = *fresh;
			replaced = true;
		}
		n++;
	}
	free(text);
	if (!replaced)
		v[n++] = *fresh;
	*out = v;
	return n;
}

/* ---- the launcher's parameters and each variant's assumptions ---- */

static const char *define_of(const ExLowered *info, const char *name)
{
	size_t n = strlen(name);
	for (int i = 0; i < info->ndefines; i++)
		if (!strncmp(info->defines[i], name, n) && info->defines[i][n] == '=')
			return info->defines[i] + n + 1;
	return NULL;
}

/* Fills k->params from the first variant, then checks each variant
 * against them and records its conditions. False after saying why. */
static bool bind_params(ExKernel *k, ExLowered *info, FILE *errors)
{
	Arena *a = k->arena;
	const ExLowered *first = &info[0];
	k->params = arena_alloc(a, sizeof *k->params * (size_t)(first->nparams + 1));
	for (int p = 0; p < first->nparams; p++)
		if (!first->param_constexpr[p])
			k->params[k->nparams++] = (ExParam){.name = first->param_names[p]};
	for (int i = 0; i < k->nv; i++) {
		ExVariant *v = &k->v[i];
		const ExLowered *in = &info[i];
		int np = 0;
		bool same = true;
		for (int p = 0; p < in->nparams && same; p++)
			if (!in->param_constexpr[p])
				same = np < k->nparams && !strcmp(k->params[np++].name, in->param_names[p]);
		if (!same || np != k->nparams) {
			fprintf(errors, "tritonc: error: variant %d (%s) has other parameters than variant 0: one "
					"folder holds the variants of one kernel\n", i, v->spec.file);
			return false;
		}
		v->cond = arena_alloc(a, sizeof *v->cond * (size_t)(k->nparams + 1));
		v->arg = arena_alloc(a, sizeof *v->arg * (size_t)(k->nparams + 1));
		for (int p = 0; p < k->nparams; p++) {
			ExParam *q = &k->params[p];
			v->arg[p] = -1;
			for (int j = 0; j < in->nargs; j++)
				if (!strcmp(in->arg_names[j], q->name))
					v->arg[p] = j;
			if (v->arg[p] < 0) {   /* fixed with -D: the dispatch checks its value */
				const char *val = define_of(in, q->name);
				char *end;
				long long x = val ? strtoll(val, &end, 0) : 0;
				if (!val || end == val || *end) {
					fprintf(errors, "tritonc: error: variant %d fixes argument '%s' to '%s': only "
							"integer values can be checked at launch\n", i, q->name, val ? val : "?");
					return false;
				}
				v->cond[p] = (ExCond){.kind = EXC_EQUAL, .value = x};
				v->nconds++;
				continue;
			}
			Type t = in->arg_types[v->arg[p]];
			bool is_ptr = t.dtype == DT_PTR;
			if (q->known && (q->is_ptr != is_ptr || (is_ptr ? q->elem != t.elem : q->dtype != t.dtype))) {
				fprintf(errors, "tritonc: error: variant %d gives argument '%s' another type (%s%s) than "
						"an earlier variant: the launcher has one signature\n", i, q->name,
					is_ptr ? "*" : "", dtype_name(is_ptr ? t.elem : t.dtype));
				return false;
			}
			*q = (ExParam){.name = q->name, .known = true, .is_ptr = is_ptr, .dtype = t.dtype, .elem = t.elem};
			if (in->arg_div16[v->arg[p]]) {
				v->cond[p] = (ExCond){.kind = EXC_DIV16};
				v->nconds++;
			}
		}
	}
	return true;
}

/* Variant i's grid: --grid, or Inductor's rule. False after saying why. */
static bool bind_grid(ExKernel *k, int i, const ExLowered *info, FILE *errors)
{
	ExVariant *v = &k->v[i];
	const char *g = v->spec.grid;
	if (!g[0]) {
		if (info->split_scan)
			g = "cdiv(r0_numel, R0_BLOCK), xnumel";
		else if (info->inductor_grid && info->has_ynumel)
			g = "cdiv(xnumel, XBLOCK), cdiv(ynumel, YBLOCK)";
		else if (info->inductor_grid)
			g = "cdiv(xnumel, XBLOCK)";
		else {
			fprintf(errors, "tritonc: error: %s has no grid rule of its own (Inductor's xnumel and XBLOCK); "
					"give one with --grid 'EXPR[,EXPR[,EXPR]]' over its arguments, e.g. "
					"--grid 'cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)'\n", k->name);
			return false;
		}
	}
	/* split at the commas outside parentheses */
	char *copy = arena_strdup(k->arena, g);
	char *part[4] = {copy};
	int nparts = 1, depth = 0;
	for (char *c = copy; *c; c++) {
		depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
		if (*c == ',' && depth == 0) {
			if (nparts == 3) {
				fprintf(errors, "tritonc: error: --grid '%s' has more than 3 dimensions\n", g);
				return false;
			}
			*c = '\0';
			part[nparts++] = c + 1;
		}
	}
	for (int d = 0; d < 3; d++) {
		char err[400];
		v->grid_c[d] = d < nparts ? export_grid_expr(k->arena, part[d], k, info, err, sizeof err) : "INT64_C(1)";
		if (!v->grid_c[d]) {
			fprintf(errors, "tritonc: error: %s\n", err);
			return false;
		}
	}
	return true;
}

static char *describe(Arena *a, const ExSpec *s, const ExSpec *first)
{
	Buf b = {0};
	if (strcmp(s->file, first->file)) {
		const char *slash = strrchr(s->file, '/');
		buf_printf(&b, "%s ", slash ? slash + 1 : s->file);
	}
	if (s->signature[0])
		buf_printf(&b, "-s %s", s->signature);
	for (int i = 0; i < s->ndefines; i++)
		buf_printf(&b, "%s-D %s", b.len ? " " : "", s->defines[i]);
	if (s->num_warps)
		buf_printf(&b, "%s--num-warps %d", b.len ? " " : "", s->num_warps);
	if (s->num_stages)
		buf_printf(&b, "%s--num-stages %d", b.len ? " " : "", s->num_stages);
	if (s->grid[0])
		buf_printf(&b, "%s--grid %s", b.len ? " " : "", s->grid);
	char *r = arena_strdup(a, buf_str(&b));
	buf_free(&b);
	return r;
}

/* ---- the request ---- */

static bool make_folder(const char *path, FILE *errors)
{
	struct stat st;
	char *prefix = base_strdup(path);   /* the folders above it first */
	for (char *slash = strchr(prefix + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		(void)mkdir(prefix, 0755);
		*slash = '/';
	}
	free(prefix);
	if (mkdir(path, 0755) != 0 && errno != EEXIST) {
		fprintf(errors, "tritonc: error: cannot create '%s': %s\n", path, strerror(errno));
		return false;
	}
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(errors, "tritonc: error: '%s' is not a folder\n", path);
		return false;
	}
	return true;
}

static bool has_tab(const char *s)
{
	return s && strpbrk(s, "\t\n");
}

/* The targets of --target, each once; false after saying why. */
static bool parse_targets(ExKernel *k, const char *list, FILE *errors)
{
	char *copy = arena_strdup(k->arena, list);
	int n = 1;
	for (const char *c = list; *c; c++)
		n += *c == ',';
	k->targets = arena_alloc(k->arena, sizeof *k->targets * (size_t)n);
	for (char *t = strtok(copy, ","); t; t = strtok(NULL, ",")) {
		char err[200];
		Target tg;
		if (!target_parse(t, &tg, err, sizeof err)) {
			fprintf(errors, "tritonc: error: %s\n", err);
			return false;
		}
		if (tg.kind == TARGET_INTERP) {
			fputs("tritonc: error: export takes cuda:sm_NN, hip:gfxNNN and c targets, not interp\n", errors);
			return false;
		}
		for (int i = 0; i < k->ntargets; i++)
			if (k->targets[i].kind == tg.kind && !strcmp(k->targets[i].arch, tg.arch) &&
			    k->targets[i].warp_size == tg.warp_size) {
				fprintf(errors, "tritonc: error: target '%s' is given twice\n", t);
				return false;
			}
		if (tg.kind == TARGET_C)
			for (int i = 0; i < k->ntargets; i++)
				if (k->targets[i].kind == TARGET_C) {
					fputs("tritonc: error: export takes one c target (c, c:wave32 or c:wave64)\n", errors);
					return false;
				}
		k->targets[k->ntargets++] = tg;
	}
	if (!k->ntargets) {
		fputs("tritonc: error: --target names no target\n", errors);
		return false;
	}
	return true;
}

static int compare_order(const ExKernel *k, int x, int y)
{
	if (k->v[x].nconds != k->v[y].nconds)
		return k->v[y].nconds - k->v[x].nconds;
	return x - y;
}

int export_run(const ExportRequest *r, FILE *errors)
{
	if (!r->kernel) {
		fputs("tritonc: error: export needs the kernel's name: -k NAME\n", errors);
		return 2;
	}
	if (!r->out_dir || !r->targets) {
		fputs("tritonc: error: export needs --target T[,T...] and -o DIR\n", errors);
		return 2;
	}
	if (has_tab(r->signature) || has_tab(r->grid)) {
		fputs("tritonc: error: tabs and newlines cannot appear in -s or --grid\n", errors);
		return 2;
	}
	for (int i = 0; i < r->ndefines; i++)
		if (has_tab(r->defines[i]) || !strchr(r->defines[i], '=')) {
			fprintf(errors, "tritonc: error: -D takes NAME=VALUE, not '%s'\n", r->defines[i]);
			return 2;
		}
	for (const char *c = r->kernel; *c; c++)
		if (!(*c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (c > r->kernel && *c >= '0' && *c <= '9'))) {
			fprintf(errors, "tritonc: error: '%s' is not a kernel name\n", r->kernel);
			return 2;
		}
	Arena arena = {0};
	ExKernel k = {.name = r->kernel, .arena = &arena};
	Diag d = {.out = errors};
	int status = 2;
	char resolved[PATH_MAX];
	if (!parse_targets(&k, r->targets, errors))
		goto done;
	status = 1;
	if (!realpath(r->file, resolved)) {
		fprintf(errors, "tritonc: error: cannot read '%s': %s\n", r->file, strerror(errno));
		goto done;
	}
	if (!make_folder(r->out_dir, errors))
		goto done;
	ExSpec fresh = {.file = resolved, .signature = (char *)(r->signature ? r->signature : ""),
			.grid = (char *)(r->grid ? r->grid : ""), .defines = (char **)r->defines,
			.ndefines = r->ndefines, .num_warps = r->num_warps, .num_stages = r->num_stages};
	char *manifest = manifest_path(&arena, r->out_dir, k.name);
	ExSpec *specs = NULL;
	k.nv = read_variants(&arena, manifest, &fresh, &specs, errors);
	if (k.nv < 0)
		goto done;

	/* every variant for every target */
	k.v = arena_alloc(&arena, sizeof *k.v * (size_t)k.nv);
	ExLowered *info = arena_alloc(&arena, sizeof *info * (size_t)k.nv);
	for (int i = 0; i < k.nv; i++) {
		ExVariant *v = &k.v[i];
		v->spec = specs[i];
		v->fn = arena_printf(&arena, "%s__v%d", k.name, i);
		v->describe = describe(&arena, &v->spec, &specs[0]);
		v->code = arena_alloc(&arena, sizeof *v->code * (size_t)k.ntargets);
		for (int t = 0; t < k.ntargets; t++) {
			ExLowered got;
			ExCode *c = export_compile(&arena, &d, &v->spec, k.name, &k.targets[t], v->fn, t == 0, &got);
			if (!c) {
				if (k.nv > 1)
					fprintf(errors, "tritonc: note: while exporting variant %d (%s) for %s\n", i,
						v->describe, k.targets[t].spec);
				goto done;
			}
			c->source = export_rename(&arena, c->source, i, v->fn);
			v->code[t] = *c;
			if (t == 0)
				info[i] = got;
		}
	}
	if (!bind_params(&k, info, errors))
		goto done;
	for (int i = 0; i < k.nv; i++)
		if (!bind_grid(&k, i, &info[i], errors))
			goto done;
	k.order = arena_alloc(&arena, sizeof *k.order * (size_t)k.nv);
	for (int i = 0; i < k.nv; i++) {   /* insertion sort: stable, few variants */
		int j = i;
		for (; j > 0 && compare_order(&k, k.order[j - 1], i) > 0; j--)
			k.order[j] = k.order[j - 1];
		k.order[j] = i;
	}

	/* each kind of target into the folder, or its own subfolder when there are several */
	static const TargetKind kinds[] = {TARGET_C, TARGET_CUDA, TARGET_HIP};
	static const char *const names[] = {"c", "cuda", "hip"};
	int nkinds = 0;
	for (int i = 0; i < 3; i++)
		for (int t = 0; t < k.ntargets; t++)
			if (k.targets[t].kind == kinds[i]) {
				nkinds++;
				break;
			}
	for (int i = 0; i < 3; i++) {
		int *ts = arena_alloc(&arena, sizeof *ts * (size_t)k.ntargets), nts = 0;
		for (int t = 0; t < k.ntargets; t++)
			if (k.targets[t].kind == kinds[i])
				ts[nts++] = t;
		if (!nts)
			continue;
		const char *dir = nkinds > 1 ? arena_printf(&arena, "%s/%s", r->out_dir, names[i]) : r->out_dir;
		if (!make_folder(dir, errors))
			goto done;
		int rc = kinds[i] == TARGET_C ? export_target_c(&k, ts[0], dir, errors)
			 : kinds[i] == TARGET_CUDA ? export_target_cuda(&k, ts, nts, dir, errors)
						   : export_target_hip(&k, ts, nts, dir, errors);
		if (rc)
			goto done;
	}
	Buf list = {0};
	for (int i = 0; i < k.nv; i++)
		spec_write(&list, &k.v[i].spec);
	int wrote = file_write_atomic(manifest, buf_str(&list), list.len);
	buf_free(&list);
	if (wrote != 0) {
		fprintf(errors, "tritonc: error: cannot write '%s': %s\n", manifest, strerror(errno));
		goto done;
	}
	status = 0;
done:
	buf_free(&d.text);
	arena_free(&arena);
	return status;
}
