/* rule_library.c: H9, library logical-warp widths that disagree with how
 * their TempStorage is laid out.
 *
 * cub::WarpReduce<T> (and WarpScan, WarpExchange, WarpLoad, WarpStore,
 * WarpMergeSort; the same under hipcub) spans the device's warp: 32 lanes
 * on NVIDIA, 64 on CDNA. Each logical warp needs its own TempStorage:
 *   - no width, but storage indexed by a 32-lane warp id (tid / 32), or
 *     sized "/ 32" with an index that is not a physical warp id: on CDNA
 *     the two halves of a wavefront use different slots of one collective;
 *   - an explicit width of 32, but storage indexed by the physical warp id
 *     (tid / warpSize): the two 32-lane logical warps of a wavefront share
 *     one TempStorage. Dropping the width makes the collective physical,
 *     which matches that index (and is the same on NVIDIA).
 * A width of 32 indexed by tid / 32 is a consistent logical warp: fine. */
#include "warpcheck/warpcheck.h"

typedef enum { WIDTH_DEVICE, WIDTH_32, WIDTH_OTHER } Width;

typedef struct Collective {
	int name;             /* WarpReduce */
	int close;            /* the template's ">" */
	int comma, width;     /* ", 32": the tokens to drop, or -1 */
	Width kind;
	uint32_t alias;       /* typedef/using name, or UINT32_MAX */
} Collective;

/* The ">" that closes the template argument list opened at `lt`. */
static int template_close(const WcFile *f, int lt, int *comma)
{
	int depth = 0;
	*comma = -1;
	for (int i = lt; i < f->n && i < lt + 128; i++) {
		const WcTok *t = &f->t[i];
		if (t->kind != WT_PUNCT)
			continue;
		if (t->op == WP_LT || t->op == WP_LPAREN)
			depth++;
		else if (t->op == WP_GT || t->op == WP_RPAREN)
			depth--;
		else if (t->op == WP_SHR)
			depth -= 2;
		else if (t->op == WP_SEMI || t->op == WP_LBRACE)
			return -1;
		else if (t->op == WP_COMMA && depth == 1 && *comma < 0)
			*comma = i;
		if (depth <= 0)
			return i;
	}
	return -1;
}

/* typedef cub::WarpReduce<T> WR;  or  using WR = cub::WarpReduce<T>; */
static uint32_t alias_of(const WcFile *f, int name, int close)
{
	if (wc_ident(f, close + 1) && wc_op(f, close + 2, WP_SEMI))
		return f->t[close + 1].id;
	int i = name - 1;
	while (i > 0 && (wc_op(f, i, WP_SCOPE) || wc_kw(f, i, WK_cub) || wc_kw(f, i, WK_hipcub) ||
	                 wc_kw(f, i, WK_typename)))
		i--;
	if (wc_op(f, i, WP_ASSIGN) && wc_ident(f, i - 1) && wc_kw(f, i - 2, WK_using))
		return f->t[i - 1].id;
	return UINT32_MAX;
}

static bool parse(const WcFile *f, int i, Collective *c)
{
	if (!wc_op(f, i + 1, WP_LT))
		return false;
	int comma, close = template_close(f, i + 1, &comma);
	if (close < 0)
		return false;
	*c = (Collective){i, close, -1, -1, WIDTH_DEVICE, UINT32_MAX};
	if (comma >= 0) {
		c->kind = comma + 2 == close && wc_value_is(f, comma + 1, 32) ? WIDTH_32 : WIDTH_OTHER;
		c->comma = comma;
		c->width = comma + 1;
	}
	c->alias = alias_of(f, i, close);
	return true;
}

/* Token k is the "TempStorage" of collective c: ALIAS::TempStorage or
 * WarpReduce<...>::TempStorage. */
static bool storage_of(const WcFile *f, int k, const Collective *c)
{
	if (!wc_kw(f, k, WK_TempStorage) || !wc_op(f, k - 1, WP_SCOPE))
		return false;
	if (k - 2 == c->close)
		return true;
	return c->alias != UINT32_MAX && wc_ident(f, k - 2) && f->t[k - 2].id == c->alias;
}

/* Bound [open+1, close) sized per 32 lanes: "N / 32" or "N >> 5". */
static bool bound_per32(const WcFile *f, int open, int close)
{
	for (int i = open + 1; i + 1 < close; i++)
		if ((wc_op(f, i, WP_SLASH) && wc_value_is(f, i + 1, 32)) || (wc_op(f, i, WP_SHR) && wc_value_is(f, i + 1, 5)))
			return true;
	return false;
}

typedef struct Storage {
	bool per32;          /* sized "/ 32" */
	int warp32_use;      /* first index that is a 32-lane warp id, or -1 */
	int warp_use;        /* first index that is a physical warp id, or -1 */
	bool other_use;      /* an index of another kind */
} Storage;

/* The uses var[idx] after `from` in the same function (to the end of the
 * file for storage declared outside functions), classified by idx's view. */
static void scan_uses(const WcFile *f, int var, int from, Storage *st)
{
	int fn = wc_func_at(f, var);
	int end = fn >= 0 ? f->fns[fn].close : f->n;
	for (int k = from; k + 1 < end; k++) {
		if (!wc_same_ident(f, k, var) || !wc_op(f, k + 1, WP_LBRACK))
			continue;
		int close = wc_match(f, k + 1);
		if (close < 0)
			return;
		WcView v = wc_expr_view(f, k + 2, close);
		if (v == WV_WARP32 && st->warp32_use < 0)
			st->warp32_use = k;
		else if (v == WV_WARP && st->warp_use < 0)
			st->warp_use = k;
		else if (v != WV_WARP32 && v != WV_WARP)
			st->other_use = true;
	}
}

static void report(WcFile *f, const Collective *c, const Storage *st)
{
	const char *nm = f->src.text + f->t[c->name].off;
	int len = (int)f->t[c->name].len;
	if (c->kind == WIDTH_DEVICE && (st->warp32_use >= 0 || (st->per32 && st->warp_use < 0))) {
		int line = st->warp32_use >= 0 ? wc_tok_line(f, &f->t[st->warp32_use]) : 0;
		if (line)
			wc_find(f, c->name, "H9", "library-warp-width",
				"index the TempStorage by tid / warpSize, or give the collective the width 32",
				"%.*s spans the device's warp (64 lanes on CDNA) but its TempStorage is indexed by a "
				"32-lane warp id (line %d)", len, nm, line);
		else
			wc_find(f, c->name, "H9", "library-warp-width",
				"size and index the TempStorage per physical warp (tid / warpSize), or give the width 32",
				"%.*s spans the device's warp (64 lanes on CDNA) but its TempStorage is sized per 32 lanes",
				len, nm);
	} else if (c->kind == WIDTH_32 && st->warp_use >= 0) {
		WcFinding *fd = wc_find(f, c->width, "H9", "library-warp-width",
			"drop the width (one collective per physical warp), or index the TempStorage by tid / 32",
			"%.*s has 32-lane logical warps but its TempStorage is indexed by the physical warp id "
			"(line %d): both halves of a 64-lane wavefront share one", len, nm, wc_tok_line(f, &f->t[st->warp_use]));
		wc_edit(fd, f, c->comma, c->width, "");
	}
}

static void check_collective(WcFile *f, int i)
{
	Collective c;
	if (!parse(f, i, &c) || c.kind == WIDTH_OTHER)
		return;
	Storage st = {false, -1, -1, false};
	for (int k = c.close + 1; k + 2 < f->n; k++) {
		if (!storage_of(f, k, &c) || !wc_ident(f, k + 1))
			continue;
		if (wc_op(f, k + 2, WP_LBRACK)) {
			int close = wc_match(f, k + 2);
			st.per32 = st.per32 || (close > 0 && bound_per32(f, k + 2, close));
		}
		scan_uses(f, k + 1, k + 2, &st);
	}
	report(f, &c, &st);
}

void wc_rule_library(WcFile *f)
{
	if (!(f->tok_flags & WN_COLLECTIVE))
		return;
	for (int i = 0; i + 1 < f->n; i++)
		if (wc_flags(f, i) & WN_COLLECTIVE)
			check_collective(f, i);
}
