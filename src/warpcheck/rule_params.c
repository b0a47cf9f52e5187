/* rule_params.c: H14, a sub-warp helper given the 32-lane maximum.
 *
 *   template <int L> __device__ void merge(K &k) {
 *       static_assert(L <= kWarpSize / 2, "...");
 *       ... shfl_xor(k, 2 * L - 1) ...
 *   }
 *   merge<16>(k);          // the last step of a merge across the warp
 *
 * The helper bounds its width parameter by the device's width, and the call
 * passes the bound as it is with 32 lanes: 16 for L <= kWarpSize / 2, 32
 * for W <= kWarpSize. On a 64-lane wavefront the step that spans the whole
 * wavefront is never taken (two halves are merged, or reduced, apart).
 * A call in a branch on the warp size (if constexpr (kWarpSize == 32)) or
 * under a per-target #if chose its width and is fine; a call that passes
 * less than the bound is a smaller group on purpose. */
#include "warpcheck/warpcheck.h"

/* The device's width: warpSize, a macro of it, a library's name for it, or
 * a project's constant named for it (kWarpSize, WARP_SIZE). */
static bool device_width(const WcFile *f, int i)
{
	return wc_warp_size_alias(f, i) || (wc_flags(f, i) & WN_WARP_SIZE);
}

/* The "template" keyword of fn's declaration, with its "<" at *lt, or -1. */
static int template_of(const WcFile *f, const WcFunc *fn, int *lt)
{
	int depth = 0;
	for (int i = fn->name - 1; i >= 0 && fn->name - i < 256; i--) {
		if (wc_op(f, i, WP_GT) || wc_op(f, i, WP_SHR))
			depth += wc_op(f, i, WP_SHR) ? 2 : 1;
		else if (wc_op(f, i, WP_LT))
			depth--;
		else if (depth == 0 && (wc_op(f, i, WP_SEMI) || wc_op(f, i, WP_LBRACE) || wc_op(f, i, WP_RBRACE)))
			return -1;
		if (depth <= 0 && wc_kw(f, i, WK_template) && wc_op(f, i + 1, WP_LT)) {
			*lt = i + 1;
			return i;
		}
	}
	return -1;
}

/* The names of the template parameters after the "<" at lt, into ids[];
 * the count (at most max). A parameter with no name takes 0. */
static int template_params(const WcFile *f, int lt, uint32_t *ids, int max)
{
	int n = 0, depth = 0, last = -1;
	bool dflt = false;
	for (int i = lt + 1; i < f->n && n < max; i++) {
		bool end = false;
		if (wc_op(f, i, WP_LT) || wc_is_open(f, i))
			depth++;
		else if (wc_is_close(f, i))
			depth--;
		else if (wc_op(f, i, WP_GT) || wc_op(f, i, WP_SHR))
			end = depth-- == 0 || (wc_op(f, i, WP_SHR) && depth-- == 0);
		if (end || (depth == 0 && wc_op(f, i, WP_COMMA))) {
			ids[n++] = last >= 0 ? f->t[last].id : 0;
			last = -1;
			dflt = false;
			if (end)
				break;
			continue;
		}
		if (depth == 0 && wc_op(f, i, WP_ASSIGN))
			dflt = true;
		else if (depth == 0 && !dflt && wc_ident(f, i) && f->t[i].id >= WK__COUNT)
			last = i;
	}
	return n;
}

/* The largest value of the parameter `id` that a static_assert in [lo, hi)
 * allows when the device's width is 32 (L <= kWarpSize / 2 gives 16,
 * W <= warpSize 32, L < kWarpSize 16), or 0. *at: the assert. */
static uint64_t bound32(const WcFile *f, int lo, int hi, uint32_t id, int *at)
{
	for (int i = lo; i < hi; i++) {
		if (!wc_ident(f, i) || f->t[i].id != id || !(wc_op(f, i + 1, WP_LE) || wc_op(f, i + 1, WP_LT)))
			continue;
		int j = i + 2;
		if (!device_width(f, j))
			continue;
		uint64_t v = 32;
		if (wc_op(f, j + 1, WP_SLASH) && f->t[j + 2].kind == WT_NUMBER && f->t[j + 2].num_ok && f->t[j + 2].num > 0 &&
		    f->t[j + 2].num <= 32)
			v = 32 / f->t[j + 2].num, j += 2;
		else if (wc_op(f, j + 1, WP_SHR) && f->t[j + 2].kind == WT_NUMBER && f->t[j + 2].num_ok && f->t[j + 2].num < 6)
			v = 32 >> f->t[j + 2].num, j += 2;
		if (!(wc_op(f, j + 1, WP_COMMA) || wc_op(f, j + 1, WP_RPAREN) || wc_op(f, j + 1, WP_ANDAND)))
			continue;
		if (wc_op(f, i + 1, WP_LT))
			v /= 2;  /* the next power of two down */
		/* inside a static_assert( ... ) */
		int k = i - 1, depth = 0;
		for (; k >= lo; k--) {
			if (wc_is_close(f, k))
				depth++;
			else if (wc_is_open(f, k) && --depth < 0)
				break;
		}
		if (k > lo && wc_op(f, k, WP_LPAREN) && wc_kw(f, k - 1, WK_static_assert)) {
			*at = i;
			return v;
		}
	}
	return 0;
}

/* Token i sits in the body of an if whose condition names the device's
 * width (if constexpr (kWarpSize == 32) { ... } else { ... }). */
static bool in_width_branch(const WcFile *f, const WcFunc *fn, int i)
{
	for (int k = fn->open; k < i; k++) {
		if (!wc_kw(f, k, WK_if))
			continue;
		int open = k + 1;
		if (!wc_op(f, open, WP_LPAREN))
			open++;  /* if constexpr ( */
		int close = wc_match(f, open);
		if (!wc_op(f, open, WP_LPAREN) || close < 0 || close > i)
			continue;
		bool names = false;
		for (int c = open + 1; c < close && !names; c++)
			names = device_width(f, c);
		if (!names)
			continue;
		int end = wc_stmt_end(f, close + 1);
		if (wc_kw(f, end + 1, WK_else))
			end = wc_stmt_end(f, end + 2);
		if (i <= end)
			return true;
	}
	return false;
}

/* The function also calls the helper named at i in a branch on the warp
 * size: the step for 64 lanes comes after (if constexpr (kWarpSize == 64)
 * merge<32>), so the 32-lane step is one of several. */
static bool wider_step(const WcFile *f, const WcFunc *fn, int i)
{
	for (int j = fn->open; j < fn->close; j++)
		if (j != i && wc_same_ident(f, i, j) && wc_op(f, j + 1, WP_LT) && in_width_branch(f, fn, j))
			return true;
	return false;
}

/* Records, by name, the templates of f whose width parameter a
 * static_assert bounds by the device's width: read for every header an
 * #include reaches (and replayed from its summary), and for f itself. */
void wc_param_bounds(WcFile *f)
{
	for (int k = 0; k < f->nfns; k++) {
		const WcFunc *fn = &f->fns[k];
		int lt;
		if (f->t[fn->name].id < WK__COUNT || f->t[fn->name].cuda_only || template_of(f, fn, &lt) < 0)
			continue;
		uint32_t ids[16];
		int np = template_params(f, lt, ids, 16);
		for (int p = 0; p < np; p++) {
			int at = -1;
			uint64_t m = ids[p] ? bound32(f, fn->open, fn->close, ids[p], &at) : 0;
			if (m >= 2) {
				WcName *nm = &f->names->v[f->t[fn->name].id];
				wc_touch(f->names, f->t[fn->name].id, f->stamp);
				nm->pbound_stamp = f->stamp, nm->pbound_param = (uint8_t)p, nm->pbound_max = (uint8_t)m;
				break;
			}
		}
	}
}

void wc_rule_params(WcFile *f)
{
	wc_param_bounds(f);
	for (int k = 0; k < f->nfns; k++) {
		const WcFunc *fn = &f->fns[k];
		for (int i = fn->open; i < fn->close; i++) {
			if (!wc_ident(f, i) || !wc_op(f, i + 1, WP_LT) || f->t[i].id < WK__COUNT)
				continue;
			const WcName *nm = &f->names->v[f->t[i].id];
			if (nm->pbound_stamp != f->stamp)
				continue;
			/* the template argument nm->pbound_param */
			int depth = 0, arg = 0, a = -1, close = -1;
			for (int j = i + 2; j < fn->close; j++) {
				if (wc_op(f, j, WP_LT) || wc_is_open(f, j))
					depth++;
				else if (wc_is_close(f, j))
					depth--;
				else if (wc_op(f, j, WP_GT) && depth-- == 0) {
					close = j;
					break;
				}
				if (depth < 0)
					break;
				if (depth == 0 && wc_op(f, j, WP_COMMA))
					arg++;
				else if (depth == 0 && arg == nm->pbound_param && a < 0)
					a = j;
			}
			if (close < 0 || !wc_op(f, close + 1, WP_LPAREN) || a < 0)
				continue;
			bool single = a + 1 <= close && (wc_op(f, a + 1, WP_COMMA) || a + 1 == close);
			if (!single || f->t[a].kind != WT_NUMBER || !f->t[a].num_ok || f->t[a].num != nm->pbound_max)
				continue;
			const WcRegion *r = wc_region_at(f, a);
			if ((r && r->target != UINT32_MAX) || in_width_branch(f, fn, i) || wider_step(f, fn, i))
				continue;
			wc_find(f, a, "H14", "sub-warp-width", "pass the bound for the device's width (kWarpSize / 2), "
				"or choose the argument in an if constexpr on the warp size",
				"%.*s<..., %d, ...>: the most its static_assert allows with 32 lanes; a 64-lane wavefront's "
				"widest step is never taken",
				(int)f->t[i].len, f->src.text + f->t[i].off, (int)nm->pbound_max);
		}
	}
}
