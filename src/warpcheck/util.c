/* util.c: token helpers the rules share, and the one place findings are
 * made (so the CUDA-only exemption cannot be forgotten by a rule). */
#include "warpcheck/warpcheck.h"

#include <stdlib.h>
#include <string.h>

static WcPunct closer(WcPunct open)
{
	return open == WP_LPAREN ? WP_RPAREN : open == WP_LBRACK ? WP_RBRACK : WP_RBRACE;
}

/* Each bracket's partner, once the code tokens are final: a scan per
 * bracket was quadratic in deeply nested code. Brackets of one kind pair
 * up among themselves, as the scans below count them. */
_Static_assert(WP__COUNT <= 64, "WcFile.tok_ops has a bit for each punctuator");
_Static_assert(WK__COUNT <= 3 * 64, "WcFile.tok_kws has a bit for each known name");

/* wc_stmt_end's scan counts the brackets of all kinds together: from a
 * token, it stops at the first ')' ']' '}' or ';' met at the depth it
 * started at. The depth before each token and a backward pass with the
 * latest such token per depth give that stop for every token at once
 * (a scan per statement was quadratic in nesting: 100000 nested ifs
 * without braces took 70 s). */
static void stmt_table(WcFile *f)
{
	free(f->stmt_next);
	f->stmt_next = base_malloc(((size_t)f->n + 1) * sizeof *f->stmt_next);
	int *depth = base_malloc(((size_t)f->n + 1) * sizeof *depth);
	int d = 0, lo = 0, hi = 0;
	for (int i = 0; i < f->n; i++) {
		depth[i] = d;
		d += wc_is_open(f, i) ? 1 : wc_is_close(f, i) ? -1 : 0;
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	int *last = base_malloc(((size_t)(hi - lo) + 1) * sizeof *last);
	for (int k = 0; k <= hi - lo; k++)
		last[k] = -1;
	for (int i = f->n - 1; i >= 0; i--) {
		if (wc_is_close(f, i) || wc_op(f, i, WP_SEMI))
			last[depth[i] - lo] = i;
		f->stmt_next[i] = last[depth[i] - lo];
	}
	free(last);
	free(depth);
}

void wc_match_table(WcFile *f)
{
	free(f->match);
	f->match = base_malloc(((size_t)f->n + 1) * sizeof *f->match);
	f->nmatch = f->n;
	int *stack[3], depth[3] = {0, 0, 0};
	for (int k = 0; k < 3; k++)
		stack[k] = base_malloc(((size_t)f->n + 1) * sizeof *stack[k]);
	uint16_t flags = 0;
	uint64_t ops = 0, kws[3] = {0, 0, 0};
	const uint16_t *fl = f->names->fl;
	for (int i = 0; i < f->n; i++) {
		f->match[i] = -1;
		if (f->t[i].kind == WT_IDENT) {
			uint32_t id = f->t[i].id;
			flags |= fl[id];
			if (id < WK__COUNT)
				kws[id >> 6] |= (uint64_t)1 << (id & 63);
		}
		if (f->t[i].kind != WT_PUNCT)
			continue;
		WcPunct op = f->t[i].op;
		ops |= (uint64_t)1 << op;
		int k = op == WP_LPAREN || op == WP_RPAREN ? 0 : op == WP_LBRACK || op == WP_RBRACK ? 1 :
			op == WP_LBRACE || op == WP_RBRACE ? 2 : -1;
		if (k < 0)
			continue;
		if (op == WP_LPAREN || op == WP_LBRACK || op == WP_LBRACE) {
			stack[k][depth[k]++] = i;
		} else if (depth[k] > 0) {
			int open = stack[k][--depth[k]];
			f->match[open] = i;
			f->match[i] = open;
		}
	}
	for (int k = 0; k < 3; k++)
		free(stack[k]);
	stmt_table(f);
	f->tok_flags = flags;
	f->tok_ops = ops;
	memcpy(f->tok_kws, kws, sizeof kws);
}

int wc_match(const WcFile *f, int open)
{
	if (!wc_is_open(f, open))
		return -1;
	if (f->match && f->nmatch == f->n)
		return f->match[open];
	WcPunct o = f->t[open].op, c = closer(o);
	int depth = 0;
	for (int i = open; i < f->n; i++) {
		if (f->t[i].kind != WT_PUNCT)
			continue;
		if (f->t[i].op == o)
			depth++;
		else if (f->t[i].op == c && --depth == 0)
			return i;
	}
	return -1;
}

int wc_match_back(const WcFile *f, int close)
{
	if (!wc_is_close(f, close))
		return -1;
	if (f->match && f->nmatch == f->n)
		return f->match[close];
	WcPunct c = f->t[close].op;
	WcPunct o = c == WP_RPAREN ? WP_LPAREN : c == WP_RBRACK ? WP_LBRACK : WP_LBRACE;
	int depth = 0;
	for (int i = close; i >= 0; i--) {
		if (f->t[i].kind != WT_PUNCT)
			continue;
		if (f->t[i].op == c)
			depth++;
		else if (f->t[i].op == o && --depth == 0)
			return i;
	}
	return -1;
}

/* Splits the arguments of the call whose "(" is at `open` at top-level
 * commas; returns how many (0 for "()"), -1 when unbalanced. */
int wc_call_args(const WcFile *f, int open, int *starts, int *ends, int max)
{
	int close = wc_match(f, open);
	if (close < 0)
		return -1;
	if (close == open + 1)
		return 0;
	int n = 0, depth = 0, start = open + 1;
	for (int i = open + 1; i <= close; i++) {
		if (wc_is_open(f, i))
			depth++;
		else if (i < close && wc_is_close(f, i))
			depth--;
		if ((i == close || (depth == 0 && wc_op(f, i, WP_COMMA))) && n < max) {
			starts[n] = start;
			ends[n] = i;  /* exclusive */
			n++;
			start = i + 1;
		}
	}
	return n;
}

/* Argument [s, e) is an all-ones lane mask: 0xffffffff, ~0u, FULL_MASK
 * (*only32 set), or ~0ull, 0xffffffffffffffff, -1. */
bool wc_full_mask(const WcFile *f, int s, int e, bool *only32)
{
	uint64_t v;
	*only32 = false;
	if (e == s + 1 && wc_value(f, s, &v)) {
		*only32 = v == 0xffffffffu;
		return v == 0xffffffffu || v == UINT64_MAX;
	}
	if (e == s + 2 && (wc_op(f, s, WP_TILDE) || wc_op(f, s, WP_MINUS)) && f->t[s + 1].kind == WT_NUMBER &&
	    f->t[s + 1].num_ok && f->t[s + 1].num == (wc_op(f, s, WP_TILDE) ? 0u : 1u)) {
		const char *p = f->src.text + f->t[s + 1].off;
		bool is_unsigned = memchr(p, 'u', f->t[s + 1].len) || memchr(p, 'U', f->t[s + 1].len);
		*only32 = wc_op(f, s, WP_TILDE) && is_unsigned && !f->t[s + 1].num_wide;
		return true;
	}
	/* UINT32_MAX, UINT_MAX: <stdint.h> and <limits.h>, which are not read */
	if (e == s + 1 && wc_ident(f, s) && ((f->t[s].len == 10 && memcmp(f->src.text + f->t[s].off, "UINT32_MAX", 10) == 0) ||
	                                     (f->t[s].len == 8 && memcmp(f->src.text + f->t[s].off, "UINT_MAX", 8) == 0))) {
		*only32 = true;
		return true;
	}
	/* uint32_t(-1), unsigned(-1) */
	if (e == s + 5 && (wc_kw(f, s, WK_uint32_t) || wc_kw(f, s, WK_unsigned)) && wc_op(f, s + 1, WP_LPAREN) &&
	    wc_op(f, s + 2, WP_MINUS) && wc_value_is(f, s + 3, 1) && wc_op(f, s + 4, WP_RPAREN)) {
		*only32 = true;
		return true;
	}
	return false;
}

bool wc_is_shuffle_wrapper(const WcFile *f, int i)
{
	if (!(wc_flags(f, i) & WN_SHFL_WRAP) || !wc_op(f, i + 1, WP_LPAREN) || wc_op(f, i - 1, WP_DOT) ||
	    wc_op(f, i - 1, WP_ARROW) || wc_is_shuffle_macro(f, i))
		return false;
	return wc_func_at(f, i) >= 0;  /* a call in a body, not a definition or prototype */
}

int wc_wrapper_plain_args(const WcFile *f, int i)
{
	const char *s = f->src.text + f->t[i].off;
	for (uint32_t k = 0; k + 4 <= f->t[i].len; k++)
		if ((s[k] | 32) == 's' && (s[k + 1] | 32) == 'y' && (s[k + 2] | 32) == 'n' && (s[k + 3] | 32) == 'c')
			return 3;
	return 2;
}

/* The call at i goes through a project macro that ignores its mask. */
bool wc_mask_dropped(const WcFile *f, int i)
{
	if (!wc_ident(f, i))
		return false;
	const WcName *nm = &f->names->v[f->t[i].id];
	return nm->macro_stamp == f->stamp && nm->macro_nparams > 0 && !(nm->macro_used & 1u);
}

/* End (inclusive) of the statement or block starting at `start`; an
 * "if (...) s; else t;" is one statement. The last token when unbalanced. */
int wc_stmt_end(const WcFile *f, int start)
{
	for (;;) {
		if (wc_op(f, start, WP_LBRACE)) {
			int close = wc_match(f, start);
			return close < 0 ? f->n - 1 : close;
		}
		int depth = 0, i = start;
		if (start >= 0 && start < f->n && f->stmt_next && f->match && f->nmatch == f->n) {
			i = f->stmt_next[start];
			if (i < 0)
				return f->n - 1;
			if (wc_is_close(f, i))
				return i - 1;
		} else {
			for (; i < f->n; i++) {
				if (wc_is_open(f, i))
					depth++;
				else if (wc_is_close(f, i) && --depth < 0)
					return i - 1;
				else if (depth == 0 && wc_op(f, i, WP_SEMI))
					break;
			}
		}
		if (i >= f->n)
			return f->n - 1;
		if (!wc_kw(f, i + 1, WK_else))
			return i;
		start = i + 2;
	}
}

bool wc_in_if_naming(const WcFile *f, const WcFunc *fn, int i, bool (*names)(const WcFile *, int, const void *),
		     const void *ctx)
{
	for (int k = fn->open; k < i; k++) {
		if (!wc_kw(f, k, WK_if))
			continue;
		int open = wc_op(f, k + 1, WP_LPAREN) ? k + 1 : k + 2;   /* if constexpr ( */
		int close = wc_match(f, open);
		if (!wc_op(f, open, WP_LPAREN) || close < 0 || close > i)
			continue;
		bool named = false;
		for (int c = open + 1; c < close && !named; c++)
			named = names(f, c, ctx);
		if (!named)
			continue;
		int end = wc_stmt_end(f, close + 1);
		if (wc_kw(f, end + 1, WK_else))
			end = wc_stmt_end(f, end + 2);
		if (i <= end)
			return true;
	}
	return false;
}

/* The binary operator of a compound assignment (+= gives +), or WP_NONE. */
WcPunct wc_compound_op(const WcFile *f, int i)
{
	if ((unsigned)i >= (unsigned)f->n || f->t[i].kind != WT_PUNCT)
		return WP_NONE;
	switch ((WcPunct)f->t[i].op) {
	case WP_PLUS_EQ: return WP_PLUS;
	case WP_MINUS_EQ: return WP_MINUS;
	case WP_STAR_EQ: return WP_STAR;
	case WP_SLASH_EQ: return WP_SLASH;
	case WP_PERCENT_EQ: return WP_PERCENT;
	case WP_AMP_EQ: return WP_AMP;
	case WP_PIPE_EQ: return WP_PIPE;
	case WP_CARET_EQ: return WP_CARET;
	case WP_SHL_EQ: return WP_SHL;
	case WP_SHR_EQ: return WP_SHR;
	default: return WP_NONE;
	}
}

bool wc_for_header(const WcFile *f, int open, WcFor *h)
{
	int close = wc_match(f, open);
	if (close < 0)
		return false;
	int semi[2], ns = 0, depth = 0;
	for (int i = open + 1; i < close && ns < 2; i++) {
		if (wc_is_open(f, i))
			depth++;
		else if (wc_is_close(f, i))
			depth--;
		else if (depth == 0 && wc_op(f, i, WP_SEMI))
			semi[ns++] = i;
	}
	if (ns != 2)
		return false;
	*h = (WcFor){open + 1, semi[0], semi[0] + 1, semi[1], semi[1] + 1, close, -1};
	for (int i = h->init0; i + 1 < h->init1; i++)
		if (f->t[i].kind == WT_IDENT && wc_op(f, i + 1, WP_ASSIGN))
			h->var = i;
	return true;
}

static bool range_has(const WcFile *f, int from, int to, WcPunct op)
{
	for (int i = from; i < to; i++)
		if (wc_op(f, i, op))
			return true;
	return false;
}

WcStep wc_for_step(const WcFile *f, const WcFor *h)
{
	if (range_has(f, h->step0, h->step1, WP_SLASH_EQ) || range_has(f, h->step0, h->step1, WP_SHR_EQ) ||
	    range_has(f, h->step0, h->step1, WP_SLASH) || range_has(f, h->step0, h->step1, WP_SHR))
		return WC_HALVES;
	if (range_has(f, h->step0, h->step1, WP_STAR_EQ) || range_has(f, h->step0, h->step1, WP_SHL_EQ))
		return WC_DOUBLES;
	return WC_STEP_OTHER;
}

WcFinding *wc_find(WcFile *f, int i, const char *id, const char *name, const char *fix,
	const char *fmt, ...)
{
	if (i < 0 || i >= f->n)
		return NULL;
	va_list ap;
	va_start(ap, fmt);
	WcFinding *fd = wc_vfind(f, &f->t[i], id, name, fix, fmt, ap);
	va_end(ap);
	return fd;
}

WcFinding *wc_find_tok(WcFile *f, const WcTok *t, const char *id, const char *name, const char *fix,
	const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	WcFinding *fd = wc_vfind(f, t, id, name, fix, fmt, ap);
	va_end(ap);
	return fd;
}

WcFinding *wc_vfind(WcFile *f, const WcTok *t, const char *id, const char *name, const char *fix,
	const char *fmt, va_list ap)
{
	if (t->cuda_only || f->include_depth > 0)
		return NULL;
	if ((f->nfinds & (f->nfinds - 1)) == 0)  /* grow at powers of two */
		f->finds = base_realloc(f->finds, (size_t)(f->nfinds ? f->nfinds * 2 : 1) * sizeof *f->finds);
	WcFinding *fd = &f->finds[f->nfinds++];
	memset(fd, 0, sizeof *fd);
	fd->off = t->off;
	wc_tok_pos(f, t, &fd->line, &fd->col);
	fd->id = id;
	fd->name = name;
	fd->fix = fix;
	vsnprintf(fd->msg, sizeof fd->msg, fmt, ap);
	return fd;
}

/* The edit replaces tokens first..last (inclusive) with `repl`. */
void wc_edit(WcFinding *fd, const WcFile *f, int first, int last, const char *repl)
{
	if (!fd || first < 0 || last < first || last >= f->n)
		return;
	fd->has_edit = true;
	fd->eoff = f->t[first].off;
	fd->elen = f->t[last].off + f->t[last].len - fd->eoff;
	snprintf(fd->repl, sizeof fd->repl, "%s", repl);
}

bool wc_lib_width(const WcFile *f, int i)
{
	const WcName *nm = &f->names->v[f->t[i].id];
	const char *s = f->names->chars + nm->off;
	/* PyTorch's C10_WARP_SIZE (C10_WARP_SIZE_INTERNAL(): a constexpr 64
	 * under __GFX9__, else 32, in the device pass; at::cuda::warp_size() on
	 * the host) and the others are constants per target in device code:
	 * the device's width only where the host reads them. */
	int fn = f->nfns ? wc_func_at(f, i) : -1;
	if (fn < 0 || f->fns[fn].kind != WF_HOST)
		return false;
	if (s[0] == 'H' || s[0] == 'C')
		return nm->const_stamp != f->stamp && nm->macro_stamp != f->stamp;
	if (!wc_op(f, i + 1, WP_LPAREN) || !wc_op(f, i + 2, WP_RPAREN))
		return false;
	if (s[0] == '_')
		return true;
	/* rocprim::warp_size(), ::rocprim::device_warp_size(); not at::cuda::warp_size(), a host query */
	return wc_op(f, i - 1, WP_SCOPE) && wc_ident(f, i - 2) && f->t[i - 2].len == 7 &&
	       memcmp(f->src.text + f->t[i - 2].off, "rocprim", 7) == 0;
}

/* The kernel named before the "<<<" at i: name<<<, name<T, 32><<<; -1 if none. */
int wc_launched_name(const WcFile *f, int i)
{
	int k = i - 1;
	if (wc_op(f, k, WP_GT)) {
		int depth = 0;
		for (; k >= 0; k--) {
			if (wc_op(f, k, WP_GT))
				depth++;
			else if (wc_op(f, k, WP_SHR))
				depth += 2;
			else if (wc_op(f, k, WP_LT) && --depth == 0)
				break;
			else if (wc_op(f, k, WP_SEMI) || wc_op(f, k, WP_LBRACE) || wc_op(f, k, WP_RBRACE))
				return -1;
		}
		k--;
	}
	return wc_ident(f, k) ? k : -1;
}

void wc_ptab_add(WcPtrTab *t, uint64_t h, void *p, uint32_t first_size)
{
	if (!t->v || (t->n + 1) * 2 > t->mask + 1) {
		uint32_t size = t->v ? (t->mask + 1) * 2 : first_size;
		void **v = base_calloc(size, sizeof *v);
		uint64_t *hs = base_malloc(size * sizeof *hs);
		for (uint32_t k = 0; t->v && k <= t->mask; k++) {
			if (!t->v[k])
				continue;
			uint32_t s = (uint32_t)t->h[k] & (size - 1);
			while (v[s])
				s = (s + 1) & (size - 1);
			v[s] = t->v[k];
			hs[s] = t->h[k];
		}
		free(t->v);
		free(t->h);
		t->v = v;
		t->h = hs;
		t->mask = size - 1;
	}
	uint32_t s = (uint32_t)h & t->mask;
	while (t->v[s])
		s = (s + 1) & t->mask;
	t->v[s] = p;
	t->h[s] = h;
	t->n++;
}

void wc_ptab_clear(WcPtrTab *t)
{
	if (t->v)
		memset(t->v, 0, sizeof *t->v * ((size_t)t->mask + 1));
	t->n = 0;
}

void wc_ptab_free(WcPtrTab *t)
{
	free(t->v);
	free(t->h);
	memset(t, 0, sizeof *t);
}
