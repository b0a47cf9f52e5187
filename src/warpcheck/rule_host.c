/* rule_host.c: H6 (host code with a compile-time warp size), H7 (warp size
 * needed as a compile-time constant) and H12 (block sizes that are
 * multiples of 32 but not of 64, so the last wavefront runs half empty and
 * code that assumes full warps breaks). */
#include "warpcheck/warpcheck.h"

#include <string.h>

static bool warp_size_const(const WcFile *f, int i)
{
	uint64_t v;
	return f->t[i].kind == WT_IDENT && wc_ident_has(f, i, "warp") && wc_ident_has(f, i, "size") &&
	       !wc_ident_is(f, i, "warpSize") && wc_value(f, i, &v) && v == 32;
}

/* WARP_SIZE (32) inside <<<...>>> or dim3(...). */
static void check_launch(WcFile *f, int i)
{
	int end = -1;
	if (wc_is(f, i, "<<<")) {
		for (int k = i + 1; k < f->n && k < i + 200; k++)
			if (wc_is(f, k, ">>>")) {
				end = k;
				break;
			}
	} else if (wc_ident_is(f, i, "dim3")) {
		int open = wc_is(f, i + 1, "(") ? i + 1 : wc_is(f, i + 2, "(") ? i + 2 : -1;
		end = open < 0 ? -1 : wc_match(f, open);
	}
	for (int k = i + 1; k < end; k++)
		if (warp_size_const(f, k))
			wc_find(f, k, "H6", "host-warp-size",
				"query the device: cudaDevAttrWarpSize / hipDeviceAttributeWarpSize",
				"launch geometry uses a compile-time warp size of 32; AMD wavefronts have 64 lanes");
}

/* prop.warpSize == 32 */
static void check_prop(WcFile *f, int i)
{
	uint64_t v;
	if (!wc_ident_is(f, i, "warpSize") || !(wc_is(f, i - 1, ".") || wc_is(f, i - 1, "->")))
		return;
	if (((wc_is(f, i + 1, "==") || wc_is(f, i + 1, "!=")) && wc_value(f, i + 2, &v) && v == 32) ||
	    ((wc_is(f, i - 3, "==") || wc_is(f, i - 3, "!=")) && wc_value(f, i - 4, &v) && v == 32))
		wc_find(f, i, "H6", "host-warp-size", "accept 32 and 64, or use the queried value",
			"host code requires a warp size of 32; AMD CDNA devices report 64");
}

/* warpSize in an array bound: T name[warpSize]; */
static void check_bound(WcFile *f, int i)
{
	if (!wc_is(f, i, "[") || i < 2 || f->t[i - 1].kind != WT_IDENT)
		return;
	const WcTok *prev = &f->t[i - 2];
	if (prev->kind != WT_IDENT && !wc_is(f, i - 2, "*"))
		return;
	if (wc_ident_is(f, i - 2, "return") || wc_ident_is(f, i - 2, "case"))
		return;
	int close = wc_match(f, i);
	if (close < 0 || !(wc_is(f, close + 1, ";") || wc_is(f, close + 1, "[") || wc_is(f, close + 1, "=")))
		return;
	for (int k = i + 1; k < close; k++)
		if (wc_ident_is(f, k, "warpSize"))
			wc_find(f, k, "H7", "compile-time-warp-size", "use an upper bound (64) or a per-target macro",
				"warpSize is not a compile-time constant on every target; it cannot size an array");
}

static void check_amdgcn(WcFile *f)
{
	for (int i = 0; i < f->nall; i++) {
		const WcTok *t = &f->all[i];
		if (t->kind != WT_IDENT || t->len != strlen("__AMDGCN_WAVEFRONT_SIZE") ||
		    memcmp(f->src.text + t->off, "__AMDGCN_WAVEFRONT_SIZE", t->len) != 0)
			continue;
		wc_find_tok(f, t, "H7", "compile-time-warp-size",
			"select the width from __GFX9__ (wave64) in the device pass, or query the device",
			"__AMDGCN_WAVEFRONT_SIZE is deprecated in ROCm 7.1 and an error in 7.2");
	}
}

/* <<<grid, 96>>> and __launch_bounds__(288) */
static void check_block(WcFile *f, int i)
{
	int arg = -1;
	if (wc_is(f, i, "<<<")) {
		int depth = 0;
		for (int k = i + 1; k < f->n && k < i + 200 && !wc_is(f, k, ">>>"); k++) {
			if (wc_is(f, k, "(") || wc_is(f, k, "["))
				depth++;
			else if (wc_is(f, k, ")") || wc_is(f, k, "]"))
				depth--;
			else if (depth == 0 && wc_is(f, k, ",")) {
				arg = k + 1;
				break;
			}
		}
	} else if (wc_ident_is(f, i, "__launch_bounds__") && wc_is(f, i + 1, "(")) {
		arg = i + 2;
	}
	uint64_t v;
	if (arg < 0 || f->t[arg].kind != WT_NUMBER || !wc_value(f, arg, &v) ||
	    !(wc_is(f, arg + 1, ",") || wc_is(f, arg + 1, ")") || wc_is(f, arg + 1, ">>>")))
		return;
	if (v % 32 == 0 && v % 64 != 0)
		wc_find(f, arg, "H12", "block-size", "use a multiple of 64 (or of the queried warp size)",
			"block size %llu is a multiple of 32 but not of 64: its last wavefront is half empty",
			(unsigned long long)v);
}

void wc_rule_host(WcFile *f)
{
	for (int i = 1; i < f->n; i++) {
		check_launch(f, i);
		check_prop(f, i);
		check_bound(f, i);
		check_block(f, i);
	}
	check_amdgcn(f);
}
