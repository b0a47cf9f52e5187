/* rule_ballot.c: H4, ballot and lane-bit results handled as 32 bits.
 *
 * __ballot/__activemask return one bit per lane: 64 bits on a wavefront.
 * Storing them in an int, counting them with __popc or building a lane bit
 * with 1 << lane silently drops lanes 32..63. Which names hold a ballot
 * comes from the per-function dataflow (WV_BALLOT). */
#include "warpcheck/warpcheck.h"

static bool type32(const WcFile *f, int i)
{
	return wc_kw(f, i, WK_int) || wc_kw(f, i, WK_unsigned) || wc_kw(f, i, WK_signed) ||
	       wc_kw(f, i, WK_uint32_t) || wc_kw(f, i, WK_int32_t) || wc_kw(f, i, WK_uint);
}

/* The expression starting at i (after "=") is a ballot call, maybe cast. */
static bool ballot_expr(const WcFile *f, int i)
{
	while (wc_op(f, i, WP_LPAREN))
		i++;
	return wc_is_ballot(f, i);
}

/* unsigned int b = __ballot_sync(...); */
static void check_decl(WcFile *f, int i)
{
	if (!wc_op(f, i + 1, WP_ASSIGN) || !ballot_expr(f, i + 2))
		return;
	int first = i;
	while (first > 0 && type32(f, first - 1))
		first--;
	if (first == i || wc_kw(f, i - 1, WK_long))
		return;
	WcFinding *fd = wc_find(f, first, "H4", "ballot-width", "store ballots in unsigned long long (uint64_t)",
		"ballot result stored in a 32-bit integer drops lanes 32..63");
	wc_edit(fd, f, first, i - 1, "unsigned long long");
}

/* The name at k is declared with a 64-bit type in the function around i
 * (a parameter or a local before i): unsigned long long b, uint64_t m. */
static bool declared64(const WcFile *f, int i, int k)
{
	int fn = wc_func_at(f, i);
	if (fn < 0 || f->fns[fn].name < 0)
		return false;
	for (int d = f->fns[fn].name + 1; d < i; d++) {
		if (!wc_same_ident(f, d, k))
			continue;
		if ((wc_kw(f, d - 1, WK_long) && wc_kw(f, d - 2, WK_long)) || wc_kw(f, d - 1, WK_uint64_t))
			return true;
		if (wc_op(f, d - 1, WP_STAR) || wc_op(f, d - 1, WP_AMP))
			return false;
	}
	return false;
}

static void check_count(WcFile *f, int i)
{
	bool popc = wc_kw(f, i, WK___popc), ffs = wc_kw(f, i, WK___ffs);
	if ((!popc && !ffs) || !wc_op(f, i + 1, WP_LPAREN))
		return;
	int close = wc_match(f, i + 1);
	if (close == i + 3 && wc_ident(f, i + 2) && declared64(f, i, i + 2)) {
		WcFinding *fd = wc_find(f, i, "H4", "ballot-width", popc ? "use __popcll" : "use __ffsll",
			"%s of a 64-bit value (a wavefront's ballot or mask) sees only its low 32 bits", popc ? "__popc" : "__ffs");
		wc_edit(fd, f, i, i, popc ? "__popcll" : "__ffsll");
		return;
	}
	for (int k = i + 2; k < close; k++) {
		if (wc_is_ballot(f, k) || (wc_ident(f, k) && f->t[k].view == WV_BALLOT)) {
			WcFinding *fd = wc_find(f, i, "H4", "ballot-width", popc ? "use __popcll" : "use __ffsll",
				"%s of a ballot counts only 32 of a wavefront's 64 lanes", popc ? "__popc" : "__ffs");
			wc_edit(fd, f, i, i, popc ? "__popcll" : "__ffsll");
			return;
		}
	}
}

/* The shift amount at i is a lane (or the thread index itself), not some
 * other value computed from one: 1 << (4 * tid) is no lane bit. */
static bool lane_amount(const WcFile *f, int i)
{
	WcView v = WV_NONE;
	if (wc_op(f, i, WP_LPAREN)) {
		int close = wc_match(f, i);
		if (close > i)
			v = wc_expr_view(f, i + 1, close);
	} else if (wc_ident(f, i)) {
		v = f->t[i].view;
	}
	return v == WV_TID || v == WV_LANE || v == WV_LANE32;
}

/* 1 << lane, ~(-1 << lane), (1u << lane) - 1 */
static void check_lane_bit(WcFile *f, int i)
{
	if (f->t[i].kind != WT_NUMBER || !wc_value_is(f, i, 1) || f->t[i].num_wide ||
	    !wc_op(f, i + 1, WP_SHL) || wc_op(f, i + 3, WP_DOT) || !lane_amount(f, i + 2))
		return;
	bool neg = wc_op(f, i - 1, WP_MINUS);
	WcFinding *fd = wc_find(f, i, "H4", "ballot-width", "use 1ull << lane",
		"32-bit lane bit: lanes 32..63 of a wavefront shift out of range");
	wc_edit(fd, f, i, i, neg ? "1ll" : "1ull");
}

void wc_rule_ballot(WcFile *f)
{
	if (!(f->tok_flags & WN_BALLOT) && !(f->tok_ops & (uint64_t)1 << WP_SHL) && !wc_file_has_kw(f, WK___popc) &&
	    !wc_file_has_kw(f, WK___ffs))
		return;  /* no ballot (check_decl), __popc or __ffs (check_count), "1 <<" (check_lane_bit) */
	for (int i = 0; i + 1 < f->n; i++) {
		if (f->t[i].kind == WT_IDENT) {
			check_decl(f, i);
			check_count(f, i);
		} else if (f->t[i].kind == WT_NUMBER) {
			check_lane_bit(f, i);
		}
	}
}
