/* heuristics.c: block sizes for an Inductor kernel when the user gives none.
 *
 * Inductor's modules carry size hints but leave block sizes to their
 * autotuner. When -D does not give them, tritonc picks one configuration,
 * close to the first one Inductor's heuristics try:
 *   pointwise, 1-D:       XBLOCK = min(1024, hint), 4 warps
 *   pointwise, 2-D:       YBLOCK = XBLOCK = 32 (less where the hint is smaller), 4 warps
 *   persistent reduction: XBLOCK = 1 (the row is R0_BLOCK, fixed in the kernel), 8 warps
 *                         when the row has 1024 elements or more, else 4
 *   reduction (looped):   XBLOCK = 1, R0_BLOCK = min(2048, hint), 8 warps (4 below 1024)
 *   split scan:           R0_BLOCK = the module's min_split_scan_rblock (256 when it says
 *                         none), 4 warps: Inductor's split_scan raises its reduction
 *                         configs' R0_BLOCK to at least that, and sizes the workspace
 *                         for it; the smallest block gives the most programs along a row
 * A value given with -D always wins; so does --num-warps. */
#include "ir/heuristics.h"

#include <stdio.h>
#include <string.h>

static int64_t hint(const Kernel *k, const char *axis)
{
	const Node *v = k->size_hints ? ast_dict_get(k->size_hints, axis) : NULL;
	return v && v->kind == ND_INT && v->ival > 0 ? v->ival : 0;
}

/* inductor_meta[key] as an integer, or 0. */
static int64_t meta_int(const Kernel *k, const char *key)
{
	const Node *v = k->inductor_meta ? ast_dict_get(k->inductor_meta, key) : NULL;
	return v && v->kind == ND_INT && v->ival > 0 ? v->ival : 0;
}

static int64_t pow2_at_most(int64_t want, int64_t cap)
{
	int64_t v = 1;
	while (v * 2 <= want && v * 2 <= cap)
		v *= 2;
	return v;
}

static bool has_param(const Kernel *k, const char *name)
{
	for (int i = 0; i < k->func->params.len; i++)
		if (!strcmp(k->func->params.items[i]->name, name))
			return true;
	return false;
}

static bool given(const char *const *defines, int n, const char *name)
{
	size_t len = strlen(name);
	for (int i = 0; i < n; i++)
		if (!strncmp(defines[i], name, len) && defines[i][len] == '=')
			return true;
	return false;
}

static void add(BlockDefaults *out, const Kernel *k, const char *const *defines, int n, const char *name,
		int64_t value)
{
	if (!has_param(k, name) || given(defines, n, name) || out->count >= BLOCK_DEFAULTS_MAX)
		return;
	snprintf(out->text[out->count], sizeof out->text[0], "%s=%lld", name, (long long)value);
	out->count++;
}

BlockDefaults inductor_block_defaults(const Kernel *k, const char *const *defines, int ndefines)
{
	BlockDefaults d = {0};
	if (!k->inductor)
		return d;
	int64_t x = hint(k, "x"), y = hint(k, "y"), r = hint(k, "r0_");
	if (!r)
		r = hint(k, "r");
	switch (k->decor) {
	case KDEC_POINTWISE:
		d.num_warps = 4;
		if (y) {
			add(&d, k, defines, ndefines, "YBLOCK", pow2_at_most(y, 32));
			add(&d, k, defines, ndefines, "XBLOCK", pow2_at_most(x ? x : 32, 32));
		} else {
			add(&d, k, defines, ndefines, "XBLOCK", pow2_at_most(x ? x : 1024, 1024));
		}
		break;
	case KDEC_PERSISTENT_REDUCTION:
		d.num_warps = r >= 1024 ? 8 : 4;
		add(&d, k, defines, ndefines, "XBLOCK", 1);
		break;
	case KDEC_REDUCTION:
		d.num_warps = r >= 1024 ? 8 : 4;
		add(&d, k, defines, ndefines, "XBLOCK", 1);
		add(&d, k, defines, ndefines, "R0_BLOCK", pow2_at_most(r ? r : 1024, 2048));
		add(&d, k, defines, ndefines, "RBLOCK", pow2_at_most(r ? r : 1024, 2048));
		break;
	case KDEC_SPLIT_SCAN: {
		int64_t rblock = meta_int(k, "min_split_scan_rblock");
		d.num_warps = 4;
		add(&d, k, defines, ndefines, "R0_BLOCK", rblock ? rblock : 256);
		add(&d, k, defines, ndefines, "RBLOCK", rblock ? rblock : 256);
		break;
	}
	default:
		break;
	}
	return d;
}

bool inductor_split_scan_grid(const Kernel *k)
{
	const Node *g = k->inductor_meta ? ast_dict_get(k->inductor_meta, "grid_type") : NULL;
	if (g && g->kind == ND_STR)
		return !strcmp(g->str, "SplitScanGrid");
	return k->decor == KDEC_SPLIT_SCAN;
}

bool inductor_workspace(const Kernel *k, const char *param)
{
	return k->decor == KDEC_SPLIT_SCAN && !strcmp(param, "ws_ptr");
}
