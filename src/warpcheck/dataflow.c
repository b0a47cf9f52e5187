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

#include <stdlib.h>
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
	if (wc_warp_size_alias(f, i))
		return WV_WSIZE;
	uint64_t v;
	if ((f->names->v[id].flags & WN_WARP_SIZE) && !wc_value(f, i, &v))
		return WV_WSIZE;  /* a width whose value this file does not fix */
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

static WcView join(WcView a, WcView b);

static bool name_has(const WcFile *f, const WcName *nm, const char *part)
{
	size_t k = strlen(part);
	for (size_t a = 0; a + k <= nm->len; a++)
		if (memcmp(f->names->chars + nm->off + a, part, k) == 0)
			return true;
	return false;
}

/* A function from elsewhere that returns a lane id or mask by its name:
 * getLaneId, lane_id, laneid, get_lane, lanemask_lt; not lane_count. */
static bool lane_getter(const WcFile *f, const WcName *nm)
{
	const char *s = f->names->chars + nm->off;
	size_t n = nm->len;
	if (n >= 4 && (memcmp(s + n - 4, "lane", 4) == 0 || memcmp(s + n - 4, "Lane", 4) == 0))
		return true;
	return name_has(f, nm, "ane_id") || name_has(f, nm, "aneId") || name_has(f, nm, "aneid") ||
	       name_has(f, nm, "aneID") || name_has(f, nm, "anemask") || name_has(f, nm, "aneMask") ||
	       name_has(f, nm, "ane_mask");
}

/* f(args): intrinsics have views; other calls are thread-derived when an
 * argument is, and vary between lanes when an argument does. */
static Val call(Eval *e, int name)
{
	const WcFile *f = e->f;
	int open = e->pos, close = wc_match(f, open);
	if (close < 0 || close >= e->end)
		close = e->end - 1;
	Val v = none, last = none;
	bool args_vary = false;
	int nargs = 0;
	Eval sub = {f, open + 1, close, e->depth + 1, e->fn_stamp};
	while (sub.pos < sub.end) {
		Val a = expr(&sub, 0);
		if (wc_view_thread(a.view))
			v.view = WV_THREAD;
		args_vary = args_vary || a.varying;
		last = a;
		nargs++;
		if (sub.pos < sub.end)
			sub.pos++;  /* the comma, or a token the grammar did not take */
	}
	v.varying = args_vary;
	/* __shfl(v, 0), __shfl_sync(m, v, src) with no width and the same
	 * source lane everywhere: a broadcast, the same value in every lane */
	bool broadcast = (wc_kw(f, name, WK___shfl) && nargs == 2) || (wc_kw(f, name, WK___shfl_sync) && nargs == 3);
	if (wc_kw(f, name, WK___lane_id)) {
		v = (Val){WV_LANE, false, false, true, false, 0};
	} else if (wc_is_ballot(f, name)) {
		v.view = WV_BALLOT;
		v.varying = !(wc_flags(f, name) & WN_VOTE);  /* __match_any_sync: a mask per lane */
	} else if (wc_flags(f, name) & WN_VOTE) {
		v = none;  /* __any_sync, __reduce_add_sync: one result for the wavefront */
	} else if (wc_kw(f, name, WK___lanemask_lt)) {
		v = (Val){WV_MASK, false, false, true, false, 0};
	} else if (broadcast && !last.varying) {
		v.varying = false;
	} else if (wc_is_shuffle(f, name) || atomic_name(f, name)) {
		v.varying = true;
	} else if (wc_kw(f, name, WK_static_cast) || wc_kw(f, name, WK_reinterpret_cast)) {
		Eval one = {f, open + 1, close, e->depth + 1, e->fn_stamp};
		v = expr(&one, 0);
	} else if (f->t[name].id >= WK__COUNT) {
		const WcName *nm = &f->names->v[f->t[name].id];
		if (nm->ret_stamp == f->stamp) {  /* a function of this file: what it returns */
			v.view = join(v.view, (WcView)nm->ret_view);
			v.varying = v.varying || nm->ret_varying;
		} else if ((nm->flags & WN_LANE) && v.view == WV_NONE && lane_getter(f, nm)) {  /* getLaneId() */
			v.view = name_has(f, nm, "ask") ? WV_MASK : WV_LANE;
			v.varying = true;
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

/* v after an assignment of w by op (`=`: the views joined; `+=` and the
 * like: whether the value stays whole). */
static Val join_assign(Val v, WcPunct op, Val w)
{
	if (op == WP_NONE) {
		v.view = join(v.view, w.view);
		v.whole = v.whole && w.whole;
	} else {
		v.whole = v.whole && whole_of(op, v, w);
	}
	v.varying = v.varying || w.varying;
	return v;
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
static bool spec_assign(const WcFile *f, int i, WcPunct op, Val v, uint32_t stamp)
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

/* Code that runs under a condition: the body of an if (its else
 * included), of a loop (for loops from the condition on, so the step is
 * inside) or of a switch. */
typedef struct Region {
	int lo, hi;            /* the tokens that run under the condition, inclusive */
	int cond_lo, cond_hi;  /* the condition [cond_lo, cond_hi) */
	bool loop;
	bool splits;           /* the condition splits a wavefront, by the facts so far */
} Region;

/* An assignment "name = rhs" or "name op= rhs". */
typedef struct Assign {
	int at;                /* the name */
	int rhs_end;
	WcPunct op;            /* WP_NONE for "=" */
	bool split;            /* inside a region whose condition splits a wavefront */
} Assign;

/* An assignment by name: the assignments of one name are consecutive,
 * in the order of the code. */
typedef struct ByVar {
	uint32_t id;
	int j;                 /* its index in Flow.a */
} ByVar;

/* Per-file scratch space, reused from function to function. The arrays
 * after the assignments serve the conditions' refinement (refine_uses),
 * which runs in linear time when the regions nest (they do in code that
 * parses: blocks), each region in the next one that holds it. */
typedef struct Flow {
	Region *r;
	int nr, rcap;
	Assign *a;
	int na, acap;
	int base, ntok;        /* tokens [base, base + ntok) of the function */
	int *cover;            /* by token - base: regions that split, or the innermost region (-1: none) */
	int tcap;
	int *parent;           /* by region: the region that holds it, -1: none */
	int *loop_up;          /* by region: itself when a loop, else the nearest loop holding it; -1 */
	int pcap;
	ByVar *by_var;         /* the assignments sorted by name */
	Val *memo;             /* by assignment: assigned_val, once computed (have) */
	bool *have;
	/* by the first position of a name in by_var: the last join of its
	 * assignments after one, d (-1: none), up to position q, exclusive */
	int *fold_d, *fold_q;
	Val *fold_v;
	int *pos;              /* by assignment: its position in by_var */
	int *below;            /* by assignment: the one under it on its name's stack (reaching_defs) */
	int *top;              /* by a name's first position: the top of its stack, -1: empty */
	int vcap;
	int *reach;            /* by token - base: the assignment a use reads (reaching_defs), -1: none */
	int qcap;
} Flow;

static void add_region(Flow *fl, int lo, int hi, int cond_lo, int cond_hi, bool loop)
{
	if (hi < lo || cond_hi < cond_lo)
		return;
	if (fl->nr == fl->rcap) {
		fl->rcap = fl->rcap ? fl->rcap * 2 : 32;
		fl->r = base_realloc(fl->r, (size_t)fl->rcap * sizeof *fl->r);
	}
	fl->r[fl->nr++] = (Region){lo, hi, cond_lo, cond_hi, loop, false};
}

static void collect_regions(const WcFile *f, const WcFunc *fn, Flow *fl)
{
	fl->nr = 0;
	for (int i = fn->open + 1; i < fn->close; i++) {
		if (!wc_ident(f, i))
			continue;
		uint32_t id = f->t[i].id;
		if (id == WK_do) {
			int end = wc_stmt_end(f, i + 1);
			if (end < fn->close && wc_kw(f, end + 1, WK_while) && wc_op(f, end + 2, WP_LPAREN)) {
				int close = wc_match(f, end + 2);
				if (close > 0 && close < fn->close)
					add_region(fl, i + 1, close, end + 3, close, true);
			}
			continue;
		}
		if ((id != WK_if && id != WK_for && id != WK_while && id != WK_switch) || !wc_op(f, i + 1, WP_LPAREN))
			continue;
		int close = wc_match(f, i + 1);
		if (close < 0 || close >= fn->close || (id == WK_while && wc_op(f, close + 1, WP_SEMI)))
			continue;  /* unbalanced, or the "while (c);" of a do */
		int end = imin(wc_stmt_end(f, close + 1), fn->close);
		if (id == WK_for) {
			WcFor h;
			if (wc_for_header(f, i + 1, &h))
				add_region(fl, h.cond0, end, h.cond0, h.cond1, true);
		} else {
			add_region(fl, close + 1, end, i + 2, close, id == WK_while);
			if (id == WK_if && wc_kw(f, end + 1, WK_else))
				add_region(fl, end + 2, imin(wc_stmt_end(f, end + 2), fn->close), i + 2, close, false);
		}
	}
}

static void collect_assigns(const WcFile *f, const WcFunc *fn, Flow *fl)
{
	fl->na = 0;
	for (int i = fn->open; i + 1 < fn->close; i++) {
		if (!wc_ident(f, i) || wc_op(f, i - 1, WP_DOT) || wc_op(f, i - 1, WP_ARROW))
			continue;
		WcPunct op = wc_compound_op(f, i + 1);
		if (op == WP_NONE && !wc_op(f, i + 1, WP_ASSIGN))
			continue;
		if (fl->na == fl->acap) {
			fl->acap = fl->acap ? fl->acap * 2 : 64;
			fl->a = base_realloc(fl->a, (size_t)fl->acap * sizeof *fl->a);
		}
		fl->a[fl->na++] = (Assign){i, rhs_end(f, i + 2, fn->close), op, false};
	}
}

static bool inside(const Region *r, int i)
{
	return i >= r->lo && i <= r->hi;
}

/* Makes fl->cover hold a counter for every token of the function. */
static void reserve_tokens(Flow *fl, const WcFunc *fn)
{
	fl->base = fn->open;
	fl->ntok = fn->close - fn->open + 2;
	if (fl->ntok > fl->tcap) {
		fl->tcap = fl->ntok;
		fl->cover = base_realloc(fl->cover, (size_t)fl->tcap * sizeof *fl->cover);
	}
}

/* Which regions split a wavefront, by the facts the tokens carry now, and
 * so which assignments only some lanes make; true when that changed. The
 * tokens under a splitting region are counted with a running sum of +1 at
 * each one's start and -1 past its end (not region by assignment: that
 * was quadratic in a long function). */
static bool update_splits(const WcFile *f, Flow *fl)
{
	bool changed = false;
	memset(fl->cover, 0, (size_t)fl->ntok * sizeof *fl->cover);
	for (int k = 0; k < fl->nr; k++) {
		Region *r = &fl->r[k];
		if (!r->splits && r->cond_hi > r->cond_lo && wc_condition_splits(f, r->cond_lo, r->cond_hi))
			r->splits = true;
		if (r->splits) {
			fl->cover[r->lo - fl->base]++;
			fl->cover[r->hi + 1 - fl->base]--;
		}
	}
	for (int i = 1; i < fl->ntok; i++)
		fl->cover[i] += fl->cover[i - 1];
	for (int j = 0; j < fl->na; j++) {
		Assign *a = &fl->a[j];
		if (!a->split && fl->cover[a->at - fl->base] > 0) {
			a->split = true;
			changed = true;
		}
	}
	return changed;
}

/* The value an assignment gives, with the facts of this function so far:
 * one that only some lanes make differs between lanes. */
static Val assigned_val(const WcFile *f, const Assign *a, uint32_t stamp)
{
	Eval e = {f, a->at + 2, a->rhs_end, 0, stamp};
	Val v = expr(&e, 0);
	if (a->split)
		v.varying = true;
	return v;
}

/* One pass over the assignments; true when a fact changed. */
static bool assign_pass(const WcFile *f, const Flow *fl, uint32_t stamp)
{
	bool changed = false;
	for (int j = 0; j < fl->na; j++)
		changed |= spec_assign(f, fl->a[j].at, fl->a[j].op, assigned_val(f, &fl->a[j], stamp), stamp);
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

/* Assignment d runs whenever token u does, before it: every region that
 * holds d holds u. */
static bool dominates(const Flow *fl, int d, int u)
{
	if (d >= u)
		return false;
	for (int k = 0; k < fl->nr; k++)
		if (inside(&fl->r[k], d) && !inside(&fl->r[k], u))
			return false;
	return true;
}

/* An assignment at a may reach u around a loop: a loop holds u and a but
 * not the dominating assignment d, and a comes after u. */
static bool reaches_around(const Flow *fl, int d, int a, int u)
{
	for (int k = 0; k < fl->nr; k++) {
		const Region *r = &fl->r[k];
		if (r->loop && inside(r, u) && inside(r, a) && !inside(r, d))
			return true;
	}
	return false;
}

/* The facts of the local at token u in a condition, from the assignments
 * that can reach it: the last plain "=" that runs whenever u does, and
 * those between it and u (or around a loop). With no such "=", the facts
 * of every assignment stay (flow-insensitive). */
static void refine_use(WcFile *f, const Flow *fl, int u, uint32_t stamp)
{
	uint32_t id = f->t[u].id;
	int d = -1;
	for (int j = 0; j < fl->na && fl->a[j].at < u; j++)
		if (f->t[fl->a[j].at].id == id && fl->a[j].op == WP_NONE && dominates(fl, fl->a[j].at, u) &&
		    !(u > fl->a[j].at && u < fl->a[j].rhs_end))
			d = j;
	if (d < 0)
		return;
	Val v = assigned_val(f, &fl->a[d], stamp);
	for (int j = d + 1; j < fl->na; j++) {
		const Assign *a = &fl->a[j];
		if (f->t[a->at].id != id || (a->at > u && !reaches_around(fl, fl->a[d].at, a->at, u)))
			continue;
		Val w = assigned_val(f, a, stamp);
		v = join_assign(v, a->op, w);
	}
	f->t[u].view = (uint8_t)v.view;
	f->t[u].varying = v.varying;
	f->t[u].whole = v.whole;
}

/* ---- the conditions' refinement in linear time, for regions that nest ---- */

/* A region's place, for sorting: by start, the longer first, so that
 * each is held by the open one before it. */
typedef struct RegionKey {
	int lo, hi, k;
} RegionKey;

static int cmp_region(const void *a, const void *b)
{
	const RegionKey *x = a, *y = b;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->hi != y->hi)
		return x->hi > y->hi ? -1 : 1;
	return x->k - y->k;
}

static int cmp_by_var(const void *a, const void *b)
{
	const ByVar *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->j - y->j;
}

/* fl->parent, fl->loop_up and, in fl->cover, each token's innermost
 * region; false when two regions overlap without one holding the other. */
static bool nest_regions(Flow *fl)
{
	if (fl->nr > fl->pcap) {
		fl->pcap = fl->nr;
		fl->parent = base_realloc(fl->parent, (size_t)fl->pcap * sizeof *fl->parent);
		fl->loop_up = base_realloc(fl->loop_up, (size_t)fl->pcap * sizeof *fl->loop_up);
	}
	RegionKey *order = base_malloc(((size_t)fl->nr + 1) * sizeof *order);
	int *stack = base_malloc(((size_t)fl->nr + 1) * sizeof *stack);
	for (int k = 0; k < fl->nr; k++)
		order[k] = (RegionKey){fl->r[k].lo, fl->r[k].hi, k};
	qsort(order, (size_t)fl->nr, sizeof *order, cmp_region);
	for (int i = 0; i < fl->ntok; i++)
		fl->cover[i] = -1;
	bool nested = true;
	int depth = 0, next = 0;
	for (int i = 0; i < fl->ntok && nested; i++) {
		int tok = fl->base + i;
		while (depth > 0 && fl->r[stack[depth - 1]].hi < tok)
			depth--;
		while (next < fl->nr && order[next].lo == tok) {
			int k = order[next++].k;
			if (depth > 0 && fl->r[k].hi > fl->r[stack[depth - 1]].hi) {
				nested = false;
				break;
			}
			fl->parent[k] = depth > 0 ? stack[depth - 1] : -1;
			fl->loop_up[k] = fl->r[k].loop ? k : fl->parent[k] >= 0 ? fl->loop_up[fl->parent[k]] : -1;
			stack[depth++] = k;
		}
		fl->cover[i] = depth > 0 ? stack[depth - 1] : -1;
	}
	nested = nested && next == fl->nr;   /* a region outside the function's tokens: the old way */
	free(order);
	free(stack);
	return nested;
}

/* dominates() where the regions nest: every region that holds d holds u
 * when the innermost one does. */
static bool dominates_nested(const Flow *fl, int d, int u)
{
	if (d >= u)
		return false;
	int k = fl->cover[d - fl->base];
	return k < 0 || inside(&fl->r[k], u);
}

/* The last token an assignment after u may reach u from, around a loop
 * that holds u but not d (reaches_around where the regions nest: the
 * outermost such loop holds the others). u when there is none. */
static int around_end(const Flow *fl, int d, int u)
{
	int end = u, in = fl->cover[u - fl->base];
	for (int k = in >= 0 ? fl->loop_up[in] : -1; k >= 0 && !inside(&fl->r[k], d);
	     k = fl->parent[k] >= 0 ? fl->loop_up[fl->parent[k]] : -1)
		end = fl->r[k].hi;
	return end;
}

static Val memo_val(const WcFile *f, Flow *fl, int j, uint32_t stamp)
{
	if (!fl->have[j]) {
		fl->memo[j] = assigned_val(f, &fl->a[j], stamp);
		fl->have[j] = true;
	}
	return fl->memo[j];
}

/* The first position of name `id` in by_var, or -1. */
static int name_first(const Flow *fl, uint32_t id)
{
	int lo = 0, hi = fl->na;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (fl->by_var[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < fl->na && fl->by_var[lo].id == id ? lo : -1;
}

/* The "=" whose value a use at u reads: the last one of its name that
 * dominates u, u not in its own right side. Each name keeps a stack of
 * its "="s in order; one whose innermost region has closed dominates no
 * later token, so it leaves the top for good when it is found there. */
static int reaching(const Flow *fl, int g, int u)
{
	int *top = &fl->top[g];
	while (*top >= 0 && !dominates_nested(fl, fl->a[*top].at, u))
		*top = fl->below[*top];
	for (int j = *top; j >= 0; j = fl->below[j]) {
		const Assign *a = &fl->a[j];
		if (dominates_nested(fl, a->at, u) && !(u > a->at && u < a->rhs_end))
			return j;
	}
	return -1;
}

/* fl->reach for every use of a local in a condition, in one walk over
 * the function's tokens: the uses at a token before its own "=". */
static void reaching_defs(const WcFile *f, Flow *fl, uint32_t stamp)
{
	for (int i = 0; i < fl->ntok; i++)
		fl->reach[i] = -2;   /* not asked */
	for (int k = 0; k < fl->nr; k++)
		for (int u = fl->r[k].cond_lo; u < fl->r[k].cond_hi; u++)
			fl->reach[u - fl->base] = -1;
	for (int j = 0; j < fl->na; j++)
		fl->top[j] = -1;
	int next = 0;
	for (int i = 0; i < fl->ntok; i++) {
		int tok = fl->base + i;
		if (fl->reach[i] == -1 && wc_ident(f, tok) && f->names->v[f->t[tok].id].var_stamp == stamp) {
			int g = name_first(fl, f->t[tok].id);
			fl->reach[i] = g >= 0 ? reaching(fl, g, tok) : -1;
		}
		for (; next < fl->na && fl->a[next].at == tok; next++) {
			if (fl->a[next].op != WP_NONE)
				continue;
			int g = name_first(fl, f->t[tok].id);
			fl->below[next] = fl->top[g];
			fl->top[g] = next;
		}
	}
}

/* refine_use where the regions nest: the same facts, from the "=" that
 * reaching_defs found and the name's assignments after it, each one's
 * value computed once. */
static void refine_nested(WcFile *f, Flow *fl, int u, uint32_t stamp)
{
	int d = fl->reach[u - fl->base];
	if (d < 0)
		return;
	uint32_t id = f->t[u].id;
	int m = fl->pos[d], g = name_first(fl, id);
	int end = around_end(fl, fl->a[d].at, u), q = m + 1, hi = fl->na;
	while (q < hi) {   /* the first position past the name's assignments up to end */
		int mid = (q + hi) / 2;
		if (fl->by_var[mid].id == id && fl->a[fl->by_var[mid].j].at <= end)
			q = mid + 1;
		else
			hi = mid;
	}
	/* the join runs on from the name's last one when that started at the
	 * same d and ended before q: uses in the order of the code (each if
	 * on the local after the one before) are linear, not quadratic */
	Val v;
	if (fl->fold_d[g] == d && fl->fold_q[g] <= q) {
		v = fl->fold_v[g];
		m = fl->fold_q[g];
	} else {
		v = memo_val(f, fl, d, stamp);
		m++;
	}
	for (; m < q; m++) {
		int j = fl->by_var[m].j;
		const Assign *a = &fl->a[j];
		Val w = memo_val(f, fl, j, stamp);
		v = join_assign(v, a->op, w);
	}
	fl->fold_d[g] = d;
	fl->fold_q[g] = q;
	fl->fold_v[g] = v;
	f->t[u].view = (uint8_t)v.view;
	f->t[u].varying = v.varying;
	f->t[u].whole = v.whole;
}

/* Refines every use of a local in a condition (H10 reads them). */
static void refine_uses(WcFile *f, Flow *fl, uint32_t stamp)
{
	bool nested = nest_regions(fl);
	if (nested) {
		if (fl->na > fl->vcap) {
			fl->vcap = fl->na;
			fl->by_var = base_realloc(fl->by_var, (size_t)fl->vcap * sizeof *fl->by_var);
			fl->memo = base_realloc(fl->memo, (size_t)fl->vcap * sizeof *fl->memo);
			fl->have = base_realloc(fl->have, (size_t)fl->vcap * sizeof *fl->have);
			fl->fold_d = base_realloc(fl->fold_d, (size_t)fl->vcap * sizeof *fl->fold_d);
			fl->fold_q = base_realloc(fl->fold_q, (size_t)fl->vcap * sizeof *fl->fold_q);
			fl->fold_v = base_realloc(fl->fold_v, (size_t)fl->vcap * sizeof *fl->fold_v);
			fl->pos = base_realloc(fl->pos, (size_t)fl->vcap * sizeof *fl->pos);
			fl->below = base_realloc(fl->below, (size_t)fl->vcap * sizeof *fl->below);
			fl->top = base_realloc(fl->top, (size_t)fl->vcap * sizeof *fl->top);
		}
		if (fl->ntok > fl->qcap) {
			fl->qcap = fl->ntok;
			fl->reach = base_realloc(fl->reach, (size_t)fl->qcap * sizeof *fl->reach);
		}
		for (int j = 0; j < fl->na; j++) {
			fl->by_var[j] = (ByVar){f->t[fl->a[j].at].id, j};
			fl->have[j] = false;
			fl->fold_d[j] = -1;
		}
		if (fl->na > 0)   /* by_var is still NULL in a function with no assignment */
			qsort(fl->by_var, (size_t)fl->na, sizeof *fl->by_var, cmp_by_var);
		for (int m = 0; m < fl->na; m++)
			fl->pos[fl->by_var[m].j] = m;
		reaching_defs(f, fl, stamp);
	}
	for (int k = 0; k < fl->nr; k++)
		for (int u = fl->r[k].cond_lo; u < fl->r[k].cond_hi; u++)
			if (wc_ident(f, u) && f->names->v[f->t[u].id].var_stamp == stamp && !wc_op(f, u - 1, WP_DOT) &&
			    !wc_op(f, u - 1, WP_ARROW)) {
				if (nested)
					refine_nested(f, fl, u, stamp);
				else
					refine_use(f, fl, u, stamp);
			}
}

static bool has_sync_call(const WcFile *f, const WcFunc *fn)
{
	for (int i = fn->open; i < fn->close; i++)
		if (wc_is_sync(f, i))
			return true;
	return false;
}

/* The facts a caller in this file passes to a parameter (wc_dataflow). */
typedef struct Param {
	uint32_t id;           /* the parameter's name */
	Val v;                 /* joined over the calls */
	bool passed;           /* some call passes it something to track */
} Param;

enum { MAX_PARAMS = 16 };

typedef struct FnFacts {
	Param p[MAX_PARAMS];
	int np;                /* parameters, -1 when the list was not understood */
	bool dirty;            /* p changed since the function was analysed */
} FnFacts;

/* Parameters seeded with what callers pass: joined with the convention
 * (a name with "lane" stays a lane), never less. */
static void seed_params(WcFile *f, const FnFacts *ff, uint32_t stamp)
{
	for (int k = 0; ff && k < ff->np; k++) {
		const Param *p = &ff->p[k];
		if (!p->passed)
			continue;
		WcName *nm = &f->names->v[p->id];
		nm->var_stamp = stamp;
		WcView conv = p->id == WK_tid ? WV_TID : (nm->flags & WN_LANE) ? WV_LANE : WV_NONE;
		nm->view = (uint8_t)join(conv, p->v.view);
		nm->varying = p->v.varying || view_varies(conv);
		nm->whole = p->v.whole || (nm->flags & WN_WARP_SIZE);
	}
}

/* What fn returns, joined over its return statements, for its callers
 * later in the file: int lane_id() { return threadIdx.x & 31; } */
static void note_returns(WcFile *f, const WcFunc *fn, uint32_t stamp)
{
	if (wc_kw(f, fn->name, WK_operator))
		return;
	WcName *nm = &f->names->v[f->t[fn->name].id];
	for (int i = fn->open + 1; i < fn->close; i++) {
		if (!wc_kw(f, i, WK_return))
			continue;
		Eval e = {f, i + 1, rhs_end(f, i + 1, fn->close), 0, stamp};
		Val v = expr(&e, 0);
		if (nm->ret_stamp != f->stamp) {
			nm->ret_stamp = f->stamp;
			nm->ret_view = WV_NONE;
			nm->ret_varying = false;
		}
		WcView rv = v.view == WV_WSIZE || v.view == WV_BLOCK || v.view == WV_DIM || v.view == WV_BASE ? WV_NONE : v.view;
		nm->ret_view = (uint8_t)join((WcView)nm->ret_view, rv);
		nm->ret_varying = nm->ret_varying || v.varying;
	}
}

static void function_flow(WcFile *f, const WcFunc *fn, int from, Flow *fl, const FnFacts *ff)
{
	uint32_t stamp = wc_stamp(f->names);
	seed_params(f, ff, stamp);
	collect_regions(f, fn, fl);
	collect_assigns(f, fn, fl);
	reserve_tokens(fl, fn);
	bool sync = has_sync_call(f, fn);
	for (int round = 0; round < 3; round++) {
		for (int pass = 0; pass < 4 && assign_pass(f, fl, stamp); pass++)
			;
		annotate(f, from, fn->close + 1, stamp);
		if (fl->nr == 0 || !update_splits(f, fl))
			break;
	}
	note_returns(f, fn, stamp);
	if (!sync)
		return;
	/* H10 reads conditions: there, a local's facts are those of the
	 * assignments that reach the condition. */
	refine_uses(f, fl, stamp);
}

/* The parameter names of fn, by position: the last name of each
 * declaration before a default or the end (T* __restrict__ out, int n = 4). */
static void parse_params(const WcFile *f, const WcFunc *fn, FnFacts *ff)
{
	int open = fn->name + 1;
	ff->np = -1;
	if (wc_kw(f, fn->name, WK_operator) || !wc_op(f, open, WP_LPAREN))
		return;
	int close = wc_match(f, open);
	if (close < 0 || close > fn->open)
		return;
	int np = 0, last = -1, depth = 0;
	bool dflt = false;
	for (int i = open + 1; i <= close; i++) {
		if (i < close && (wc_op(f, i, WP_LPAREN) || wc_op(f, i, WP_LBRACK) || wc_op(f, i, WP_LT))) {
			depth++;
		} else if (i < close && (wc_op(f, i, WP_RPAREN) || wc_op(f, i, WP_RBRACK) || wc_op(f, i, WP_GT))) {
			depth--;
		} else if (depth == 0 && wc_op(f, i, WP_ASSIGN)) {
			dflt = true;
		} else if (i == close || (depth == 0 && wc_op(f, i, WP_COMMA))) {
			if (last < 0 && i == close && np == 0)
				break;  /* f() or f(void) */
			if (np == MAX_PARAMS)
				return;
			bool named = last >= 0 && !(wc_flags(f, last) & (WN_TYPE | WN_QUALIFIER));
			ff->p[np++] = (Param){named ? f->t[last].id : UINT32_MAX, none, false};
			last = -1;
			dflt = false;
		} else if (depth == 0 && !dflt && wc_ident(f, i)) {
			last = i;
		}
	}
	ff->np = np;
}

/* Functions by name id, so a call finds its callees by binary search. */
typedef struct ByName {
	uint32_t id;
	int fn;
} ByName;

static int by_name(const void *a, const void *b)
{
	const ByName *x = a, *y = b;
	return x->id != y->id ? (x->id < y->id ? -1 : 1) : x->fn - y->fn;
}

/* Joins the arguments of the call whose "(" is at open into the
 * parameters of every function of the file with that name and enough
 * parameters (more, with defaults). */
static void pass_args(const WcFile *f, int name, int open, FnFacts *facts, const ByName *fns, int nfns)
{
	uint32_t id = f->t[name].id;
	int lo = 0, hi = nfns;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (fns[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= nfns || fns[lo].id != id)
		return;
	int s[MAX_PARAMS], e[MAX_PARAMS];
	int n = wc_call_args(f, open, s, e, MAX_PARAMS);
	if (n <= 0)
		return;
	Val args[MAX_PARAMS];
	for (int a = 0; a < n; a++)
		args[a] = wc_expr_val(f, s[a], e[a]);
	for (int m = lo; m < nfns && fns[m].id == id; m++) {
		FnFacts *ff = &facts[fns[m].fn];
		if (ff->np < n)
			continue;
		for (int a = 0; a < n; a++) {
			Param *p = &ff->p[a];
			Val v = args[a];
			if (p->id == UINT32_MAX || (v.view == WV_NONE && !v.varying))
				continue;
			Val nv = p->passed ? (Val){join(p->v.view, v.view), false, false, p->v.varying || v.varying,
			                           p->v.whole && v.whole, 0}
			                   : (Val){v.view, false, false, v.varying, v.whole, 0};
			if (!p->passed || nv.view != p->v.view || nv.varying != p->v.varying || nv.whole != p->v.whole) {
				p->v = nv;
				p->passed = true;
				ff->dirty = true;
			}
		}
	}
}

/* The name token of a call at i, with its "(": f(...) or f<T>(...). */
static int call_open(const WcFile *f, int i)
{
	if (wc_op(f, i + 1, WP_LPAREN))
		return i + 1;
	if (!wc_op(f, i + 1, WP_LT))
		return -1;
	for (int k = i + 2, depth = 1; k < f->n && k < i + 40; k++) {
		if (wc_op(f, k, WP_LT))
			depth++;
		else if (wc_op(f, k, WP_GT) && --depth == 0)
			return wc_op(f, k + 1, WP_LPAREN) ? k + 1 : -1;
		else if (wc_op(f, k, WP_SEMI) || wc_op(f, k, WP_LBRACE) || wc_op(f, k, WP_RBRACE))
			return -1;
	}
	return -1;
}

/* Calls within the file: what each caller passes becomes facts of the
 * callee's parameters; callees whose parameters changed are analysed
 * again (three rounds follow chains of three calls). */
static void follow_calls(WcFile *f, Flow *fl)
{
	int n = f->nfns;
	FnFacts *facts = base_calloc((size_t)n, sizeof *facts);
	ByName *fns = base_malloc((size_t)n * sizeof *fns);
	bool any_params = false;
	for (int k = 0; k < n; k++) {
		parse_params(f, &f->fns[k], &facts[k]);
		any_params = any_params || facts[k].np > 0;
		fns[k] = (ByName){f->t[f->fns[k].name].id, k};
	}
	qsort(fns, (size_t)n, sizeof *fns, by_name);
	/* A caller's arguments change only when it was analysed again. */
	bool *scan = base_malloc((size_t)n * sizeof *scan);
	for (int k = 0; k < n; k++)
		scan[k] = true;
	for (int round = 0; round < 3 && any_params; round++) {
		for (int k = 0; k < n; k++) {
			const WcFunc *fn = &f->fns[k];
			if (!scan[k])
				continue;
			scan[k] = false;
			for (int i = fn->open + 1; i < fn->close; i++) {
				if (!wc_ident(f, i) || f->t[i].id < WK__COUNT || wc_op(f, i - 1, WP_ARROW))
					continue;
				int open = call_open(f, i);
				if (open >= 0)
					pass_args(f, i, open, facts, fns, n);
			}
		}
		bool any = false;
		for (int k = 0; k < n; k++) {
			if (!facts[k].dirty)
				continue;
			facts[k].dirty = false;
			any = true;
			scan[k] = true;
			function_flow(f, &f->fns[k], f->fns[k].name, fl, &facts[k]);
		}
		if (!any)
			break;
	}
	free(facts);
	free(fns);
	free(scan);
}

void wc_dataflow(WcFile *f)
{
	Flow fl = {0};
	int prev = 0;
	for (int k = 0; k < f->nfns; k++) {
		annotate(f, prev, f->fns[k].name, 0);  /* between functions: conventions only */
		function_flow(f, &f->fns[k], f->fns[k].name, &fl, NULL);
		prev = f->fns[k].close + 1;
	}
	annotate(f, prev, f->n, 0);
	if (f->nfns > 1)
		follow_calls(f, &fl);
	free(fl.r);
	free(fl.a);
	free(fl.cover);
	free(fl.parent);
	free(fl.loop_up);
	free(fl.by_var);
	free(fl.memo);
	free(fl.have);
	free(fl.fold_d);
	free(fl.fold_q);
	free(fl.fold_v);
	free(fl.pos);
	free(fl.below);
	free(fl.top);
	free(fl.reach);
}

bool wc_derived(const WcFile *f, int i)
{
	return (unsigned)i < (unsigned)f->n && f->t[i].kind == WT_IDENT && wc_view_thread(f->t[i].view);
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
