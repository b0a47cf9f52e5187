/* rule_branch.c: H10, a full lane mask in a partially active wavefront.
 *
 *   if (tid < 32) v += __shfl_xor_sync(0xffffffff, v, 16);
 *
 * is the whole first warp on NVIDIA, but only half of the first 64-lane
 * wavefront: the mask names lanes 32..63, which never arrive (undefined
 * behaviour, a hang on some parts). Even ~0ull is wrong there.
 *
 * Code that only part of a wavefront runs: the body of an if (and its
 * else), of a loop, a switch, an arm of ?:, and the rest of a block after
 * "if (cond) return;" (or break, continue). How sure the split is depends
 * on the condition:
 *   - lanes: it compares a lane id, a 32-lane warp id, or a thread index
 *     against a constant that is not a multiple of 64 (tid < 32, lane == 0);
 *     the mask of the active lanes, __activemask(), is the fix;
 *   - bound: a thread index against a run-time bound (i < n): part of a
 *     wavefront takes it unless the bound is a multiple of 64;
 *   - data: a value that differs between lanes (in[i] > 0).
 * For the last two the mask of the active lanes is right for votes, ballots
 * and __syncwarp, but a shuffle there reads lanes that may not be active,
 * so shuffles get no automatic rewrite.
 * Conditions that keep wavefronts whole are not splits: bounds in warpSize
 * or in multiples of 64, tid < blockDim.x, physical warp ids (tid /
 * warpSize), blockIdx, parameters and votes. */
#include "warpcheck/warpcheck.h"

#include <stdlib.h>

typedef enum { SPLIT_NONE, SPLIT_DATA, SPLIT_BOUND, SPLIT_LANES } Split;  /* weakest first */

/* Why a token runs in part of a wavefront: the statement that splits it. */
typedef struct Partial {
	int why;       /* the if, for, while, do, switch or ?, or -1 */
	Split split;
} Partial;

static bool comparison(WcPunct op)
{
	return op == WP_LT || op == WP_LE || op == WP_GT || op == WP_GE || op == WP_EQ || op == WP_NE;
}

/* `c OP x` read as `x OP' c`. */
static WcPunct mirrored(WcPunct op)
{
	return op == WP_LT ? WP_GT : op == WP_GT ? WP_LT : op == WP_LE ? WP_GE : op == WP_GE ? WP_LE : op;
}

/* Values that pick out lanes: thread indices, lanes and 32-lane warp ids. */
static bool lane_like(WcVal v)
{
	return v.varying && wc_view_thread(v.view);
}

/* Does `x OP c`, for a constant c, hold for some lanes of a 64-lane
 * wavefront and not for others? Lanes of a 32-lane group take the values
 * 0..31 in both halves, physical lanes 0..63, 32-lane warp ids count
 * thread indices in 32s. */
static bool constant_splits(WcView x, WcPunct op, uint64_t c)
{
	if (op == WP_EQ || op == WP_NE)
		return true;
	uint64_t edge = op == WP_LT || op == WP_GE ? c : c + 1;  /* first value on the upper side */
	if (x == WV_LANE32)
		return edge > 0 && edge < 32;
	if (x == WV_LANE)
		return edge > 0 && edge < 64;
	if (x == WV_WARP32)
		edge *= 32;
	return edge % 64 != 0;
}

/* x OP bound, where x picks out lanes. */
static Split compare_lanes(WcVal x, WcPunct op, WcVal bound)
{
	if (bound.known)
		return constant_splits(x.view, op, bound.num) ? SPLIT_LANES : SPLIT_NONE;
	if (op == WP_EQ || op == WP_NE)
		return SPLIT_LANES;  /* one lane, or all but one */
	if (bound.whole && x.view != WV_WARP32)
		return SPLIT_NONE;  /* tid < k * warpSize, lane < warpSize */
	if (bound.view == WV_DIM && !bound.varying)
		return SPLIT_NONE;  /* tid < blockDim.x holds in every thread */
	return bound.varying ? SPLIT_DATA : SPLIT_BOUND;
}

/* The comparison at op, with its operands [lo, op) and (op, hi). */
static Split compare(const WcFile *f, int lo, int op, int hi)
{
	WcVal a = wc_expr_val(f, lo, op), b = wc_expr_val(f, op + 1, hi);
	WcPunct p = (WcPunct)f->t[op].op;
	if (lane_like(a) && (!lane_like(b) || wc_view_lane(a.view) || a.view == WV_WARP32))
		return compare_lanes(a, p, b);
	if (lane_like(b))
		return compare_lanes(b, mirrored(p), a);
	return a.varying || b.varying ? SPLIT_DATA : SPLIT_NONE;
}

/* A condition with no comparison: if (lane), if (!(tid & 31)), if (flag). */
static Split truth(WcVal v)
{
	if (lane_like(v))
		return SPLIT_LANES;
	return v.varying ? SPLIT_DATA : SPLIT_NONE;
}

static Split stronger(Split a, Split b)
{
	return a > b ? a : b;
}

/* How the condition [lo, hi) splits a wavefront: the strongest split of
 * its terms (the operands of top-level && and ||). nest: parentheses
 * entered so far. */
static Split terms_split(const WcFile *f, int lo, int hi, int nest)
{
	Split s = SPLIT_NONE;
	int depth = 0, start = lo, cmp = -1;
	bool choice = false;  /* a ?: at the top: judged as one value */
	for (int i = lo; i <= hi; i++) {
		bool end = i == hi;
		if (!end && wc_is_open(f, i))
			depth++;
		else if (!end && wc_is_close(f, i))
			depth--;
		else if (!end && depth == 0 && wc_op(f, i, WP_QUESTION))
			choice = true;
		else if (!end && depth == 0 && cmp < 0 && f->t[i].kind == WT_PUNCT && comparison((WcPunct)f->t[i].op))
			cmp = i;
		if (!end && !(depth == 0 && (wc_op(f, i, WP_ANDAND) || wc_op(f, i, WP_OROR))))
			continue;
		if (start >= i) {
			/* an empty term */
		} else if (choice) {
			s = stronger(s, truth(wc_expr_val(f, start, i)));
		} else if (cmp >= 0) {
			s = stronger(s, compare(f, start, cmp, i));
		} else {
			int a = start;
			while (a < i && wc_op(f, a, WP_NOT))
				a++;
			if (wc_op(f, a, WP_LPAREN) && wc_match(f, a) == i - 1 && nest < 64)
				s = stronger(s, terms_split(f, a + 1, i - 1, nest + 1));  /* (a < n || b), !(x) */
			else
				s = stronger(s, truth(wc_expr_val(f, start, i)));
		}
		start = i + 1;
		cmp = -1;
		choice = false;
	}
	return s;
}

static Split condition_split(const WcFile *f, int lo, int hi)
{
	return terms_split(f, lo, hi, 0);
}

bool wc_condition_splits(const WcFile *f, int lo, int hi)
{
	return terms_split(f, lo, hi, 0) != SPLIT_NONE;
}

/* The ranges run by part of a wavefront, collected for one function, then
 * painted: a token takes the strongest split of the ranges that hold it,
 * and of those the first marked. Painting the strongest first, each range
 * in turn, with a skip list past tokens already painted, touches every
 * token once however deep the branches nest. */
typedef struct Range {
	int from, to, why;
	Split split;
} Range;

typedef struct Marks {
	Partial *p;
	int *next;       /* next unpainted token at or after i (path-halved) */
	int *encl;       /* the "}" of the block that holds token i, or the function's end */
	Range *r;
	int n, cap;
} Marks;

static void mark(Marks *m, int from, int to, int why, Split split)
{
	if (from > to)
		return;
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->r = base_realloc(m->r, (size_t)m->cap * sizeof *m->r);
	}
	m->r[m->n++] = (Range){from, to, why, split};
}

static int unpainted(int *next, int i)
{
	while (next[i] != i) {
		next[i] = next[next[i]];
		i = next[i];
	}
	return i;
}

static void paint(Marks *m, int lo, int hi)
{
	for (int i = lo; i <= hi + 1; i++) {
		m->p[i] = (Partial){-1, SPLIT_NONE};
		m->next[i] = i;
	}
	for (Split s = SPLIT_LANES; s > SPLIT_NONE; s--)
		for (int k = 0; k < m->n; k++) {
			const Range *r = &m->r[k];
			if (r->split != s)
				continue;
			int to = imin(r->to, hi);
			for (int i = unpainted(m->next, imax(r->from, lo)); i <= to; i = unpainted(m->next, i + 1)) {
				m->p[i] = (Partial){r->why, s};
				m->next[i] = i + 1;
			}
		}
	m->n = 0;
}

/* encl[i] for the tokens of [lo, hi], as a scan from i would find it: a
 * "}" is its own, a "{" skips to after its match, hi ends every block. */
static void enclosing_blocks(const WcFile *f, int lo, int hi, int *encl)
{
	encl[hi] = hi;
	for (int i = hi - 1; i >= lo; i--) {
		if (wc_op(f, i, WP_RBRACE)) {
			encl[i] = i;
		} else if (wc_op(f, i, WP_LBRACE)) {
			int close = wc_match(f, i);
			encl[i] = close > i && close < hi ? encl[close + 1] : hi;
		} else {
			encl[i] = encl[i + 1];
		}
	}
}

/* The statement at s leaves: return, break, continue (maybe in braces). */
static bool exits(const WcFile *f, int s)
{
	if (wc_op(f, s, WP_LBRACE))
		s++;
	return wc_kw(f, s, WK_return) || wc_kw(f, s, WK_break) || wc_kw(f, s, WK_continue);
}

static void mark_if(const WcFile *f, int i, int fn_close, Marks *p)
{
	int open = i + 1, close = wc_match(f, open);
	if (close < 0 || close >= fn_close)
		return;
	Split split = condition_split(f, open + 1, close);
	if (split == SPLIT_NONE)
		return;
	int end = wc_stmt_end(f, close + 1);
	bool has_else = wc_kw(f, end + 1, WK_else);  /* after a block; a plain statement took it already */
	if (has_else)
		end = wc_stmt_end(f, end + 2);
	end = imin(end, fn_close);
	mark(p, close + 1, end, i, split);
	if (!has_else && exits(f, close + 1))
		mark(p, end + 1, end + 1 < fn_close ? p->encl[end + 1] : fn_close, i, split);
}

/* for, while, switch: the body after the parenthesised header; do: the
 * body before "while (cond);". A loop whose condition differs between
 * lanes runs its later trips in part of the wavefront. */
static void mark_loop(const WcFile *f, int i, int fn_close, Marks *p)
{
	int lo, hi, body, end;
	if (wc_kw(f, i, WK_do)) {
		body = i + 1;
		end = wc_stmt_end(f, body);
		if (!wc_kw(f, end + 1, WK_while) || !wc_op(f, end + 2, WP_LPAREN))
			return;
		lo = end + 3;
		hi = wc_match(f, end + 2);
	} else {
		int close = wc_match(f, i + 1);
		if (close < 0 || close >= fn_close || wc_op(f, close + 1, WP_SEMI))
			return;  /* the "while (cond);" of a do, or a loop with no body */
		lo = i + 2;
		hi = close;
		WcFor h;
		if (wc_kw(f, i, WK_for)) {
			if (!wc_for_header(f, i + 1, &h))
				return;
			lo = h.cond0;
			hi = h.cond1;
		}
		body = close + 1;
		end = wc_stmt_end(f, body);
	}
	if (hi < 0 || hi >= fn_close)
		return;
	Split split = condition_split(f, lo, hi);
	if (split != SPLIT_NONE)
		mark(p, body, imin(end, fn_close), i, split);
}

/* Start of the condition of the ?: at q: back to the start of the
 * expression (an assignment, a bracket, a comma, return, another ? or :). */
static int choice_start(const WcFile *f, int q, int lo)
{
	int depth = 0, i = q - 1;
	for (; i > lo; i--) {
		const WcTok *t = &f->t[i];
		if (wc_op(f, i, WP_LBRACE) || (depth == 0 && wc_op(f, i, WP_RBRACE)))
			break;
		if (wc_is_close(f, i)) {
			depth++;
		} else if (wc_is_open(f, i)) {
			if (--depth < 0)
				break;
		} else if (depth == 0 && (wc_kw(f, i, WK_return) ||
		           (t->kind == WT_PUNCT && (t->op == WP_SEMI || t->op == WP_COMMA || t->op == WP_ASSIGN ||
		            t->op == WP_QUESTION || t->op == WP_COLON || wc_compound_op(f, i) != WP_NONE)))) {
			break;
		}
	}
	return i + 1;
}

/* End (exclusive) of the two arms of the ?: at q. */
static int choice_end(const WcFile *f, int q, int hi)
{
	int depth = 0, nest = 0, i = q + 1;
	bool in_else = false;
	for (; i < hi; i++) {
		if (wc_is_open(f, i)) {
			depth++;
		} else if (wc_is_close(f, i)) {
			if (--depth < 0)
				break;
		} else if (depth == 0 && wc_op(f, i, WP_QUESTION)) {
			nest++;
		} else if (depth == 0 && wc_op(f, i, WP_COLON)) {
			if (nest > 0)
				nest--;
			else if (in_else)
				break;  /* the ":" of an enclosing ?: */
			else
				in_else = true;
		} else if (depth == 0 && (wc_op(f, i, WP_SEMI) || wc_op(f, i, WP_COMMA))) {
			break;
		}
	}
	return i;
}

static void mark_choice(const WcFile *f, int q, const WcFunc *fn, Marks *p)
{
	int lo = choice_start(f, q, fn->open);
	Split split = condition_split(f, lo, q);
	if (split != SPLIT_NONE)
		mark(p, q + 1, choice_end(f, q, fn->close) - 1, q, split);
}

static const char *const fix_active = "use the mask of the active lanes (__activemask(), 64-bit on HIP) or restructure";
static const char *const fix_reach = "let every lane of the wavefront reach the shuffle (choose the value, not the "
                                     "call), or read only active lanes with __activemask()";

static void check_call(WcFile *f, int i, const Partial *why)
{
	if (!wc_op(f, i + 1, WP_LPAREN) || wc_mask_dropped(f, i))
		return;
	int s[8], e[8];
	bool only32;
	if (wc_call_args(f, i + 1, s, e, 8) < 1 || !wc_full_mask(f, s[0], e[0], &only32))
		return;
	const WcTok *w = &f->t[why->why];
	bool branch = w->kind == WT_IDENT && (w->id == WK_if || w->id == WK_switch);
	const char *what = w->kind == WT_PUNCT ? "a conditional expression" : branch ? "a branch" : "a loop";
	/* The active lanes' mask is right for votes and __syncwarp. A shuffle
	 * may read a lane that is not active, except in an if on a fixed lane
	 * range (the first warp, whose H3 fix makes it the first wavefront). */
	bool edit = !wc_is_shuffle(f, i) || (why->split == SPLIT_LANES && w->kind == WT_IDENT && w->id == WK_if);
	const char *fmt = why->split == SPLIT_LANES
		? "full lane mask in %.*s inside %s only some lanes take (line %d): on a 64-lane wavefront it names "
		  "lanes that never arrive"
		: why->split == SPLIT_BOUND
		? "full lane mask in %.*s inside %s on a run-time bound (line %d): unless the bound is a multiple of "
		  "64, it names lanes of a 64-lane wavefront that never arrive"
		: "full lane mask in %.*s inside %s on a value that differs between lanes (line %d): it names lanes "
		  "that never arrive";
	WcFinding *fd = wc_find(f, s[0], "H10", "partial-wave-mask", edit ? fix_active : fix_reach, fmt,
		(int)f->t[i].len, f->src.text + f->t[i].off, what, wc_tok_line(f, w));
	if (edit)
		wc_edit(fd, f, s[0], e[0] - 1, "__activemask()");
}

static bool has_sync(const WcFile *f, int from, int to)
{
	for (int i = from; i < to; i++)
		if (wc_is_sync(f, i))
			return true;
	return false;
}

/* Functions of the file by name, with the first full-mask _sync call of
 * each body (-1 when none): calling one from code only part of a
 * wavefront runs is the same hazard one call away. */
typedef struct Callee {
	uint32_t id;
	int sync;
} Callee;

static int by_callee(const void *a, const void *b)
{
	const Callee *x = a, *y = b;
	return x->id != y->id ? (x->id < y->id ? -1 : 1) : x->sync - y->sync;
}

static int full_mask_sync(const WcFile *f, const WcFunc *fn)
{
	for (int i = fn->open; i < fn->close; i++) {
		int s[8], e[8];
		bool only32;
		if (wc_is_sync(f, i) && !f->t[i].cuda_only && wc_op(f, i + 1, WP_LPAREN) && !wc_mask_dropped(f, i) &&
		    wc_call_args(f, i + 1, s, e, 8) >= 1 && wc_full_mask(f, s[0], e[0], &only32))
			return i;
	}
	return -1;
}

/* The full-mask _sync call in the function the call at i names, or -1. */
static int callee_sync(const WcFile *f, int i, const Callee *cs, int n)
{
	if (!wc_ident(f, i) || f->t[i].id < WK__COUNT || !wc_op(f, i + 1, WP_LPAREN) || wc_op(f, i - 1, WP_DOT) ||
	    wc_op(f, i - 1, WP_ARROW))
		return -1;
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (cs[mid].id < f->t[i].id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && cs[lo].id == f->t[i].id; lo++)
		if (cs[lo].sync >= 0)
			return cs[lo].sync;
	return -1;
}

static void check_callee(WcFile *f, int i, int sync, const Partial *why)
{
	const WcTok *w = &f->t[why->why];
	if (why->split != SPLIT_LANES || w->kind != WT_IDENT || w->id != WK_if)
		return;  /* the surest case: an if on a lane or 32-lane warp id */
	wc_find(f, i, "H10", "partial-wave-mask", fix_active,
		"%.*s, called in a branch only some lanes take (line %d), uses a full lane mask in %.*s (line %d): on a "
		"64-lane wavefront it names lanes that never arrive",
		(int)f->t[i].len, f->src.text + f->t[i].off, wc_tok_line(f, w), (int)f->t[sync].len, f->src.text + f->t[sync].off,
		wc_tok_line(f, &f->t[sync]));
}

static void check_function(WcFile *f, const WcFunc *fn, Marks *m, const Callee *cs, int ncs)
{
	bool calls = false;
	for (int i = fn->open; i < fn->close && !calls; i++)
		calls = callee_sync(f, i, cs, ncs) >= 0;
	if (!calls && !has_sync(f, fn->open, fn->close))
		return;
	enclosing_blocks(f, fn->open, fn->close, m->encl);
	for (int i = fn->open; i < fn->close; i++) {
		if (wc_op(f, i, WP_QUESTION))
			mark_choice(f, i, fn, m);
		else if (!wc_ident(f, i))
			continue;
		else if (wc_kw(f, i, WK_if) && wc_op(f, i + 1, WP_LPAREN))
			mark_if(f, i, fn->close, m);
		else if (wc_kw(f, i, WK_do) || ((wc_kw(f, i, WK_for) || wc_kw(f, i, WK_while) || wc_kw(f, i, WK_switch)) &&
		                                wc_op(f, i + 1, WP_LPAREN)))
			mark_loop(f, i, fn->close, m);
	}
	paint(m, fn->open, fn->close);
	const Partial *p = m->p;
	for (int i = fn->open; i < fn->close; i++) {
		if (p[i].why < 0 || f->t[i].cuda_only)
			continue;  /* code only CUDA's toolchain compiles: its 32-lane warps are whole */
		if (wc_is_sync(f, i)) {
			check_call(f, i, &p[i]);
		} else if (calls) {
			int sync = callee_sync(f, i, cs, ncs);
			if (sync >= 0 && (sync < fn->open || sync > fn->close))
				check_callee(f, i, sync, &p[i]);
		}
	}
}

void wc_rule_branch(WcFile *f)
{
	if (f->nfns == 0)
		return;
	Marks m = {base_malloc((size_t)(f->n + 2) * sizeof *m.p), base_malloc((size_t)(f->n + 2) * sizeof *m.next),
	           base_malloc((size_t)(f->n + 2) * sizeof *m.encl), NULL, 0, 0};
	Callee *cs = base_malloc((size_t)f->nfns * sizeof *cs);
	bool any = false;
	for (int k = 0; k < f->nfns; k++) {
		cs[k] = (Callee){f->t[f->fns[k].name].id, full_mask_sync(f, &f->fns[k])};
		any = any || cs[k].sync >= 0;
	}
	qsort(cs, (size_t)f->nfns, sizeof *cs, by_callee);
	for (int k = 0; k < f->nfns; k++)
		check_function(f, &f->fns[k], &m, cs, any ? f->nfns : 0);
	free(cs);
	free(m.r);
	free(m.encl);
	free(m.next);
	free(m.p);
}
