/* rule_arch.c: H8, a wrong mapping from architecture to warp width.
 *
 * pp.c reports the directive-level cases as it reads them (#define
 * WARP_SIZE 64 under #ifdef __HIP_PLATFORM_AMD__; a gfx9 chip list that
 * misses CDNA parts). This file adds what needs the code:
 *   - constexpr int kWarpSize = 64; under a guard for every AMD target
 *     (RDNA runs 32-lane wavefronts);
 *   - a per-target macro (__GFX9__, __gfx90a__) that host code depends
 *     on: tested by a directive inside a host function, or a macro defined
 *     under one and used in a host function or a launch configuration.
 *     The host pass never defines them, so the host always takes the
 *     other branch (usually 32);
 *   - static_assert(false, ...) in such a branch the host pass takes (the
 *     #else of #if defined(__GFX9__)): every HIP compile fails there;
 *   - a class named for a wave64 chip (scan_config_908, policy_gfx90a)
 *     that uses a name of the width 32 (ROCPRIM_WARP_SIZE_32 in a config
 *     for gfx908; 64 in a class for a wave32 chip keeps whole wavefronts
 *     and is not reported);
 *   - a count of warps that the AMD branch halves against its CUDA branch
 *     (return 4 under #if defined(PROJ_USE_HIP), return 8 in the #else):
 *     the block keeps CUDA's threads only on 64-lane wavefronts, and the
 *     RDNA chips (32 lanes) that compile the AMD value get half of them. */
#include "warpcheck/warpcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char fix_host[] =
	"query hipDeviceAttributeWarpSize on the host; keep per-target macros to device code";

/* kWarpSize = 64 (or 32) under conditions about AMD that some chip of the
 * other width certainly compiles (cond.c). */
static void check_code_width(WcFile *f, int i)
{
	uint16_t fl = wc_flags(f, i);
	if (!(fl & WN_WARPISH) || !wc_op(f, i + 1, WP_ASSIGN) || f->t[i + 2].kind != WT_NUMBER || f->t[i + 2].cuda_only)
		return;
	uint64_t v;
	if (!wc_value(f, i + 2, &v) || (v != 64 && v != 32) || (v == 32 && !(fl & (WN_WARP_SIZE | WN_WIDTHISH))))
		return;
	if (!wc_op(f, i + 3, WP_SEMI) && !wc_op(f, i + 3, WP_COMMA) && !wc_op(f, i + 3, WP_RBRACE))
		return;
	const WcRegion *r = wc_region_at(f, i);
	WcPasses all = wc_config_passes(f->cfg);
	if (r && (r->amd || (v == 64 && (fl & WN_WARP_SIZE) && r->def == all)))
		wc_width_passes(f, &f->t[i + 2], f->src.text + f->t[i].off, (int)f->t[i].len, v, r->def);
	else if (!r && v == 64 && (fl & WN_WARP_SIZE))
		wc_width_passes(f, &f->t[i + 2], f->src.text + f->t[i].off, (int)f->t[i].len, v, all);
}

static const char *name_text(const WcFile *f, uint32_t id, int *len)
{
	const WcName *nm = &f->names->v[id];
	*len = (int)nm->len;
	return f->names->chars + nm->off;
}

/* The #define a host use takes, where it is in an included header (the
 * header is where the fix goes): a finding there too, once per file for
 * each definition (the caller prints each header finding once per run). */
static void header_finding(WcFile *f, const WcName *nm, const WcFinding *use, int mlen, const char *macro)
{
	if (!nm->target_file || f->include_depth > 0 || strcmp(nm->target_file, f->src.name) == 0)
		return;
	for (int k = 0; k < f->nhfinds; k++)
		if (f->hpaths[k] == nm->target_file && f->hfinds[k].off == nm->target_off)
			return;
	if (f->nhfinds == f->hfinds_cap) {
		f->hfinds_cap = f->hfinds_cap ? 2 * f->hfinds_cap : 4;
		f->hfinds = base_realloc(f->hfinds, sizeof *f->hfinds * (size_t)f->hfinds_cap);
		f->hpaths = base_realloc(f->hpaths, sizeof *f->hpaths * (size_t)f->hfinds_cap);
	}
	WcFinding *fd = &f->hfinds[f->nhfinds];
	f->hpaths[f->nhfinds++] = nm->target_file;
	memset(fd, 0, sizeof *fd);
	fd->off = nm->target_off;
	fd->line = nm->target_line;
	fd->col = nm->target_col;
	fd->id = "H8";
	fd->name = "arch-width";
	fd->fix = "choose the width so that the host pass gets the device's too (a wave-size macro both passes "
	          "define, or the queried warp size), or keep the macro out of host code";
	const char *base = strrchr(f->src.name, '/');
	snprintf(fd->msg, sizeof fd->msg, "the host pass takes this branch (%.*s is not defined there), and host "
		"code uses the macro (%s:%d)", mlen, macro, base ? base + 1 : f->src.name, use->line);
}

/* A use of a macro that was defined under a per-target guard; *reported
 * says whether this macro was already reported in this scope. */
static void check_host_use(WcFile *f, int i, bool *reported)
{
	const WcName *nm = &f->names->v[f->t[i].id];
	if (nm->target_stamp != f->stamp || *reported)
		return;
	*reported = true;
	int mlen;
	const char *macro = name_text(f, nm->target_macro, &mlen);
	WcFinding *fd = wc_find(f, i, "H8", "arch-width", fix_host,
		"%.*s is chosen under %.*s, which only the device pass defines: host code always sees the other branch",
		(int)f->t[i].len, f->src.text + f->t[i].off, mlen, macro);
	if (fd)
		header_finding(f, nm, fd, mlen, macro);
}

/* Every such macro once per host function (its first use). */
static void check_host_function(WcFile *f, const WcFunc *fn)
{
	uint32_t done[16];
	int ndone = 0;
	for (int i = fn->open; i < fn->close; i++) {
		if (!wc_ident(f, i) || f->names->v[f->t[i].id].target_stamp != f->stamp)
			continue;
		bool reported = false;
		for (int k = 0; k < ndone; k++)
			reported = reported || done[k] == f->t[i].id;
		if (!reported && ndone < (int)TC_COUNT(done))
			done[ndone++] = f->t[i].id;
		check_host_use(f, i, &reported);
	}
}

/* <<<grid, block>>> is evaluated on the host, whatever function holds it. */
static void check_launches(WcFile *f)
{
	for (int i = 0; i < f->n; i++) {
		if (!wc_op(f, i, WP_LAUNCH_OPEN))
			continue;
		bool seen = false;
		for (int k = i + 1; k < f->n && k < i + 200 && !wc_op(f, k, WP_LAUNCH_CLOSE); k++)
			if (wc_ident(f, k))
				check_host_use(f, k, &seen);
	}
}

/* #if defined(__GFX9__) inside a host function body. */
static void check_host_directives(WcFile *f)
{
	int fn = 0;
	for (int i = 0; i < f->nall; i++) {
		const WcTok *t = &f->all[i];
		if (!t->pp || t->kind != WT_IDENT || !(f->names->v[t->id].flags & WN_TARGET))
			continue;
		while (fn < f->nfns && f->t[f->fns[fn].close].off < t->off)
			fn++;
		if (fn >= f->nfns || f->t[f->fns[fn].open].off > t->off || f->fns[fn].kind != WF_HOST)
			continue;
		wc_find_tok(f, t, "H8", "arch-width", fix_host,
			"%.*s is tested in host code, but only the device pass defines it",
			(int)t->len, f->src.text + t->off);
	}
}

/* constexpr int warp_size() { #ifdef USE_ROCM return 64; ... }: the
 * width a function returns, per region. */
static void check_return_width(WcFile *f, int i)
{
	uint64_t v;
	if (!wc_kw(f, i, WK_return) || f->t[i + 1].kind != WT_NUMBER || !wc_op(f, i + 2, WP_SEMI) ||
	    !wc_value(f, i + 1, &v) || (v != 32 && v != 64) || f->t[i + 1].cuda_only)
		return;
	int fn = wc_func_at(f, i);
	if (fn < 0 || f->fns[fn].name < 0)
		return;
	int nm = f->fns[fn].name;
	uint16_t fl = wc_flags(f, nm);
	if (!(fl & WN_WARP_SIZE) && !((fl & WN_WARPISH) && (fl & WN_WIDTHISH)))
		return;
	const WcRegion *r = wc_region_at(f, i);
	if (r && r->amd)
		wc_width_passes(f, &f->t[i + 1], f->src.text + f->t[nm].off, (int)f->t[nm].len, v, r->def);
}

/* A constructor of a class of the file whose parameter is named for the
 * warp size: DeviceConstants(Index_type warp_size, ...). */
typedef struct { uint32_t cls; int param, name; } WidthParam;

static bool names_class(const WcFile *f, uint32_t id)
{
	for (int i = 1; i < f->n; i++)
		if ((wc_kw(f, i - 1, WK_struct) || wc_kw(f, i - 1, WK_class)) && f->t[i].kind == WT_IDENT &&
		    f->t[i].id == id)
			return true;
	return false;
}

static int width_params(const WcFile *f, WidthParam *out, int max)
{
	int n = 0;
	for (int i = 1; i + 1 < f->n && n < max; i++) {
		if (!wc_ident(f, i) || !wc_op(f, i + 1, WP_LPAREN) || wc_op(f, i - 1, WP_DOT) ||
		    wc_op(f, i - 1, WP_ARROW) || f->t[i].id < WK__COUNT)
			continue;
		int close = wc_match(f, i + 1);
		if (close < 0)
			continue;
		int param = 0, depth = 0, ntok = 0;
		for (int k = i + 2; k <= close; k++) {
			if (k < close && (wc_is_open(f, k) || wc_op(f, k, WP_LT)))
				depth++;
			else if (k < close && (wc_is_close(f, k) || wc_op(f, k, WP_GT)))
				depth--;
			bool end = k == close || (depth == 0 && wc_op(f, k, WP_COMMA));
			if (!end) {
				ntok++;
				continue;
			}
			int nm = k - 1;
			if (ntok >= 2 && wc_ident(f, nm) && (wc_flags(f, nm) & WN_WARP_SIZE) &&
			    (wc_ident(f, nm - 1) || wc_op(f, nm - 1, WP_GT) || wc_op(f, nm - 1, WP_AMP)) &&
			    names_class(f, f->t[i].id)) {
				out[n].cls = f->t[i].id;
				out[n].param = param;
				out[n].name = nm;
				n++;
				break;
			}
			param++;
			ntok = 0;
		}
		i = close;
	}
	return n;
}

/* constexpr DeviceConstants device_constants(64, 1024, 64); under
 * #if defined(__HIP_PLATFORM_AMD__): the width given to such a parameter,
 * judged per chip as a #define of it would be. */
static void check_ctor_widths(WcFile *f)
{
	if (!(f->tok_flags & WN_WARP_SIZE))
		return;  /* no parameter named for the warp size (width_params) */
	WidthParam wp[8];
	int nwp = width_params(f, wp, 8);
	for (int i = 0; nwp && i + 2 < f->n; i++) {
		if (f->t[i].kind != WT_IDENT)
			continue;
		int w = -1;
		for (int k = 0; k < nwp; k++)
			if (wp[k].cls == f->t[i].id)
				w = k;
		if (w < 0)
			continue;
		int open = wc_ident(f, i + 1) ? i + 2 : i + 1;
		if (!(wc_op(f, open, WP_LPAREN) || wc_op(f, open, WP_LBRACE)))
			continue;
		int starts[16], ends[16];
		int na = wc_call_args(f, open, starts, ends, 16);
		if (na <= wp[w].param)
			continue;
		int a = starts[wp[w].param];
		uint64_t v;
		if (a + 1 != ends[wp[w].param] || f->t[a].kind != WT_NUMBER || !wc_value(f, a, &v) || (v != 32 && v != 64) ||
		    f->t[a].cuda_only)
			continue;
		char what[96];
		snprintf(what, sizeof what, "%.*s's %.*s", (int)f->t[i].len, f->src.text + f->t[i].off,
			(int)f->t[wp[w].name].len, f->src.text + f->t[wp[w].name].off);
		const WcRegion *r = wc_region_at(f, i);
		if (r && r->amd)
			wc_width_passes(f, &f->t[a], what, (int)strlen(what), v, r->def);
		else if (v == 64 && (!r || r->def == wc_config_passes(f->cfg)))
			wc_width_passes(f, &f->t[a], what, (int)strlen(what), v, wc_config_passes(f->cfg));
	}
}

static bool spelled(const WcFile *f, int i, const char *s)
{
	size_t n = strlen(s);
	return f->t[i].len == n && memcmp(f->src.text + f->t[i].off, s, n) == 0;
}

/* static_assert(false, "no 32 on AMD yet") under #if defined(__GFX8__) ||
 * defined(__GFX9__)'s #else: the host pass defines no per-target macro, so
 * it takes that branch (and some chips certainly do not: the branch is a
 * choice per target). */
static void check_host_pass_assert(WcFile *f, int i)
{
	if (!wc_op(f, i + 1, WP_LPAREN) || f->t[i].cuda_only)
		return;
	int a = i + 2;
	if (!(spelled(f, a, "false") || (f->t[a].kind == WT_NUMBER && wc_value_is(f, a, 0))) ||
	    !(wc_op(f, a + 1, WP_COMMA) || wc_op(f, a + 1, WP_RPAREN)))
		return;
	const WcRegion *r = wc_region_at(f, i);
	WcPasses dev = wc_config_passes(f->cfg) & ~WC_HOST_PASS;
	if (!r || r->target == UINT32_MAX || !(r->maybe & WC_HOST_PASS) || (r->maybe & dev) == dev)
		return;
	int mlen;
	const char *macro = name_text(f, r->target, &mlen);
	wc_find(f, i, "H8", "arch-width",
		"give the host pass a branch of its own (#if !defined(__HIP_DEVICE_COMPILE__)), or test the width "
		"only in device code",
		"static_assert(false) in a branch of a test of %.*s that the host pass takes: only device passes "
		"define it, so every HIP compile of this file fails here",
		mlen, macro);
}

/* The wavefront width of the chip a name ends with: scan_config_908,
 * config_gfx90a, policy_1030 (64 for gfx8 and gfx9, 32 for gfx10 to
 * gfx12); 0 when it names none. */
static int chip_suffix_width(const char *s, size_t n)
{
	size_t k = n;
	while (k > 0 && s[k - 1] != '_')
		k--;
	if (k == 0 || k == n)
		return 0;
	const char *c = s + k;
	size_t m = n - k;
	if (m > 3 && memcmp(c, "gfx", 3) == 0)
		c += 3, m -= 3;
	if (m == 3 && (c[0] == '8' || c[0] == '9') && c[1] >= '0' && c[1] <= '9' &&
	    ((c[2] >= '0' && c[2] <= '9') || (c[2] >= 'a' && c[2] <= 'f')))
		return 64;
	if (m == 4 && c[0] == '1' && c[1] >= '0' && c[1] <= '2' && c[2] >= '0' && c[2] <= '9' &&
	    ((c[3] >= '0' && c[3] <= '9') || (c[3] >= 'a' && c[3] <= 'f')))
		return 32;
	return 0;
}

/* A name that gives its own width: ROCPRIM_WARP_SIZE_32, HIPCUB_WARP_THREADS_64,
 * WAVEFRONT_SIZE_64 (WARP or WAVE in it, _32 or _64 at its end). */
static int width_name(const char *s, size_t n)
{
	if (n < 8 || s[n - 3] != '_')
		return 0;
	int v = (s[n - 2] - '0') * 10 + (s[n - 1] - '0');
	if (v != 32 && v != 64)
		return 0;
	for (size_t k = 0; k + 4 <= n - 3; k++)
		if (memcmp(s + k, "WARP", 4) == 0 || memcmp(s + k, "WAVE", 4) == 0)
			return v;
	return 0;
}

/* template<class V> struct scan_config_908 { ... ROCPRIM_WARP_SIZE_32 ... }:
 * a class for a wave64 chip that uses the name of the width 32. */
static void check_chip_classes(WcFile *f)
{
	for (int i = 0; i + 2 < f->n; i++) {
		if (!(wc_kw(f, i, WK_struct) || wc_kw(f, i, WK_class)) || !wc_ident(f, i + 1) || f->t[i + 1].cuda_only)
			continue;
		const char *nm = f->src.text + f->t[i + 1].off;
		int chip = chip_suffix_width(nm, f->t[i + 1].len);
		if (!chip)
			continue;
		/* the body: the first { before any ; (a declaration has none) */
		int open = -1;
		for (int k = i + 2; k < f->n && k < i + 64; k++) {
			if (wc_op(f, k, WP_SEMI) || wc_op(f, k, WP_LPAREN))
				break;
			if (wc_op(f, k, WP_LBRACE)) {
				open = k;
				break;
			}
		}
		int close = open >= 0 ? wc_match(f, open) : -1;
		if (close < 0)
			continue;
		for (int k = open + 1; k < close; k++) {
			if (!wc_ident(f, k) || f->t[k].cuda_only)
				continue;
			int v = width_name(f->src.text + f->t[k].off, f->t[k].len);
			/* 64 for a wave32 chip keeps whole wavefronts (a block size
			 * limited in 64s is one in 32s too): only the other way */
			if (v != 32 || chip != 64)
				continue;
			wc_find(f, k, "H8", "arch-width",
				"use the width of the chip the class is for (or the device's width query)",
				"%.*s, named for a %d-lane chip, uses %.*s", (int)f->t[i + 1].len, nm, chip,
				(int)f->t[k].len, f->src.text + f->t[k].off);
		}
		i = close;
	}
}

/* The name at i says it counts warps: nwarps, num_warps, kNumWarps,
 * WARPS_PER_BLOCK, get_nwarps_host (a plural "warps", no "size"). */
static bool warp_count_name(const WcFile *f, int i)
{
	if (!(wc_flags(f, i) & WN_WARPISH) || (wc_flags(f, i) & WN_WARP_SIZE))
		return false;
	const char *s = f->src.text + f->t[i].off;
	for (uint32_t k = 0; k + 5 <= f->t[i].len; k++)
		if ((s[k] | 32) == 'w' && (s[k + 1] | 32) == 'a' && (s[k + 2] | 32) == 'r' && (s[k + 3] | 32) == 'p' &&
		    (s[k + 4] | 32) == 's')
			return true;
	return false;
}

typedef struct WarpCount {
	uint32_t id;       /* the function or constant */
	int tok;           /* the number */
	uint64_t v;
	bool cuda;         /* in CUDA's branch (else under a condition about AMD) */
	bool device;       /* in a __device__ function: the host pass does not use it */
} WarpCount;

/* Some chip of 32 lanes may compile what region r holds, or the host pass
 * does (which serves every chip: a count it returns is used for RDNA too). */
static const char *wave32_chip(const WcRegion *r, bool device)
{
	if ((r->maybe & WC_HOST_PASS) && !device)
		return "RDNA (32 lanes; the host's count serves every chip)";
	for (int k = 0; k < wc_nchips; k++)
		if ((r->maybe >> (k + 1) & 1) && wc_chips[k].width == 32)
			return wc_chips[k].name;  /* gfx1030 (32 lanes) */
	return NULL;
}

static void add_count(WcFile *f, WarpCount **v, int *n, int *cap, uint32_t id, int k, bool device)
{
	uint64_t x;
	if (!wc_value(f, k, &x) || x == 0 || x > 64 || f->t[k].kind != WT_NUMBER)
		return;
	bool cuda = f->t[k].cuda_only;
	const WcRegion *r = wc_region_at(f, k);
	if (!cuda && !(r && r->amd))
		return;
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*v = base_realloc(*v, (size_t)*cap * sizeof **v);
	}
	(*v)[(*n)++] = (WarpCount){id, k, x, cuda, device};
}

/* A project width constant at i (config::warp_size, WARP_SIZE), not the
 * device's (warpSize or an alias, a library's per-target name). */
static bool own_width(const WcFile *f, int i)
{
	return (wc_flags(f, i) & WN_WARP_SIZE) && !wc_warp_size_alias(f, i) && !wc_op(f, i + 1, WP_LPAREN);
}

/* Some use of id is multiplied by a project's own width constant
 * (default_num_warps * config::warp_size): the threads follow that
 * constant, and a wrong one is its definition's finding, not the count's. */
static bool times_own_width(const WcFile *f, uint32_t id)
{
	for (int i = 0; i < f->n; i++) {
		if (f->t[i].kind != WT_IDENT || f->t[i].id != id)
			continue;
		int end = wc_op(f, i + 1, WP_LPAREN) ? wc_match(f, i + 1) : i;
		if (end >= 0 && wc_op(f, end + 1, WP_STAR)) {
			int k = end + 2;
			while (wc_ident(f, k) && wc_op(f, k + 1, WP_SCOPE))
				k += 2;
			if (own_width(f, k))
				return true;
		}
		if (wc_op(f, i - 1, WP_STAR) && own_width(f, i - 2))
			return true;
	}
	return false;
}

static void check_warp_counts(WcFile *f)
{
	WarpCount *v = NULL;
	int n = 0, cap = 0;
	for (int q = 0; q < f->nfns; q++) {
		const WcFunc *fn = &f->fns[q];
		if (fn->name < 0 || !warp_count_name(f, fn->name))
			continue;
		/* return 8; return cc_ok(cc) ? 8 : 4; */
		for (int k = fn->open + 1; k < fn->close; k++)
			if (f->t[k].kind == WT_NUMBER && (wc_kw(f, k - 1, WK_return) || wc_op(f, k - 1, WP_QUESTION) ||
			                                  wc_op(f, k - 1, WP_COLON)) &&
			    (wc_op(f, k + 1, WP_SEMI) || wc_op(f, k + 1, WP_COLON)))
				add_count(f, &v, &n, &cap, f->t[fn->name].id, k, fn->kind == WF_DEVICE || fn->kind == WF_KERNEL);
	}
	/* constexpr int nwarps = 4; */
	for (int i = 1; i + 3 < f->n; i++)
		if (wc_ident(f, i) && (wc_flags(f, i - 1) & WN_TYPE) && wc_op(f, i + 1, WP_ASSIGN) &&
		    f->t[i + 2].kind == WT_NUMBER && wc_op(f, i + 3, WP_SEMI) && warp_count_name(f, i))
			add_count(f, &v, &n, &cap, f->t[i].id, i + 2, false);
	for (int a = 0; a < n; a++) {
		if (v[a].cuda)
			continue;
		int c = 0;
		while (c < n && !(v[c].cuda && v[c].id == v[a].id && v[c].v == 2 * v[a].v))
			c++;
		if (c == n || times_own_width(f, v[a].id))
			continue;
		const char *chip = wave32_chip(wc_region_at(f, v[a].tok), v[a].device);
		if (!chip)
			continue;
		int len;
		const char *nm = name_text(f, v[a].id, &len);
		wc_find(f, v[a].tok, "H8", "warp-count", "count the warps from the width: THREADS / warpSize (on the host, "
			"from the device's warp size)",
			"%.*s gives %llu warps on AMD, half of CUDA's %llu: the same threads only with 64 lanes; %s%s gets "
			"half the block", len, nm, (unsigned long long)v[a].v, (unsigned long long)v[c].v, chip,
			chip[0] == 'R' ? "" : " (32 lanes)");
	}
	free(v);
}

void wc_rule_arch(WcFile *f)
{
	check_warp_counts(f);
	check_chip_classes(f);
	check_ctor_widths(f);
	/* One pass for three checks: each reports at a token of its own (the
	 * static_assert, the number after a return, the number after a "="),
	 * so the findings are the same as from a pass each. */
	for (int i = 0; i + 2 < f->n; i++) {
		const WcTok *t = &f->t[i];
		if (t->kind != WT_IDENT)
			continue;
		if (t->id == WK_static_assert && i + 3 < f->n)
			check_host_pass_assert(f, i);
		if (t->id == WK_return)
			check_return_width(f, i);
		if (i + 3 < f->n && f->t[i + 2].kind == WT_NUMBER && f->t[i + 1].op == WP_ASSIGN)
			check_code_width(f, i);
	}
	for (int k = 0; k < f->nfns; k++)
		if (f->fns[k].kind == WF_HOST)
			check_host_function(f, &f->fns[k]);
	check_launches(f);
	check_host_directives(f);
}
