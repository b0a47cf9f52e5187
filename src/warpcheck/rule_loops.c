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
		if (!wc_ident(f, i) || !wc_op(f, i + 1, WP_LPAREN))
			continue;  /* each test below asks for a name called: that first, the name's facts after */
		bool macro = wc_is_shuffle_macro(f, i), wrapper = !macro && wc_is_shuffle_wrapper(f, i);
		if (!(macro || wrapper || wc_is_shuffle(f, i)))
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

/* Doubling loops with no shuffle whose trip count is fixed for 32 lanes:
 *
 *   int n = std::min(requested, max_vector());   // max_vector(): the width
 *   for (int i = 0; i < 5; i++) { p = p << 1; if (p > n) break; }
 *
 * rounds n up to a power of two but never past 2^5 = 32, while n can be the
 * device's width: on a 64-lane wavefront a request of 64 becomes 32. */

/* A name for the device's width whose value is not fixed at 32 or less:
 * warpSize, WARP_SIZE (not known here, or 64), a library's name for it.
 * Not divided or shifted down: warpSize / 2 and n / warpSize stay below it. */
static bool width_operand(const WcFile *f, int i)
{
	if (!wc_ident(f, i) || wc_op(f, i + 1, WP_SLASH) || wc_op(f, i + 1, WP_SHR) || wc_op(f, i - 1, WP_SLASH) ||
	    wc_op(f, i - 1, WP_SHR))
		return false;
	uint64_t v;
	if (wc_warp_size_expr(f, i))
		return true;
	if (!(wc_flags(f, i) & (WN_WARP_SIZE | WN_LIBWIDTH)))
		return false;
	return !wc_value(f, i, &v) || v > 32;
}

/* A function of the file named by token call, all of whose return
 * statements give a width (one level: what it calls is not followed). */
static bool returns_width(const WcFile *f, int call)
{
	bool any = false;
	for (int k = 0; k < f->nfns; k++) {
		const WcFunc *fn = &f->fns[k];
		if (!wc_same_ident(f, fn->name, call))
			continue;
		for (int r = fn->open + 1; r < fn->close; r++) {
			if (!wc_kw(f, r, WK_return))
				continue;
			bool w = false;
			int q = r + 1;
			for (; q < fn->close && !wc_op(f, q, WP_SEMI); q++)
				w = w || width_operand(f, q);
			if (!w)
				return false;
			any = true;
			r = q;
		}
	}
	return any;
}

/* The expression [from, to) holds a width, or calls a function of the file
 * that returns one. */
static bool expr_has_width(const WcFile *f, int from, int to)
{
	for (int k = from; k < to; k++) {
		if (wc_ident(f, k) && wc_op(f, k + 1, WP_LPAREN) && !(wc_flags(f, k) & WN_WARP_SIZE) &&
		    wc_op(f, k + 2, WP_RPAREN)) {
			if (returns_width(f, k) && !wc_op(f, k + 3, WP_SLASH) && !wc_op(f, k + 3, WP_SHR))
				return true;
			continue;
		}
		if (width_operand(f, k))
			return true;
	}
	return false;
}

/* The operand at k (an identifier, or a call with no arguments) can reach
 * the device's width: it is one, or a local of the function [open, close)
 * that some assignment before `before` gives one. */
static bool reaches_width(const WcFile *f, int k, int open, int before)
{
	if (!wc_ident(f, k))
		return false;
	if (wc_op(f, k + 1, WP_LPAREN))
		return wc_op(f, k + 2, WP_RPAREN) && (width_operand(f, k) || returns_width(f, k));
	if (width_operand(f, k))
		return true;
	for (int a = open + 1; a < before; a++) {
		if (!wc_same_ident(f, a, k) || !wc_op(f, a + 1, WP_ASSIGN) || wc_op(f, a - 1, WP_DOT) ||
		    wc_op(f, a - 1, WP_ARROW))
			continue;
		int e = a + 2;
		int depth = 0;
		for (; e < before; e++) {
			if (wc_is_open(f, e))
				depth++;
			else if (wc_is_close(f, e) && --depth < 0)
				break;
			else if (depth == 0 && (wc_op(f, e, WP_SEMI) || wc_op(f, e, WP_COMMA)))
				break;
		}
		if (expr_has_width(f, a + 2, e))
			return true;
	}
	return false;
}

/* The variable the statement at i doubles: p <<= 1, p *= 2, p += p,
 * p = p << 1, p = p * 2, p = 2 * p, p = p + p. -1 when not one. */
static int doubled_at(const WcFile *f, int i)
{
	if (!wc_ident(f, i) || wc_op(f, i - 1, WP_DOT) || wc_op(f, i - 1, WP_ARROW))
		return -1;
	if ((wc_op(f, i + 1, WP_SHL_EQ) && wc_value_is(f, i + 2, 1)) ||
	    (wc_op(f, i + 1, WP_STAR_EQ) && wc_value_is(f, i + 2, 2)) ||
	    (wc_op(f, i + 1, WP_PLUS_EQ) && wc_same_ident(f, i + 2, i)))
		if (wc_op(f, i + 3, WP_SEMI))
			return i;
	if (!wc_op(f, i + 1, WP_ASSIGN) || !wc_op(f, i + 5, WP_SEMI))
		return -1;
	int a = i + 2, b = i + 4;
	if (wc_same_ident(f, a, i) && ((wc_op(f, i + 3, WP_SHL) && wc_value_is(f, b, 1)) ||
	                               (wc_op(f, i + 3, WP_STAR) && wc_value_is(f, b, 2)) ||
	                               (wc_op(f, i + 3, WP_PLUS) && wc_same_ident(f, b, i))))
		return i;
	if (wc_op(f, i + 3, WP_STAR) && wc_value_is(f, a, 2) && wc_same_ident(f, b, i))
		return i;
	return -1;
}

static bool relational(const WcFile *f, int i)
{
	return wc_op(f, i, WP_LT) || wc_op(f, i, WP_GT) || wc_op(f, i, WP_LE) || wc_op(f, i, WP_GE);
}

/* The loop counts 5 steps: i = 0; i < 5 (or i <= 4, i = 1; i <= 5); ++i.
 * The bound's token, or -1. */
static int five_steps(const WcFile *f, const WcFor *h)
{
	uint64_t a, b;
	int init = h->var + 2;
	if (init + 1 != h->init1 || !wc_value(f, init, &a) || a > 1 || !step_increments(f, h))
		return -1;
	if (h->cond0 + 3 != h->cond1 || !wc_same_ident(f, h->cond0, h->var) || !wc_value(f, h->cond0 + 2, &b))
		return -1;
	uint64_t trips = wc_op(f, h->cond0 + 1, WP_LT) ? b - a : wc_op(f, h->cond0 + 1, WP_LE) ? b - a + 1 : 0;
	return b >= a && trips == 5 ? h->cond0 + 2 : -1;
}

static void check_doubling_cap(WcFile *f, const WcFor *h, int from, int end)
{
	int fn = wc_func_at(f, from);
	int b = five_steps(f, h);
	if (fn < 0 || b < 0)
		return;
	for (int i = from; i < end; i++) {
		int d = doubled_at(f, i);
		if (d < 0 || wc_same_ident(f, d, h->var))
			continue;
		for (int c = from; c < end; c++) {
			if (!relational(f, c))
				continue;
			int x = -1;
			if (wc_same_ident(f, c - 1, d))
				x = c + 1;
			else if (wc_same_ident(f, c + 1, d) && wc_ident(f, c - 1) && !wc_op(f, c - 2, WP_DOT) &&
			         !wc_op(f, c - 2, WP_ARROW) && !wc_op(f, c - 2, WP_SCOPE))
				x = c - 1;
			if (x < 0 || wc_same_ident(f, x, d) || !reaches_width(f, x, f->fns[fn].open, from))
				continue;
			wc_find(f, b, "H1", "doubling-cap", "double while the value is below the warp size",
				"loop of 5 doubling steps stops at 32, but %.*s can reach the device's width (64 on CDNA)",
				(int)f->t[x].len, f->src.text + f->t[x].off);
			return;
		}
	}
}

static void check_for(WcFile *f, int i)
{
	WcFor h;
	if (!wc_for_header(f, i + 1, &h) || h.var < 0)
		return;
	int close = h.step1;
	int end = body_end(f, close + 1);
	if (end < 0)
		return;
	if (!body_shuffles(f, close + 1, end, h.var)) {
		check_doubling_cap(f, &h, close + 1, end);
		return;
	}
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
