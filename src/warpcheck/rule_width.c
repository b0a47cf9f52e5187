/* rule_width.c: H11, shuffles with no width in code written for 32-lane
 * groups.
 *
 *   v = __shfl(v, (lane + 1) & 31);
 *
 * On NVIDIA the source lane is taken modulo the width, 32 by default. A HIP
 * shuffle with no width spans the whole wavefront, so on a 64-lane one the
 * lanes 32..63 read from lanes 0..31. A shuffle whose lane or offset
 * argument is a lane computed modulo 32 (the dataflow's WV_LANE32) is such
 * code; passing the width 32 makes it a deliberate 32-lane logical warp on
 * every target. A shuffle that already has a width is left alone. */
#include "warpcheck/warpcheck.h"

#include <string.h>

/* Arguments a shuffle takes without its width: (v, lane) or (mask, v, lane). */
static int args_without_width(const WcFile *f, int i)
{
	return wc_is_sync(f, i) ? 3 : 2;
}

static void check_logical(WcFile *f, int i, int n, const int *s, const int *e);

static void check_shuffle(WcFile *f, int i)
{
	if (!wc_op(f, i + 1, WP_LPAREN))
		return;
	int s[8], e[8];
	int n = wc_call_args(f, i + 1, s, e, 8);
	if (n != args_without_width(f, i))
		return;
	int a = n - 1;  /* the lane, delta or xor mask */
	if (e[a] > s[a] && wc_expr_view(f, s[a], e[a]) != WV_LANE32 && (wc_kw(f, i, WK___shfl) || wc_kw(f, i, WK___shfl_sync))) {
		check_logical(f, i, n, s, e);
		return;
	}
	if (e[a] <= s[a] || wc_expr_view(f, s[a], e[a]) != WV_LANE32)
		return;
	WcFinding *fd = wc_find(f, i, "H11", "shuffle-width",
		"pass the width 32 explicitly (a 32-lane logical warp), or make the lane index wave-size generic",
		"%.*s with no width takes a lane computed modulo 32: on a 64-lane wavefront lanes 32..63 read lanes 0..31",
		(int)f->t[i].len, f->src.text + f->t[i].off);
	int close = e[a];  /* the call's ")" */
	wc_edit(fd, f, close, close, ", 32)");
}

/* The lane argument [s, e) ends in "% W", W a name for a warp's width
 * with no value of its own here (a template parameter, WarpSize): a
 * logical width the shuffle should be given. The token of W, or -1. */
static int logical_modulo(const WcFile *f, int s, int e)
{
	int w = e - 1;
	uint64_t v;
	if (w - 1 <= s || !wc_op(f, w - 1, WP_PERCENT) || !wc_ident(f, w) || !(wc_flags(f, w) & WN_WARP_SIZE) ||
	    wc_warp_size_expr(f, w) || wc_value(f, w, &v))
		return -1;
	return w;
}

static void check_logical(WcFile *f, int i, int n, const int *s, const int *e)
{
	int a = n - 1, w = logical_modulo(f, s[a], e[a]);
	if (w < 0)
		return;
	wc_find(f, i, "H11", "shuffle-width", "pass the logical width as the shuffle's width",
		"%.*s with no width takes a lane modulo %.*s: where %.*s is less than the wavefront, lanes read from "
		"another group", (int)f->t[i].len, f->src.text + f->t[i].off, (int)f->t[w].len,
		f->src.text + f->t[w].off, (int)f->t[w].len, f->src.text + f->t[w].off);
}

/* Wrappers whose third parameter is the width (PyTorch's and apex's
 * WARP_SHFL family, faiss's shfl family), so ", 32" is a safe rewrite. */
static bool width_third(const WcFile *f, int i)
{
	static const char *const known[] = {"WARP_SHFL", "WARP_SHFL_XOR", "WARP_SHFL_UP", "WARP_SHFL_DOWN",
	                                    "shfl", "shfl_xor", "shfl_up", "shfl_down"};
	for (size_t k = 0; k < TC_COUNT(known); k++)
		if (strlen(known[k]) == f->t[i].len && memcmp(known[k], f->src.text + f->t[i].off, f->t[i].len) == 0)
			return true;
	return false;
}

/* WARP_SHFL(v, (lane + 1) & 31): a project's wrapper called with no
 * width, which such wrappers default to the device's warpSize. */
static void check_wrapper(WcFile *f, int i)
{
	int s[8], e[8];
	int n = wc_call_args(f, i + 1, s, e, 8);
	if (n != wc_wrapper_plain_args(f, i))
		return;
	int a = n - 1;
	if (e[a] > s[a] && wc_expr_view(f, s[a], e[a]) != WV_LANE32) {
		check_logical(f, i, n, s, e);
		return;
	}
	if (e[a] <= s[a] || wc_expr_view(f, s[a], e[a]) != WV_LANE32)
		return;
	WcFinding *fd = wc_find(f, i, "H11", "shuffle-width",
		"pass the width 32 explicitly (a 32-lane logical warp), or make the lane index wave-size generic",
		"%.*s with no width shuffles over the whole wavefront (wrappers default to warpSize) but takes a lane "
		"computed modulo 32: on a 64-lane wavefront lanes 32..63 read lanes 0..31",
		(int)f->t[i].len, f->src.text + f->t[i].off);
	if (width_third(f, i) && n == 2)
		wc_edit(fd, f, e[a], e[a], ", 32)");
}

void wc_rule_width(WcFile *f)
{
	if (!(f->tok_flags & (WN_SHUFFLE | WN_SHFL_WRAP)))
		return;  /* neither a shuffle (wc_is_shuffle) nor a wrapper's name (wc_is_shuffle_wrapper) */
	for (int i = 0; i + 1 < f->n; i++) {
		if (wc_is_shuffle(f, i))
			check_shuffle(f, i);
		else if (wc_is_shuffle_wrapper(f, i))
			check_wrapper(f, i);
	}
}
