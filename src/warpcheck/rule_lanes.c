/* rule_lanes.c: H3 (lane and warp ids computed with 32, "first warp"
 * tests) and H5 (lane constants such as 31 for "the last lane").
 *
 * `& 31`, `>> 5`, `% 32` are everyday bit tricks, so they are reported only
 * when the left operand comes from a thread index (the per-function
 * dataflow in dataflow.c says which names do). */
#include "warpcheck/warpcheck.h"

/* op at i is "/ 32" or ">> 5" of a derived operand: a 32-lane warp id. */
static bool warp_id32(const WcFile *f, int i)
{
	if (!(wc_op(f, i, WP_SLASH) && wc_value_is(f, i + 1, 32)) && !(wc_op(f, i, WP_SHR) && wc_value_is(f, i + 1, 5)))
		return false;
	return wc_operand_derived(f, i - 1);
}

/* Precedence-safe to swap the operator: the operand and the constant sit
 * between delimiters, so "tid & 31" may become "tid % warpSize". */
static bool isolated(const WcFile *f, int start, int after)
{
	const WcTok *b = start > 0 ? &f->t[start - 1] : NULL, *a = after < f->n ? &f->t[after] : NULL;
	bool before_ok = b && ((b->kind == WT_PUNCT && (b->op == WP_LPAREN || b->op == WP_ASSIGN ||
	                        b->op == WP_COMMA || b->op == WP_SEMI || b->op == WP_LBRACE || b->op == WP_LBRACK ||
	                        b->op == WP_QUESTION || b->op == WP_COLON)) || wc_kw(f, start - 1, WK_return));
	bool after_ok = a && a->kind == WT_PUNCT && (a->op == WP_RPAREN || a->op == WP_SEMI || a->op == WP_COMMA ||
	                a->op == WP_RBRACK || a->op == WP_QUESTION || a->op == WP_COLON);
	return before_ok && after_ok;
}

/* tid & (WARP_SIZE - 1): the mask spelled as an expression. */
static void check_mask_expr(WcFile *f, int i)
{
	if (!wc_op(f, i, WP_AMP) || !wc_op(f, i + 1, WP_LPAREN) || !wc_value_is(f, i + 2, 32) ||
	    !wc_op(f, i + 3, WP_MINUS) || f->t[i + 4 < f->n ? i + 4 : i].kind != WT_NUMBER ||
	    !wc_value_is(f, i + 4, 1) || !wc_op(f, i + 5, WP_RPAREN) || !wc_operand_derived(f, i - 1))
		return;
	WcFinding *fd = wc_find(f, i, "H3", "lane-index", "use tid % warpSize",
		"lane id computed for 32-lane warps ('& (%.*s - 1)'); a wavefront has 64 lanes",
		(int)f->t[i + 2].len, f->src.text + f->t[i + 2].off);
	if (isolated(f, wc_operand_start(f, i - 1), i + 6))
		wc_edit(fd, f, i, i + 5, "% warpSize");
}

static void check_op(WcFile *f, int i)
{
	uint64_t v;
	check_mask_expr(f, i);
	if (!wc_value(f, i + 1, &v) || !wc_operand_derived(f, i - 1))
		return;
	const char *fix = NULL, *repl = NULL;
	bool swap = false;  /* the operator changes too */
	WcPunct op = (WcPunct)f->t[i].op;
	if ((op == WP_PERCENT || op == WP_SLASH) && v == 32) {
		fix = op == WP_PERCENT ? "use tid % warpSize" : "use tid / warpSize";
		repl = "warpSize";
	} else if (op == WP_AMP && v == 31) {
		fix = "use tid % warpSize";
		repl = "% warpSize";
		swap = true;
	} else if (op == WP_SHR && v == 5) {
		fix = "use tid / warpSize";
		repl = "/ warpSize";
		swap = true;
	}
	if (!fix)
		return;
	WcFinding *fd = wc_find(f, i, "H3", "lane-index", fix,
		"lane or warp id computed for 32-lane warps ('%.*s %.*s'); a wavefront has 64 lanes",
		(int)f->t[i].len, f->src.text + f->t[i].off, (int)f->t[i + 1].len, f->src.text + f->t[i + 1].off);
	if (!swap)
		wc_edit(fd, f, i + 1, i + 1, repl);
	else if (isolated(f, wc_operand_start(f, i - 1), i + 2))
		wc_edit(fd, f, i, i + 1, repl);
}

/* The first use of array `name` after `from`, inside the declaration's
 * block, whose index is a lane of the physical wavefront (0..63): -1 when
 * none. */
static int lane_index_use(const WcFile *f, int name, int from)
{
	int depth = 0;
	for (int k = from; k + 1 < f->n && depth >= 0; k++) {
		depth += wc_op(f, k, WP_LBRACE) - wc_op(f, k, WP_RBRACE);
		if (!wc_same_ident(f, k, name) || !wc_op(f, k + 1, WP_LBRACK))
			continue;
		int close = wc_match(f, k + 1);
		if (close > k + 2 && wc_expr_view(f, k + 2, close) == WV_LANE)
			return k;
	}
	return -1;
}

/* The first use of array `name` after `from`, inside the declaration's
 * block, whose index is a 32-lane warp id; -1 when none. */
static int warp32_index_use(const WcFile *f, int name, int from)
{
	int depth = 0;
	for (int k = from; k + 1 < f->n && depth >= 0; k++) {
		depth += wc_op(f, k, WP_LBRACE) - wc_op(f, k, WP_RBRACE);
		if (!wc_same_ident(f, k, name) || !wc_op(f, k + 1, WP_LBRACK))
			continue;
		int close = wc_match(f, k + 1);
		for (int m = k + 2; m < close; m++)
			if (warp_id32(f, m) || (wc_ident(f, m) && f->t[m].view == WV_WARP32))
				return k;
	}
	return -1;
}

/* The parameter token of function fn (of the file) at position arg, or -1:
 * the last name before the top-level "," or ")" that ends it. */
static int param_at(const WcFile *f, const WcFunc *fn, int arg)
{
	int open = fn->name + 1;
	if (!wc_op(f, open, WP_LPAREN))
		return -1;
	int close = wc_match(f, open), depth = 0, n = 0, last = -1;
	for (int k = open + 1; k < close; k++) {
		if (wc_op(f, k, WP_LPAREN) || wc_op(f, k, WP_LBRACK) || wc_op(f, k, WP_LT))
			depth++;
		else if (wc_op(f, k, WP_RPAREN) || wc_op(f, k, WP_RBRACK) || wc_op(f, k, WP_GT))
			depth--;
		else if (depth == 0 && wc_op(f, k, WP_COMMA)) {
			if (n++ == arg)
				return last;
			last = -1;
		} else if (depth == 0 && wc_ident(f, k) && !(wc_flags(f, k) & (WN_TYPE | WN_QUALIFIER))) {
			last = k;
		}
	}
	return n == arg ? last : -1;
}

/* The array `name` passed whole to a function of the file (put(slots, v))
 * that indexes that parameter by a lane of the wavefront: the use there,
 * or -1. One level deep. */
static int lane_index_in_callee(const WcFile *f, int name, int from)
{
	int depth = 0;
	for (int k = from; k + 1 < f->n && depth >= 0; k++) {
		depth += wc_op(f, k, WP_LBRACE) - wc_op(f, k, WP_RBRACE);
		if (!wc_same_ident(f, k, name) || !(wc_op(f, k - 1, WP_LPAREN) || wc_op(f, k - 1, WP_COMMA)) ||
		    !(wc_op(f, k + 1, WP_COMMA) || wc_op(f, k + 1, WP_RPAREN)))
			continue;
		int open = k - 1, arg = 0, pd = 0;  /* the call's "(" and the argument's position */
		for (; open > from; open--) {
			if (wc_op(f, open, WP_RPAREN) || wc_op(f, open, WP_RBRACK))
				pd++;
			else if ((wc_op(f, open, WP_LPAREN) || wc_op(f, open, WP_LBRACK)) && pd-- == 0)
				break;
			else if (pd == 0 && wc_op(f, open, WP_COMMA))
				arg++;
		}
		if (!wc_op(f, open, WP_LPAREN) || !wc_ident(f, open - 1))
			continue;
		for (int g = 0; g < f->nfns; g++) {
			const WcFunc *fn = &f->fns[g];
			if (fn->name < 0 || f->t[fn->name].id != f->t[open - 1].id || fn->open <= fn->name)
				continue;
			int prm = param_at(f, fn, arg);
			int use = prm < 0 ? -1 : lane_index_use(f, prm, fn->open + 1);
			if (use >= 0)
				return use;
		}
	}
	return -1;
}

/* The use at `use` of an array sized by the name at `bound` is guarded by
 * a test on that name: in its statement (lane < NUM_WARPS ? s[lane] : 0)
 * or in the condition of an if whose body holds it. */
static bool bound_guarded(const WcFile *f, int bound, int use)
{
	int k = use - 1;
	for (; k >= 0 && !wc_op(f, k, WP_SEMI) && !wc_op(f, k, WP_LBRACE) && !wc_op(f, k, WP_RBRACE); k--)
		if (wc_same_ident(f, k, bound))
			return true;
	int fn = wc_func_at(f, use);
	if (fn < 0)
		return false;
	for (k = f->fns[fn].open; k < use; k++) {
		if (!wc_kw(f, k, WK_if) || !wc_op(f, k + 1, WP_LPAREN))
			continue;
		int close = wc_match(f, k + 1);
		if (close < 0 || close > use || wc_stmt_end(f, close + 1) < use)
			continue;
		for (int c = k + 2; c < close; c++)
			if (wc_same_ident(f, c, bound))
				return true;
	}
	return false;
}

/* __shared__ T s[NUM_WARPS], NUM_WARPS a count of warps computed from the
 * device's width (#define NUM_WARPS (1024 / warpSize): 16 on a 64-lane
 * wavefront), indexed by a lane of the wavefront with no test on the
 * count: lanes 16..63 read past it. */
static void check_warp_count_slots(WcFile *f, int j)
{
	int b = j + 1;
	if (!wc_ident(f, b) || !wc_op(f, b + 1, WP_RBRACK) || wc_warp_size_alias(f, b) || !wc_warp_size_expr(f, b))
		return;
	int use = lane_index_use(f, j - 1, j + 3);
	if (use < 0 || bound_guarded(f, b, use))
		return;
	wc_find(f, use + 2, "H3", "lane-storage", "read the slot only in lanes below the count "
		"(lane < NUM_WARPS ? s[lane] : 0)",
		"%.*s has a slot per warp (%.*s: fewer on a 64-lane wavefront) but a lane of the wavefront indexes it: "
		"lanes past the count read past it",
		(int)f->t[j - 1].len, f->src.text + f->t[j - 1].off, (int)f->t[b].len, f->src.text + f->t[b].off);
}

/* __shared__ T s[32] whose index is a 32-lane warp id. */
static void check_shared(WcFile *f, int i)
{
	int j = i + 1;
	while (j < f->n && !wc_op(f, j, WP_LBRACK) && !wc_op(f, j, WP_SEMI) && !wc_op(f, j, WP_ASSIGN))
		j++;
	if (wc_op(f, j, WP_LBRACK))
		check_warp_count_slots(f, j);
	if (!wc_op(f, j, WP_LBRACK) || !wc_value_is(f, j + 1, 32) || !wc_op(f, j + 2, WP_RBRACK))
		return;
	int use = warp32_index_use(f, j - 1, j + 3);
	if (use >= 0) {
		wc_find(f, j + 1, "H3", "per-warp-storage",
			"size per-warp storage by blockDim.x / warpSize and index it by tid / warpSize",
			"per-warp array of 32 slots indexed by a 32-lane warp id (line %d)", wc_tok_line(f, &f->t[use]));
		return;
	}
	use = lane_index_use(f, j - 1, j + 3);
	if (use < 0)
		use = lane_index_in_callee(f, j - 1, j + 3);
	if (use >= 0)
		wc_find(f, j + 1, "H3", "lane-storage", "size the array by warpSize's largest value (64)",
			"array of 32 slots indexed by a lane of the wavefront (line %d): lanes 32..63 of a 64-lane "
			"wavefront write past it", wc_tok_line(f, &f->t[use]));
}

/* A name for the warp's width (kWarpSize, WARP_WIDTH). */
static bool wide_name(const WcFile *f, int i)
{
	uint16_t fl = wc_flags(f, i);
	return wc_ident(f, i) && ((fl & WN_WARP_SIZE) || ((fl & WN_WARPISH) && (fl & WN_WIDTHISH)));
}

/* H5: lane < 16, lane < 24 on a lane of the physical wavefront, in a
 * function that shuffles: a fraction of a 32-lane warp taken for the same
 * fraction of the wavefront. */
static void check_lane_fraction(WcFile *f, int close_if, int op)
{
	WcPunct p = (WcPunct)f->t[op].op;
	uint64_t v;
	int c = op + 1;
	if (!(p == WP_LT || p == WP_GE) || !wc_value(f, c, &v) || (v != 8 && v != 16 && v != 24) || c > close_if ||
	    f->t[c].kind != WT_NUMBER)
		return;
	if (!(wc_op(f, c + 1, WP_RPAREN) || wc_op(f, c + 1, WP_ANDAND) || wc_op(f, c + 1, WP_OROR)))
		return;
	int start = wc_operand_start(f, op - 1);
	if (wc_expr_view(f, start, op) != WV_LANE)
		return;
	int fn = wc_func_at(f, op);
	if (fn < 0)
		return;
	/* A shuffle after the if whose offset reaches past the limit: lanes
	 * that took the branch read lanes the 32-lane reading said were the rest. */
	bool shuffles = false;
	int end = wc_stmt_end(f, close_if + 1);
	for (int k = end + 1; k < f->fns[fn].close && !shuffles; k++) {
		if (!wc_is_shuffle(f, k) || !wc_op(f, k + 1, WP_LPAREN) || wc_kw(f, k, WK___shfl) || wc_kw(f, k, WK___shfl_sync))
			continue;
		int s0[8], e0[8];
		int n = wc_call_args(f, k + 1, s0, e0, 8);
		int off = (wc_flags(f, k) & WN_SYNC) ? 2 : 1;
		uint64_t c;
		if (n > off && e0[off] == s0[off] + 1 && wc_value(f, s0[off], &c) && (c >= v || v + c >= 32))
			shuffles = true;
	}
	/* Or a shuffle before it over the whole wavefront (no width, or the
	 * device's) from a computed lane: data packed across the warp, whose
	 * first 16 or 24 lanes then hold what 32 lanes gave. */
	for (int k = f->fns[fn].open; k < start && !shuffles; k++) {
		bool wrap = wc_is_shuffle_wrapper(f, k) || wc_is_shuffle_macro(f, k);
		if (!(wc_is_shuffle(f, k) || wrap) || !wc_op(f, k + 1, WP_LPAREN))
			continue;
		int s0[8], e0[8];
		int n = wc_call_args(f, k + 1, s0, e0, 8);
		int off = !wrap && (wc_flags(f, k) & WN_SYNC) ? 2 : 1;  /* wrappers: (value, lane, width) */
		if (n <= off || (e0[off] == s0[off] + 1 && f->t[s0[off]].kind == WT_NUMBER))
			continue;
		int w = s0[off + 1];
		shuffles = n == off + 1 || (n == off + 2 && e0[off + 1] == w + 1 &&
		                            (wc_warp_size_expr(f, w) || (wide_name(f, w) && !wc_value_is(f, w, 32))));
	}
	if (!shuffles)
		return;
	const char *frac = v == 8 ? "a quarter" : v == 16 ? "half" : "three quarters";
	wc_find(f, c, "H5", "lane-fraction", v == 8 ? "use warpSize / 4" : v == 16 ? "use warpSize / 2" :
		"use warpSize * 3 / 4",
		"'%.*s %.*s' is %s of a 32-lane warp; on a 64-lane wavefront the shuffles across "
		"the wavefront reach lanes it leaves out", (int)f->t[op].len, f->src.text + f->t[op].off, (int)f->t[c].len, f->src.text + f->t[c].off, frac);
}

/* "first warp" tests in an if: tid < 32, tid <= 31, tid >= 32, tid > 31,
 * on a block thread index (not a lane, not a global index). */
static void check_first_warp(WcFile *f, int close_if, int op)
{
	WcPunct p = (WcPunct)f->t[op].op;
	uint64_t v;
	int c = op + 1;
	if (!wc_value(f, c, &v) || !(wc_op(f, c + 1, WP_RPAREN) || wc_op(f, c + 1, WP_ANDAND) ||
	                             wc_op(f, c + 1, WP_OROR)))
		return;
	bool at32 = (p == WP_LT || p == WP_GE) && v == 32, at31 = (p == WP_LE || p == WP_GT) && v == 31;
	if ((!at32 && !at31) || c > close_if)
		return;
	int start = wc_operand_start(f, op - 1);
	if (wc_expr_view(f, start, op) != WV_TID)
		return;
	WcFinding *fd = wc_find(f, c, "H3", "first-warp", at32 ? "compare with warpSize" : "compare with warpSize - 1",
		"'%.*s %.*s' selects the first 32 threads, not the first wavefront (64 lanes on CDNA)",
		(int)f->t[op].len, f->src.text + f->t[op].off, (int)f->t[c].len, f->src.text + f->t[c].off);
	if (f->t[c].kind == WT_NUMBER || (wc_flags(f, c) & WN_WARP_SIZE))
		wc_edit(fd, f, c, c, at32 ? "warpSize" : "(warpSize - 1)");
}

static void check_if(WcFile *f, int i)
{
	if (!wc_op(f, i + 1, WP_LPAREN))
		return;
	int close = wc_match(f, i + 1);
	for (int k = i + 2; k < close; k++) {
		const WcTok *t = &f->t[k];
		if (t->kind == WT_PUNCT && (t->op == WP_LT || t->op == WP_LE || t->op == WP_GT || t->op == WP_GE)) {
			check_first_warp(f, close, k);
			check_lane_fraction(f, close, k);
		}
	}
}

/* H5: lane == 31, __shfl(v, 31) as "the last lane". */
static void check_last_lane(WcFile *f, int i)
{
	uint64_t v;
	if (wc_op(f, i, WP_EQ) && wc_value(f, i + 1, &v) && v == 31 && f->t[i + 1].kind == WT_NUMBER &&
	    wc_operand_derived(f, i - 1)) {
		WcFinding *fd = wc_find(f, i + 1, "H5", "lane-constant", "use warpSize - 1",
			"lane 31 is not the last lane of a 64-lane wavefront");
		wc_edit(fd, f, i + 1, i + 1, "warpSize - 1");
		return;
	}
	if (!wc_kw(f, i, WK___shfl) && !wc_kw(f, i, WK___shfl_sync))
		return;
	int s[8], e[8];
	int n = wc_call_args(f, i + 1, s, e, 8);
	int src = wc_kw(f, i, WK___shfl) ? 1 : 2;
	if (n != src + 1 || e[src] != s[src] + 1 || !wc_value(f, s[src], &v) || v != 31)
		return;
	WcFinding *fd = wc_find(f, s[src], "H5", "lane-constant", "use warpSize - 1",
		"shuffle reads lane 31 as the last lane; a 64-lane wavefront ends at lane 63");
	if (f->t[s[src]].kind == WT_NUMBER)
		wc_edit(fd, f, s[src], s[src], "warpSize - 1");
}

/* wid * warpSize with wid = tid / 32: a warp id counted in 32s scaled by
 * the device's width. On a 64-lane wavefront wid runs to twice the number
 * of wavefronts and wid * 64 + i lands past the rows the block owns: a mix
 * of the two views in any scheme. The finding is at the warp id. */
static void check_warp_stride(WcFile *f, int star)
{
	int a = star - 1, b = star + 1;
	if (!wc_ident(f, a) || !wc_ident(f, b) || f->t[a].cuda_only)
		return;
	if (wc_op(f, a - 1, WP_DOT) || wc_op(f, a - 1, WP_ARROW) || wc_op(f, b + 1, WP_LPAREN) ||
	    wc_op(f, b + 1, WP_DOT) || wc_op(f, b + 1, WP_ARROW) || wc_op(f, b + 1, WP_LBRACK))
		return;
	int id = -1;
	if (f->t[a].view == WV_WARP32 && wc_warp_size_expr(f, b) && !wc_op(f, a - 1, WP_STAR) && !wc_op(f, a - 1, WP_SLASH))
		id = a;
	else if (f->t[b].view == WV_WARP32 && wc_warp_size_expr(f, a) && !wc_op(f, a - 1, WP_SLASH))
		id = b;
	if (id < 0 || wc_func_at(f, star) < 0)
		return;
	int w = id == a ? b : a;
	wc_find(f, id, "H3", "warp-stride", "compute the warp id with the same width: tid / warpSize",
		"%.*s is a warp id counted in 32s, scaled by %.*s (64 on CDNA): rows of 32-lane warps laid out in "
		"strides of the wavefront overrun what the block owns",
		(int)f->t[id].len, f->src.text + f->t[id].off, (int)f->t[w].len, f->src.text + f->t[w].off);
}

/* A thread index: threadIdx.x, hipThreadIdx_x, or a local the dataflow
 * says holds one. */
static bool thread_index_at(const WcFile *f, int j)
{
	return (wc_kw(f, j, WK_threadIdx) && wc_op(f, j + 1, WP_DOT)) || wc_kw(f, j, WK_hipThreadIdx_x) ||
	       (wc_ident(f, j) && f->t[j].view == WV_TID);
}

/* The width w divides a thread index into warp ids in fn and has no value
 * of its own: warpSize (or a macro of it), or a name the function also
 * takes lanes with (tid & (W - 1), tid % W), such as a template parameter. */
static bool open_width(const WcFile *f, const WcFunc *fn, int w)
{
	uint64_t v;
	if (!wc_ident(f, w) || wc_value(f, w, &v))
		return false;
	if (wc_warp_size_alias(f, w))
		return true;
	for (int j = fn->open; j < fn->close; j++) {
		if (!wc_same_ident(f, j, w))
			continue;
		if (wc_op(f, j - 1, WP_PERCENT) && wc_operand_derived(f, j - 2))
			return true;
		if (wc_op(f, j - 1, WP_LPAREN) && wc_op(f, j - 2, WP_AMP) && wc_op(f, j + 1, WP_MINUS) &&
		    wc_value_is(f, j + 2, 1) && wc_op(f, j + 3, WP_RPAREN))
			return true;
	}
	return false;
}

/* The width the local at `var` (assigned in fn before `before`) divides a
 * thread index by: wid = threadIdx.x / WFSIZE gives WFSIZE's token, or -1. */
static int warp_id_width(const WcFile *f, const WcFunc *fn, int var, int before)
{
	for (int j = fn->open; j < before; j++) {
		if (!wc_same_ident(f, j, var) || !wc_op(f, j + 1, WP_ASSIGN))
			continue;
		int end = wc_stmt_end(f, j + 2);
		if (end < 0 || end >= before)
			continue;
		bool tid = false;
		for (int k = j + 2; k < end; k++) {
			tid = tid || thread_index_at(f, k);
			if (tid && wc_op(f, k, WP_SLASH) && k + 2 == end && open_width(f, fn, k + 1))
				return k + 1;
		}
	}
	return -1;
}

static bool names_width(const WcFile *f, int c, const void *w)
{
	return wc_same_ident(f, c, *(const int *)w) || wc_kw(f, c, WK_warpSize);
}

/* Token i lies in a statement of fn governed by an if whose condition names
 * the width at w (if (WFSIZE == 32) { ... }). */
static bool under_width_if(const WcFile *f, const WcFunc *fn, int w, int i)
{
	return wc_in_if_naming(f, fn, i, names_width, &w);
}

/* An unrolled tree over warp ids whose steps are literals:
 *
 *   int wid = threadIdx.x / WFSIZE;
 *   if (wid < 8) s[wid * WFSIZE + lid] += s[(wid + 8) * WFSIZE + lid];
 *   if (wid < 4) ...
 *
 * The first step (8) sums 16 warps, but a block holds BLOCKSIZE / WFSIZE of
 * them, twice as many with 32 lanes as with 64: the partial sums of the
 * upper half are never added. Reported at the largest step of a function,
 * unless a step at least as large sits in a branch on the width (the fix
 * adds if (WFSIZE == 32) { if (wid < 16) ... }), or the divisor is a
 * literal (a fixed logical width: the count is the block's own). */
static void check_warp_tree(WcFile *f)
{
	for (int k = 0; k < f->nfns; k++) {
		const WcFunc *fn = &f->fns[k];
		int best = -1, bw = -1;
		uint64_t bk = 0, gk = 0;  /* the largest step, and the largest in a branch on the width */
		for (int i = fn->open; i < fn->close; i++) {
			if (!wc_kw(f, i, WK_if) || !wc_op(f, i + 1, WP_LPAREN) || !wc_ident(f, i + 2) ||
			    !wc_op(f, i + 3, WP_LT) || f->t[i + 4].kind != WT_NUMBER || !f->t[i + 4].num_ok ||
			    !wc_op(f, i + 5, WP_RPAREN))
				continue;
			uint64_t kv = f->t[i + 4].num;
			if (kv < 2 || kv > 512 || (kv & (kv - 1)))
				continue;
			int stop = wc_stmt_end(f, i + 6);
			bool pair = false;
			for (int j = i + 6; j + 2 <= stop && !pair; j++)
				pair = wc_same_ident(f, j, i + 2) && wc_op(f, j + 1, WP_PLUS) && wc_value_is(f, j + 2, kv);
			if (!pair)
				continue;
			int w = warp_id_width(f, fn, i + 2, i);
			if (w < 0)
				continue;
			if (under_width_if(f, fn, w, i)) {
				gk = kv > gk ? kv : gk;
			} else if (kv > bk) {
				bk = kv, best = i + 2, bw = w;
			}
		}
		if (best < 0 || gk >= bk || f->t[best].cuda_only)
			continue;
		wc_find(f, best, "H3", "warp-tree", "start the tree at the block's warp count (BLOCKSIZE / width / 2), "
			"or add the wider step in a branch on the width",
			"a tree over warp ids that starts at %d sums %d warps of %.*s lanes: the block's count of them "
			"changes with the width",
			(int)bk, (int)(2 * bk), (int)f->t[bw].len, f->src.text + f->t[bw].off);
	}
}

void wc_rule_lanes(WcFile *f)
{
	check_warp_tree(f);
	for (int i = 1; i + 1 < f->n; i++) {
		const WcTok *t = &f->t[i];
		if (t->kind == WT_PUNCT) {
			if (t->op == WP_AMP || t->op == WP_PERCENT || t->op == WP_SLASH || t->op == WP_SHR)
				check_op(f, i);  /* the only operators it (and check_mask_expr) reports */
			if (t->op == WP_STAR)
				check_warp_stride(f, i);
			if (t->op == WP_EQ)
				check_last_lane(f, i);
		} else if (t->kind == WT_IDENT) {
			if (t->id == WK___shared__)
				check_shared(f, i);
			else if (t->id == WK_if)
				check_if(f, i);
			else if (t->id == WK___shfl || t->id == WK___shfl_sync)
				check_last_lane(f, i);
		}
	}
}
