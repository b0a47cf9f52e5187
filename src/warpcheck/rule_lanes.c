/* rule_lanes.c: H3 (lane and warp ids computed with 32) and H5 (lane
 * constants such as 31 for "the last lane").
 *
 * `& 31`, `>> 5`, `% 32` are everyday bit tricks, so they are reported only
 * when the left operand comes from a thread index: a small forward dataflow
 * over local names (x = <expr using threadIdx or another derived name>). */
#include "warpcheck/warpcheck.h"

#include <string.h>

static bool in_vec(const Vec *v, const char *s, size_t n)
{
	for (int i = 0; i < v->len; i++) {
		const char *x = v->data[i];
		if (strlen(x) == n && memcmp(x, s, n) == 0)
			return true;
	}
	return false;
}

static char *dupn(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* "lane" as a word of the name (lane, lane_id, laneId, srcLane), so that
 * "plane" or "planes" are not lane ids. */
static bool lane_name(const WcFile *f, int i)
{
	const char *s = f->src.text + f->t[i].off;
	size_t n = f->t[i].len;
	for (size_t a = 0; a + 4 <= n; a++) {
		bool word = a == 0 || s[a - 1] == '_' || s[a] == 'L';
		if (word && (s[a] | 0x20) == 'l' && memcmp(s + a + 1, "ane", 3) == 0)
			return true;
	}
	return false;
}

/* Thread-index sources, and names that by convention hold a lane id. */
static bool seed(const WcFile *f, int i)
{
	return wc_ident_is(f, i, "threadIdx") || wc_ident_is(f, i, "hipThreadIdx_x") ||
	       wc_ident_is(f, i, "__lane_id") || wc_ident_is(f, i, "__lanemask_lt") ||
	       wc_ident_is(f, i, "tid") || lane_name(f, i);
}

bool wc_derived(const WcFile *f, int i)
{
	if (i < 0 || i >= f->n || f->t[i].kind != WT_IDENT)
		return false;
	return seed(f, i) || in_vec(&f->derived, f->src.text + f->t[i].off, f->t[i].len);
}

/* The operand that ends at token `end` (a name, a member, or (...)). */
bool wc_operand_derived(const WcFile *f, int end)
{
	if (wc_is(f, end, ")")) {
		int depth = 0;
		for (int i = end; i >= 0; i--) {
			if (wc_is(f, i, ")"))
				depth++;
			else if (wc_is(f, i, "(") && --depth == 0)
				return false;
			else if (wc_derived(f, i))
				return true;
		}
		return false;
	}
	while (end >= 2 && f->t[end].kind == WT_IDENT && (wc_is(f, end - 1, ".") || wc_is(f, end - 1, "->")))
		end -= 2;
	return wc_derived(f, end);
}

/* Start of the operand that ends at `end`. */
static int operand_start(const WcFile *f, int end)
{
	if (wc_is(f, end, ")")) {
		int depth = 0;
		for (int i = end; i >= 0; i--) {
			if (wc_is(f, i, ")"))
				depth++;
			else if (wc_is(f, i, "(") && --depth == 0)
				return i > 0 && f->t[i - 1].kind == WT_IDENT ? i - 1 : i;
		}
		return 0;
	}
	while (end >= 2 && (wc_is(f, end - 1, ".") || wc_is(f, end - 1, "->")))
		end -= 2;
	return end;
}

/* op at i is "/ 32" or ">> 5" of a derived operand: a 32-lane warp id. */
static bool warp_id32(const WcFile *f, int i)
{
	uint64_t v;
	if (!wc_value(f, i + 1, &v) || !wc_operand_derived(f, i - 1))
		return false;
	return (wc_is(f, i, "/") && v == 32) || (wc_is(f, i, ">>") && v == 5);
}

void wc_dataflow(WcFile *f)
{
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i + 1 < f->n; i++) {
			if (f->t[i].kind != WT_IDENT || !wc_is(f, i + 1, "="))
				continue;
			bool der = false, w32 = false;
			int depth = 0;
			for (int j = i + 2; j < f->n; j++) {
				if (wc_is(f, j, "(") || wc_is(f, j, "["))
					depth++;
				else if (wc_is(f, j, ")") || wc_is(f, j, "]"))
					depth--;
				if (depth < 0 || (depth == 0 && (wc_is(f, j, ";") || wc_is(f, j, ","))))
					break;
				der = der || wc_derived(f, j);
				w32 = w32 || warp_id32(f, j) || (f->t[j].kind == WT_IDENT &&
					in_vec(&f->warp32, f->src.text + f->t[j].off, f->t[j].len));
			}
			const char *s = f->src.text + f->t[i].off;
			if (der && !in_vec(&f->derived, s, f->t[i].len))
				vec_push(&f->derived, dupn(s, f->t[i].len));
			if (w32 && !in_vec(&f->warp32, s, f->t[i].len))
				vec_push(&f->warp32, dupn(s, f->t[i].len));
		}
	}
}

/* Precedence-safe to swap the operator: the operand and the constant sit
 * between delimiters, so "tid & 31" may become "tid % warpSize". */
static bool isolated(const WcFile *f, int start, int after)
{
	static const char *const before[] = {"(", "=", ",", ";", "{", "[", "return", "?", ":"};
	static const char *const next[] = {")", ";", ",", "]", "?", ":"};
	bool b = false, a = false;
	for (size_t k = 0; k < TC_COUNT(before); k++)
		b = b || wc_is(f, start - 1, before[k]);
	for (size_t k = 0; k < TC_COUNT(next); k++)
		a = a || wc_is(f, after, next[k]);
	return a && b;
}

/* tid & (WARP_SIZE - 1): the mask spelled as an expression. */
static void check_mask_expr(WcFile *f, int i)
{
	uint64_t v;
	if (!wc_is(f, i, "&") || !wc_is(f, i + 1, "(") || !wc_value(f, i + 2, &v) || v != 32 ||
	    !wc_is(f, i + 3, "-") || !wc_is(f, i + 4, "1") || !wc_is(f, i + 5, ")") ||
	    !wc_operand_derived(f, i - 1))
		return;
	WcFinding *fd = wc_find(f, i, "H3", "lane-index", "use tid % warpSize",
		"lane id computed for 32-lane warps ('& (%.*s - 1)'); a wavefront has 64 lanes",
		(int)f->t[i + 2].len, f->src.text + f->t[i + 2].off);
	if (isolated(f, operand_start(f, i - 1), i + 6))
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
	if ((wc_is(f, i, "%") || wc_is(f, i, "/")) && v == 32) {
		fix = wc_is(f, i, "%") ? "use tid % warpSize" : "use tid / warpSize";
		repl = "warpSize";
	} else if (wc_is(f, i, "&") && v == 31) {
		fix = "use tid % warpSize";
		repl = "% warpSize";
		swap = true;
	} else if (wc_is(f, i, ">>") && v == 5) {
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
	else if (isolated(f, operand_start(f, i - 1), i + 2))
		wc_edit(fd, f, i, i + 1, repl);
}

/* __shared__ T s[32] whose index is a 32-lane warp id. */
static void check_shared(WcFile *f, int i)
{
	int j = i + 1;
	while (j < f->n && !wc_is(f, j, "[") && !wc_is(f, j, ";") && !wc_is(f, j, "="))
		j++;
	uint64_t v;
	if (!wc_is(f, j, "[") || !wc_value(f, j + 1, &v) || v != 32 || !wc_is(f, j + 2, "]"))
		return;
	int name = j - 1, depth = 0;
	/* Uses follow the declaration inside its block. */
	for (int k = j + 3; k + 1 < f->n && depth >= 0; k++) {
		depth += wc_is(f, k, "{") - wc_is(f, k, "}");
		if (k == name || f->t[k].kind != WT_IDENT || f->t[k].len != f->t[name].len ||
		    memcmp(f->src.text + f->t[k].off, f->src.text + f->t[name].off, f->t[k].len) != 0 ||
		    !wc_is(f, k + 1, "["))
			continue;
		int close = wc_match(f, k + 1);
		for (int m = k + 2; m < close; m++) {
			if (warp_id32(f, m) || (f->t[m].kind == WT_IDENT &&
			    in_vec(&f->warp32, f->src.text + f->t[m].off, f->t[m].len))) {
				wc_find(f, j + 1, "H3", "per-warp-storage",
					"size per-warp storage by blockDim.x / warpSize and index it by tid / warpSize",
					"per-warp array of 32 slots indexed by a 32-lane warp id (line %d)", f->t[k].line);
				return;
			}
		}
	}
}

/* H5: lane == 31, __shfl(v, 31) as "the last lane". */
static void check_last_lane(WcFile *f, int i)
{
	uint64_t v;
	if (wc_is(f, i, "==") && wc_value(f, i + 1, &v) && v == 31 && f->t[i + 1].kind == WT_NUMBER &&
	    wc_operand_derived(f, i - 1)) {
		WcFinding *fd = wc_find(f, i + 1, "H5", "lane-constant", "use warpSize - 1",
			"lane 31 is not the last lane of a 64-lane wavefront");
		wc_edit(fd, f, i + 1, i + 1, "warpSize - 1");
		return;
	}
	if (!wc_ident_is(f, i, "__shfl") && !wc_ident_is(f, i, "__shfl_sync"))
		return;
	int s[8], e[8];
	int n = wc_call_args(f, i + 1, s, e, 8);
	int src = wc_ident_is(f, i, "__shfl") ? 1 : 2;
	if (n != src + 1 || e[src] != s[src] + 1 || !wc_value(f, s[src], &v) || v != 31)
		return;
	WcFinding *fd = wc_find(f, s[src], "H5", "lane-constant", "use warpSize - 1",
		"shuffle reads lane 31 as the last lane; a 64-lane wavefront ends at lane 63");
	if (f->t[s[src]].kind == WT_NUMBER)
		wc_edit(fd, f, s[src], s[src], "warpSize - 1");
}

void wc_rule_lanes(WcFile *f)
{
	for (int i = 1; i + 1 < f->n; i++) {
		if (f->t[i].kind == WT_PUNCT)
			check_op(f, i);
		if (wc_ident_is(f, i, "__shared__"))
			check_shared(f, i);
		check_last_lane(f, i);
	}
}
