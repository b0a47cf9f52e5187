/* dataflow.c: which values hold a thread index, a lane, a warp id, a ballot
 * or a mask, per function.
 *
 * `& 31`, `>> 5`, `% 32` are everyday bit tricks, so rules report them only
 * on values that come from a thread index. Each function is analysed on its
 * own: every "name = expr" in its body gives the name the view of expr
 * (WcView), joined over all its assignments, repeated until nothing
 * changes. Expressions are evaluated with C precedence, so
 *   threadIdx.x + threadIdx.y * blockDim.x     is a block thread index,
 *   blockIdx.x * blockDim.x + threadIdx.x      a global index,
 *   tid & 31, tid % 32                          a lane of a 32-lane group,
 *   tid / warpSize                              a physical warp id,
 *   data[tid]                                   data (nothing to track).
 * Names the function never assigns (parameters, mostly) fall back on
 * convention: `tid` is a thread index, a name with the word "lane" a lane. Every identifier token then
 * carries its view (WcTok.view), which is what rules read.
 *
 * Two flags ride along (WcVal). `varying`: the value may differ between
 * the lanes of one wavefront (thread indices, lanes, data loaded at one of
 * them, shuffles, atomics); parameters, blockIdx, physical warp ids and
 * votes (a ballot is the same in every lane) do not. `whole`: a multiple of
 * the wavefront's width (warpSize, or of 64), so `tid < whole` keeps whole
 * wavefronts together. Compound assignments (`x += in[i]`) update the flags
 * but not the view. */
#include "warpcheck/warpcheck.h"

#include <string.h>

typedef WcVal Val;

typedef struct Eval {
	const WcFile *f;
	int pos, end;
	int depth;
	uint32_t fn_stamp;   /* names' views are read for this function; 0: from the tokens */
} Eval;

static Val expr(Eval *e, int min_prec);

static const Val none = {WV_NONE, false, false, false, false, 0};

/* A known value that is a multiple of 64 (0 included) is whole. */
static Val constant(uint64_t num)
{
	return (Val){WV_NONE, true, false, false, num % 64 == 0, num};
}

/* Views whose value differs between the lanes of a wavefront. */
static bool view_varies(WcView v)
{
	return wc_view_thread(v) && v != WV_WARP;
}

static bool at(const Eval *e, WcPunct op)
{
	return e->pos < e->end && wc_op(e->f, e->pos, op);
}

/* The view a name has by convention, when nothing assigns it. */
static WcView seed_view(const WcFile *f, int i)
{
	uint32_t id = f->t[i].id;
	if (id == WK_threadIdx || id == WK_hipThreadIdx_x || id == WK_tid)
		return WV_TID;
	if (id == WK___lane_id)
		return WV_LANE;
	if (id == WK___lanemask_lt)
		return WV_MASK;
	if (id == WK_blockIdx)
		return WV_BLOCK;
	if (id == WK_blockDim || id == WK_gridDim)
		return WV_DIM;
	if (id == WK_warpSize)
		return WV_WSIZE;
	if (f->names->v[id].flags & WN_LANE)
		return WV_LANE;
	return WV_NONE;
}

/* The value a name has by convention: its seed view; warpSize and width
 * names with no known value (a warp_size parameter) are whole. */
static Val seed_val(const WcFile *f, int i)
{
	Val v = none;
	v.view = seed_view(f, i);
	v.varying = view_varies(v.view);
	v.whole = v.view == WV_WSIZE || (wc_flags(f, i) & WN_WARP_SIZE);
	return v;
}

static Val name_val(const Eval *e, int i)
{
	const WcFile *f = e->f;
	const WcTok *t = &f->t[i];
	Val v = none;
	if (e->fn_stamp == 0) {  /* after the dataflow: what the token carries */
		v.view = (WcView)t->view;
		v.varying = t->varying;
		v.whole = t->whole;
	} else {
		const WcName *nm = &f->names->v[t->id];
		if (nm->var_stamp == e->fn_stamp) {  /* assigned in this function: conventions do not apply */
			v.view = (WcView)nm->view;
			v.varying = nm->varying;
			v.whole = nm->whole;
		} else {
			v = seed_val(f, i);
		}
	}
	uint64_t num;
	if (wc_value(f, i, &num)) {
		Val c = constant(num);
		c.view = v.view;
		return c;
	}
	return v;
}

/* Skips a bracketed group starting at e->pos. */
static void skip_group(Eval *e)
{
	int close = wc_match(e->f, e->pos);
	e->pos = close < 0 || close >= e->end ? e->end : close + 1;
}

/* atomicAdd, atomicInc, ...: each lane gets its own old value. */
static bool atomic_name(const WcFile *f, int i)
{
	const WcTok *t = &f->t[i];
	return t->len > 6 && memcmp(f->src.text + t->off, "atomic", 6) == 0;
}

/* f(args): intrinsics have views; other calls are thread-derived when an
 * argument is, and vary between lanes when an argument does. */
static Val call(Eval *e, int name)
{
	const WcFile *f = e->f;
	int open = e->pos, close = wc_match(f, open);
	if (close < 0 || close >= e->end)
		close = e->end - 1;
	Val v = none;
	bool args_vary = false;
	Eval sub = {f, open + 1, close, e->depth + 1, e->fn_stamp};
	while (sub.pos < sub.end) {
		Val a = expr(&sub, 0);
		if (wc_view_thread(a.view))
			v.view = WV_THREAD;
		args_vary = args_vary || a.varying;
		if (sub.pos < sub.end)
			sub.pos++;  /* the comma, or a token the grammar did not take */
	}
	v.varying = args_vary;
	if (wc_kw(f, name, WK___lane_id)) {
		v = (Val){WV_LANE, false, false, true, false, 0};
	} else if (wc_is_ballot(f, name)) {
		v.view = WV_BALLOT;
		v.varying = !(wc_flags(f, name) & WN_VOTE);  /* __match_any_sync: a mask per lane */
	} else if (wc_flags(f, name) & WN_VOTE) {
		v = none;  /* __any_sync, __reduce_add_sync: one result for the wavefront */
	} else if (wc_kw(f, name, WK___lanemask_lt)) {
		v = (Val){WV_MASK, false, false, true, false, 0};
	} else if (wc_is_shuffle(f, name) || atomic_name(f, name)) {
		v.varying = true;
	} else if (wc_kw(f, name, WK_static_cast) || wc_kw(f, name, WK_reinterpret_cast)) {
		Eval one = {f, open + 1, close, e->depth + 1, e->fn_stamp};
		v = expr(&one, 0);
	}
	e->pos = close + 1;
	return v;
}

/* A name, with member access, calls and indexing after it. */
static Val name_expr(Eval *e)
{
	const WcFile *f = e->f;
	int i = e->pos++;
	Val v = name_val(e, i);
	/* static_cast<T>(x): skip the type */
	if ((wc_kw(f, i, WK_static_cast) || wc_kw(f, i, WK_reinterpret_cast)) && at(e, WP_LT)) {
		while (e->pos < e->end && !wc_op(f, e->pos, WP_GT))
			e->pos++;
		e->pos++;
	}
	for (;;) {
		if (at(e, WP_DOT) || at(e, WP_ARROW)) {
			e->pos += 2;  /* threadIdx.x keeps threadIdx's view; other members are data */
			if (!(wc_kw(f, i, WK_threadIdx) || wc_kw(f, i, WK_blockIdx) || wc_kw(f, i, WK_blockDim) ||
			      wc_kw(f, i, WK_gridDim)))
				v = (Val){WV_NONE, false, false, v.varying, false, 0};
		} else if (at(e, WP_LPAREN)) {
			v = call(e, i);
		} else if (at(e, WP_LBRACK)) {
			/* an element is data; it varies when its array or index does */
			int close = wc_match(f, e->pos);
			Eval sub = {f, e->pos + 1, close < 0 || close > e->end ? e->end : close, e->depth + 1, e->fn_stamp};
			bool varies = v.varying || expr(&sub, 0).varying;
			skip_group(e);
			v = (Val){WV_NONE, false, false, varies, false, 0};
		} else if (at(e, WP_SCOPE)) {
			e->pos++;
			if (e->pos < e->end && wc_ident(f, e->pos))
				i = e->pos++;
			v = none;
		} else {
			return v;
		}
	}
}

/* "(" starts a cast: only type words (and *, &) up to the ")". */
static bool is_cast(const Eval *e)
{
	const WcFile *f = e->f;
	int i = e->pos + 1;
	if (i >= e->end || !(wc_flags(f, i) & (WN_TYPE | WN_QUALIFIER)))
		return false;
	for (; i < e->end && !wc_op(f, i, WP_RPAREN); i++)
		if (!(wc_flags(f, i) & (WN_TYPE | WN_QUALIFIER)) && !wc_op(f, i, WP_STAR) && !wc_op(f, i, WP_AMP))
			return false;
	return i < e->end;
}

static Val unary(Eval *e)
{
	const WcFile *f = e->f;
	if (e->pos >= e->end || e->depth > 64) {
		e->pos = e->end;
		return none;
	}
	const WcTok *t = &f->t[e->pos];
	if (t->kind == WT_NUMBER) {
		e->pos++;
		return t->num_ok ? constant(t->num) : none;
	}
	if (t->kind == WT_IDENT)
		return name_expr(e);
	if (t->kind != WT_PUNCT) {
		e->pos++;
		return none;
	}
	e->depth++;
	Val v = none;
	if (t->op == WP_LPAREN && is_cast(e)) {
		e->pos = wc_match(f, e->pos) + 1;
		v = unary(e);
	} else if (t->op == WP_LPAREN) {
		int close = wc_match(f, e->pos);
		Eval sub = {f, e->pos + 1, close < 0 || close > e->end ? e->end : close, e->depth, e->fn_stamp};
		v = expr(&sub, 0);
		e->pos = close < 0 || close >= e->end ? e->end : close + 1;
	} else if (t->op == WP_MINUS || t->op == WP_PLUS || t->op == WP_TILDE || t->op == WP_NOT ||
	           t->op == WP_STAR || t->op == WP_AMP || t->op == WP_INC || t->op == WP_DEC) {
		e->pos++;
		v = unary(e);
		if (t->op == WP_NOT)
			v = (Val){WV_NONE, false, false, v.varying, false, 0};
		else if (t->op == WP_TILDE && (v.view == WV_BALLOT || v.view == WV_MASK))
			v.view = WV_MASK;
		if (t->op == WP_STAR)
			v.whole = false;  /* *p: data */
		v.known = v.known && (t->op == WP_PLUS || t->op == WP_TILDE);
		v.num = t->op == WP_TILDE ? ~v.num : v.num;
		if (t->op == WP_TILDE)
			v.whole = v.known && v.num % 64 == 0;
	} else {
		e->pos++;  /* not an expression: step over it */
	}
	e->depth--;
	return v;
}

static int prec(WcPunct op)
{
	switch (op) {
	case WP_STAR: case WP_SLASH: case WP_PERCENT: return 10;
	case WP_PLUS: case WP_MINUS: return 9;
	case WP_SHL: case WP_SHR: return 8;
	case WP_LT: case WP_LE: case WP_GT: case WP_GE: return 7;
	case WP_EQ: case WP_NE: return 6;
	case WP_AMP: return 5;
	case WP_CARET: return 4;
	case WP_PIPE: return 3;
	case WP_ANDAND: return 2;
	case WP_OROR: return 1;
	default: return -1;
	}
}

static bool thread(Val v)
{
	return wc_view_thread(v.view);
}

static bool maskish(Val v)
{
	return v.view == WV_BALLOT || v.view == WV_MASK;
}

/* x % c, x & c, x / c, x >> c on a thread-derived x. */
static WcView split(WcPunct op, Val x, Val c)
{
	bool c32 = c.known && c.num == 32;
	if (op == WP_PERCENT)
		return c32 ? WV_LANE32 : c.view == WV_WSIZE ? WV_LANE : WV_THREAD;
	if (op == WP_AMP)
		return c.known && c.num == 31 ? WV_LANE32 : c.wmask ? WV_LANE : WV_THREAD;
	if (op == WP_SLASH)
		return c32 ? WV_WARP32 : c.view == WV_WSIZE ? WV_WARP : WV_THREAD;
	if (op == WP_SHR)
		return c.known && c.num == 5 ? WV_WARP32 : WV_THREAD;
	(void)x;
	return WV_THREAD;
}

static WcView add(Val a, Val b)
{
	if (a.view == WV_NONE && thread(b))
		return b.view;
	if (b.view == WV_NONE && thread(a))
		return a.view;
	if ((a.view == WV_BASE && b.view == WV_TID) || (a.view == WV_TID && b.view == WV_BASE))
		return WV_GTID;
	if (a.view == WV_TID && b.view == WV_TID)
		return WV_TID;  /* threadIdx.x + threadIdx.y * blockDim.x */
	return thread(a) || thread(b) ? WV_THREAD : maskish(a) || maskish(b) ? WV_MASK : WV_NONE;
}

static WcView mul(Val a, Val b)
{
	if ((a.view == WV_BLOCK && b.view == WV_DIM) || (a.view == WV_DIM && b.view == WV_BLOCK))
		return WV_BASE;
	if ((a.view == WV_TID && b.view == WV_DIM) || (a.view == WV_DIM && b.view == WV_TID))
		return WV_TID;
	return thread(a) || thread(b) ? WV_THREAD : WV_NONE;
}

/* Constant folding of integer arithmetic (not comparisons). */
static void fold(WcPunct op, uint64_t a, uint64_t b, Val *v)
{
	v->known = true;
	switch (op) {
	case WP_PLUS: v->num = a + b; break;
	case WP_MINUS: v->num = a - b; break;
	case WP_STAR: v->num = a * b; break;
	case WP_AMP: v->num = a & b; break;
	case WP_PIPE: v->num = a | b; break;
	case WP_CARET: v->num = a ^ b; break;
	case WP_SLASH: v->known = b != 0; v->num = b ? a / b : 0; break;
	case WP_PERCENT: v->known = b != 0; v->num = b ? a % b : 0; break;
	case WP_SHL: v->known = b < 64; v->num = b < 64 ? a << b : 0; break;
	case WP_SHR: v->known = b < 64; v->num = b < 64 ? a >> b : 0; break;
	default: v->known = false; break;
	}
	if (v->known)
		v->whole = v->num % 64 == 0;
}

/* a op b is a multiple of the wavefront's width. */
static bool whole_of(WcPunct op, Val a, Val b)
{
	switch (op) {
	case WP_STAR: return a.whole || b.whole;
	case WP_PLUS: case WP_MINUS: return a.whole && b.whole;
	case WP_SHL: return a.whole || (b.known && b.num >= 6 && b.num < 64);
	case WP_AMP: return a.whole || b.whole;  /* n & ~63 */
	default: return false;
	}
}

static Val binary(WcPunct op, Val a, Val b)
{
	Val v = none;
	switch (op) {
	case WP_PERCENT: case WP_SLASH: case WP_SHR:
		v.view = thread(a) ? split(op, a, b) : maskish(a) && op == WP_SHR ? WV_MASK : WV_NONE;
		break;
	case WP_AMP:
		v.view = thread(a) ? split(op, a, b) : thread(b) ? split(op, b, a) :
		         maskish(a) || maskish(b) ? WV_MASK : WV_NONE;
		break;
	case WP_SHL:
		v.view = (a.known && a.num == 1 && thread(b)) || maskish(a) ? WV_MASK : thread(a) ? WV_THREAD : WV_NONE;
		break;
	case WP_PLUS: case WP_MINUS:
		v.view = add(a, b);
		v.wmask = op == WP_MINUS && a.view == WV_WSIZE && b.known && b.num == 1;
		break;
	case WP_STAR:
		v.view = mul(a, b);
		break;
	case WP_PIPE: case WP_CARET:
		v.view = maskish(a) || maskish(b) ? WV_MASK : wc_view_lane(a.view) && b.view == WV_NONE ? a.view :
		         thread(a) || thread(b) ? WV_THREAD : WV_NONE;
		break;
	default:
		break;  /* comparisons and logic give a bool */
	}
	/* a physical warp id is the same in every lane of a wavefront */
	v.varying = v.view != WV_WARP && (a.varying || b.varying);
	v.whole = whole_of(op, a, b);
	if (a.known && b.known)
		fold(op, a.num, b.num, &v);
	return v;
}

static WcView join(WcView a, WcView b)
{
	if (a == WV_NONE || a == b)
		return b;
	if (b == WV_NONE)
		return a;
	if (wc_view_thread(a) && wc_view_thread(b))
		return WV_THREAD;
	if ((a == WV_BALLOT || a == WV_MASK) && (b == WV_BALLOT || b == WV_MASK))
		return WV_MASK;
	return wc_view_thread(a) ? a : b;
}

static Val expr(Eval *e, int min_prec)
{
	if (++e->depth > 64) {  /* nesting no real code has: give up on it */
		e->pos = e->end;
		e->depth--;
		return none;
	}
	Val a = unary(e);
	while (e->pos < e->end) {
		const WcTok *t = &e->f->t[e->pos];
		if (t->kind != WT_PUNCT)
			break;
		if (t->op == WP_QUESTION && min_prec <= 0) {
			e->pos++;
			Val b = expr(e, 0);
			if (at(e, WP_COLON))
				e->pos++;
			Val c = expr(e, 0);
			a = (Val){join(b.view, c.view), false, false, a.varying || b.varying || c.varying,
			          b.whole && c.whole, 0};
			continue;
		}
		int p = prec((WcPunct)t->op);
		if (p < 0 || p < min_prec)
			break;
		e->pos++;
		Val b = expr(e, p + 1);
		a = binary((WcPunct)t->op, a, b);
	}
	e->depth--;
	return a;
}

/* The view of the expression [from, to), read after the dataflow. */
WcVal wc_expr_val(const WcFile *f, int from, int to)
{
	Eval e = {f, from, to < f->n ? to : f->n, 0, 0};
	return expr(&e, 0);
}

WcView wc_expr_view(const WcFile *f, int from, int to)
{
	return wc_expr_val(f, from, to).view;
}

/* End (exclusive) of the expression after "=" at i: a top-level ; or , or
 * an unmatched closing bracket. */
static int rhs_end(const WcFile *f, int i, int limit)
{
	int depth = 0;
	for (int j = i; j < limit; j++) {
		if (wc_is_open(f, j))
			depth++;
		else if (wc_is_close(f, j) && --depth < 0)
			return j;
		else if (depth == 0 && (wc_op(f, j, WP_SEMI) || wc_op(f, j, WP_COMMA)))
			return j;
	}
	return limit;
}

/* Joins v into the facts of the local at token i; true when they changed.
 * op: WP_NONE for "=", else the operator of a compound assignment, which
 * keeps the view and only updates the flags. */
static bool assign(const WcFile *f, int i, WcPunct op, Val v, uint32_t stamp)
{
	WcName *nm = &f->names->v[f->t[i].id];
	bool changed = false;
	if (nm->var_stamp != stamp) {  /* first assignment seen: the name is a local here */
		Val seed = seed_val(f, i);
		nm->var_stamp = stamp;
		nm->view = op == WP_NONE ? WV_NONE : (uint8_t)seed.view;
		nm->varying = op != WP_NONE && seed.varying;
		nm->whole = op == WP_NONE || seed.whole;
		changed = true;
	}
	WcView nv = op == WP_NONE ? join((WcView)nm->view, v.view) : (WcView)nm->view;
	Val cur = {(WcView)nm->view, false, false, nm->varying, nm->whole, 0};
	bool varying = nm->varying || v.varying;
	bool whole = nm->whole && (op == WP_NONE ? v.whole : whole_of(op, cur, v));
	if (nv != (WcView)nm->view || varying != nm->varying || whole != nm->whole) {
		nm->view = (uint8_t)nv;
		nm->varying = varying;
		nm->whole = whole;
		changed = true;
	}
	return changed;
}

/* One pass over the assignments of [from, to); true when a fact changed. */
static bool assign_pass(const WcFile *f, int from, int to, uint32_t stamp)
{
	bool changed = false;
	for (int i = from; i + 1 < to; i++) {
		if (!wc_ident(f, i) || wc_op(f, i - 1, WP_DOT) || wc_op(f, i - 1, WP_ARROW))
			continue;
		WcPunct op = wc_compound_op(f, i + 1);
		if (op == WP_NONE && !wc_op(f, i + 1, WP_ASSIGN))
			continue;
		Eval e = {f, i + 2, rhs_end(f, i + 2, to), 0, stamp};
		changed |= assign(f, i, op, expr(&e, 0), stamp);
	}
	return changed;
}

/* Gives every identifier token of [from, to) its view and flags. */
static void annotate(WcFile *f, int from, int to, uint32_t stamp)
{
	for (int i = from; i < to; i++) {
		if (f->t[i].kind != WT_IDENT)
			continue;
		const WcName *nm = &f->names->v[f->t[i].id];
		Val v = stamp && nm->var_stamp == stamp ? (Val){(WcView)nm->view, false, false, nm->varying, nm->whole, 0}
		                                        : seed_val(f, i);
		f->t[i].view = (uint8_t)v.view;
		f->t[i].varying = v.varying;
		f->t[i].whole = v.whole;
	}
}

static void function_flow(WcFile *f, const WcFunc *fn, int from)
{
	uint32_t stamp = wc_stamp(f->names);
	for (int pass = 0; pass < 4 && assign_pass(f, fn->open, fn->close, stamp); pass++)
		;
	annotate(f, from, fn->close + 1, stamp);
}

void wc_dataflow(WcFile *f)
{
	int prev = 0;
	for (int k = 0; k < f->nfns; k++) {
		annotate(f, prev, f->fns[k].name, 0);  /* between functions: conventions only */
		function_flow(f, &f->fns[k], f->fns[k].name);
		prev = f->fns[k].close + 1;
	}
	annotate(f, prev, f->n, 0);
}

bool wc_derived(const WcFile *f, int i)
{
	return i >= 0 && i < f->n && f->t[i].kind == WT_IDENT && wc_view_thread(f->t[i].view);
}

/* Words before "(" that do not make a call. */
static bool control_like(const WcFile *f, int i)
{
	return wc_kw(f, i, WK_if) || wc_kw(f, i, WK_while) || wc_kw(f, i, WK_for) || wc_kw(f, i, WK_switch) ||
	       wc_kw(f, i, WK_return) || wc_kw(f, i, WK_case);
}

/* Start of the operand that ends at `end` (a name, a member, a call, or
 * a parenthesised expression). */
int wc_operand_start(const WcFile *f, int end)
{
	if (wc_op(f, end, WP_RPAREN) || wc_op(f, end, WP_RBRACK)) {
		int open = wc_match_back(f, end);
		if (open < 0)
			return end;
		if (wc_ident(f, open - 1) && !control_like(f, open - 1))
			return wc_operand_start(f, open - 1);
		return open;
	}
	while (end >= 2 && wc_ident(f, end) && (wc_op(f, end - 1, WP_DOT) || wc_op(f, end - 1, WP_ARROW)))
		end -= 2;
	return end;
}

/* The operand that ends at token `end` comes from a thread index. */
bool wc_operand_derived(const WcFile *f, int end)
{
	if (end < 0 || end >= f->n)
		return false;
	int start = wc_operand_start(f, end);
	if (start == end)
		return wc_derived(f, end);
	return wc_view_thread(wc_expr_view(f, start, end + 1));
}
