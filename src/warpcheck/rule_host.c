/* rule_host.c: H6 (host code with a compile-time warp size), H7 (warp size
 * needed as a compile-time constant) and H12 (block sizes that are
 * multiples of 32 but not of 64, so the last wavefront runs half empty and
 * code that assumes full warps breaks). */
#include "warpcheck/warpcheck.h"

#include <stdlib.h>
#include <string.h>

static bool warp_size_const(const WcFile *f, int i)
{
	return (wc_flags(f, i) & WN_WARP_SIZE) && !wc_kw(f, i, WK_warpSize) && wc_value_is(f, i, 32);
}

/* End of <<<...>>> starting at i, or -1. */
static int launch_end(const WcFile *f, int i)
{
	for (int k = i + 1; k < f->n && k < i + 200; k++)
		if (wc_op(f, k, WP_LAUNCH_CLOSE))
			return k;
	return -1;
}

/* WARP_SIZE (32) inside <<<...>>> or dim3(...). */
static void check_launch(WcFile *f, int i)
{
	int end = -1;
	if (wc_op(f, i, WP_LAUNCH_OPEN)) {
		end = launch_end(f, i);
	} else if (wc_kw(f, i, WK_dim3)) {
		int open = wc_op(f, i + 1, WP_LPAREN) ? i + 1 : wc_op(f, i + 2, WP_LPAREN) ? i + 2 : -1;
		end = open < 0 ? -1 : wc_match(f, open);
	}
	for (int k = i + 1; k < end; k++)
		if (warp_size_const(f, k))
			wc_find(f, k, "H6", "host-warp-size",
				"query the device: cudaDevAttrWarpSize / hipDeviceAttributeWarpSize",
				"launch geometry uses a compile-time warp size of 32; AMD wavefronts have 64 lanes");
}

static bool equality(const WcFile *f, int i)
{
	return wc_op(f, i, WP_EQ) || wc_op(f, i, WP_NE);
}

/* The statement around token i also compares a warp size with 64: a check
 * that accepts either width (prop.warpSize != 32 && prop.warpSize != 64). */
static bool also_64(const WcFile *f, int i)
{
	int a = i, b = i;
	while (a > 0 && !wc_op(f, a - 1, WP_SEMI) && !wc_op(f, a - 1, WP_LBRACE) && !wc_op(f, a - 1, WP_RBRACE) && i - a < 64)
		a--;
	while (b + 1 < f->n && !wc_op(f, b + 1, WP_SEMI) && !wc_op(f, b + 1, WP_LBRACE) && b - i < 64)
		b++;
	for (int k = a; k <= b; k++)
		if (wc_value_is(f, k, 64) && f->t[k].kind == WT_NUMBER && (equality(f, k - 1) || equality(f, k + 1)))
			return true;
	return false;
}

/* prop.warpSize == 32 */
static void check_prop(WcFile *f, int i)
{
	if (!wc_kw(f, i, WK_warpSize) || !(wc_op(f, i - 1, WP_DOT) || wc_op(f, i - 1, WP_ARROW)))
		return;
	if (also_64(f, i))
		return;
	if ((equality(f, i + 1) && wc_value_is(f, i + 2, 32)) || (equality(f, i - 3) && wc_value_is(f, i - 4, 32)))
		wc_find(f, i, "H6", "host-warp-size", "accept 32 and 64, or use the queried value",
			"host code requires a warp size of 32; AMD CDNA devices report 64");
}

/* warpSize in an array bound: T name[warpSize]; */
static void check_bound(WcFile *f, int i)
{
	if (!wc_op(f, i, WP_LBRACK) || i < 2 || !wc_ident(f, i - 1))
		return;
	if (!wc_ident(f, i - 2) && !wc_op(f, i - 2, WP_STAR))
		return;
	if (wc_kw(f, i - 2, WK_return) || wc_kw(f, i - 2, WK_case))
		return;
	int close = wc_match(f, i);
	if (close < 0 || !(wc_op(f, close + 1, WP_SEMI) || wc_op(f, close + 1, WP_LBRACK) ||
	                   wc_op(f, close + 1, WP_ASSIGN)))
		return;
	for (int k = i + 1; k < close; k++)
		if (wc_warp_size_expr(f, k))
			wc_find(f, k, "H7", "compile-time-warp-size", "use an upper bound (64) or a per-target macro",
				"%.*s is not a compile-time constant on every target; it cannot size an array",
				(int)f->t[k].len, f->src.text + f->t[k].off);
}

/* The device's width (warpSize, an alias, a macro computed from it) in
 * [from, to), where C++ needs a constant: `what` says where. One finding
 * per place. */
static void width_in_constant(WcFile *f, int from, int to, const char *what)
{
	for (int k = from; k < to; k++)
		if (wc_warp_size_expr(f, k) && !wc_op(f, k - 1, WP_DOT) && !wc_op(f, k - 1, WP_ARROW)) {
			wc_find(f, k, "H7", "compile-time-warp-size",
				"use a per-target constant (64 under __GFX9__ in the device pass, else 32) or an upper bound",
				"%.*s is not a compile-time constant in HIP (a run-time value from ROCm 7); it cannot be used in %s",
				(int)f->t[k].len, f->src.text + f->t[k].off, what);
			return;
		}
}

/* End of the declaration or statement from i: its ";" (or the last token)
 * at bracket depth 0; -1 at a "{" that opens a body. */
static int decl_end(const WcFile *f, int i)
{
	int depth = 0;
	for (int k = i; k < f->n; k++) {
		if (wc_op(f, k, WP_LPAREN) || wc_op(f, k, WP_LBRACK))
			depth++;
		else if (wc_op(f, k, WP_RPAREN) || wc_op(f, k, WP_RBRACK))
			depth--;
		else if (wc_op(f, k, WP_LBRACE) && depth == 0 && !wc_op(f, k - 1, WP_ASSIGN) && !wc_ident(f, k - 1))
			return -1;
		else if (wc_op(f, k, WP_LBRACE))
			k = wc_match(f, k) < 0 ? f->n : wc_match(f, k);
		else if (depth == 0 && wc_op(f, k, WP_SEMI))
			return k;
		if (depth < 0)
			return k;
	}
	return f->n;
}

/* constexpr int n = 1024 / warpSize; (not a constexpr function) */
static void check_constexpr(WcFile *f, int i)
{
	if (wc_kw(f, i - 1, WK_if))
		return;
	int end = decl_end(f, i);
	if (end < 0)
		return;
	for (int k = i + 1; k < end; k++) {
		if (wc_op(f, k, WP_LPAREN) && wc_ident(f, k - 1))
			return;  /* constexpr int f(...): its body is not a constant */
		if (wc_op(f, k, WP_ASSIGN) || wc_op(f, k, WP_LBRACE)) {
			width_in_constant(f, k + 1, end, "a constexpr initialiser");
			return;
		}
	}
}

/* constexpr unsigned warp_size() { return warpSize; }: a function that is
 * no template, declared constexpr, whose only statement returns the
 * device's width and nothing else. With warpSize a run-time value (ROCm 7) it never gives a
 * constant, which clang rejects for a function that is no template. */
static void check_constexpr_return(WcFile *f, const WcFunc *fn)
{
	int r = fn->open + 1;
	if (!wc_kw(f, r, WK_return) || f->t[fn->name].cuda_only)
		return;
	int end = r + 1;
	while (end < fn->close && !wc_op(f, end, WP_SEMI))
		end++;
	if (end + 1 != fn->close || end != r + 2)
		return;  /* return warpSize; alone: with anything else some call may still be a constant */
	bool cx = false;
	for (int k = fn->name - 1; k >= 0 && fn->name - k < 32; k--) {
		if (wc_op(f, k, WP_SEMI) || wc_op(f, k, WP_LBRACE) || wc_op(f, k, WP_RBRACE) || wc_op(f, k, WP_COLON))
			break;
		if (wc_kw(f, k, WK_template) || wc_op(f, k, WP_GT))
			return;  /* a template: a constexpr one that gives no constant is allowed */
		cx = cx || wc_kw(f, k, WK_constexpr);
	}
	if (cx)
		width_in_constant(f, r + 1, end, "a constexpr function's return (one that never gives a constant is an error)");
}

/* The ">" that closes the "<" at open, or -1 when this is a comparison. */
static int angle_close(const WcFile *f, int open)
{
	int depth = 0, paren = 0;
	for (int k = open; k < f->n && k < open + 256; k++) {
		if (wc_op(f, k, WP_LT))
			depth++;
		else if (wc_op(f, k, WP_GT) && paren == 0 && --depth == 0)
			return k;
		else if (wc_op(f, k, WP_SHR) && paren == 0 && (depth -= 2) <= 0)
			return depth == 0 ? k : -1;
		else if (wc_op(f, k, WP_LPAREN) || wc_op(f, k, WP_LBRACK))
			paren++;
		else if ((wc_op(f, k, WP_RPAREN) || wc_op(f, k, WP_RBRACK)) && --paren < 0)
			return -1;
		else if (wc_op(f, k, WP_SEMI) || wc_op(f, k, WP_LBRACE) || wc_op(f, k, WP_RBRACE) ||
		         wc_op(f, k, WP_ANDAND) || wc_op(f, k, WP_OROR) || wc_op(f, k, WP_QUESTION))
			return -1;
	}
	return -1;
}

/* template <int width = warpSize>: each parameter's default. */
static void check_template_defaults(WcFile *f, int i)
{
	int close = angle_close(f, i + 1);
	for (int k = i + 2; k < close; k++) {
		if (!wc_op(f, k, WP_ASSIGN))
			continue;
		int e = k + 1, depth = 0;
		while (e < close && !(depth == 0 && wc_op(f, e, WP_COMMA))) {
			depth += wc_op(f, e, WP_LT) || wc_op(f, e, WP_LPAREN);
			depth -= wc_op(f, e, WP_GT) || wc_op(f, e, WP_RPAREN);
			e++;
		}
		width_in_constant(f, k + 1, e, "a template parameter's default");
		k = e;
	}
}

/* f<T, warpSize>(...), cub::WarpReduce<T, WARP_SIZE>: a template argument. */
static void check_template_args(WcFile *f, int i)
{
	if (wc_kw(f, i, WK_template) || (f->t[i].id < WK__COUNT && !wc_kw(f, i, WK_WarpReduce) &&
	                                 !wc_kw(f, i, WK_WarpScan)))
		return;
	int close = angle_close(f, i + 1);
	if (close < 0 || !(wc_op(f, close + 1, WP_LPAREN) || wc_op(f, close + 1, WP_SCOPE) ||
	                   wc_op(f, close + 1, WP_LBRACE) || wc_ident(f, close + 1)))
		return;
	width_in_constant(f, i + 2, close, "a template argument");
}

/* static_assert(...), if constexpr (...), __launch_bounds__(...) */
static void check_parens(WcFile *f, int i, const char *what)
{
	int open = i + 1;
	if (wc_kw(f, open, WK_constexpr))
		open++;
	if (!wc_op(f, open, WP_LPAREN))
		return;
	int close = wc_match(f, open);
	if (close > open)
		width_in_constant(f, open + 1, close, what);
}

/* A library's per-target name for the device's width, called as a
 * function (rocPRIM's device_warp_size(), rocprim::warp_size(),
 * __builtin_amdgcn_wavefrontsize()) or hipCUB's device macro. */
static bool lib_device_width(const WcFile *f, int i)
{
	if (!wc_ident(f, i) || !(wc_flags(f, i) & WN_LIBWIDTH))
		return false;
	const char *s = f->src.text + f->t[i].off;
	size_t n = f->t[i].len;
	if (n > 7 && memcmp(s, "HIPCUB_", 7) == 0)
		return true;
	if (!wc_op(f, i + 1, WP_LPAREN) || !wc_op(f, i + 2, WP_RPAREN))
		return false;
	if (s[0] == '_' || (n == 16 && memcmp(s, "device_warp_size", 16) == 0))
		return true;
	return n == 9 && wc_op(f, i - 1, WP_SCOPE) && wc_ident(f, i - 2) && f->t[i - 2].len == 7 &&
	       memcmp(f->src.text + f->t[i - 2].off, "rocprim", 7) == 0;
}

/* static_assert(BlockSize % ::rocprim::device_warp_size() == 0, ...) at
 * class or namespace scope, in code the host pass compiles: the host pass
 * evaluates it too, with the host's idea of the width (rocPRIM's default
 * of 64 when no chip is compiled), so a block size that is right for a
 * wave32 chip fails to build, or a wave64 bound holds for RDNA. Inside a
 * function or under #if __HIP_DEVICE_COMPILE__ it is the chip's own. */
static void check_host_pass_assert(WcFile *f, int i, int brace)
{
	if (f->t[i].cuda_only || (f->nfns && wc_func_at(f, i) >= 0) || !wc_op(f, i + 1, WP_LPAREN))
		return;
	/* the innermost "{" around it: a body when a ")" (and qualifiers) comes before it */
	if (brace >= 0) {
		int b = brace - 1;
		while (b > 0 && wc_ident(f, b) && (wc_flags(f, b) & WN_QUALIFIER || wc_kw(f, b, WK_noexcept) ||
		                                   wc_kw(f, b, WK_override) || wc_kw(f, b, WK_final)))
			b--;
		if (b >= 0 && wc_op(f, b, WP_RPAREN))
			return;
	}
	const WcRegion *r = wc_region_at(f, i);
	if (r && !(r->maybe & WC_HOST_PASS) && !(r->def & WC_HOST_PASS))
		return;
	int close = wc_match(f, i + 1);
	for (int k = i + 2; k < close; k++)
		if (lib_device_width(f, k)) {
			wc_find(f, k, "H7", "compile-time-warp-size",
				"assert it in the device pass only (#if __HIP_DEVICE_COMPILE__), where the width is the chip's",
				"%.*s in a static_assert outside device code: the host pass evaluates it too, where it is "
				"not the chip's width (64 for every target; RDNA runs 32)",
				(int)f->t[k].len, f->src.text + f->t[k].off);
			return;
		}
}

/* regs / (per_wave * (block_size / WarpSize)): a count of warps by a
 * truncating division, used as a divisor, is 0 for a block smaller than a
 * wavefront (fewer than 64 threads on CDNA) and divides by zero. Counted
 * up ((n + WarpSize - 1) / WarpSize) it is at least 1. */
static void check_zero_divisor(WcFile *f, int i)
{
	if (!wc_op(f, i, WP_SLASH) && !wc_op(f, i, WP_PERCENT))
		return;
	if (!wc_op(f, i + 1, WP_LPAREN) || f->t[i].cuda_only)
		return;
	int close = wc_match(f, i + 1);
	int depth = 0;
	for (int k = i + 2; k < close; k++) {
		if (wc_is_open(f, k))
			depth++;
		else if (wc_is_close(f, k))
			depth--;
		if (!wc_op(f, k, WP_SLASH))
			continue;
		/* the divisor of k: a warp-size name, qualified or not (HIPTraits::WarpSize) */
		int w = k + 1;
		while (wc_ident(f, w) && wc_op(f, w + 1, WP_SCOPE))
			w += 2;
		if (!wc_ident(f, w) || !(wc_kw(f, w, WK_warpSize) || (wc_flags(f, w) & WN_WARP_SIZE)) ||
		    wc_op(f, w + 1, WP_LPAREN))
			continue;
		/* what it divides: one name (a.b, p->n) right after "(" or "*" */
		int a = k - 1;
		while (a > i + 2 && wc_ident(f, a) && (wc_op(f, a - 1, WP_DOT) || wc_op(f, a - 1, WP_ARROW)) &&
		       wc_ident(f, a - 2))
			a -= 2;
		if (!wc_ident(f, a) || !(wc_flags(f, a) & WN_WIDTHISH) || wc_flags(f, a) & WN_WARPISH)
			continue;
		if (!(wc_op(f, a - 1, WP_LPAREN) || wc_op(f, a - 1, WP_STAR)))
			continue;
		if (!(wc_op(f, w + 1, WP_RPAREN) || wc_op(f, w + 1, WP_STAR)))
			continue;
		wc_find(f, a, "H12", "block-size",
			"count the warps up: (n + warp_size - 1) / warp_size, or assert n >= warp_size",
			"%.*s / %.*s counts warps by a truncating division and is used as a divisor: it is 0 for a "
			"block smaller than a wavefront (64 threads on CDNA), a division by zero",
			(int)f->t[a].len, f->src.text + f->t[a].off, (int)f->t[w].len, f->src.text + f->t[w].off);
		return;
	}
	(void)depth;
}

static void amdgcn_at(WcFile *f, const WcTok *t)
{
	wc_find_tok(f, t, "H7", "compile-time-warp-size",
		"select the width from __GFX9__ (wave64) in the device pass, or query the device",
		"__AMDGCN_WAVEFRONT_SIZE is deprecated in ROCm 7.1 and an error in 7.2");
}

/* __AMDGCN_WAVEFRONT_SIZE in directives (code uses are found in the main loop). */
static void check_amdgcn_directives(WcFile *f)
{
	for (int i = 0; i < f->nall; i++)
		if (f->all[i].kind == WT_IDENT && f->all[i].id == WK___AMDGCN_WAVEFRONT_SIZE)
			amdgcn_at(f, &f->all[i]);
}

/* The block-size argument of <<<grid, block>>>, or -1. */
static int launch_block_arg(const WcFile *f, int i)
{
	int depth = 0;
	for (int k = i + 1; k < f->n && k < i + 200 && !wc_op(f, k, WP_LAUNCH_CLOSE); k++) {
		if (wc_op(f, k, WP_LPAREN) || wc_op(f, k, WP_LBRACK))
			depth++;
		else if (wc_op(f, k, WP_RPAREN) || wc_op(f, k, WP_RBRACK))
			depth--;
		else if (depth == 0 && wc_op(f, k, WP_COMMA))
			return k + 1;
	}
	return -1;
}

/* The condition of the if whose ")" is at close names a warp size
 * (bnb_host_warp_size() == 64, prop.warpSize == 32). */
static bool width_condition(const WcFile *f, int close)
{
	int open = wc_op(f, close, WP_RPAREN) ? wc_match_back(f, close) : -1;
	if (open < 1 || !wc_kw(f, open - 1, WK_if))
		return false;
	for (int k = open + 1; k < close; k++)
		if (wc_ident(f, k) && (wc_flags(f, k) & WN_WARP_SIZE))
			return true;
	return false;
}

/* The condition of the if whose ")" is at close names a warp size that
 * the function does not set from a literal (warp_size = cols >= 32 ? 32 :
 * 16 is the code's own choice, not the device's width). */
static bool queried_width_condition(const WcFile *f, int close)
{
	int open = wc_match_back(f, close), fn = wc_func_at(f, close);
	for (int k = open + 1; open > 0 && k < close; k++) {
		if (!wc_ident(f, k) || !(wc_flags(f, k) & WN_WARP_SIZE))
			continue;
		bool literal = false;
		for (int j = fn >= 0 ? f->fns[fn].open : close; j < close && !literal; j++) {
			if (!wc_same_ident(f, j, k) || !wc_op(f, j + 1, WP_ASSIGN))
				continue;
			for (int e = j + 2; e < close && !wc_op(f, e, WP_SEMI) && !literal; e++)
				literal = f->t[e].kind == WT_NUMBER && (wc_value_is(f, e, 32) || wc_value_is(f, e, 64));
		}
		if (!literal)
			return true;
	}
	return false;
}

/* The statement holding token i is the unbraced body of an if on the
 * queried warp size: else if (blocksize == 64 && warpSize == 32) launch(...); */
static bool unbraced_width_body(const WcFile *f, int i)
{
	for (int k = i - 1; k >= 0 && k > i - 400; k--) {
		if (wc_op(f, k, WP_RPAREN) || wc_op(f, k, WP_RBRACK)) {
			int open = wc_match_back(f, k);
			if (open < 1)
				return false;
			if (wc_op(f, k, WP_RPAREN) && wc_kw(f, open - 1, WK_if))
				return width_condition(f, k) && queried_width_condition(f, k);
			k = open;
		} else if (wc_op(f, k, WP_SEMI) || wc_op(f, k, WP_LBRACE) || wc_op(f, k, WP_RBRACE) ||
		           wc_kw(f, k, WK_else)) {
			return false;
		}
	}
	return false;
}

/* Token i lies in a branch of an if on the warp size (its body or its
 * else): the host chose the block size for the width it found. */
bool wc_under_width_test(const WcFile *f, int i)
{
	if (unbraced_width_body(f, i))
		return true;
	int depth = 0;
	for (int k = i - 1; k >= 0; k--) {
		if (wc_op(f, k, WP_RBRACE)) {
			depth++;
		} else if (wc_op(f, k, WP_LBRACE) && depth > 0) {
			depth--;
		} else if (wc_op(f, k, WP_LBRACE)) {
			if (width_condition(f, k - 1))
				return true;
			if (wc_kw(f, k - 1, WK_else) && wc_op(f, k - 2, WP_RBRACE)) {
				int ob = wc_match_back(f, k - 2);
				if (ob > 0 && width_condition(f, ob - 1))
					return true;
			}
			int fn = wc_func_at(f, i);
			if (fn >= 0 && k <= f->fns[fn].open)
				return false;
		}
	}
	return false;
}

/* <<<grid, 96>>> and __launch_bounds__(288) */
static void check_block(WcFile *f, int i)
{
	int arg = -1;
	if (wc_op(f, i, WP_LAUNCH_OPEN)) {
		arg = launch_block_arg(f, i);
	} else if (wc_kw(f, i, WK___launch_bounds__) && wc_op(f, i + 1, WP_LPAREN)) {
		arg = i + 2;
	} else if (wc_kw(f, i, WK_hipLaunchKernelGGL) && wc_op(f, i + 1, WP_LPAREN)) {
		/* hipLaunchKernelGGL(kernel, grid, block, shared, stream, ...) */
		int starts[4], ends[4];
		bool angle = false;  /* k<T, 64> unparenthesised: its commas split the arguments */
		if (wc_call_args(f, i + 1, starts, ends, 4) >= 3) {
			for (int k = starts[0]; k < ends[0] && !wc_op(f, starts[0], WP_LPAREN); k++)
				angle = angle || wc_op(f, k, WP_LT);
			arg = angle ? -1 : starts[2];
		}
	}
	/* a block of dim3(64) or dim3(64, 1, 1): its x */
	if (arg >= 0 && arg + 3 < f->n && wc_kw(f, arg, WK_dim3) && wc_op(f, arg + 1, WP_LPAREN)) {
		int close = wc_match(f, arg + 1);
		bool ones = close > arg + 3;
		for (int k = arg + 3; ones && k < close; k += 2)
			ones = wc_op(f, k, WP_COMMA) && wc_value_is(f, k + 1, 1) && f->t[k + 1].kind == WT_NUMBER;
		if (close == arg + 3 || (ones && close > arg + 3))
			arg += 2;
		else
			return;
		if (!wc_op(f, arg + 1, WP_RPAREN) && !wc_op(f, arg + 1, WP_COMMA))
			return;
	}
	uint64_t v;
	if (arg < 0 || arg >= f->n || f->t[arg].kind != WT_NUMBER || !wc_value(f, arg, &v) ||
	    !(wc_op(f, arg + 1, WP_COMMA) || wc_op(f, arg + 1, WP_RPAREN) || wc_op(f, arg + 1, WP_LAUNCH_CLOSE)))
		return;
	if (v % 32 == 0 && v % 64 != 0 && !wc_under_width_test(f, i))
		wc_find(f, arg, "H12", "block-size", "use a multiple of 64 (or of the queried warp size)",
			"block size %llu is a multiple of 32 but not of 64: its last wavefront is half empty",
			(unsigned long long)v);
}

/* The function declares a variable or parameter of its own named warpSize
 * (unsigned warpSize = prop.warpSize;): its uses are that variable. */
static bool declares_warp_size(const WcFile *f, const WcFunc *fn)
{
	for (int k = fn->name + 1; k < fn->close; k++) {
		if (!wc_kw(f, k, WK_warpSize) || wc_op(f, k - 1, WP_DOT) || wc_op(f, k - 1, WP_ARROW))
			continue;
		if ((wc_flags(f, k - 1) & WN_TYPE) || wc_op(f, k - 1, WP_STAR) || wc_op(f, k - 1, WP_AMP))
			return true;
		if (wc_ident(f, k - 1) && !wc_kw(f, k - 1, WK_return) &&
		    (wc_op(f, k + 1, WP_ASSIGN) || wc_op(f, k + 1, WP_SEMI) || wc_op(f, k + 1, WP_COMMA)))
			return true;  /* size_t warpSize = ... */
		if (wc_op(f, k - 1, WP_COMMA) && (wc_op(f, k + 1, WP_SEMI) || wc_op(f, k + 1, WP_COMMA) ||
		                                  wc_op(f, k + 1, WP_ASSIGN))) {
			int s = k - 1;
			while (s > fn->open && !wc_op(f, s, WP_SEMI) && !wc_op(f, s, WP_LBRACE) && !wc_op(f, s, WP_RBRACE) &&
			       !wc_op(f, s, WP_LPAREN))
				s--;
			if (wc_flags(f, s + 1) & (WN_TYPE | WN_QUALIFIER))
				return true;  /* int w, warpSize; */
		}
	}
	return false;
}

/* warp_size = (n < 32) ? n : 32; in a host function: a variable named for
 * the warp size set from a literal 32 (with no 64 in the statement: a
 * choice between the two widths is fine). PyTorch's softmax caps its
 * per-row warp at C10_WARP_SIZE; ports that wrote 32 there cap CDNA at
 * half a wavefront. */
static void check_host_assign(WcFile *f, int i)
{
	if (!(wc_flags(f, i) & WN_WARP_SIZE) || wc_kw(f, i, WK_warpSize) || !wc_op(f, i + 1, WP_ASSIGN) ||
	    wc_op(f, i - 1, WP_DOT) || wc_op(f, i - 1, WP_ARROW) || f->t[i].cuda_only)
		return;
	int at32 = -1, depth = 0;
	for (int k = i + 2; k < f->n && k < i + 64; k++) {
		if (wc_op(f, k, WP_LPAREN))
			depth++;
		else if (wc_op(f, k, WP_RPAREN) && --depth < 0)
			return;
		else if (depth == 0 && (wc_op(f, k, WP_SEMI) || wc_op(f, k, WP_COMMA)))
			break;
		else if (f->t[k].kind == WT_NUMBER && wc_value_is(f, k, 64))
			return;
		else if (f->t[k].kind == WT_NUMBER && wc_value_is(f, k, 32) && at32 < 0)
			at32 = k;
		else if (wc_warp_size_expr(f, k) || wc_op(f, k, WP_LBRACE))
			return;
	}
	if (at32 >= 0)
		wc_find(f, at32, "H6", "host-warp-size",
			"query the device: hipDeviceAttributeWarpSize (cudaDevAttrWarpSize), or accept 32 and 64",
			"%.*s is set to 32 in host code; AMD CDNA devices run 64-lane wavefronts",
			(int)f->t[i].len, f->src.text + f->t[i].off);
}

/* The name at i says it counts threads: nThreads, threads_per_block. */
static bool names_threads(const WcFile *f, int i)
{
	const WcTok *t = &f->t[i];
	static const char w[] = "thread";
	for (uint32_t k = 0; k + 6 <= t->len; k++) {
		uint32_t j = 0;
		while (j < 6 && (f->src.text[t->off + k + j] | 0x20) == w[j])
			j++;
		if (j == 6)
			return true;
	}
	return false;
}

/* nThreads / 32, threads.x / WARP_SIZE (32) in a host function: warps per
 * block counted in 32s, for a device whose wavefront may be 64 wide. Not
 * where the statement also names 64 or the branch was chosen for the
 * width the host queried. The message starts as check_launch's, so a
 * function whose kernels keep to 32-lane groups gets a note (scheme.c). */
static void check_host_warps(WcFile *f, int i)
{
	if (wc_op(f, i - 1, WP_DOT) || wc_op(f, i - 1, WP_ARROW) || f->t[i].cuda_only)
		return;
	int d = i + 1;
	if (wc_op(f, d, WP_DOT) && wc_ident(f, d + 1))
		d += 2;
	if (!wc_op(f, d, WP_SLASH) || !names_threads(f, i))  /* the "/" first: the name's spelling costs more */
		return;
	int c = d + 1;
	if (!(f->t[c].kind == WT_NUMBER ? wc_value_is(f, c, 32) : warp_size_const(f, c)) || wc_op(f, c + 1, WP_LPAREN))
		return;
	if (also_64(f, c) || wc_under_width_test(f, i))
		return;
	wc_find(f, c, "H6", "host-warp-size", "query the device: hipDeviceAttributeWarpSize (cudaDevAttrWarpSize)",
		"launch geometry counts warps as %.*s / %.*s (32) in host code; AMD CDNA wavefronts have 64 lanes",
		(int)f->t[i].len, f->src.text + f->t[i].off, (int)f->t[c].len, f->src.text + f->t[c].off);
}

/* Host code that names the device's width: warpSize is device-only in HIP
 * 7, and was 64 for every AMD target before (RDNA runs 32). A macro whose
 * body uses it counts at its first call in each host function. Lambdas
 * marked __device__ inside a host function are device code. */
static void check_host_width(WcFile *f, bool widths)
{
	for (int k = 0; k < f->nfns; k++) {
		const WcFunc *fn = &f->fns[k];
		if (fn->kind != WF_HOST)
			continue;
		bool own_width = declares_warp_size(f, fn);
		uint32_t seen[8];
		int nseen = 0;
		for (int i = fn->open + 1; i < fn->close; i++) {
			if (wc_kw(f, i, WK___device__) || wc_kw(f, i, WK___global__)) {
				while (i < fn->close && !wc_op(f, i, WP_LBRACE))
					i++;
				int m = wc_match(f, i);
				i = m < 0 ? fn->close : m;
				continue;
			}
			if (!wc_ident(f, i) || wc_op(f, i - 1, WP_DOT) || wc_op(f, i - 1, WP_ARROW))
				continue;
			check_host_assign(f, i);
			check_host_warps(f, i);
			if (!widths)
				continue;
			const WcName *nm = &f->names->v[f->t[i].id];
			if (wc_warp_size_expr(f, i)) {
				bool skip = own_width && wc_kw(f, i, WK_warpSize);
				for (int d = f->nfinds - 1; d >= 0 && !skip; d--)
					skip = f->finds[d].off == f->t[i].off;  /* already H7 */
				if (!skip)
					wc_find(f, i, "H6", "host-warp-size",
						"query the device: hipDeviceAttributeWarpSize (cudaDevAttrWarpSize)",
						"%.*s in host code: the device's warp size is not known there (HIP 7 rejects it; "
						"earlier HIP gave 64 for every AMD target, but RDNA runs 32)",
						(int)f->t[i].len, f->src.text + f->t[i].off);
			} else if (nm->macro_stamp == f->stamp && nm->macro_wsize && wc_op(f, i + 1, WP_LPAREN)) {
				bool dup = false;
				for (int d = 0; d < nseen && !dup; d++)
					dup = seen[d] == f->t[i].id;
				if (dup)
					continue;
				if (nseen < 8)
					seen[nseen++] = f->t[i].id;
				wc_find(f, i, "H6", "host-warp-size",
					"query the device: hipDeviceAttributeWarpSize (cudaDevAttrWarpSize)",
					"%.*s expands to the device's warp size in host code (HIP 7 rejects it; earlier HIP gave "
					"64 for every AMD target, but RDNA runs 32)",
					(int)f->t[i].len, f->src.text + f->t[i].off);
			}
		}
	}
}

/* kSmall<T><<<g, 64>>> in code under a condition about AMD (#if BNB_HIP,
 * #ifdef USE_ROCM) while the file launches the same kernel with blocks of
 * 32 elsewhere (its CUDA branch included): the block is one wavefront on CDNA and two on RDNA (and
 * the kernel's other launches give it one 32-lane warp). Not in a branch
 * of an if on the warp size, not under a per-target test. */
typedef struct {
	uint32_t name;
	int at;
	uint64_t v;
	bool amd;
} Launch;

static void check_amd_launches(WcFile *f)
{
	if (!(f->tok_ops & (uint64_t)1 << WP_LAUNCH_OPEN))
		return;  /* no <<< */
	Launch *ls = NULL;
	int nl = 0, cap = 0;
	for (int i = 1; i < f->n; i++) {
		if (!wc_op(f, i, WP_LAUNCH_OPEN))
			continue;
		int k = wc_launched_name(f, i), arg = launch_block_arg(f, i);
		uint64_t v;
		if (k < 0 || arg < 0 || arg >= f->n || f->t[arg].kind != WT_NUMBER || !wc_value(f, arg, &v) ||
		    (v != 32 && v != 64) || !wc_op(f, arg + 1, WP_LAUNCH_CLOSE))
			continue;
		if (nl == cap) {
			cap = cap ? cap * 2 : 16;
			ls = base_realloc(ls, (size_t)cap * sizeof *ls);
		}
		const WcRegion *r = wc_region_at(f, i);
		/* a launch only CUDA compiles counts as one with 32 elsewhere */
		ls[nl++] = (Launch){f->t[k].id, arg, v, !f->t[i].cuda_only && r && r->amd && r->target == UINT32_MAX};
	}
	for (int a = 0; a < nl; a++) {
		if (ls[a].v != 64 || !ls[a].amd || wc_under_width_test(f, ls[a].at))
			continue;
		int other = -1;
		for (int b = 0; b < nl && other < 0; b++)
			if (b != a && ls[b].name == ls[a].name && ls[b].v == 32 && !ls[b].amd)
				other = b;
		if (other < 0)
			continue;
		int line, col;
		diag_source_linecol(&f->src, f->t[ls[other].at].off, &line, &col);
		wc_find(f, ls[a].at, "H8", "arch-width",
			"launch with the queried warp size (hipDeviceAttributeWarpSize), or pick the kernel in an if on it",
			"a block of 64 threads under a condition about AMD for a kernel launched with 32 elsewhere in the "
			"file (line %d): one wavefront on CDNA, two on RDNA (gfx10 to gfx12 run 32-lane wavefronts)",
			line);
	}
	free(ls);
}

/* Token i names the device's width: warpSize, an alias or a library's name
 * for it, or a warp-size name the tree defines with no one value
 * (static constexpr uint32 warp_size = warpSize; under a HIP condition,
 * = 32 in the other branch). A warp-size name defined as 32 alone, or
 * never defined where the file can see it, is not. */
static bool device_width_name(const WcFile *f, int i)
{
	if (wc_warp_size_alias(f, i))
		return true;
	if (!wc_ident(f, i) || !(wc_flags(f, i) & WN_WARP_SIZE) || wc_op(f, i + 1, WP_LPAREN))
		return false;
	const WcName *nm = &f->names->v[f->t[i].id];
	return nm->const_stamp == f->stamp && (nm->const_conflict || nm->const_value == 64);
}

/* The expression [a, b) multiplies by the device's width: n * warp_size,
 * config::warp_size * rows (a factor of the top level of the product). */
static int width_factor(const WcFile *f, int a, int b)
{
	int depth = 0;
	for (int k = a; k < b; k++) {
		if (wc_is_open(f, k))
			depth++;
		else if (wc_is_close(f, k))
			depth--;
		if (depth != 0 || !device_width_name(f, k))
			continue;
		int s = k;
		while (wc_op(f, s - 1, WP_SCOPE) && wc_ident(f, s - 2))
			s -= 2;
		if (wc_op(f, s - 1, WP_STAR) || wc_op(f, k + 1, WP_STAR))
			return k;
	}
	return -1;
}

/* The smallest value below 64 that code some HIP pass compiles gives name
 * id (constexpr int default_block_size = 16; under #if
 * PROJ_HIP_PLATFORM_AMD), or 0. *amd: that value is under a condition
 * about AMD. */
static uint64_t small_block_value(const WcFile *f, int name, bool *amd)
{
	uint64_t best = 0;
	*amd = false;
	if (wc_value(f, name, &best))
		return best > 0 && best < 64 ? best : 0;
	best = 0;
	if (!wc_ident(f, name))
		return 0;
	for (int k = 1; k + 2 < f->n; k++) {
		uint64_t v;
		if (!wc_same_ident(f, k, name) || !wc_op(f, k + 1, WP_ASSIGN) || f->t[k + 2].kind != WT_NUMBER ||
		    !wc_op(f, k + 3, WP_SEMI) || !(wc_flags(f, k - 1) & (WN_TYPE | WN_QUALIFIER)) ||
		    f->t[k].cuda_only || !wc_value(f, k + 2, &v))
			continue;
		if (v == 0 || v >= 64)
			return 0;  /* some pass has a block of a whole wavefront */
		const WcRegion *r = wc_region_at(f, k);
		if (best == 0 || v < best || (r && r->amd && !*amd)) {
			best = v;
			*amd = r && r->amd;
		}
	}
	return best;
}

/* dim3 block(16, 1, 1) with a grid of ceildiv(rows * warp_size, block.x):
 * the launcher gives each row a warp of the device's width, but a block
 * holds fewer threads than a wavefront, so each "warp" is split across
 * blocks (and its subwarp ids cross them). On NVIDIA a block of 32 is one
 * warp and correct; on CDNA a wavefront is 64 lanes. */
static void check_warp_grid(WcFile *f, const WcFunc *fn)
{
	bool launch = false;
	if (!(f->tok_ops & (uint64_t)1 << WP_LAUNCH_OPEN) && !wc_file_has_kw(f, WK_hipLaunchKernelGGL))
		return;  /* no launch anywhere in the file */
	for (int i = fn->open; i < fn->close && !launch; i++)
		launch = wc_op(f, i, WP_LAUNCH_OPEN) || wc_kw(f, i, WK_hipLaunchKernelGGL);
	if (!launch)
		return;
	for (int i = fn->open + 1; i + 3 < fn->close; i++) {
		if (!wc_kw(f, i, WK_dim3) || !wc_ident(f, i + 1) || f->t[i].cuda_only ||
		    !(wc_op(f, i + 2, WP_LPAREN) || wc_op(f, i + 2, WP_LBRACE)))
			continue;
		int st[3], en[3];
		int na = wc_call_args(f, i + 2, st, en, 3);
		if (na < 1 || en[0] != st[0] + 1)
			continue;
		bool ones = true;
		for (int a = 1; a < na; a++)
			ones = ones && en[a] == st[a] + 1 && wc_value_is(f, st[a], 1);
		if (!ones || wc_under_width_test(f, i))
			continue;
		bool amd = false;
		uint64_t v = small_block_value(f, st[0], &amd);
		if (v == 0)
			continue;
		/* the block's x as a divisor: ceildiv(E, block.x) or (E + block.x - 1) / block.x */
		int w = -1;
		for (int k = wc_match(f, i + 2) + 1; k + 2 < fn->close && w < 0; k++) {
			if (!wc_same_ident(f, k, i + 1) || !wc_op(f, k + 1, WP_DOT) || f->t[k + 2].len != 1 ||
			    f->src.text[f->t[k + 2].off] != 'x')
				continue;
			if (wc_op(f, k - 1, WP_COMMA) && wc_op(f, k + 3, WP_RPAREN)) {
				int open = wc_match_back(f, k + 3);
				int s2[2], e2[2];
				if (open > 0 && wc_ident(f, open - 1) && wc_call_args(f, open, s2, e2, 2) == 2 && s2[1] == k)
					w = width_factor(f, s2[0], e2[0]);
			} else if (wc_op(f, k - 1, WP_SLASH) && wc_op(f, k - 2, WP_RPAREN)) {
				int open = wc_match_back(f, k - 2);
				if (open > 0)
					w = width_factor(f, open + 1, k - 2);
			}
		}
		if (w < 0)
			continue;
		char what[96] = "";
		if (wc_ident(f, st[0]))
			snprintf(what, sizeof what, " (%.*s%s)", (int)f->t[st[0]].len, f->src.text + f->t[st[0]].off,
				amd ? ", its value for AMD" : "");
		wc_find(f, st[0], "H12", "block-size",
			"make the block at least a wavefront (the queried warp size, or a multiple of 64)",
			"a block of %llu threads%s is smaller than a 64-lane wavefront, but the grid gives each item %.*s "
			"threads: on CDNA each item's warp is split across blocks",
			(unsigned long long)v, what, (int)f->t[w].len, f->src.text + f->t[w].off);
	}
}

/* Whether a name of f can be one the pass below looks for: warpSize, a
 * library's name for the width, or a name with a fact of f's stamp about
 * the width (a wsize, wexpr or width-using macro fact), which names.touched
 * lists, since each place that sets such a fact calls wc_touch. Cheaper
 * than reading every name's facts where there is none. */
static bool may_name_width(const WcFile *f)
{
	if (wc_file_has_kw(f, WK_warpSize) || (f->tok_flags & WN_LIBWIDTH))
		return true;
	const WcNames *nt = f->names;
	for (uint32_t k = 0; k < nt->ntouched; k++) {
		const WcName *nm = &nt->v[nt->touched[k]];
		if (nm->wsize_stamp == f->stamp || nm->wexpr_stamp == f->stamp || (nm->macro_stamp == f->stamp && nm->macro_wsize))
			return true;
	}
	return false;
}

void wc_rule_host(WcFile *f)
{
	/* The constant contexts and host code matter only where the device's
	 * width is named at all. */
	bool widths = false;
	for (int i = may_name_width(f) ? 0 : f->n; i < f->n && !widths; i++) {
		if (f->t[i].kind != WT_IDENT)
			continue;
		const WcName *nm = &f->names->v[f->t[i].id];
		widths = wc_warp_size_expr(f, i) || (nm->macro_stamp == f->stamp && nm->macro_wsize);
	}
	int *open = NULL, nopen = 0, open_cap = 0;  /* the "{"s around token i */
	for (int i = 0; i < f->n; i++) {
		const WcTok *t = &f->t[i];
		if (t->kind == WT_PUNCT && t->op == WP_LBRACE) {
			if (nopen == open_cap) {
				open_cap = open_cap ? open_cap * 2 : 64;
				open = base_realloc(open, (size_t)open_cap * sizeof *open);
			}
			open[nopen++] = i;
		} else if (t->kind == WT_PUNCT && t->op == WP_RBRACE && nopen > 0) {
			nopen--;
		}
		if (t->kind == WT_PUNCT) {
			if (t->op == WP_LAUNCH_OPEN) {
				check_launch(f, i);
				check_block(f, i);
			} else if (t->op == WP_LBRACK) {
				check_bound(f, i);
			} else if (t->op == WP_SLASH || t->op == WP_PERCENT) {
				check_zero_divisor(f, i);
			}
		} else if (t->kind == WT_IDENT) {
			if (t->id == WK_static_assert)
				check_host_pass_assert(f, i, nopen ? open[nopen - 1] : -1);
			if (t->id == WK_dim3)
				check_launch(f, i);
			else if (t->id == WK_warpSize)
				check_prop(f, i);
			else if (t->id == WK___launch_bounds__ || t->id == WK_hipLaunchKernelGGL)
				check_block(f, i);
			else if (t->id == WK___AMDGCN_WAVEFRONT_SIZE)
				amdgcn_at(f, t);
			else if (!widths)
				continue;
			else if (t->id == WK_constexpr)
				check_constexpr(f, i);
			else if (t->id == WK_static_assert)
				check_parens(f, i, "a static_assert");
			else if (t->id == WK_if && wc_kw(f, i + 1, WK_constexpr))
				check_parens(f, i, "an if constexpr condition");
			else if (t->id == WK_template && wc_op(f, i + 1, WP_LT))
				check_template_defaults(f, i);
			else if (wc_op(f, i + 1, WP_LT))
				check_template_args(f, i);
			if (widths && t->id == WK___launch_bounds__)
				check_parens(f, i, "__launch_bounds__");
		}
	}
	free(open);
	check_amd_launches(f);
	check_amdgcn_directives(f);
	check_host_width(f, widths);
	for (int k = 0; k < f->nfns; k++) {
		if (f->fns[k].kind == WF_HOST || f->fns[k].kind == WF_UNKNOWN)
			check_warp_grid(f, &f->fns[k]);
		if (widths)
			check_constexpr_return(f, &f->fns[k]);
	}
}
