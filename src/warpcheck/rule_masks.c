/* rule_masks.c: H2 (32-bit lane masks) and H13 (mask arithmetic that
 * overflows at 64 lanes).
 *
 * A wavefront's masks are 64 bits: 0xffffffff in a _sync call leaves lanes
 * 32..63 out (a compile error from HIP 6.2 on). A project macro that drops
 * the mask (#define __shfl_xor_sync(m, v, o, w) __shfl_xor(v, o, w)) makes
 * the literal harmless, so such shims are followed. */
#include "warpcheck/warpcheck.h"

#include <stdlib.h>
#include <string.h>

/* Stale guards. ROCm 6.0 stopped defining __HIP_PLATFORM_HCC__ (and
 * __HCC__), so the branch of "#ifndef __HIP_PLATFORM_HCC__" (or the #else
 * of "#ifdef __HIP_PLATFORM_HCC__") that was meant for CUDA is what HIP
 * compiles now. The preprocessor reads such a guard as CUDA-only, by its
 * name; this rule finds the code tokens whose only CUDA-only guard is one
 * of those, so the lane-mask checks below still see them. */
typedef struct Ranges {
	int *from, *to;         /* code token ranges [from, to) */
	int n, cap;
} Ranges;
typedef struct Stale {
	Ranges stale;           /* CUDA-only by a stale guard alone */
	Ranges proj;            /* under a project's own CUDA switch: #ifdef PROJ_ENABLE_CUDA */
	bool done;
} Stale;

static bool text_is(const WcFile *f, const WcTok *t, const char *w)
{
	size_t n = strlen(w);
	return t->kind == WT_IDENT && t->len == n && memcmp(f->src.text + t->off, w, n) == 0;
}

static bool hcc_name(const WcFile *f, const WcTok *t)
{
	return text_is(f, t, "__HIP_PLATFORM_HCC__") || text_is(f, t, "__HCC__");
}

/* The build gives the name itself (-D __HIP_PLATFORM_HCC__): no guard of
 * it is stale then. */
static bool hcc_given(const WcFile *f, const WcTok *t)
{
	const WcName *nm = &f->names->v[t->id];
	return nm->cdef_stamp == f->stamp && nm->cdef == 1;
}

/* A name in a condition that may decide CUDA against HIP by itself: a
 * platform macro of AMD or NVIDIA, or a CUDA version. */
static bool platform_name(const WcFile *f, const WcTok *t)
{
	if (t->kind != WT_IDENT || hcc_name(f, t))
		return false;
	if (f->names->fl[t->id] & (WN_AMD | WN_TARGET))
		return true;
	const char *s = f->src.text + t->off;
	for (uint32_t k = 0; k + 4 <= t->len; k++)
		if (memcmp(s + k, "CUDA", 4) == 0 || memcmp(s + k, "NVCC", 4) == 0 || memcmp(s + k, "NVID", 4) == 0 ||
		    memcmp(s + k, "cuda", 4) == 0)
			return true;
	return false;
}

enum { FR_NEUTRAL, FR_STALE, FR_OTHER };
typedef struct Frame {
	uint8_t kind, if_kind;  /* the current branch's, and what the #if's own branch was */
	bool hcc_pos;           /* the #if branch is the one __HIP_PLATFORM_HCC__ selects */
	bool proj, if_proj;     /* the current branch (the #if's) is a project's CUDA switch */
	/* the frames below (around) this one, set when it is pushed, since
	 * only the innermost frame changes: constant time per directive, not
	 * a walk of the stack (100000 nested #ifs took 4 s) */
	bool below_proj, below_stale, below_other;
} Frame;

/* A project's switch for its CUDA backend, tested alone and not negated
 * (#ifdef KOKKOS_ENABLE_CUDA, #if defined(RAJA_ENABLE_CUDA)): code a HIP
 * build of the project does not compile, though its name does not say so
 * to the preprocessor. Not __CUDA_ARCH__ or __CUDACC__, which ports define. */
static bool proj_cuda(const WcFile *f, int a, int b)
{
	int name = -1;
	for (int k = a; k < b; k++) {
		const WcTok *t = &f->all[k];
		if (t->kind == WT_IDENT && t->id == WK_defined)
			continue;
		if (t->kind == WT_PUNCT && (t->op == WP_LPAREN || t->op == WP_RPAREN))
			continue;
		if (t->kind != WT_IDENT || name >= 0)
			return false;
		name = k;
	}
	if (name < 0 || (f->names->fl[f->all[name].id] & (WN_AMD | WN_TARGET)))
		return false;
	const char *s = f->src.text + f->all[name].off;
	uint32_t len = f->all[name].len;
	if (len >= 6 && memcmp(s, "__CUDA", 6) == 0)
		return false;
	for (uint32_t k = 0; k + 4 <= len; k++)
		if (memcmp(s + k, "CUDA", 4) == 0)
			return true;
	return false;
}

/* The condition all[a, b) of an #if: FR_STALE when it is
 * !defined(__HIP_PLATFORM_HCC__) and nothing else, FR_NEUTRAL with
 * *pos when it is defined(__HIP_PLATFORM_HCC__) alone (or the name
 * alone), FR_OTHER when it names a platform some other way. */
static int cond_kind(const WcFile *f, int a, int b, bool *pos)
{
	int names = 0, hcc = 0, nots = 0, other = 0;
	*pos = false;
	for (int k = a; k < b; k++) {
		const WcTok *t = &f->all[k];
		if (t->kind == WT_IDENT && t->id == WK_defined)
			continue;
		if (t->kind == WT_PUNCT && t->op == WP_NOT)
			nots++;
		else if (t->kind == WT_PUNCT && (t->op == WP_LPAREN || t->op == WP_RPAREN))
			continue;
		else if (t->kind == WT_IDENT && hcc_name(f, t))
			hcc++;
		else if (t->kind == WT_IDENT && platform_name(f, t))
			other++;
		else if (t->kind == WT_IDENT)
			names++;
		else
			other += t->kind == WT_PUNCT;  /* &&, ||: a compound test */
	}
	if (other || (hcc && names))
		return FR_OTHER;
	if (hcc == 1 && nots == 1)
		return FR_STALE;
	if (hcc == 1 && nots == 0) {
		*pos = true;
		return FR_NEUTRAL;
	}
	return FR_NEUTRAL;
}

static void stale_add(Ranges *st, int from, int to)
{
	if (from >= to)
		return;
	if (st->n && st->to[st->n - 1] == from) {
		st->to[st->n - 1] = to;
		return;
	}
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 8;
		st->from = base_realloc(st->from, (size_t)st->cap * sizeof *st->from);
		st->to = base_realloc(st->to, (size_t)st->cap * sizeof *st->to);
	}
	st->from[st->n] = from;
	st->to[st->n++] = to;
}

static void stale_scan(const WcFile *f, Stale *st)
{
	st->done = true;
	Frame *fr = NULL;
	int depth = 0, cap = 0, code = 0;
	bool stale = false, proj = false, given = false;
	for (int i = 0; i < f->nall; i++) {
		if (!(f->all[i].kind == WT_PUNCT && f->all[i].op == WP_HASH && (i == 0 || f->all[i - 1].kind == WT_EOD)))
			continue;
		int at = (int)f->all[i].num, eod = i + 1;
		while (eod < f->nall && f->all[eod].kind != WT_EOD)
			eod++;
		if (stale)
			stale_add(&st->stale, code, at);
		if (proj)
			stale_add(&st->proj, code, at);
		code = at;
		for (int q = i + 2; q < eod; q++)
			given = given || (hcc_name(f, &f->all[q]) && hcc_given(f, &f->all[q]));
		const WcTok *d = i + 1 < f->nall ? &f->all[i + 1] : NULL;
		uint32_t k = d && d->kind == WT_IDENT ? d->id : UINT32_MAX;
		if (k == WK_if || k == WK_ifdef || k == WK_ifndef) {
			if (depth == cap) {
				cap = cap ? cap * 2 : 16;
				fr = base_realloc(fr, (size_t)cap * sizeof *fr);
			}
			Frame *x = &fr[depth++];
			bool pos = false;
			if (k == WK_if)
				x->kind = (uint8_t)cond_kind(f, i + 2, eod, &pos);
			else if (i + 2 < eod && hcc_name(f, &f->all[i + 2]))
				x->kind = k == WK_ifndef ? FR_STALE : FR_NEUTRAL, pos = k == WK_ifdef;
			else
				x->kind = i + 2 < eod && platform_name(f, &f->all[i + 2]) ? FR_OTHER : FR_NEUTRAL;
			x->if_kind = x->kind;
			x->hcc_pos = pos;
			x->proj = x->if_proj = k != WK_ifndef && proj_cuda(f, i + 2, eod);
			const Frame *b = depth > 1 ? &fr[depth - 2] : NULL;
			x->below_proj = b && (b->below_proj || b->proj);
			x->below_stale = b && (b->below_stale || b->kind == FR_STALE);
			x->below_other = b && (b->below_other || b->kind == FR_OTHER);
		} else if (k == WK_else && depth) {
			Frame *x = &fr[depth - 1];
			x->kind = x->hcc_pos ? FR_STALE : x->if_kind == FR_STALE ? FR_NEUTRAL : x->if_kind;
			x->proj = false;
		} else if (k == WK_elif && depth) {
			fr[depth - 1].kind = FR_OTHER;
			fr[depth - 1].proj = false;
		} else if (k == WK_endif && depth) {
			depth--;
		}
		stale = proj = false;
		if (depth) {
			const Frame *x = &fr[depth - 1];
			proj = x->below_proj || x->proj;
			stale = !x->below_other && x->kind != FR_OTHER && (x->below_stale || x->kind == FR_STALE);
		}
		i = eod;
	}
	if (stale)
		stale_add(&st->stale, code, f->n);
	if (proj)
		stale_add(&st->proj, code, f->n);
	if (given)
		st->stale.n = 0;  /* the build defines it: its guards hold */
	free(fr);
}

/* The ranges are in order and apart (stale_scan adds them as it goes
 * through the file): a binary search. */
static bool in_ranges(const Ranges *r, int i)
{
	int lo = 0, hi = r->n;  /* the first range from lo on starts past i */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (r->from[mid] <= i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && i < r->to[lo - 1];
}

/* Code token i is CUDA-only by a stale guard alone: HIP compiles it. */
static bool stale_at(const WcFile *f, Stale *st, int i)
{
	if (!f->t[i].cuda_only)
		return false;
	if (!st->done)
		stale_scan(f, st);
	return in_ranges(&st->stale, i);
}

/* The file lies in a folder of a CUDA backend (.../cuda/..., Cuda/), or
 * code token i under a project's CUDA switch. */
static bool cuda_backend(const WcFile *f, Stale *st, int i)
{
	if (!st->done)
		stale_scan(f, st);
	if (in_ranges(&st->proj, i))
		return true;
	const char *p = f->src.name ? f->src.name : "";
	for (const char *s = p; *s; s++)
		if (*s == '/' && (s[1] | 32) == 'c' && (s[2] | 32) == 'u' && (s[3] | 32) == 'd' && (s[4] | 32) == 'a' &&
		    s[5] == '/')
			return true;
	return strlen(p) > 5 && (p[0] | 32) == 'c' && (p[1] | 32) == 'u' && (p[2] | 32) == 'd' && (p[3] | 32) == 'a' &&
	       p[4] == '/';
}

static bool type32(const WcFile *f, int i)
{
	return wc_kw(f, i, WK_int) || wc_kw(f, i, WK_unsigned) || wc_kw(f, i, WK_signed) ||
	       wc_kw(f, i, WK_uint32_t) || wc_kw(f, i, WK_int32_t) || wc_kw(f, i, WK_uint);
}

/* The declaration, in the function around call i, of the name at k with a
 * 32-bit integer type (a parameter or a local before i): the index of its
 * first type word, or -1. A pointer, a reference, "long" or a ballot as
 * its value (H4 reports those) is not one. */
static int declared32(const WcFile *f, int i, int k)
{
	int fn = wc_func_at(f, i);
	if (fn < 0 || f->fns[fn].name < 0)
		return -1;
	for (int d = f->fns[fn].name + 1; d < i; d++) {
		if (!wc_same_ident(f, d, k) || !type32(f, d - 1))
			continue;
		if (!(wc_op(f, d + 1, WP_ASSIGN) || wc_op(f, d + 1, WP_SEMI) || wc_op(f, d + 1, WP_COMMA) ||
		      wc_op(f, d + 1, WP_RPAREN) || wc_op(f, d + 1, WP_LBRACE)))
			continue;
		int first = d - 1;
		while (first > 0 && type32(f, first - 1))
			first--;
		if (wc_kw(f, first - 1, WK_long))
			return -1;
		if (wc_op(f, d + 1, WP_ASSIGN)) {
			int v = d + 2;
			while (wc_op(f, v, WP_LPAREN))
				v++;
			if (wc_is_ballot(f, v))
				return -1;
		}
		return first;
	}
	return -1;
}

static void check_sync(WcFile *f, int i, Stale *st)
{
	if (!wc_op(f, i + 1, WP_LPAREN) || wc_mask_dropped(f, i))
		return;
	bool stale = stale_at(f, st, i);
	if (f->t[i].cuda_only && !stale)
		return;
	int s[8], e[8];
	bool only32;
	int n = wc_call_args(f, i + 1, s, e, 8);
	if (n < 1)
		return;
	const char *why = stale ? " (HIP compiles this branch: ROCm 6 dropped __HIP_PLATFORM_HCC__)" : "";
	if (!wc_full_mask(f, s[0], e[0], &only32)) {
		/* a mask of a 32-bit type: HIP's _sync functions take 64 bits */
		int d = e[0] == s[0] + 1 && wc_ident(f, s[0]) ? declared32(f, i, s[0]) : -1;
		if (d < 0 || cuda_backend(f, st, i))
			return;
		int name = d;
		while (!wc_same_ident(f, name, s[0]))
			name++;
		int line, col;
		wc_tok_pos(f, &f->t[i], &line, &col);
		WcFinding *fd = wc_find(f, d, "H2", "mask-type", "declare the mask unsigned long long (uint64_t)",
			"32-bit mask '%.*s' given to %.*s (line %d): HIP's _sync calls take 64 bits (a static_assert from "
			"HIP 6.2)%s",
			(int)f->t[s[0]].len, f->src.text + f->t[s[0]].off, (int)f->t[i].len, f->src.text + f->t[i].off, line, why);
		wc_edit(fd, f, d, name - 1, "unsigned long long");
		return;
	}
	if (!only32)
		return;
	bool was = f->t[s[0]].cuda_only;
	if (stale)
		f->t[s[0]].cuda_only = false;  /* the finding lies in the stale branch */
	WcFinding *fd = wc_find(f, s[0], "H2", "lane-mask",
		"use a 64-bit mask (~0ull) or the mask-less HIP intrinsic",
		"32-bit full mask in %.*s leaves lanes 32..63 of a 64-lane wavefront out%s",
		(int)f->t[i].len, f->src.text + f->t[i].off, why);
	f->t[s[0]].cuda_only = was;
	if (f->t[s[0]].kind == WT_NUMBER || wc_op(f, s[0], WP_TILDE) || e[0] == s[0] + 1 || wc_kw(f, s[0], WK_uint32_t) ||
	    wc_kw(f, s[0], WK_unsigned))
		wc_edit(fd, f, s[0], e[0] - 1, "~0ull");  /* FULL_MASK: here, not in its #define, which may serve data */
}

static bool word_in(const WcFile *f, int i, const char *w)
{
	size_t n = strlen(w), len = f->t[i].len;
	const char *s = f->src.text + f->t[i].off;
	for (size_t k = 0; k + n <= len; k++)
		if (memcmp(s + k, w, n) == 0)
			return true;
	return false;
}

/* 1 << warpSize, and (1ull << width) - 1 with a width that can be 64. */
static void check_shift(WcFile *f, int i)
{
	if (!wc_op(f, i + 1, WP_SHL) || !wc_value_is(f, i, 1) || f->t[i].kind != WT_NUMBER)
		return;
	int r = i + 2;
	if (wc_warp_size_alias(f, r) || wc_kw(f, r, WK___AMDGCN_WAVEFRONT_SIZE)) {
		wc_find(f, i, "H13", "mask-overflow", "use ~0ull >> (64 - warpSize), or special-case 64",
			"1 << warpSize is undefined when warpSize is 64 (shift by the full width)");
		return;
	}
	/* a width of lanes (width, size), not a count of bits (segbits: a log2, at most 6 lanes' worth) */
	bool width = (wc_flags(f, r) & WN_WIDTHISH) && !word_in(f, r, "bits") && !word_in(f, r, "BITS") &&
	             !word_in(f, r, "Bits");
	if (width && wc_op(f, i - 1, WP_LPAREN) && wc_op(f, r + 1, WP_RPAREN) && wc_op(f, r + 2, WP_MINUS) &&
	    f->t[r + 3 < f->n ? r + 3 : r].kind == WT_NUMBER && wc_value_is(f, r + 3, 1) && !wc_derived(f, r))
		wc_find(f, i, "H13", "mask-overflow", "use ~0ull >> (64 - width), or special-case 64",
			"(1 << width) - 1 overflows when width is 64");
}

void wc_rule_masks(WcFile *f)
{
	if (!(f->tok_flags & WN_SYNC) && !(f->tok_ops & (uint64_t)1 << WP_SHL))
		return;  /* no call with a lane mask (wc_is_sync), no "1 <<" (check_shift) */
	Stale st = {0};
	for (int i = 0; i + 1 < f->n; i++) {
		if (wc_is_sync(f, i))
			check_sync(f, i, &st);
		else if (f->t[i].kind == WT_NUMBER)
			check_shift(f, i);
	}
	free(st.stale.from);
	free(st.stale.to);
	free(st.proj.from);
	free(st.proj.to);
}
