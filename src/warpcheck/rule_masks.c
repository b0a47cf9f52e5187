/* rule_masks.c: H2 (32-bit lane masks) and H13 (mask arithmetic that
 * overflows at 64 lanes).
 *
 * A wavefront's masks are 64 bits: 0xffffffff in a _sync call leaves lanes
 * 32..63 out (a compile error from HIP 6.2 on). A project macro that drops
 * the mask (#define __shfl_xor_sync(m, v, o, w) __shfl_xor(v, o, w)) makes
 * the literal harmless, so such shims are followed. */
#include "warpcheck/warpcheck.h"

#include <string.h>

static void check_sync(WcFile *f, int i)
{
	if (!wc_op(f, i + 1, WP_LPAREN) || wc_mask_dropped(f, i))
		return;
	int s[8], e[8];
	bool only32;
	int n = wc_call_args(f, i + 1, s, e, 8);
	if (n < 1 || !wc_full_mask(f, s[0], e[0], &only32) || !only32)
		return;
	WcFinding *fd = wc_find(f, s[0], "H2", "lane-mask",
		"use a 64-bit mask (~0ull) or the mask-less HIP intrinsic",
		"32-bit full mask in %.*s leaves lanes 32..63 of a 64-lane wavefront out",
		(int)f->t[i].len, f->src.text + f->t[i].off);
	if (f->t[s[0]].kind == WT_NUMBER || wc_op(f, s[0], WP_TILDE) || e[0] == s[0] + 1 || wc_kw(f, s[0], WK_uint32_t) ||
	    wc_kw(f, s[0], WK_unsigned))
		wc_edit(fd, f, s[0], e[0] - 1, "~0ull");  /* FULL_MASK: here, not in its #define, which may serve data */
}

static bool word_in(const WcFile *f, int i, const char *w)
{
	size_t n = strlen(w), len = f->t[i].len;
	const char *s = f->src.text + f->t[i].off;
	for (size_t k = 0; k + n <= len; k++)
		if (memcmp(s + k, w, n) == 0)
			return true;
	return false;
}

/* 1 << warpSize, and (1ull << width) - 1 with a width that can be 64. */
static void check_shift(WcFile *f, int i)
{
	if (!wc_op(f, i + 1, WP_SHL) || !wc_value_is(f, i, 1) || f->t[i].kind != WT_NUMBER)
		return;
	int r = i + 2;
	if (wc_warp_size_alias(f, r) || wc_kw(f, r, WK___AMDGCN_WAVEFRONT_SIZE)) {
		wc_find(f, i, "H13", "mask-overflow", "use ~0ull >> (64 - warpSize), or special-case 64",
			"1 << warpSize is undefined when warpSize is 64 (shift by the full width)");
		return;
	}
	/* a width of lanes (width, size), not a count of bits (segbits: a log2, at most 6 lanes' worth) */
	bool width = (wc_flags(f, r) & WN_WIDTHISH) && !word_in(f, r, "bits") && !word_in(f, r, "BITS") &&
	             !word_in(f, r, "Bits");
	if (width && wc_op(f, i - 1, WP_LPAREN) && wc_op(f, r + 1, WP_RPAREN) && wc_op(f, r + 2, WP_MINUS) &&
	    f->t[r + 3 < f->n ? r + 3 : r].kind == WT_NUMBER && wc_value_is(f, r + 3, 1) && !wc_derived(f, r))
		wc_find(f, i, "H13", "mask-overflow", "use ~0ull >> (64 - width), or special-case 64",
			"(1 << width) - 1 overflows when width is 64");
}

void wc_rule_masks(WcFile *f)
{
	if (!(f->tok_flags & WN_SYNC) && !(f->tok_ops & (uint64_t)1 << WP_SHL))
		return;  /* no call with a lane mask (wc_is_sync), no "1 <<" (check_shift) */
	for (int i = 0; i + 1 < f->n; i++) {
		if (wc_is_sync(f, i))
			check_sync(f, i);
		else if (f->t[i].kind == WT_NUMBER)
			check_shift(f, i);
	}
}
