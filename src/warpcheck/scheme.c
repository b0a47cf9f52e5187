/* scheme.c: functions that use 32-lane logical warps consistently.
 *
 * Much CUDA code keeps to 32 lanes everywhere: xor offsets 16..1, lane =
 * tid & 31, warp = tid >> 5, a shared slot per 32 threads. A 64-lane
 * wavefront runs such code as two independent 32-lane halves: an xor below
 * 32 never leaves its aligned half, and lanes 0 and 32 each write their own
 * slot. That is correct; what breaks is a mix of the two views. So the H1,
 * H3 and H5 findings of a function become notes when the function, together
 * with the functions of the file it calls (however deep), the functions
 * that call it (however far up: what they do with its result) and the
 * functions of included headers it calls (wc_header_kinds),
 *   - shows the scheme: a lane or warp id in 32s (an H3 finding) and a
 *     shuffle that stays inside 32-lane groups (a width of at most 32, or
 *     an xor offset below 32: a constant, or a loop over 16..1 or 1..16);
 *   - never takes the physical view: no warpSize (nor a warp-size name with
 *     no fixed value), __lane_id, lane masks, ballots or votes (their bits
 *     and counts are physical lanes; __activemask() as the mask of a _sync
 *     call does not count), and no shuffle that may cross from one half to
 *     the other (no width and not an xor below 32: __shfl_down from 16
 *     reads lanes 32..47 into lanes 16..31).
 * Code only NVIDIA compilers see does not count. H1, H3 and H5 findings of
 * a function that no warp-level operation reaches (none in it, in what it
 * calls, in its callers or in what they call, nor in another member of its
 * class) are notes too: plain tile or bank arithmetic.
 * H2, H4 and H10 findings stay warnings: they are wrong on any reading.
 * Notes carry no rewrite: changing one piece of a consistent scheme to
 * warpSize would make it a mixed one. */
#include "warpcheck/warpcheck.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
	S_PHYS = 1,      /* takes the physical warp's view */
	S_CROSS = 2,     /* a shuffle that may leave its 32-lane group */
	S_LANES32 = 4,   /* a lane or warp id in 32s (an H3 finding) */
	S_CONFINED = 8,  /* a shuffle kept inside 32-lane groups */
	S_WARP_OPS = 16, /* any warp-level operation: shuffles, votes, __syncwarp, warp collectives */
	S_IDS = 32,      /* a lane or warp id computed from the thread index (tid & 31, tid / warpSize) */
	S_TIDX = 64,     /* reads threadIdx.x: with no S_IDS, the thread index is the lane */
	S_SPAN = 128,    /* a shuffle that may read a lane 8 or more away (not xor 1, 2, 4): needs whole warps */
};

static bool piece(const WcFinding *fd)
{
	if (strcmp(fd->name, "lane-storage") == 0 || strcmp(fd->name, "lane-fraction") == 0 ||
	    strcmp(fd->name, "warp-stride") == 0 || strcmp(fd->name, "doubling-cap") == 0 ||
	    strcmp(fd->name, "warp-tree") == 0)
		return false;  /* a write past an array, a limit the shuffles cross, a 32s id in wavefront strides,
		                  a power of two capped below the width, a tree sized for one count of warps:
		                  wrong in any scheme */
	return strcmp(fd->id, "H1") == 0 || strcmp(fd->id, "H3") == 0 || strcmp(fd->id, "H5") == 0;
}

/* The loop "for (v = c; ...; v /= 2)" with 0 < c < 32, or "for (v = c;
 * v < 32; v *= 2)" with c > 0: every value of v is below 32. */
static bool loop_below32(const WcFile *f, const WcFor *h)
{
	uint64_t v0, bound;
	if (h->var + 3 != h->init1 || !wc_value(f, h->var + 2, &v0) || v0 == 0)
		return false;
	WcStep step = wc_for_step(f, h);
	if (step == WC_HALVES)
		return v0 < 32;
	for (int i = h->cond0; step == WC_DOUBLES && i + 2 < h->cond1; i++)
		if (wc_same_ident(f, i, h->var) && wc_value(f, i + 2, &bound))
			return (wc_op(f, i + 1, WP_LT) && bound <= 32) || (wc_op(f, i + 1, WP_LE) && bound < 32);
	return false;
}

/* The xor offset [s, e) of the shuffle at `call` is below 32: a constant,
 * or the variable of an enclosing for loop whose values are. */
static bool offset_below32(const WcFile *f, int s, int e, int call, const WcFunc *fn)
{
	uint64_t v;
	if (e != s + 1)
		return false;
	if (wc_value(f, s, &v))
		return v < 32;
	for (int k = call - 1; k > fn->open && wc_ident(f, s); k--) {
		WcFor h;
		if (!wc_kw(f, k, WK_for) || !wc_for_header(f, k + 1, &h) || !wc_same_ident(f, h.var, s))
			continue;
		if (call <= wc_stmt_end(f, h.step1 + 1))
			return loop_below32(f, &h);
	}
	return false;
}

static bool names_xor(const WcFile *f, int i)
{
	const char *s = f->src.text + f->t[i].off;
	for (uint32_t k = 0; k + 3 <= f->t[i].len; k++)
		if ((s[k] | 32) == 'x' && (s[k + 1] | 32) == 'o' && (s[k + 2] | 32) == 'r')
			return true;
	return false;
}

/* S_SPAN unless the shuffle at i reads a lane a constant below 8 away
 * (__shfl_xor_sync(m, v, 2): groups of 4 lanes, whole in any block of
 * whole groups). */
static int shuffle_span(const WcFile *f, int i, bool wrapper)
{
	int s[8], e[8];
	int n = wc_call_args(f, i + 1, s, e, 8);
	int plain = wrapper ? wc_wrapper_plain_args(f, i) : wc_is_sync(f, i) ? 3 : 2;
	uint64_t v;
	if (plain >= 1 && n >= plain && e[plain - 1] == s[plain - 1] + 1 && wc_value(f, s[plain - 1], &v) && v < 8)
		return 0;
	return S_SPAN;
}

/* S_CONFINED or S_CROSS for the shuffle call (or project wrapper) at i. */
static int shuffle_kind(const WcFile *f, int i, const WcFunc *fn, bool wrapper)
{
	int s[8], e[8];
	int n = wc_call_args(f, i + 1, s, e, 8);
	/* arguments before the width */
	int plain = wrapper ? wc_wrapper_plain_args(f, i) : wc_is_sync(f, i) ? 3 : 2;
	uint64_t w;
	if (n == plain + 1)
		return e[plain] == s[plain] + 1 && wc_value(f, s[plain], &w) && w >= 1 && w <= 32 && !(w & (w - 1))
			? S_CONFINED : S_CROSS;
	bool xor = wc_kw(f, i, WK___shfl_xor) || wc_kw(f, i, WK___shfl_xor_sync) || (wrapper && names_xor(f, i));
	return n == plain && xor && offset_below32(f, s[plain - 1], e[plain - 1], i, fn) ? S_CONFINED : S_CROSS;
}

typedef struct NameFn {
	uint32_t id;
	int fn;
} NameFn;

static int by_id(const void *a, const void *b)
{
	const NameFn *x = a, *y = b;
	return x->id != y->id ? (x->id < y->id ? -1 : 1) : x->fn - y->fn;
}

/* The first entry of names[0..n) with this id, or n. */
static int first_with(const NameFn *names, int n, uint32_t id)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (names[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Name id is one of this file's functions. */
static bool file_function(const NameFn *names, int n, uint32_t id)
{
	int k = first_with(names, n, id);
	return k < n && names[k].id == id;
}

static bool has_part(const char *s, size_t n, const char *part)
{
	size_t k = strlen(part);
	for (size_t a = 0; a + k <= n; a++)
		if (memcmp(s + a, part, k) == 0)
			return true;
	return false;
}

/* The function of an included header that the call at i names, if the
 * file does not define one of that name itself. */
static bool header_call(const WcFile *f, int i, const NameFn *names, int nnames)
{
	return f->t[i].id >= WK__COUNT && f->names->v[f->t[i].id].hdr_stamp == f->stamp &&
	       !file_function(names, nnames, f->t[i].id);
}

/* Name i is a warp-level operation: an intrinsic that works on lanes, a
 * macro that shuffles, a cub/hipcub warp collective, or a call of a
 * function the file does not define whose name speaks of warps, lanes or
 * shuffles (warp_reduce_sum from a header whose body is not known). */
static bool warp_op(const WcFile *f, int i, bool call, const NameFn *names, int nnames)
{
	uint16_t fl = wc_flags(f, i);
	if (fl & (WN_SHUFFLE | WN_BALLOT | WN_VOTE | WN_SYNC | WN_COLLECTIVE))
		return true;
	if (!call || f->t[i].id < WK__COUNT)
		return wc_kw(f, i, WK___lane_id);
	if (wc_is_shuffle_macro(f, i))
		return true;
	const WcName *nm = &f->names->v[f->t[i].id];
	if (!(fl & (WN_WARPISH | WN_LANE)) && !has_part(f->names->chars + nm->off, nm->len, "shfl") &&
	    !has_part(f->names->chars + nm->off, nm->len, "shuffle"))
		return false;
	return !file_function(names, nnames, f->t[i].id);
}

/* What the body of fn shows on its own (S_LANES32 comes from findings).
 * Code only NVIDIA compilers see does not count; a call of a header's
 * function counts as what that function's body does. */
static int own_kinds(const WcFile *f, const WcFunc *fn, const NameFn *names, int nnames)
{
	int k = 0;
	for (int i = fn->open + 1; i < fn->close; i++) {
		if (!wc_ident(f, i) || f->t[i].cuda_only)
			continue;
		uint32_t id = f->t[i].id;
		uint16_t fl = wc_flags(f, i);
		uint64_t v;
		int view = f->t[i].view;
		if (view == WV_LANE32 || view == WV_WARP32 || view == WV_WARP || (view == WV_LANE && id != WK___lane_id))
			k |= S_IDS;
		if ((id == WK_threadIdx && wc_op(f, i + 1, WP_DOT) && wc_kw(f, i + 2, WK_x)) || id == WK_hipThreadIdx_x) {
			int e = id == WK_threadIdx ? i + 3 : i + 1;
			k |= S_TIDX;
			/* A header's code has no dataflow: threadIdx.x % w, & m, / w, >> s */
			if (wc_op(f, e, WP_PERCENT) || wc_op(f, e, WP_AMP) || wc_op(f, e, WP_SLASH) || wc_op(f, e, WP_SHR))
				k |= S_IDS;
		}
		bool call = wc_op(f, i + 1, WP_LPAREN) || wc_op(f, i + 1, WP_LT);
		if (call && header_call(f, i, names, nnames)) {
			k |= f->names->v[id].hdr_kinds;
			continue;
		}
		call = wc_op(f, i + 1, WP_LPAREN);
		if (warp_op(f, i, call, names, nnames))
			k |= S_WARP_OPS;
		if (wc_warp_size_expr(f, i) || id == WK___AMDGCN_WAVEFRONT_SIZE || id == WK___lane_id || id == WK___lanemask_lt ||
		    ((fl & WN_WARP_SIZE) && !wc_value(f, i, &v)))
			k |= S_PHYS;
		else if (call && (fl & (WN_BALLOT | WN_VOTE)) && !(wc_op(f, i - 1, WP_LPAREN) && wc_is_sync(f, i - 2)))
			k |= S_PHYS;  /* a ballot or vote as a value, not as a _sync call's mask */
		else if (call && (fl & WN_SHUFFLE))
			k |= shuffle_kind(f, i, fn, false) | shuffle_span(f, i, false);
		else if (wc_is_shuffle_wrapper(f, i))
			k |= shuffle_kind(f, i, fn, true) | shuffle_span(f, i, true) | S_WARP_OPS;
	}
	return k;
}

/* The function whose body holds byte offset off, or -1. */
static int func_at_offset(const WcFile *f, uint32_t off)
{
	int lo = 0, hi = f->nfns - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (off < f->t[f->fns[mid].open].off)
			hi = mid - 1;
		else if (off > f->t[f->fns[mid].close].off)
			lo = mid + 1;
		else
			return mid;
	}
	return -1;
}

static int root(int *parent, int k)
{
	while (parent[k] != k)
		k = parent[k] = parent[parent[k]];
	return k;
}

static void unite(int *parent, int a, int b)
{
	a = root(parent, a);
	b = root(parent, b);
	if (a != b)
		parent[a] = b;
}

/* The "{" at i opens a class or struct body: the word before the name. */
static bool class_body(const WcFile *f, int i)
{
	for (int k = i - 1; k >= 0 && k > i - 48; k--) {
		if (wc_op(f, k, WP_SEMI) || wc_op(f, k, WP_LBRACE) || wc_op(f, k, WP_RBRACE) || wc_op(f, k, WP_RPAREN))
			return false;
		if (wc_kw(f, k, WK_struct) || wc_kw(f, k, WK_class) || wc_kw(f, k, WK_union))
			return true;
	}
	return false;
}

/* Member functions of one class (written inside its body) belong together. */
static void unite_members(const WcFile *f, int *parent)
{
	enum { DEPTH = 64 };
	int open[DEPTH], first[DEPTH], depth = 0, k = 0;
	for (int i = 0; i < f->n && k < f->nfns; i++) {
		if (i == f->fns[k].open) {
			if (depth > 0 && depth <= DEPTH && class_body(f, open[depth - 1])) {
				if (first[depth - 1] < 0)
					first[depth - 1] = k;
				else
					unite(parent, k, first[depth - 1]);
			}
			i = f->fns[k++].close;
		} else if (wc_op(f, i, WP_LBRACE)) {
			if (depth < DEPTH)
				open[depth] = i, first[depth] = -1;
			depth++;
		} else if (wc_op(f, i, WP_RBRACE) && depth > 0) {
			depth--;
		}
	}
}

/* The calls between the file's functions, as (caller, callee) pairs: a
 * name followed by "(" or "<" calls every overload of that name. */
typedef struct Edge {
	int from, to;
} Edge;

static Edge *call_edges(const WcFile *f, const NameFn *names, int *nedges)
{
	int n = f->nfns, cap = 0, ne = 0;
	Edge *e = NULL;
	for (int k = 0; k < n; k++) {
		const WcFunc *fn = &f->fns[k];
		for (int i = fn->open + 1; i < fn->close; i++) {
			if (!wc_ident(f, i) || !(wc_op(f, i + 1, WP_LPAREN) || wc_op(f, i + 1, WP_LT)))
				continue;
			for (int m = first_with(names, n, f->t[i].id); m < n && names[m].id == f->t[i].id; m++) {
				if (ne == cap) {
					cap = cap ? cap * 2 : 64;
					e = base_realloc(e, (size_t)cap * sizeof *e);
				}
				e[ne++] = (Edge){k, names[m].fn};
			}
		}
	}
	*nedges = ne;
	return e;
}

/* down[k]: what k and everything it calls, however deep, do. */
static void callee_closure(int *down, const Edge *e, int ne, int n)
{
	bool changed = true;
	for (int round = 0; changed && round < n + 1; round++) {
		changed = false;
		for (int i = 0; i < ne; i++) {
			int d = down[e[i].from] | down[e[i].to];
			if (d != down[e[i].from])
				down[e[i].from] = d, changed = true;
		}
	}
}

/* up[k]: what the functions that call k, or call its callers, do in
 * their own bodies (what is done with k's result). */
static void caller_kinds(int *up, const int *own, const Edge *e, int ne, int n)
{
	bool changed = true;
	for (int round = 0; changed && round < n + 1; round++) {
		changed = false;
		for (int i = 0; i < ne; i++) {
			int u = up[e[i].to] | up[e[i].from] | own[e[i].from];
			if (u != up[e[i].to])
				up[e[i].to] = u, changed = true;
		}
	}
}

/* anc[k]: the warp-level operations of the functions that call k, or
 * call its callers, however far up, and of what they call (the lane a
 * helper returns may feed a shuffle in a sibling). */
static void caller_ops(int *anc, const int *down, const Edge *e, int ne, int n)
{
	bool changed = true;
	for (int round = 0; changed && round < n + 1; round++) {
		changed = false;
		for (int i = 0; i < ne; i++) {
			int a = anc[e[i].to] | ((anc[e[i].from] | down[e[i].from]) & S_WARP_OPS);
			if (a != anc[e[i].to])
				anc[e[i].to] = a, changed = true;
		}
	}
}

static NameFn *sorted_names(const WcFile *f)
{
	NameFn *names = base_malloc((size_t)(f->nfns ? f->nfns : 1) * sizeof *names);
	for (int k = 0; k < f->nfns; k++)
		names[k] = (NameFn){f->t[f->fns[k].name].id, k};
	qsort(names, (size_t)f->nfns, sizeof *names, by_id);
	return names;
}

void wc_header_kinds(WcFile *sub)
{
	if (sub->nfns == 0)
		return;
	NameFn *names = sorted_names(sub);
	int *down = base_malloc((size_t)sub->nfns * sizeof *down);
	for (int k = 0; k < sub->nfns; k++)
		down[k] = own_kinds(sub, &sub->fns[k], names, sub->nfns);
	int ne;
	Edge *e = call_edges(sub, names, &ne);
	callee_closure(down, e, ne, sub->nfns);
	for (int k = 0; k < sub->nfns; k++) {
		if (sub->t[sub->fns[k].name].cuda_only)
			continue;
		WcName *nm = &sub->names->v[sub->t[sub->fns[k].name].id];
		if (nm->hdr_stamp != sub->stamp)
			wc_touch(sub->names, sub->t[sub->fns[k].name].id, sub->stamp), nm->hdr_stamp = sub->stamp,
			nm->hdr_kinds = 0;
		nm->hdr_kinds |= (uint8_t)(down[k] & ~S_LANES32);
		nm->src_stamp = 0;  /* a change with no wc_touch (pp.c's replays) */
	}
	free(e);
	free(down);
	free(names);
}

static const char note_fix[] = "nothing to fix on CDNA; to use whole wavefronts instead, change every 32 of the "
                               "function together (warpSize)";

static const char note_fix_plain[] = "nothing to fix while no warp-level operation uses it; with one, use warpSize";

/* An H6 finding on a launch geometry of WARP_SIZE (32). */
static bool launch_width(const WcFinding *fd)
{
	return strcmp(fd->id, "H6") == 0 && strncmp(fd->msg, "launch geometry", 15) == 0;
}

/* Every kernel the function at k launches is a function of the file that,
 * with what it calls, keeps to 32-lane groups (no warpSize, vote or
 * shuffle that may cross a half): launching it with blocks of WARP_SIZE
 * (32) threads only leaves half of a 64-lane wavefront idle. */
static bool launches_logical(const WcFile *f, const WcFunc *fn, const int *down, const NameFn *names)
{
	int launches = 0;
	for (int i = fn->open + 1; i < fn->close; i++) {
		int name = -1;
		if (wc_op(f, i, WP_LAUNCH_OPEN))
			name = wc_launched_name(f, i);
		else if (wc_kw(f, i, WK_hipLaunchKernelGGL) && wc_op(f, i + 1, WP_LPAREN))
			name = wc_ident(f, i + 2) ? i + 2 : -1;
		else
			continue;
		if (name < 0)
			return false;
		int m = first_with(names, f->nfns, f->t[name].id);
		if (m >= f->nfns || names[m].id != f->t[name].id)
			return false;
		for (; m < f->nfns && names[m].id == f->t[name].id; m++)
			if (down[names[m].fn] & (S_PHYS | S_CROSS))
				return false;
		launches++;
	}
	return launches > 0;
}

/* What the kernel named at token name does, with what it calls: a function
 * of the file (down) or of an included header; -1 when neither. */
static int kernel_kinds(const WcFile *f, int name, const int *down, const NameFn *names)
{
	uint32_t id = f->t[name].id;
	int m = first_with(names, f->nfns, id);
	if (m < f->nfns && names[m].id == id) {
		int k = 0;
		for (; m < f->nfns && names[m].id == id; m++)
			if (f->fns[names[m].fn].kind == WF_KERNEL)
				k |= down[names[m].fn];
		return k ? k : -1;
	}
	const WcName *nm = &f->names->v[id];
	return nm->hdr_stamp == f->stamp ? nm->hdr_kinds : -1;
}

/* The block's x size of the launch argument [a, b): a constant alone, the
 * first argument of dim3(x, y...) there or in the declaration of the dim3
 * variable named there (dim3 threads(32, 4);), searched back to lo. *at:
 * the token of x; *rows: a y size other than 1 is given. */
static bool block_x(const WcFile *f, int a, int b, int lo, uint64_t *x, int *at, bool *rows)
{
	int open = -1;
	if (b == a + 1 && wc_value(f, a, x)) {
		*at = a, *rows = false;
		return true;
	}
	if (wc_kw(f, a, WK_dim3) && wc_op(f, a + 1, WP_LPAREN))
		open = a + 1;
	else if (b == a + 1 && wc_ident(f, a)) {
		for (int k = a - 1; k > lo && open < 0; k--) {
			if (!wc_same_ident(f, k, a) || !wc_kw(f, k - 1, WK_dim3))
				continue;
			if (wc_op(f, k + 1, WP_LPAREN) || wc_op(f, k + 1, WP_LBRACE))
				open = k + 1;
			else if (wc_op(f, k + 1, WP_ASSIGN) && wc_kw(f, k + 2, WK_dim3) &&
			         (wc_op(f, k + 3, WP_LPAREN) || wc_op(f, k + 3, WP_LBRACE)))
				open = k + 3;
			else
				return false;
		}
	}
	if (open < 0)
		return false;
	int st[3], en[3];
	int n = wc_call_args(f, open, st, en, 3);
	if (n < 1 || en[0] != st[0] + 1 || !wc_value(f, st[0], x))
		return false;
	uint64_t y = 1;
	*at = st[0];
	*rows = n >= 2 && !(en[1] == st[1] + 1 && wc_value(f, st[1], &y) && y == 1);
	return true;
}

bool wc_launch_judge(int kk, uint64_t x, bool rows, const char *kn, int kl, char *msg, size_t cap, const char **fix)
{
	if (!(kk & S_WARP_OPS) || !(kk & S_TIDX))
		return false;
	if (x == 64 && !rows && !(kk & S_IDS)) {
		*fix = "size the block from the queried warp size (or launch one block per warp of the device)";
		snprintf(msg, cap, "a block of 64 threads is two warps on RDNA (wave32) and NVIDIA, but %.*s treats its "
			"block as one warp (warp-level operations on threadIdx.x, no warp id)", kl, kn);
		return true;
	}
	if (x == 32 && rows && (kk & (S_PHYS | S_CROSS))) {
		*fix = "make the rows a wavefront wide (the queried warp size), or give the shuffles the width 32";
		snprintf(msg, cap, "rows of 32 threads: a 64-lane wavefront holds two, and %.*s shuffles across the "
			"wavefront with threadIdx.x as its lane", kl, kn);
		return true;
	}
	return false;
}

void wc_kernel_facts_free(WcKernelFact *k, int n)
{
	for (int i = 0; i < n; i++)
		free(k[i].name);
	free(k);
}

void wc_launch_refs_free(WcLaunchRef *l, int n)
{
	for (int i = 0; i < n; i++)
		free(l[i].name);
	free(l);
}

static char *name_copy(const WcFile *f, int i)
{
	char *s = base_malloc(f->t[i].len + 1);
	memcpy(s, f->src.text + f->t[i].off, f->t[i].len);
	s[f->t[i].len] = '\0';
	return s;
}

/* A launch of a kernel this file does not know, sized so that some kernel
 * would be wrong: kept for the other files of the run. */
static void launch_ref(WcFile *f, int name, uint64_t x, bool rows, int at)
{
	if (!((x == 64 && !rows) || (x == 32 && rows)))
		return;
	f->lrefs = base_realloc(f->lrefs, (size_t)(f->nlrefs + 1) * sizeof *f->lrefs);
	int line, col;
	wc_tok_pos(f, &f->t[at], &line, &col);
	f->lrefs[f->nlrefs++] = (WcLaunchRef){name_copy(f, name), x, rows, f->t[at].off, line, col};
}

/* The kernels of the file that do warp-level work on threadIdx.x, with
 * what they call (down), for launches in other files. */
static void kernel_facts(WcFile *f, const int *down)
{
	for (int k = 0; k < f->nfns; k++) {
		int kk = down[k];
		const WcFunc *fn = &f->fns[k];
		if (fn->kind != WF_KERNEL || f->t[fn->name].cuda_only || !(kk & S_WARP_OPS) || !(kk & S_TIDX))
			continue;
		f->kfacts = base_realloc(f->kfacts, (size_t)(f->nkfacts + 1) * sizeof *f->kfacts);
		f->kfacts[f->nkfacts++] = (WcKernelFact){name_copy(f, fn->name), kk & ~S_LANES32};
	}
}

/* Launches whose block is sized for one width (H6): <<<g, 64>>> of a
 * kernel that treats its block as one warp (warp-level operations with
 * threadIdx.x as the lane, no warp id) is two warps on RDNA and NVIDIA;
 * dim3(32, k) rows of a kernel whose shuffles with threadIdx.x as the lane
 * reach across the device's width put two rows in one CDNA wavefront. */
static void check_launch_widths(WcFile *f, const int *down, const NameFn *names)
{
	for (int k = 0; k < f->nfns; k++) {
		const WcFunc *fn = &f->fns[k];
		if (fn->kind != WF_HOST && fn->kind != WF_UNKNOWN)
			continue;
		for (int i = fn->open + 1; i < fn->close; i++) {
			if (!wc_op(f, i, WP_LAUNCH_OPEN) || f->t[i].cuda_only)
				continue;
			int name = wc_launched_name(f, i);
			int a = -1, b = -1, depth = 0;
			for (int j = i + 1; j < fn->close && !wc_op(f, j, WP_LAUNCH_CLOSE); j++) {
				if (wc_is_open(f, j))
					depth++;
				else if (wc_is_close(f, j))
					depth--;
				else if (depth == 0 && wc_op(f, j, WP_COMMA)) {
					if (a >= 0) {
						b = j;
						break;
					}
					a = j + 1;
				}
				b = j + 1;
			}
			if (name < 0 || a < 0 || b <= a)
				continue;
			uint64_t x;
			int at;
			bool rows;
			if (!block_x(f, a, b, fn->open, &x, &at, &rows) || wc_under_width_test(f, i))
				continue;
			int kk = kernel_kinds(f, name, down, names);
			if (kk < 0) {
				launch_ref(f, name, x, rows, at);
				continue;
			}
			char msg[200];
			const char *fix;
			if (wc_launch_judge(kk, x, rows, f->src.text + f->t[name].off, (int)f->t[name].len, msg, sizeof msg,
			                    &fix))
				wc_find(f, at, "H6", "launch-width", fix, "%s", msg);
		}
	}
}

/* Blocks whose size is a data size capped at a limit, never rounded to
 * whole warps, for kernels whose warp-level operations run on threadIdx.x:
 *
 *   auto threads = std::min(dim, maxThreads);
 *   kernel<<<grid, dim3(threads)>>>(...);   // a shuffle reduction inside
 *
 * leaves the last warp partial when dim is not a multiple of the width;
 * its shuffles read lanes that do not run (with a full mask, or none on
 * HIP). Rounding to 32 would still leave half a wavefront on CDNA. */

static bool all_op(const WcFile *f, int i, WcPunct op)
{
	return (unsigned)i < (unsigned)f->nall && f->all[i].kind == WT_PUNCT && f->all[i].op == op;
}

/* A launch inside a function-like macro of the file: the macro, the kernel
 * and the block argument (a name), by id. */
typedef struct MacroLaunch {
	uint32_t macro, kernel, block;
	int kparam;   /* the kernel is this parameter of the macro (-1: a name of its own) */
} MacroLaunch;

static int macro_launches(const WcFile *f, MacroLaunch **out)
{
	int n = 0, cap = 0;
	*out = NULL;
	for (int i = 0; i + 3 < f->nall; i++) {
		if (!all_op(f, i, WP_HASH) || f->all[i + 1].kind != WT_IDENT || f->all[i + 1].id != WK_define ||
		    f->all[i + 2].kind != WT_IDENT || !all_op(f, i + 3, WP_LPAREN) ||
		    f->all[i + 3].off != f->all[i + 2].off + f->all[i + 2].len || f->all[i].cuda_only)
			continue;
		int eod = i + 4;
		while (eod < f->nall && f->all[eod].kind != WT_EOD)
			eod++;
		for (int j = i + 4; j < eod; j++) {
			if (!all_op(f, j, WP_LAUNCH_OPEN))
				continue;
			int k = j - 1, depth = 0;
			if (all_op(f, k, WP_GT)) {
				for (; k > i + 3; k--) {
					depth += all_op(f, k, WP_GT) + 2 * all_op(f, k, WP_SHR);
					if (all_op(f, k, WP_LT) && --depth == 0)
						break;
				}
				k--;
			}
			int c = j + 1;
			for (depth = 0; c < eod && !(depth == 0 && all_op(f, c, WP_COMMA)); c++)
				depth += (all_op(f, c, WP_LPAREN) || all_op(f, c, WP_LBRACE)) -
				         (all_op(f, c, WP_RPAREN) || all_op(f, c, WP_RBRACE));
			if (k <= i + 3 || f->all[k].kind != WT_IDENT || c + 2 >= eod || f->all[c + 1].kind != WT_IDENT ||
			    !(all_op(f, c + 2, WP_COMMA) || all_op(f, c + 2, WP_LAUNCH_CLOSE)))
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 4;
				*out = base_realloc(*out, (size_t)cap * sizeof **out);
			}
			int kparam = -1, np = 0;
			for (int q = i + 4; q < eod && !all_op(f, q, WP_RPAREN); q++)
				if (f->all[q].kind == WT_IDENT && f->all[q].id == f->all[k].id)
					kparam = np;
				else if (all_op(f, q, WP_COMMA))
					np++;
			(*out)[n++] = (MacroLaunch){f->all[i + 2].id, f->all[k].id, f->all[c + 1].id, kparam};
		}
		i = eod;
	}
	return n;
}

/* The last "v = ..." (or "T v(...)") for the name id in (lo, before):
 * the first token of its value, and *e its end. -1 when none. */
static int last_value(const WcFile *f, uint32_t id, int lo, int before, int *e)
{
	for (int k = before - 1; k > lo; k--) {
		if (!wc_ident(f, k) || f->t[k].id != id || wc_op(f, k - 1, WP_DOT) || wc_op(f, k - 1, WP_ARROW))
			continue;
		int s = -1;
		if (wc_op(f, k + 1, WP_ASSIGN))
			s = k + 2;
		else if ((wc_op(f, k + 1, WP_LPAREN) || wc_op(f, k + 1, WP_LBRACE)) && wc_ident(f, k - 1) &&
		         !wc_op(f, k - 2, WP_DOT) && !wc_op(f, k - 2, WP_ARROW))
			s = k + 2;  /* dim3 block(x, ...) */
		if (s < 0)
			continue;
		int depth = 0, j = s;
		for (; j < before; j++) {
			if (wc_is_open(f, j))
				depth++;
			else if (wc_is_close(f, j) && --depth < 0)
				break;
			else if (depth == 0 && (wc_op(f, j, WP_SEMI) || wc_op(f, j, WP_COMMA)))
				break;
		}
		*e = j;
		return s;
	}
	return -1;
}

static bool name_is(const WcFile *f, int i, const char *w)
{
	size_t n = strlen(w);
	return wc_ident(f, i) && f->t[i].len == n && memcmp(f->src.text + f->t[i].off, w, n) == 0;
}

/* An operand of the min that may be any count: not a constant, no warp
 * width, product or shift in it, nothing rounded or aligned. */
static bool raw_count(const WcFile *f, int s, int e, bool *constant, int lo, int depth)
{
	uint64_t v;
	*constant = e == s + 1 && wc_value(f, s, &v);
	if (e == s + 1 && wc_ident(f, s) && !*constant && depth < 3) {
		/* a name: what it held before (block = num_warps * warp_size; block = min(block, 1024)) */
		int ve, vs = last_value(f, f->t[s].id, lo, s, &ve);
		while (vs >= 0 && ve >= s)
			vs = last_value(f, f->t[s].id, lo, vs - 2, &ve);
		bool c;
		if (vs >= 0 && !raw_count(f, vs, ve, &c, lo, depth + 1))
			return false;
	}
	for (int k = s; k < e; k++) {
		if (wc_op(f, k, WP_STAR) || wc_op(f, k, WP_SHL) || wc_op(f, k, WP_AMP) || wc_op(f, k, WP_PERCENT) ||
		    wc_op(f, k, WP_QUESTION))
			return false;
		if (!wc_ident(f, k))
			continue;
		if (wc_flags(f, k) & (WN_WARP_SIZE | WN_WARPISH | WN_LIBWIDTH) || wc_kw(f, k, WK_warpSize))
			return false;
		const char *t = f->src.text + f->t[k].off;
		for (uint32_t q = 0; q + 5 <= f->t[k].len; q++)
			if (strncasecmp(t + q, "round", 5) == 0 || strncasecmp(t + q, "align", 5) == 0)
				return false;
	}
	return true;
}

/* The min call at [s, e): std::min(a, b), min(a, b), std::min<T>(a, b):
 * the token of "min" when one operand is a raw count and neither is
 * rounded; -1 otherwise. */
static int raw_min(const WcFile *f, int s, int e, int lo)
{
	int m = s;
	if (name_is(f, m, "std") && wc_op(f, m + 1, WP_SCOPE))
		m += 2;
	if (!name_is(f, m, "min") && !name_is(f, m, "imin") && !name_is(f, m, "umin"))
		return -1;
	int open = m + 1;
	if (wc_op(f, open, WP_LT)) {
		while (open < e && !wc_op(f, open, WP_GT))
			open++;
		open++;
	}
	if (!wc_op(f, open, WP_LPAREN) || wc_match(f, open) != e - 1)
		return -1;
	int st[3], en[3];
	if (wc_call_args(f, open, st, en, 3) != 2)
		return -1;
	bool c0, c1;
	if (!raw_count(f, st[0], en[0], &c0, lo, 0) || !raw_count(f, st[1], en[1], &c1, lo, 0) || (c0 && c1))
		return -1;
	return m;
}

/* The block of a launch in the function [lo, at): the argument [a, b) of
 * code tokens, or (a < 0) the name block. The min that sizes it, or -1. */
static int block_min(const WcFile *f, int a, int b, uint32_t block, int lo, int at)
{
	int s = a, e = b;
	if (a >= 0 && wc_kw(f, a, WK_dim3) && wc_op(f, a + 1, WP_LPAREN)) {
		int st[3], en[3];
		if (wc_call_args(f, a + 1, st, en, 3) < 1)
			return -1;
		s = st[0], e = en[0];
	}
	if (a >= 0 && !(e == s + 1 && wc_ident(f, s)))
		return raw_min(f, s, e, lo);
	uint32_t id = a >= 0 ? f->t[s].id : block;
	for (int hop = 0; hop < 3; hop++) {
		int ve;
		int vs = last_value(f, id, lo, at, &ve);
		if (vs < 0)
			return -1;
		if (wc_kw(f, vs, WK_dim3) && wc_op(f, vs + 1, WP_LPAREN)) {  /* auto block = dim3(x) */
			int st[3], en[3];
			if (wc_call_args(f, vs + 1, st, en, 3) < 1)
				return -1;
			vs = st[0], ve = en[0];
		}
		if (ve == vs + 1 && wc_ident(f, vs) && !wc_op(f, vs + 1, WP_LPAREN)) {
			id = f->t[vs].id;
			at = vs;
			continue;
		}
		return raw_min(f, vs, ve, lo);
	}
	return -1;
}

static int kinds_of_id(const WcFile *f, uint32_t id, const int *down, const NameFn *names)
{
	int m = first_with(names, f->nfns, id);
	int k = 0;
	for (; m < f->nfns && names[m].id == id; m++)
		if (f->fns[names[m].fn].kind == WF_KERNEL)
			k |= down[names[m].fn];
	if (k)
		return k;
	const WcName *nm = &f->names->v[id];
	return nm->hdr_stamp == f->stamp ? nm->hdr_kinds : 0;
}

static void partial_block(WcFile *f, int m, uint32_t kernel, const int *down, const NameFn *names)
{
	int kk = kinds_of_id(f, kernel, down, names);
	if (m < 0 || !(kk & S_SPAN) || !(kk & S_TIDX))
		return;
	for (int q = 0; q < f->nfinds; q++)
		if (f->finds[q].off == f->t[m].off && strcmp(f->finds[q].name, "partial-block") == 0)
			return;
	const WcName *kn = &f->names->v[kernel];
	wc_find(f, m, "H10", "partial-block",
		"round the block up to whole warps of the device's width (and keep the extra threads' values out)",
		"block from min() of a count, not whole warps: the last wavefront runs part-full and %.*s "
		"shuffles across it on threadIdx.x",
		(int)kn->len, f->names->chars + kn->off);
}

static void check_partial_blocks(WcFile *f, const int *down, const NameFn *names)
{
	MacroLaunch *ml;
	int nml = macro_launches(f, &ml);
	for (int k = 0; k < f->nfns; k++) {
		const WcFunc *fn = &f->fns[k];
		if (fn->kind != WF_HOST && fn->kind != WF_UNKNOWN)
			continue;
		for (int i = fn->open + 1; i < fn->close; i++) {
			if (wc_op(f, i, WP_LAUNCH_OPEN)) {
				int name = wc_launched_name(f, i);
				int a = -1, b = -1, depth = 0;
				for (int j = i + 1; j < fn->close && !wc_op(f, j, WP_LAUNCH_CLOSE); j++) {
					if (wc_is_open(f, j))
						depth++;
					else if (wc_is_close(f, j))
						depth--;
					else if (depth == 0 && wc_op(f, j, WP_COMMA)) {
						if (a >= 0) {
							b = j;
							break;
						}
						a = j + 1;
					}
					b = j + 1;
				}
				if (name >= 0 && a >= 0 && b > a && !wc_under_width_test(f, i))
					partial_block(f, block_min(f, a, b, 0, fn->open, i), f->t[name].id, down, names);
			} else if (wc_kw(f, i, WK_hipLaunchKernelGGL) && wc_op(f, i + 1, WP_LPAREN)) {
				int st[4], en[4];
				int n = wc_call_args(f, i + 1, st, en, 4);
				int name = n >= 3 ? st[0] : -1;
				if (name >= 0 && wc_op(f, name, WP_LPAREN))
					name++;
				if (name >= 0 && wc_ident(f, name) && !wc_under_width_test(f, i))
					partial_block(f, block_min(f, st[2], en[2], 0, fn->open, i), f->t[name].id, down, names);
			} else if (nml && wc_ident(f, i) && wc_op(f, i + 1, WP_LPAREN) && !wc_under_width_test(f, i)) {
				for (int q = 0; q < nml; q++) {
					if (ml[q].macro != f->t[i].id)
						continue;
					uint32_t kernel = ml[q].kernel;
					if (ml[q].kparam >= 0) {
						int st[8], en[8];
						int n = wc_call_args(f, i + 1, st, en, 8);
						if (ml[q].kparam >= n || en[ml[q].kparam] != st[ml[q].kparam] + 1 ||
						    !wc_ident(f, st[ml[q].kparam]))
							continue;
						kernel = f->t[st[ml[q].kparam]].id;
					}
					partial_block(f, block_min(f, -1, -1, ml[q].block, fn->open, i), kernel, down, names);
				}
			}
		}
	}
	free(ml);
}

void wc_scheme_notes(WcFile *f)
{
	int candidates = 0;
	for (int i = 0; i < f->nfinds; i++)
		candidates += (piece(&f->finds[i]) || launch_width(&f->finds[i])) && func_at_offset(f, f->finds[i].off) >= 0;
	bool launches = false, kernels = false;
	for (int i = 0; i < f->n && !launches; i++)
		launches = wc_op(f, i, WP_LAUNCH_OPEN);
	for (int k = 0; k < f->nfns && !kernels; k++)
		kernels = f->fns[k].kind == WF_KERNEL;
	if (candidates == 0 && !launches && !kernels)
		return;
	if (candidates == 0 && !launches) {
		/* kernels only: what they do, for launches in other files */
		NameFn *names = sorted_names(f);
		int *down = base_malloc((size_t)f->nfns * sizeof *down);
		for (int k = 0; k < f->nfns; k++)
			down[k] = f->fns[k].kind == WF_KERNEL || f->nfns > 1 ? own_kinds(f, &f->fns[k], names, f->nfns) : 0;
		int ne;
		Edge *e = call_edges(f, names, &ne);
		callee_closure(down, e, ne, f->nfns);
		kernel_facts(f, down);
		check_partial_blocks(f, down, names);
		free(e);
		free(down);
		free(names);
		return;
	}
	int n = f->nfns;
	int *own = base_malloc((size_t)n * sizeof *own), *down = base_malloc((size_t)n * sizeof *down);
	int *up = base_calloc((size_t)n, sizeof *up), *anc = base_calloc((size_t)n, sizeof *anc);
	NameFn *names = sorted_names(f);
	for (int k = 0; k < n; k++)
		own[k] = own_kinds(f, &f->fns[k], names, n);
	for (int i = 0; i < f->nfinds; i++) {
		int k = func_at_offset(f, f->finds[i].off);
		if (k >= 0 && strcmp(f->finds[i].id, "H3") == 0)
			own[k] |= S_LANES32;
	}
	int ne;
	Edge *e = call_edges(f, names, &ne);
	memcpy(down, own, (size_t)n * sizeof *down);
	callee_closure(down, e, ne, n);
	caller_kinds(up, own, e, ne, n);
	caller_ops(anc, down, e, ne, n);
	/* Member functions of one class share their warp-level operations. */
	int *parent = base_malloc((size_t)n * sizeof *parent), *ops = base_calloc((size_t)n, sizeof *ops);
	for (int k = 0; k < n; k++)
		parent[k] = k;
	unite_members(f, parent);
	for (int k = 0; k < n; k++)
		ops[root(parent, k)] |= (down[k] | anc[k]) & S_WARP_OPS;
	/* A function with no physical view whose width-less shuffles get ", 32"
	 * (H11) becomes a 32-lane logical warp with that rewrite: its 32s must
	 * stay, so its H1, H3 and H5 pieces lose theirs (both together would
	 * mix views). */
	unsigned char *logical_fix = base_calloc((size_t)(n ? n : 1), sizeof *logical_fix);
	for (int i = 0; i < f->nfinds; i++) {
		int k = func_at_offset(f, f->finds[i].off);
		if (k >= 0 && f->finds[i].has_edit && strcmp(f->finds[i].id, "H11") == 0 &&
		    !((down[k] | up[k]) & S_PHYS))
			logical_fix[k] = 1;
	}
	/* So does a function that counts lanes in 32s, takes no physical view
	 * and mixes only through shuffles with no width: the blocks its
	 * callers launch are sized in 32s too, so warpSize in its ids would
	 * skip work; the width 32 on those shuffles is the safe rewrite. */
	for (int k = 0; k < n; k++) {
		int all = down[k] | up[k];
		if ((all & S_LANES32) && !(all & S_PHYS) && (all & S_CROSS) && !logical_fix[k])
			logical_fix[k] = 2;
	}
	check_launch_widths(f, down, names);
	check_partial_blocks(f, down, names);
	kernel_facts(f, down);
	for (int i = 0; i < f->nfinds; i++) {
		WcFinding *fd = &f->finds[i];
		int k = launch_width(fd) ? func_at_offset(f, fd->off) : -1;
		if (k < 0 || !launches_logical(f, &f->fns[k], down, names))
			continue;
		fd->note = true;
		fd->has_edit = false;
		fd->fix = "nothing to fix while the kernel keeps to 32-lane groups; with warpSize in it, query the device";
		size_t len = strlen(fd->msg);
		snprintf(fd->msg + len, sizeof fd->msg - len, "%s",
			"; the kernels launched here keep to 32-lane groups: half of each wavefront idles, nothing breaks");
	}
	for (int i = 0; i < f->nfinds; i++) {
		WcFinding *fd = &f->finds[i];
		int k = piece(fd) ? func_at_offset(f, fd->off) : -1;
		if (k < 0)
			continue;
		if (logical_fix[k] && fd->has_edit) {
			fd->has_edit = false;
			fd->fix = logical_fix[k] == 2
				? "pass the width 32 to the shuffles that have none (a 32-lane logical warp), or move every "
				  "32 of the function and of its launches to warpSize together"
				: "with the width 32 added to the shuffles (H11) this is a 32-lane logical warp: keep it";
		}
		int all = down[k] | up[k];
		const char *why = NULL;
		if (!((down[k] | anc[k] | ops[root(parent, k)]) & S_WARP_OPS)) {
			fd->fix = note_fix_plain;
			why = "; no shuffle or vote here depends on it: plain arithmetic, the same on 64 lanes";
		} else if (!(all & (S_PHYS | S_CROSS)) && (all & S_LANES32) && (all & S_CONFINED)) {
			fd->fix = note_fix;
			why = "; here part of a consistent 32-lane logical warp, correct on a 64-lane wavefront (two halves)";
		} else {
			continue;
		}
		fd->note = true;
		fd->has_edit = false;
		size_t len = strlen(fd->msg);
		snprintf(fd->msg + len, sizeof fd->msg - len, "%s", why);
	}
	free(logical_fix);
	free(own);
	free(down);
	free(up);
	free(anc);
	free(names);
	free(parent);
	free(ops);
	free(e);
}
