/* rule_ballot.c: H4, ballot and lane-bit results handled as 32 bits.
 *
 * __ballot/__activemask return one bit per lane: 64 bits on a wavefront.
 * Storing them in an int, counting them with __popc or building a lane bit
 * with 1 << lane silently drops lanes 32..63. */
#include "warpcheck/warpcheck.h"

#include <string.h>

static bool type32(const WcFile *f, int i)
{
	static const char *const names[] = {"int", "unsigned", "signed", "uint32_t", "int32_t", "uint", "long"};
	for (size_t k = 0; k < TC_COUNT(names); k++)
		if (wc_ident_is(f, i, names[k]))
			return !wc_ident_is(f, i, "long");
	return false;
}

/* The expression starting at i (after "=") is a ballot call, maybe cast. */
static bool ballot_expr(const WcFile *f, int i)
{
	while (wc_is(f, i, "("))
		i++;
	return wc_is_ballot(f, i);
}

static bool is_ballot_var(const WcFile *f, const Vec *vars, int i)
{
	if (f->t[i].kind != WT_IDENT)
		return false;
	for (int k = 0; k < vars->len; k++) {
		const WcTok *v = vars->data[k];
		if (v->len == f->t[i].len && memcmp(f->src.text + v->off, f->src.text + f->t[i].off, v->len) == 0)
			return true;
	}
	return false;
}

/* unsigned int b = __ballot_sync(...); remembers b either way. */
static void check_decl(WcFile *f, int i, Vec *vars)
{
	if (!wc_is(f, i + 1, "=") || !ballot_expr(f, i + 2))
		return;
	vec_push(vars, &f->t[i]);
	int first = i;
	while (first > 0 && type32(f, first - 1))
		first--;
	if (first == i || wc_ident_has(f, i - 1, "long"))
		return;
	WcFinding *fd = wc_find(f, first, "H4", "ballot-width", "store ballots in unsigned long long (uint64_t)",
		"ballot result stored in a 32-bit integer drops lanes 32..63");
	wc_edit(fd, f, first, i - 1, "unsigned long long");
}

static void check_count(WcFile *f, int i, const Vec *vars)
{
	bool popc = wc_ident_is(f, i, "__popc"), ffs = wc_ident_is(f, i, "__ffs");
	if ((!popc && !ffs) || !wc_is(f, i + 1, "("))
		return;
	int close = wc_match(f, i + 1);
	for (int k = i + 2; k < close; k++) {
		if (wc_is_ballot(f, k) || is_ballot_var(f, vars, k)) {
			WcFinding *fd = wc_find(f, i, "H4", "ballot-width", popc ? "use __popcll" : "use __ffsll",
				"%s of a ballot counts only 32 of a wavefront's 64 lanes", popc ? "__popc" : "__ffs");
			wc_edit(fd, f, i, i, popc ? "__popcll" : "__ffsll");
			return;
		}
	}
}

/* 1 << lane, ~(-1 << lane), (1u << lane) - 1 */
static void check_lane_bit(WcFile *f, int i)
{
	uint64_t v;
	if (f->t[i].kind != WT_NUMBER || !wc_value(f, i, &v) || v != 1 || f->t[i].num_wide ||
	    !wc_is(f, i + 1, "<<") || !wc_operand_derived(f, i + 2) || wc_is(f, i + 3, "."))
		return;
	bool neg = wc_is(f, i - 1, "-");
	WcFinding *fd = wc_find(f, i, "H4", "ballot-width", "use 1ull << lane",
		"32-bit lane bit: lanes 32..63 of a wavefront shift out of range");
	wc_edit(fd, f, i, i, neg ? "1ll" : "1ull");
}

void wc_rule_ballot(WcFile *f)
{
	Vec vars = {0};
	for (int i = 0; i + 1 < f->n; i++) {
		if (f->t[i].kind == WT_IDENT)
			check_decl(f, i, &vars);
		check_count(f, i, &vars);
		check_lane_bit(f, i);
	}
	vec_free(&vars);
}
