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
 * carries its view (WcTok.view), which is what rules read. */
#include "warpcheck/warpcheck.h"

#include <string.h>

typedef struct Val {
	WcView view;
	bool known;       /* a compile-time value, in num */
	bool wmask;       /* warpSize - 1 */
	uint64_t num;
} Val;

typedef struct Eval {
	const WcFile *f;
	int pos, end;
	int depth;
	uint32_t fn_stamp;   /* names' views are read for this function; 0: from the tokens */
} Eval;

static Val expr(Eval *e, int min_prec);

static const Val none = {WV_NONE, false, false, 0};

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

static WcView name_view(const Eval *e, int i)
{
	if (e->fn_stamp == 0)
		return (WcView)e->f->t[i].view;  /* after the dataflow: what the token carries */
	const WcName *nm = &e->f->names->v[e->f->t[i].id];
	if (nm->var_stamp == e->fn_stamp)
		return (WcView)nm->view;  /* assigned in this function: conventions do not apply */
	return seed_view(e->f, i);
}

/* Skips a bracketed group starting at e->pos. */
static void skip_group(Eval *e)
{
	int close = wc_match(e->f, e->pos);
	e->pos = close < 0 || close >= e->end ? e->end : close + 1;
}

/* f(args): intrinsics have views; other calls are thread-derived when an
 * argument is. */
static Val call(Eval *e, int name)
{
	const WcFile *f = e->f;
	int open = e->pos, close = wc_match(f, open);
	if (close < 0 || close >= e->end)
		close = e->end - 1;
	Val v = none;
	if (wc_kw(f, name, WK___lane_id))
		v.view = WV_LANE;
	else if (wc_is_ballot(f, name))
		v.view = WV_BALLOT;
	else if (wc_kw(f, name, WK___lanemask_lt))
		v.view = WV_MASK;
	else {
		Eval sub = {f, open + 1, close, e->depth + 1, e->fn_stamp};
		while (sub.pos < sub.end) {
			Val a = expr(&sub, 0);
			if (wc_view_thread(a.view))
				v.view = WV_THREAD;
			if (sub.pos < sub.end)
				sub.pos++;  /* the comma, or a token the grammar did not take */
		}
		if (wc_kw(f, name, WK_static_cast) || wc_kw(f, name, WK_reinterpret_cast)) {
			Eval one = {f, open + 1, close, e->depth + 1, e->fn_stamp};
			v = expr(&one, 0);
		}
	}
	e->pos = close + 1;
	return v;
}

/* A name, with member access, calls and indexing after it. */
static Val name_expr(Eval *e)
{
	const WcFile *f = e->f;
	int i = e->pos++;
	Val v = none;
	v.view = name_view(e, i);
	v.known = wc_value(f, i, &v.num);
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
				v = none;
		} else if (at(e, WP_LPAREN)) {
			v = call(e, i);
		} else if (at(e, WP_LBRACK)) {
			skip_group(e);
			v = none;  /* an element is data */
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
		return (Val){WV_NONE, t->num_ok, false, t->num};
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
			v = none;
		else if (t->op == WP_TILDE && (v.view == WV_BALLOT || v.view == WV_MASK))
			v.view = WV_MASK;
		v.known = v.known && (t->op == WP_PLUS || t->op == WP_TILDE);
		v.num = t->op == WP_TILDE ? ~v.num : v.num;
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
			a = (Val){join(b.view, c.view), false, false, 0};
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
WcView wc_expr_view(const WcFile *f, int from, int to)
{
	Eval e = {f, from, to < f->n ? to : f->n, 0, 0};
	return expr(&e, 0).view;
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

/* One pass over the assignments of [from, to); true when a view changed. */
static bool assign_pass(const WcFile *f, int from, int to, uint32_t stamp)
{
	bool changed = false;
	for (int i = from; i + 1 < to; i++) {
		if (!wc_ident(f, i) || !wc_op(f, i + 1, WP_ASSIGN) || wc_op(f, i - 1, WP_DOT) ||
		    wc_op(f, i - 1, WP_ARROW))
			continue;
		Eval e = {f, i + 2, rhs_end(f, i + 2, to), 0, stamp};
		Val v = expr(&e, 0);
		WcName *nm = &f->names->v[f->t[i].id];
		if (nm->var_stamp != stamp) {  /* first assignment seen: the name is a local here */
			nm->var_stamp = stamp;
			nm->view = WV_NONE;
			changed = true;
		}
		WcView nv = join((WcView)nm->view, v.view);
		if (nv != (WcView)nm->view) {
			nm->view = (uint8_t)nv;
			changed = true;
		}
	}
	return changed;
}

/* Gives every identifier token of [from, to) its view. */
static void annotate(WcFile *f, int from, int to, uint32_t stamp)
{
	for (int i = from; i < to; i++) {
		if (f->t[i].kind != WT_IDENT)
			continue;
		const WcName *nm = &f->names->v[f->t[i].id];
		WcView v = stamp && nm->var_stamp == stamp ? (WcView)nm->view : seed_view(f, i);
		f->t[i].view = (uint8_t)v;
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
