/* rule_branch.c: H10, a full lane mask in a partially active wavefront.
 *
 *   if (tid < 32) v += __shfl_xor_sync(0xffffffff, v, 16);
 *
 * is the whole first warp on NVIDIA, but only half of the first 64-lane
 * wavefront: the mask names lanes 32..63, which never arrive (undefined
 * behaviour, a hang on some parts). Even ~0ull is wrong there. A branch
 * excludes lanes when its condition compares a lane id, a 32-lane warp id,
 * or a thread index against a bound that is not a multiple of 64 (bounds
 * in warpSize, and physical warp ids, keep whole wavefronts together).
 * The lanes after "if (cond) return;" are such a branch too. The fix is
 * the mask of the lanes that are active, __activemask(). */
#include "warpcheck/warpcheck.h"

#include <stdlib.h>

static bool comparison(WcPunct op)
{
	return op == WP_LT || op == WP_LE || op == WP_GT || op == WP_GE || op == WP_EQ || op == WP_NE;
}

/* Bounds of the comparison operand around `op` inside [lo, hi): up to a
 * bracket of the condition, &&, || or ?. dir is -1 (left) or +1 (right). */
static int operand_edge(const WcFile *f, int op, int lo, int hi, int dir)
{
	int depth = 0, i = op + dir;
	for (; i >= lo && i < hi; i += dir) {
		const WcTok *t = &f->t[i];
		if (t->kind != WT_PUNCT)
			continue;
		bool open = t->op == WP_LPAREN || t->op == WP_LBRACK, close = t->op == WP_RPAREN || t->op == WP_RBRACK;
		if ((dir < 0 && close) || (dir > 0 && open))
			depth++;
		else if ((dir < 0 && open) || (dir > 0 && close)) {
			if (--depth < 0)
				break;
		} else if (depth == 0 && (t->op == WP_ANDAND || t->op == WP_OROR || t->op == WP_QUESTION ||
		                          t->op == WP_NOT || comparison((WcPunct)t->op)))
			break;
	}
	return i - dir;  /* the operand's last token in direction dir */
}

/* Does a thread index compared with `op` against value v leave some lanes
 * of a 64-lane wavefront on each side? */
static bool splits_wave(WcPunct op, uint64_t v)
{
	if (op == WP_EQ || op == WP_NE)
		return true;
	uint64_t edge = op == WP_LT || op == WP_GE ? v : v + 1;
	return edge % 64 != 0;
}

/* One comparison at `op` in a condition: does it exclude lanes? */
static bool comparison_excludes(const WcFile *f, int op, int lo, int hi)
{
	int l0 = operand_edge(f, op, lo, hi, -1), r1 = operand_edge(f, op, lo, hi, +1);
	if (l0 > op - 1 || r1 < op + 1)
		return false;
	WcView a = wc_expr_view(f, l0, op), b = wc_expr_view(f, op + 1, r1 + 1);
	if (wc_view_lane(a) || wc_view_lane(b) || a == WV_WARP32 || b == WV_WARP32)
		return true;
	uint64_t v;
	WcPunct p = (WcPunct)f->t[op].op;
	if ((a == WV_TID || a == WV_GTID || a == WV_THREAD) && r1 == op + 1 && wc_value(f, op + 1, &v))
		return splits_wave(p, v);
	return false;
}

/* The condition (open, close) of an if excludes some lanes of a wavefront. */
static bool excludes_lanes(const WcFile *f, int open, int close)
{
	bool any_cmp = false;
	for (int k = open + 1; k < close; k++) {
		if (f->t[k].kind != WT_PUNCT || !comparison((WcPunct)f->t[k].op))
			continue;
		any_cmp = true;
		if (comparison_excludes(f, k, open + 1, close))
			return true;
	}
	if (any_cmp)
		return false;
	WcView v = wc_expr_view(f, open + 1, close);  /* if (lane), if (!(tid & 31)) */
	return wc_view_lane(v) || v == WV_WARP32;
}

/* Marks [from, to] as run by part of a wavefront, because of the if at `why`. */
static void mark(int *partial, int from, int to, int why)
{
	for (int i = from; i <= to; i++)
		if (partial[i] < 0)
			partial[i] = why;
}

/* End of the block that holds token i (its "}"), or the function's end. */
static int block_end(const WcFile *f, int i, int limit)
{
	int depth = 0;
	for (; i < limit; i++) {
		if (wc_op(f, i, WP_LBRACE))
			depth++;
		else if (wc_op(f, i, WP_RBRACE) && --depth < 0)
			return i;
	}
	return limit;
}

/* The statement at s leaves: return, break, continue (maybe in braces). */
static bool exits(const WcFile *f, int s)
{
	if (wc_op(f, s, WP_LBRACE))
		s++;
	return wc_kw(f, s, WK_return) || wc_kw(f, s, WK_break) || wc_kw(f, s, WK_continue);
}

static void mark_if(const WcFile *f, int i, int fn_close, int *partial)
{
	int open = i + 1, close = wc_match(f, open);
	if (close < 0 || close >= fn_close || !excludes_lanes(f, open, close))
		return;
	int end = wc_stmt_end(f, close + 1);
	bool has_else = wc_kw(f, end + 1, WK_else);  /* after a block; a plain statement took it already */
	if (has_else)
		end = wc_stmt_end(f, end + 2);
	end = imin(end, fn_close);
	mark(partial, close + 1, end, i);
	if (!has_else && exits(f, close + 1))
		mark(partial, end + 1, block_end(f, end + 1, fn_close), i);
}

static void check_call(WcFile *f, int i, int why)
{
	if (!wc_op(f, i + 1, WP_LPAREN) || wc_mask_dropped(f, i))
		return;
	int s[8], e[8];
	bool only32;
	if (wc_call_args(f, i + 1, s, e, 8) < 1 || !wc_full_mask(f, s[0], e[0], &only32))
		return;
	WcFinding *fd = wc_find(f, s[0], "H10", "partial-wave-mask",
		"use the mask of the active lanes (__activemask(), 64-bit on HIP) or restructure",
		"full lane mask in %.*s inside a branch only some lanes take (line %d): on a 64-lane wavefront "
		"it names lanes that never arrive",
		(int)f->t[i].len, f->src.text + f->t[i].off, f->t[why].line);
	wc_edit(fd, f, s[0], e[0] - 1, "__activemask()");
}

static bool has_sync(const WcFile *f, int from, int to)
{
	for (int i = from; i < to; i++)
		if (wc_is_sync(f, i))
			return true;
	return false;
}

static void check_function(WcFile *f, const WcFunc *fn, int *partial)
{
	if (!has_sync(f, fn->open, fn->close))
		return;
	for (int i = fn->open; i <= fn->close; i++)
		partial[i] = -1;
	for (int i = fn->open; i < fn->close; i++)
		if (wc_kw(f, i, WK_if) && wc_op(f, i + 1, WP_LPAREN))
			mark_if(f, i, fn->close, partial);
	for (int i = fn->open; i < fn->close; i++)
		if (partial[i] >= 0 && wc_is_sync(f, i))
			check_call(f, i, partial[i]);
}

void wc_rule_branch(WcFile *f)
{
	if (f->nfns == 0)
		return;
	int *partial = xmalloc((size_t)f->n * sizeof *partial);
	for (int k = 0; k < f->nfns; k++)
		check_function(f, &f->fns[k], partial);
	free(partial);
}
