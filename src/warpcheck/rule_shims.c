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

#include <stdlib.h>
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

static void report(WcFile *f, int ver)
{
	wc_find_tok(f, &f->all[ver], "H2", "lane-mask",
		"also define the shims on ROCm 6.2 to 6.4 unless HIP_ENABLE_WARP_SYNC_BUILTINS is defined "
		"(HIP_VERSION < 70000000 && !defined(HIP_ENABLE_WARP_SYNC_BUILTINS))",
		"the mask-dropping shims are skipped from HIP 6.2, but ROCm 6.2 to 6.4 have no __shfl_*_sync unless "
		"HIP_ENABLE_WARP_SYNC_BUILTINS is defined: the _sync calls do not compile there");
}

/* The version test of an #if/#elif condition [from, eod), or -1. */
static int version_test(const WcFile *f, int from, int eod)
{
	int ver = -1;
	for (int k = from; k < eod; k++) {
		if (all_name(f, k, "HIP_ENABLE_WARP_SYNC_BUILTINS"))
			return -1;
		if (ver < 0 && all_name(f, k, "HIP_VERSION") && (all_punct(f, k + 1, WP_LT) || all_punct(f, k + 1, WP_LE)) &&
		    k + 2 < eod && f->all[k + 2].kind == WT_NUMBER && f->all[k + 2].num_ok && f->all[k + 2].num < 70000000 &&
		    !f->all[k].cuda_only)
			ver = k;
	}
	return ver;
}

/* One pass over the directives with a stack of open #ifs: each branch
 * keeps its version test (or -1) and whether a shim was defined in it,
 * nested branches included; a branch ends at its #elif, #else or #endif. */
typedef struct { int ver; bool shim; } Branch;

void wc_rule_shims(WcFile *f)
{
	Branch *st = NULL;
	int n = 0, cap = 0;
	for (int i = 0; i + 1 < f->nall; i++) {
		int d = directive(f, i);
		if (d < 0)
			continue;
		int eod = eod_of(f, i + 2);
		if (d == WK_if || d == WK_ifdef || d == WK_ifndef) {
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				st = base_realloc(st, (size_t)cap * sizeof *st);
			}
			st[n].ver = d == WK_if ? version_test(f, i + 2, eod) : -1;
			st[n].shim = false;
			n++;
		} else if ((d == WK_elif || d == WK_else || d == WK_endif) && n > 0) {
			Branch *b = &st[n - 1];
			if (b->ver >= 0 && b->shim)
				report(f, b->ver);
			bool shim = b->shim;
			if (d == WK_endif) {
				n--;
			} else {
				b->ver = d == WK_elif ? version_test(f, i + 2, eod) : -1;
				b->shim = false;
			}
			if (shim && d == WK_endif && n > 0)
				st[n - 1].shim = true;
			else if (shim && d != WK_endif && n > 1)
				st[n - 2].shim = true;
		} else if (d == WK_define && n > 0 && i + 3 < f->nall && f->all[i + 2].kind == WT_IDENT &&
		           (f->names->v[f->all[i + 2].id].flags & WN_SYNC) && all_punct(f, i + 3, WP_LPAREN)) {
			st[n - 1].shim = true;
		}
		i = eod;
	}
	free(st);
}
