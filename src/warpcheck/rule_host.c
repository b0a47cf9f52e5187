/* rule_host.c: H6 (host code with a compile-time warp size), H7 (warp size
 * needed as a compile-time constant) and H12 (block sizes that are
 * multiples of 32 but not of 64, so the last wavefront runs half empty and
 * code that assumes full warps breaks). */
#include "warpcheck/warpcheck.h"

static bool warp_size_const(const WcFile *f, int i)
{
	return (wc_flags(f, i) & WN_WARP_SIZE) && !wc_kw(f, i, WK_warpSize) && wc_value_is(f, i, 32);
}

/* End of <<<...>>> starting at i, or -1. */
static int launch_end(const WcFile *f, int i)
{
	for (int k = i + 1; k < f->n && k < i + 200; k++)
		if (wc_op(f, k, WP_LAUNCH_CLOSE))
			return k;
	return -1;
}

/* WARP_SIZE (32) inside <<<...>>> or dim3(...). */
static void check_launch(WcFile *f, int i)
{
	int end = -1;
	if (wc_op(f, i, WP_LAUNCH_OPEN)) {
		end = launch_end(f, i);
	} else if (wc_kw(f, i, WK_dim3)) {
		int open = wc_op(f, i + 1, WP_LPAREN) ? i + 1 : wc_op(f, i + 2, WP_LPAREN) ? i + 2 : -1;
		end = open < 0 ? -1 : wc_match(f, open);
	}
	for (int k = i + 1; k < end; k++)
		if (warp_size_const(f, k))
			wc_find(f, k, "H6", "host-warp-size",
				"query the device: cudaDevAttrWarpSize / hipDeviceAttributeWarpSize",
				"launch geometry uses a compile-time warp size of 32; AMD wavefronts have 64 lanes");
}

static bool equality(const WcFile *f, int i)
{
	return wc_op(f, i, WP_EQ) || wc_op(f, i, WP_NE);
}

/* prop.warpSize == 32 */
static void check_prop(WcFile *f, int i)
{
	if (!wc_kw(f, i, WK_warpSize) || !(wc_op(f, i - 1, WP_DOT) || wc_op(f, i - 1, WP_ARROW)))
		return;
	if ((equality(f, i + 1) && wc_value_is(f, i + 2, 32)) || (equality(f, i - 3) && wc_value_is(f, i - 4, 32)))
		wc_find(f, i, "H6", "host-warp-size", "accept 32 and 64, or use the queried value",
			"host code requires a warp size of 32; AMD CDNA devices report 64");
}

/* warpSize in an array bound: T name[warpSize]; */
static void check_bound(WcFile *f, int i)
{
	if (!wc_op(f, i, WP_LBRACK) || i < 2 || !wc_ident(f, i - 1))
		return;
	if (!wc_ident(f, i - 2) && !wc_op(f, i - 2, WP_STAR))
		return;
	if (wc_kw(f, i - 2, WK_return) || wc_kw(f, i - 2, WK_case))
		return;
	int close = wc_match(f, i);
	if (close < 0 || !(wc_op(f, close + 1, WP_SEMI) || wc_op(f, close + 1, WP_LBRACK) ||
	                   wc_op(f, close + 1, WP_ASSIGN)))
		return;
	for (int k = i + 1; k < close; k++)
		if (wc_warp_size_alias(f, k))
			wc_find(f, k, "H7", "compile-time-warp-size", "use an upper bound (64) or a per-target macro",
				"%.*s is not a compile-time constant on every target; it cannot size an array",
				(int)f->t[k].len, f->src.text + f->t[k].off);
}

static void amdgcn_at(WcFile *f, const WcTok *t)
{
	wc_find_tok(f, t, "H7", "compile-time-warp-size",
		"select the width from __GFX9__ (wave64) in the device pass, or query the device",
		"__AMDGCN_WAVEFRONT_SIZE is deprecated in ROCm 7.1 and an error in 7.2");
}

/* __AMDGCN_WAVEFRONT_SIZE in directives (code uses are found in the main loop). */
static void check_amdgcn_directives(WcFile *f)
{
	for (int i = 0; i < f->nall; i++)
		if (f->all[i].kind == WT_IDENT && f->all[i].id == WK___AMDGCN_WAVEFRONT_SIZE)
			amdgcn_at(f, &f->all[i]);
}

/* The block-size argument of <<<grid, block>>>, or -1. */
static int launch_block_arg(const WcFile *f, int i)
{
	int depth = 0;
	for (int k = i + 1; k < f->n && k < i + 200 && !wc_op(f, k, WP_LAUNCH_CLOSE); k++) {
		if (wc_op(f, k, WP_LPAREN) || wc_op(f, k, WP_LBRACK))
			depth++;
		else if (wc_op(f, k, WP_RPAREN) || wc_op(f, k, WP_RBRACK))
			depth--;
		else if (depth == 0 && wc_op(f, k, WP_COMMA))
			return k + 1;
	}
	return -1;
}

/* <<<grid, 96>>> and __launch_bounds__(288) */
static void check_block(WcFile *f, int i)
{
	int arg = -1;
	if (wc_op(f, i, WP_LAUNCH_OPEN))
		arg = launch_block_arg(f, i);
	else if (wc_kw(f, i, WK___launch_bounds__) && wc_op(f, i + 1, WP_LPAREN))
		arg = i + 2;
	uint64_t v;
	if (arg < 0 || arg >= f->n || f->t[arg].kind != WT_NUMBER || !wc_value(f, arg, &v) ||
	    !(wc_op(f, arg + 1, WP_COMMA) || wc_op(f, arg + 1, WP_RPAREN) || wc_op(f, arg + 1, WP_LAUNCH_CLOSE)))
		return;
	if (v % 32 == 0 && v % 64 != 0)
		wc_find(f, arg, "H12", "block-size", "use a multiple of 64 (or of the queried warp size)",
			"block size %llu is a multiple of 32 but not of 64: its last wavefront is half empty",
			(unsigned long long)v);
}

void wc_rule_host(WcFile *f)
{
	for (int i = 1; i < f->n; i++) {
		const WcTok *t = &f->t[i];
		if (t->kind == WT_PUNCT) {
			if (t->op == WP_LAUNCH_OPEN) {
				check_launch(f, i);
				check_block(f, i);
			} else if (t->op == WP_LBRACK) {
				check_bound(f, i);
			}
		} else if (t->kind == WT_IDENT) {
			if (t->id == WK_dim3)
				check_launch(f, i);
			else if (t->id == WK_warpSize)
				check_prop(f, i);
			else if (t->id == WK___launch_bounds__)
				check_block(f, i);
			else if (t->id == WK___AMDGCN_WAVEFRONT_SIZE)
				amdgcn_at(f, t);
		}
	}
	if (f->n > 0 && f->t[0].id == WK___AMDGCN_WAVEFRONT_SIZE && f->t[0].kind == WT_IDENT)
		amdgcn_at(f, &f->t[0]);  /* the loop starts at 1 */
	check_amdgcn_directives(f);
}
