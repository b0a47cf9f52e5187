/* rule_loops.c: H1, shuffle loops whose trip count is fixed for 32 lanes.
 *
 *   for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(m, v, o);
 *
 * combines lanes 0..31 only; on a 64-lane wavefront the two halves never
 * meet. A shuffle with an explicit width (a deliberate 32-lane logical
 * warp) is left alone, as the hazard table asks. */
#include "warpcheck/warpcheck.h"

#include <stdio.h>
#include <string.h>

/* Token k is the loop variable, or a local the body assigns from it
 * (int src = (lane + (1 << l)) & 31;), one of the names in uses[0..nuses). */
static bool uses_var(const WcFile *f, int k, const uint32_t *uses, int nuses)
{
	for (int u = 0; u < nuses; u++)
		if (wc_ident(f, k) && f->t[k].id == uses[u])
			return true;
	return false;
}

/* The body [from, to) holds a shuffle, with no width, whose arguments use
 * `var` or a local computed from it. Project wrappers (WARP_SHFL) count. */
static bool body_shuffles(const WcFile *f, int from, int to, int var)
{
	uint32_t uses[8];
	int nuses = 0;
	uses[nuses++] = f->t[var].id;
	for (int i = from; i + 1 < to && nuses < 8; i++) {
		if (!wc_ident(f, i) || !wc_op(f, i + 1, WP_ASSIGN))
			continue;
		for (int k = i + 2; k < to && !wc_op(f, k, WP_SEMI); k++)
			if (wc_same_ident(f, k, var)) {
				uses[nuses++] = f->t[i].id;
				break;
			}
	}
	for (int i = from; i < to; i++) {
		bool macro = wc_is_shuffle_macro(f, i), wrapper = !macro && wc_is_shuffle_wrapper(f, i);
		if (!(macro || wrapper || wc_is_shuffle(f, i)) || !wc_op(f, i + 1, WP_LPAREN))
			continue;
		int s[8], e[8];
		int n = wc_call_args(f, i + 1, s, e, 8);
		int plain = wrapper ? wc_wrapper_plain_args(f, i) : wc_is_sync(f, i) ? 3 : 2;
		if (n <= 0 || (!macro && n > plain))
			continue;  /* explicit width: a deliberate logical warp */
		for (int k = s[0]; k < e[n - 1]; k++)
			if (uses_var(f, k, uses, nuses))
				return true;
	}
	return false;
}

/* The body uses the loop variable as a shift count: 1 << l. */
static bool shifts_by(const WcFile *f, int from, int to, int var)
{
	for (int i = from; i + 2 < to; i++)
		if (f->t[i].kind == WT_NUMBER && wc_op(f, i + 1, WP_SHL) && wc_same_ident(f, i + 2, var))
			return true;
	return false;
}

/* The step adds one: ++l, l++, l += 1. */
static bool step_increments(const WcFile *f, const WcFor *h)
{
	for (int i = h->step0; i < h->step1; i++)
		if (wc_op(f, i, WP_INC) || (wc_op(f, i, WP_PLUS_EQ) && wc_value_is(f, i + 1, 1)))
			return true;
	return false;
}

static int body_end(const WcFile *f, int start)
{
	if (wc_op(f, start, WP_LBRACE))
		return wc_match(f, start);
	int depth = 0;
	for (int i = start; i < f->n; i++) {
		if (wc_op(f, i, WP_LPAREN) || wc_op(f, i, WP_LBRACE))
			depth++;
		else if (wc_op(f, i, WP_RPAREN) || wc_op(f, i, WP_RBRACE))
			depth--;
		else if (depth == 0 && wc_op(f, i, WP_SEMI))
			return i;
	}
	return -1;
}

/* Token in [from, to) compared against var with `op` whose value is v. */
static int bound_token(const WcFile *f, const WcFor *h, WcPunct op, uint64_t v)
{
	for (int i = h->cond0; i + 2 < h->cond1 + 1; i++) {
		uint64_t x;
		if (wc_same_ident(f, i, h->var) && wc_op(f, i + 1, op) && wc_value(f, i + 2, &x) && x == v)
			return i + 2;
	}
	return -1;
}

static void check_for(WcFile *f, int i)
{
	WcFor h;
	if (!wc_for_header(f, i + 1, &h) || h.var < 0)
		return;
	int close = h.step1;
	int end = body_end(f, close + 1);
	if (end < 0 || !body_shuffles(f, close + 1, end, h.var))
		return;
	int init = h.var + 2;
	uint64_t v;
	WcStep step = wc_for_step(f, &h);
	WcVal start = wc_expr_val(f, init, h.init1);
	if (step == WC_HALVES && start.known && start.num == 16) {
		WcFinding *fd = wc_find(f, init, "H1", "loop-trip-count", "start at warpSize / 2",
			"shuffle loop starts at 16, so a 64-lane wavefront combines only 32 lanes");
		if (f->t[init].kind == WT_NUMBER && init + 1 == h.init1)
			wc_edit(fd, f, init, init, "warpSize / 2");
		return;
	}
	if (step == WC_STEP_OTHER && step_increments(f, &h) && wc_value_is(f, init, 0) && init + 1 == h.init1 &&
	    shifts_by(f, close + 1, end, h.var)) {
		/* for (l = 0; l <= 4; ++l) ... 1 << l: offsets 1..16 */
		int b = bound_token(f, &h, WP_LE, 4);
		if (b < 0)
			b = bound_token(f, &h, WP_LT, 5);
		if (b < 0)
			return;
		WcFinding *fd = wc_find(f, b, "H1", "loop-trip-count", "bound the offset 1 << l by warpSize",
			"shuffle loop over offsets 1 << l stops at 16, so a 64-lane wavefront combines only 32 lanes");
		char repl[48];
		snprintf(repl, sizeof repl, "(1 << %.*s) < warpSize", (int)f->t[h.var].len, f->src.text + f->t[h.var].off);
		if (f->t[b].kind == WT_NUMBER && b - 2 >= h.cond0 && wc_same_ident(f, b - 2, h.var) && strlen(repl) < 40)
			wc_edit(fd, f, b - 2, b, repl);
		return;
	}
	if (step != WC_DOUBLES || !wc_value(f, init, &v) || v != 1)
		return;
	int b = bound_token(f, &h, WP_LT, 32);
	const char *repl = "warpSize";
	if (b < 0) {
		b = bound_token(f, &h, WP_LE, 16);
		repl = "warpSize / 2";
	}
	if (b < 0)
		return;
	WcFinding *fd = wc_find(f, b, "H1", "loop-trip-count", "bound the loop by warpSize",
		"shuffle loop stops at 32 lanes; a 64-lane wavefront needs one more step");
	if (f->t[b].kind == WT_NUMBER)
		wc_edit(fd, f, b, b, repl);
}

void wc_rule_loops(WcFile *f)
{
	for (int i = 0; i + 1 < f->n; i++)
		if (wc_kw(f, i, WK_for) && wc_op(f, i + 1, WP_LPAREN))
			check_for(f, i);
}
