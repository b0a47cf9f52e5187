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

static bool names_device_width(const WcFile *f, int c, const void *ctx)
{
	(void)ctx;
	return device_width(f, c);
}

/* Token i sits in the body of an if whose condition names the device's
 * width (if constexpr (kWarpSize == 32) { ... } else { ... }). */
static bool in_width_branch(const WcFile *f, const WcFunc *fn, int i)
{
	return wc_in_if_naming(f, fn, i, names_device_width, NULL);
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

static void runtime_width_guard(WcFile *f);

void wc_rule_params(WcFile *f)
{
	wc_param_bounds(f);
	runtime_width_guard(f);
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

/* The device's width as device code reads it: warpSize (or a macro of it),
 * __AMDGCN_WAVEFRONT_SIZE, or a call of a function named for the warp size
 * (::rocprim::warp_size(), get_warp_size()). *end: its last token. */
static bool device_width_at(const WcFile *f, int i, int *end)
{
	if (wc_kw(f, i, WK_warpSize) || wc_kw(f, i, WK___AMDGCN_WAVEFRONT_SIZE) ||
	    (wc_ident(f, i) && f->names->v[f->t[i].id].wsize_stamp == f->stamp)) {
		*end = i;
		return true;
	}
	while (wc_op(f, i, WP_SCOPE) || (wc_ident(f, i) && wc_op(f, i + 1, WP_SCOPE)))
		i++;
	if ((wc_flags(f, i) & WN_WARP_SIZE) && wc_op(f, i + 1, WP_LPAREN) && wc_op(f, i + 2, WP_RPAREN)) {
		*end = i + 2;
		return true;
	}
	return false;
}

static bool in_ids(const uint32_t *ids, int n, uint32_t id)
{
	for (int k = 0; k < n; k++)
		if (ids[k] == id)
			return true;
	return false;
}

/* A template's width parameter refused at run time when it exceeds the
 * device's width:
 *
 *   template <unsigned int WarpSize> ... reduce(...) {
 *       if (WarpSize > ::rocprim::warp_size()) return;
 *       ...   // still compiled for a logical warp wider than the chip's
 *
 * The return keeps the code after it from running, not from being
 * instantiated: on a 32-lane chip a logical warp of 64 is still built (its
 * shuffles, its storage), which a compile-time choice (if constexpr,
 * enable_if) avoids. Not an if constexpr, a comparison with a literal, a
 * name that is no template parameter of the file, or a test that does not
 * return. */
static void runtime_width_guard(WcFile *f)
{
	uint32_t ids[256];
	int nids = 0;
	for (int i = 0; i + 1 < f->n && nids < 240; i++)
		if (wc_kw(f, i, WK_template) && wc_op(f, i + 1, WP_LT)) {
			uint32_t p[16];
			int np = template_params(f, i + 1, p, 16);
			for (int k = 0; k < np && nids < 256; k++)
				if (p[k] && !in_ids(ids, nids, p[k]))
					ids[nids++] = p[k];
		}
	if (!nids)
		return;
	for (int k = 0; k < f->nfns; k++) {
		const WcFunc *fn = &f->fns[k];
		if (fn->kind == WF_HOST)
			continue;
		for (int i = fn->open; i < fn->close; i++) {
			if (!wc_kw(f, i, WK_if) || !wc_op(f, i + 1, WP_LPAREN) || f->t[i].cuda_only)
				continue;
			int close = wc_match(f, i + 1), end = -1, p = -1;
			if (close < 0)
				continue;
			if (wc_ident(f, i + 2) && wc_op(f, i + 3, WP_GT) && device_width_at(f, i + 4, &end) && end + 1 == close)
				p = i + 2;
			else if (device_width_at(f, i + 2, &end) && wc_op(f, end + 1, WP_LT) && wc_ident(f, end + 2) &&
			         end + 3 == close)
				p = end + 2;
			if (p < 0 || !in_ids(ids, nids, f->t[p].id) || device_width_at(f, p, &end))
				continue;
			int stop = wc_stmt_end(f, close + 1);
			bool ret = false;
			for (int j = close + 1; j <= stop && j < fn->close && !ret; j++)
				ret = wc_kw(f, j, WK_return);
			if (!ret)
				continue;
			wc_find(f, p, "H14", "runtime-width-guard", "choose at compile time: if constexpr, or enable_if on "
				"the parameter against the wavefront's width",
				"%.*s is refused at run time only: the code after the return is still compiled for a logical "
				"warp wider than the chip's",
				(int)f->t[p].len, f->src.text + f->t[p].off);
		}
	}
}
