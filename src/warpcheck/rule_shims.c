/* rule_shims.c: mask-dropping shims gated on a HIP version (H2).
 *
 * Ports define `__shfl_xor_sync(mask, ...)` as `__shfl_xor(...)` for HIP
 * releases without the warp-sync API. ROCm 6.2 to 6.4 ship that API only
 * when HIP_ENABLE_WARP_SYNC_BUILTINS is defined (it is on by default from
 * ROCm 7.0), so a shim under `#if HIP_VERSION < 60200000` is skipped on
 * those releases and every `_sync` call it was meant to cover fails to
 * compile. Reported at the version test when the shims sit directly in its
 * branch and the condition does not name HIP_ENABLE_WARP_SYNC_BUILTINS. */
#include "warpcheck/warpcheck.h"

#include <string.h>

static bool all_punct(const WcFile *f, int i, WcPunct op)
{
	return i < f->nall && f->all[i].kind == WT_PUNCT && f->all[i].op == op;
}

static bool all_name(const WcFile *f, int i, const char *s)
{
	size_t n = strlen(s);
	return i < f->nall && f->all[i].kind == WT_IDENT && f->all[i].len == n &&
	       memcmp(f->src.text + f->all[i].off, s, n) == 0;
}

static int eod_of(const WcFile *f, int i)
{
	while (i < f->nall && f->all[i].kind != WT_EOD)
		i++;
	return i;
}

/* The directive name after the "#" at i, as a known id, or -1. */
static int directive(const WcFile *f, int i)
{
	if (!all_punct(f, i, WP_HASH) || !f->all[i].pp || i + 1 >= f->nall || f->all[i + 1].kind != WT_IDENT)
		return -1;
	return (int)f->all[i + 1].id;
}

/* A #define in the branch from `from` (up to its #elif/#else/#endif) of a
 * function-like macro named for a warp-sync intrinsic. */
static bool branch_defines_sync_shim(const WcFile *f, int from)
{
	int depth = 0;
	for (int i = from; i < f->nall; i++) {
		int d = directive(f, i);
		if (d < 0)
			continue;
		if (d == WK_if || d == WK_ifdef || d == WK_ifndef)
			depth++;
		else if (d == WK_endif && depth-- == 0)
			return false;
		else if ((d == WK_elif || d == WK_else) && depth == 0)
			return false;
		else if (d == WK_define && i + 3 < f->nall && f->all[i + 2].kind == WT_IDENT &&
		         (f->names->v[f->all[i + 2].id].flags & WN_SYNC) && all_punct(f, i + 3, WP_LPAREN))
			return true;
	}
	return false;
}

void wc_rule_shims(WcFile *f)
{
	for (int i = 0; i + 1 < f->nall; i++) {
		int d = directive(f, i);
		if (d != WK_if && d != WK_elif)
			continue;
		int eod = eod_of(f, i + 2), ver = -1;
		bool opt_in = false;
		for (int k = i + 2; k < eod; k++) {
			if (all_name(f, k, "HIP_ENABLE_WARP_SYNC_BUILTINS"))
				opt_in = true;
			if (ver < 0 && all_name(f, k, "HIP_VERSION") && (all_punct(f, k + 1, WP_LT) || all_punct(f, k + 1, WP_LE)) &&
			    k + 2 < eod && f->all[k + 2].kind == WT_NUMBER && f->all[k + 2].num_ok &&
			    f->all[k + 2].num < 70000000)
				ver = k;
		}
		if (ver < 0 || opt_in || f->all[ver].cuda_only || !branch_defines_sync_shim(f, eod + 1))
			continue;
		wc_find_tok(f, &f->all[ver], "H2", "lane-mask",
			"also define the shims on ROCm 6.2 to 6.4 unless HIP_ENABLE_WARP_SYNC_BUILTINS is defined "
			"(HIP_VERSION < 70000000 && !defined(HIP_ENABLE_WARP_SYNC_BUILTINS))",
			"the mask-dropping shims are skipped from HIP 6.2, but ROCm 6.2 to 6.4 have no __shfl_*_sync unless "
			"HIP_ENABLE_WARP_SYNC_BUILTINS is defined: the _sync calls do not compile there");
		i = eod;
	}
}
