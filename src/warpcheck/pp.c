/* pp.c: just enough of the preprocessor to be precise.
 *
 * Code that only NVIDIA compilers see (under #ifndef __HIP_PLATFORM_AMD__,
 * #if !defined(USE_ROCM), the #else of #ifdef GGML_USE_HIP, ...) cannot hurt
 * a wavefront, so its tokens are marked cuda_only and rules stay quiet.
 * __CUDA_ARCH__ and __CUDACC__ are not such guards: HIP ports define them.
 * Object-like #defines with a number become constants (WARP_SIZE 32), and
 * function-like ones record which parameters they use, so a shim that drops
 * the mask of a _sync intrinsic is recognised.
 *
 * It also follows how a warp width is chosen (H8): a width of 64 under a
 * guard that selects every AMD target alike (RDNA is 32), a list of gfx9
 * chips that misses CDNA parts, and macros defined under a per-target
 * macro (__GFX9__), which the host pass never sees. */
#include "warpcheck/warpcheck.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NO_NAME UINT32_MAX
#define MAX_DEPTH 256

typedef enum { COND_OTHER, COND_CUDA, COND_AMD } CondKind;

typedef struct Frame {
	bool cur_cuda;   /* the branch being read is CUDA-only */
	bool rest_cuda;  /* every later #elif/#else branch is CUDA-only */
	bool cur_amd;    /* the branch being read is for every AMD target alike */
	bool rest_amd;   /* so is every later #elif/#else branch */
	uint32_t target; /* a per-target macro in this #if's conditions, or NO_NAME */
	bool wave_test;  /* a condition tests the wavefront size (__AMDGCN_WAVEFRONT_SIZE == 64) */
	int tok;         /* the #if, for "unterminated #if" */
	/* A chip list (#if defined(__gfx90a__) || ...), for H8. */
	int arch_tok;        /* first chip macro of the list, -1 when none */
	int arch_from, arch_to; /* its condition, for the fix */
	bool arch_ifdef, arch_pure, arch_else, arch_done;
	unsigned arch_set;   /* CDNA chips the list names (bits of cdna[]) */
} Frame;

typedef struct PP {
	WcFile *f;
	Frame st[MAX_DEPTH];
	int depth;
	uint32_t included[32];  /* include names already read (hashes): read each once */
	int nincluded;
} PP;

/* Every wave64 CDNA chip; a list that picks 64 for some must name all. */
static const char *const cdna[] = {"gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"};

static bool all_op(const WcFile *f, int i, WcPunct op)
{
	return f->all[i].kind == WT_PUNCT && f->all[i].op == op;
}

static bool all_kw(const WcFile *f, int i, WcKnown k)
{
	return f->all[i].kind == WT_IDENT && f->all[i].id == (uint32_t)k;
}

static uint16_t all_flags(const WcFile *f, int i)
{
	return f->all[i].kind == WT_IDENT ? f->names->v[f->all[i].id].flags : 0;
}

/* Classifies the condition tokens [from, to) of #if/#elif. */
static CondKind classify(const WcFile *f, int from, int to)
{
	bool neg_amd = false, pos_amd = false, has_or = false, has_and = false;
	for (int i = from; i < to; i++) {
		has_or = has_or || all_op(f, i, WP_OROR);
		has_and = has_and || all_op(f, i, WP_ANDAND);
		if (!(all_flags(f, i) & WN_AMD))
			continue;
		/* Walk back over "defined" and "(" to find a "!". */
		int j = i - 1;
		while (j >= from && (all_op(f, j, WP_LPAREN) || all_kw(f, j, WK_defined)))
			j--;
		if (j >= from && all_op(f, j, WP_NOT))
			neg_amd = true;
		else
			pos_amd = true;
	}
	if (neg_amd && !has_or && !pos_amd)
		return COND_CUDA;
	if (pos_amd && !neg_amd && !has_and)
		return COND_AMD;
	return COND_OTHER;
}

/* The condition [from, to) tests the wavefront size itself, so its
 * branches are per target even under an all-AMD guard. */
static bool cond_wave_test(const WcFile *f, int from, int to)
{
	for (int i = from; i < to; i++)
		if (all_kw(f, i, WK___AMDGCN_WAVEFRONT_SIZE) || (all_flags(f, i) & WN_WARP_SIZE))
			return true;
	return false;
}

/* The per-target macro a condition tests, directly (__gfx90a__) or
 * through a macro whose body tests one (#if IS_CDNA), or NO_NAME. */
static uint32_t cond_target(const WcFile *f, int from, int to)
{
	for (int i = from; i < to; i++) {
		if (all_flags(f, i) & WN_TARGET)
			return f->all[i].id;
		if (f->all[i].kind == WT_IDENT && f->names->v[f->all[i].id].tmacro_stamp == f->stamp)
			return f->names->v[f->all[i].id].tmacro_target;
	}
	return NO_NAME;
}

/* The chip a lower-case per-target macro names: "__gfx90a__" -> "gfx90a". */
static bool chip_name(const WcFile *f, int i, char *out, size_t cap)
{
	const WcTok *t = &f->all[i];
	const char *s = f->src.text + t->off;
	if (!(all_flags(f, i) & WN_TARGET) || s[2] != 'g' || t->len - 4 >= cap)
		return false;
	memcpy(out, s + 2, t->len - 4);
	out[t->len - 4] = '\0';
	return true;
}

/* Records a chip list in the frame: the chips it names and whether the
 * condition is only "defined(chip) || defined(chip) ...". */
static void note_arch_list(const WcFile *f, Frame *fr, int from, int to, bool ifdef)
{
	fr->arch_tok = -1;
	bool gfx9 = false, pure = true;
	fr->arch_set = 0;
	for (int i = from; i < to; i++) {
		char chip[32];
		if (!chip_name(f, i, chip, sizeof chip)) {
			pure = pure && (all_op(f, i, WP_OROR) || all_op(f, i, WP_LPAREN) ||
			                all_op(f, i, WP_RPAREN) || all_kw(f, i, WK_defined));
			continue;
		}
		if (fr->arch_tok < 0)
			fr->arch_tok = i;
		gfx9 = gfx9 || strncmp(chip, "gfx9", 4) == 0;
		for (size_t k = 0; k < TC_COUNT(cdna); k++)
			if (strcmp(chip, cdna[k]) == 0)
				fr->arch_set |= 1u << k;
	}
	if (!gfx9)
		fr->arch_tok = -1;
	fr->arch_from = from;
	fr->arch_to = to;
	fr->arch_ifdef = ifdef;
	fr->arch_pure = pure;
	fr->arch_else = false;
	fr->arch_done = false;
}

static void push_frame(PP *pp, int tok, int from, int to, bool ifdef, CondKind k)
{
	WcFile *f = pp->f;
	if (pp->depth < MAX_DEPTH) {
		Frame *fr = &pp->st[pp->depth];
		memset(fr, 0, sizeof *fr);
		fr->cur_cuda = k == COND_CUDA;
		fr->rest_cuda = k == COND_AMD;
		fr->cur_amd = k == COND_AMD;
		fr->rest_amd = k == COND_CUDA;
		fr->target = cond_target(f, from, to);
		fr->wave_test = cond_wave_test(f, from, to);
		fr->tok = tok;
		note_arch_list(f, fr, from, to, ifdef);
	}
	pp->depth++;
}

static bool in_cuda(const PP *pp)
{
	for (int k = 0; k < imin(pp->depth, MAX_DEPTH); k++)
		if (pp->st[k].cur_cuda)
			return true;
	return false;
}

/* Under a guard for every AMD target alike, and no per-target guard. */
static bool in_amd_wide(const PP *pp)
{
	bool amd = false;
	for (int k = 0; k < imin(pp->depth, MAX_DEPTH); k++) {
		if (pp->st[k].target != NO_NAME || pp->st[k].wave_test)
			return false;
		amd = amd || pp->st[k].cur_amd;
	}
	return amd;
}

static uint32_t in_target(const PP *pp)
{
	for (int k = imin(pp->depth, MAX_DEPTH) - 1; k >= 0; k--)
		if (pp->st[k].target != NO_NAME)
			return pp->st[k].target;
	return NO_NAME;
}

void wc_set_const(WcFile *f, uint32_t id, uint64_t v, bool conflict)
{
	WcName *nm = &f->names->v[id];
	if (nm->const_stamp == f->stamp) {
		if (conflict || nm->const_value != v)
			nm->const_conflict = true;
		return;
	}
	nm->const_stamp = f->stamp;
	nm->const_value = v;
	nm->const_conflict = conflict;
}

static void all_edit(WcFinding *fd, const WcFile *f, int from, int to, const char *repl);

/* The argument of the call whose "(" is at all[open] that starts at
 * all[from]: its end (exclusive), at a top-level "," or the ")". */
static int all_arg_end(const WcFile *f, int from, int eod)
{
	int depth = 0;
	for (int i = from; i < eod; i++) {
		if (all_op(f, i, WP_LPAREN) || all_op(f, i, WP_LBRACK))
			depth++;
		else if ((all_op(f, i, WP_RPAREN) || all_op(f, i, WP_RBRACK)) && --depth < 0)
			return i;
		else if (depth == 0 && all_op(f, i, WP_COMMA))
			return i;
	}
	return eod;
}

static bool all_value(const WcFile *f, int i, uint64_t *v)
{
	const WcTok *t = &f->all[i];
	if (t->kind == WT_NUMBER && t->num_ok) {
		*v = t->num;
		return true;
	}
	const WcName *nm = t->kind == WT_IDENT ? &f->names->v[t->id] : NULL;
	if (!nm || nm->const_stamp != f->stamp || nm->const_conflict)
		return false;
	*v = nm->const_value;
	return true;
}

/* all[s, e) is a 32-bit all-ones mask: 0xffffffff, FULL_MASK, ~0u,
 * uint32_t(-1), unsigned(-1). */
static bool all_mask32(const WcFile *f, int s, int e)
{
	uint64_t v;
	if (e == s + 1)
		return all_value(f, s, &v) && v == 0xffffffffu;
	if (e == s + 2 && all_op(f, s, WP_TILDE) && f->all[s + 1].kind == WT_NUMBER && all_value(f, s + 1, &v) &&
	    v == 0 && !f->all[s + 1].num_wide)
		return memchr(f->src.text + f->all[s + 1].off, 'u', f->all[s + 1].len) ||
		       memchr(f->src.text + f->all[s + 1].off, 'U', f->all[s + 1].len);
	return e == s + 5 && (all_kw(f, s, WK_uint32_t) || all_kw(f, s, WK_unsigned)) && all_op(f, s + 1, WP_LPAREN) &&
	       all_op(f, s + 2, WP_MINUS) && all_value(f, s + 3, &v) && v == 1 && all_op(f, s + 4, WP_RPAREN);
}

/* The shuffles and _sync calls in a macro body [from, eod): H2 for a
 * 32-bit full mask (each expansion repeats it); true when a shuffle there
 * has no width, so a call of the macro is one. */
static bool macro_body_calls(WcFile *f, int from, int eod)
{
	bool shuffle = false;
	for (int i = from; i + 1 < eod; i++) {
		uint16_t fl = all_flags(f, i);
		if (!(fl & (WN_SHUFFLE | WN_SYNC)) || !all_op(f, i + 1, WP_LPAREN))
			continue;
		int nargs = 0, s = i + 2, first_end = -1;
		for (int e; s < eod; s = e + 1) {
			e = all_arg_end(f, s, eod);
			if (e > s || !all_op(f, e, WP_RPAREN))
				nargs++;
			if (first_end < 0)
				first_end = e;
			if (e >= eod || all_op(f, e, WP_RPAREN))
				break;
		}
		if ((fl & WN_SHUFFLE) && nargs == ((fl & WN_SYNC) ? 3 : 2))
			shuffle = true;
		if ((fl & WN_SYNC) && first_end > i + 2 && all_mask32(f, i + 2, first_end)) {
			WcFinding *fd = wc_find_tok(f, &f->all[i + 2], "H2", "lane-mask",
				"use a 64-bit mask (~0ull) or the mask-less HIP intrinsic",
				"32-bit full mask in %.*s leaves lanes 32..63 of a 64-lane wavefront out (in a macro: every "
				"expansion)", (int)f->all[i].len, f->src.text + f->all[i].off);
			if (first_end == i + 3 && f->all[i + 2].kind == WT_NUMBER)
				all_edit(fd, f, i + 2, i + 3, "~0ull");
		}
	}
	return shuffle;
}

/* all[from, to) names the device's width: warpSize, an alias of it, or a
 * macro computed from it. */
static bool uses_width(const WcFile *f, int from, int to)
{
	for (int i = from; i < to; i++) {
		if (f->all[i].kind != WT_IDENT)
			continue;
		const WcName *nm = &f->names->v[f->all[i].id];
		if (f->all[i].id == WK_warpSize || nm->wsize_stamp == f->stamp || nm->wexpr_stamp == f->stamp)
			return true;
	}
	return false;
}

/* #define NAME(params) body: which params does the body use? */
static void add_macro(WcFile *f, int name, int open, int eod)
{
	uint32_t params[32];
	int np = 0, i = open + 1;
	for (; i < eod && !all_op(f, i, WP_RPAREN); i++)
		if (f->all[i].kind == WT_IDENT && np < 32)
			params[np++] = f->all[i].id;
	uint32_t used = 0;
	for (int j = i + 1; j < eod; j++) {
		if (f->all[j].kind != WT_IDENT)
			continue;
		for (int p = 0; p < np; p++)
			if (params[p] == f->all[j].id)
				used |= 1u << p;
	}
	WcName *nm = &f->names->v[f->all[name].id];
	nm->macro_stamp = f->stamp;
	nm->macro_nparams = (uint8_t)np;
	nm->macro_used = used;
	nm->macro_shuffle = i < eod && macro_body_calls(f, i + 1, eod);
	nm->macro_wsize = i < eod && uses_width(f, i + 1, eod);
}

/* Marks a finding made at a directive token with an edit of all[from, to). */
static void all_edit(WcFinding *fd, const WcFile *f, int from, int to, const char *repl)
{
	if (!fd || to <= from)
		return;
	fd->has_edit = true;
	fd->eoff = f->all[from].off;
	fd->elen = f->all[to - 1].off + f->all[to - 1].len - fd->eoff;
	snprintf(fd->repl, sizeof fd->repl, "%s", repl);
}

/* H8: a chip list that picks 64 (or 32 in its #else) and misses CDNA chips. */
static void check_arch_list(PP *pp, uint64_t v)
{
	WcFile *f = pp->f;
	if (pp->depth == 0 || pp->depth > MAX_DEPTH)
		return;
	Frame *fr = &pp->st[pp->depth - 1];
	unsigned all = (1u << TC_COUNT(cdna)) - 1;
	if (fr->arch_tok < 0 || fr->arch_done || fr->arch_set == all || v != (fr->arch_else ? 32u : 64u))
		return;
	fr->arch_done = true;
	char missing[80] = "";
	for (size_t k = 0; k < TC_COUNT(cdna); k++)
		if (!(fr->arch_set & (1u << k)) && strlen(missing) + 10 < sizeof missing)
			snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s",
				missing[0] ? ", " : "", cdna[k]);
	WcFinding *fd = wc_find_tok(f, &f->all[fr->arch_tok], "H8", "arch-width",
		"test __GFX9__ (every wave64 CDNA chip) in the device pass",
		"this chip list picks the warp width but misses %s, which are wave64 too", missing);
	if (fr->arch_pure)
		all_edit(fd, f, fr->arch_from, fr->arch_to, fr->arch_ifdef ? "__GFX9__" : "defined(__GFX9__)");
}

/* A warp width given a value: #define WARP_SIZE 64. */
static void width_define(PP *pp, int name, int value)
{
	WcFile *f = pp->f;
	uint64_t v = f->all[value].num;
	if (!(all_flags(f, name) & WN_WARPISH) || (v != 32 && v != 64))
		return;
	if (v == 64 && in_amd_wide(pp))
		wc_find_tok(f, &f->all[value], "H8", "arch-width",
			"pick 64 only under __GFX9__ (device pass); on the host, query hipDeviceAttributeWarpSize",
			"%.*s is 64 for every AMD target, but RDNA (gfx10+) runs 32-lane wavefronts",
			(int)f->all[name].len, f->src.text + f->all[name].off);
	check_arch_list(pp, v);
}

static void define(PP *pp, int i, int eod)
{
	WcFile *f = pp->f;
	if (i >= eod || f->all[i].kind != WT_IDENT)
		return;
	const WcTok *nt = &f->all[i];
	uint32_t target = in_target(pp);
	if (target != NO_NAME) {
		f->names->v[nt->id].target_stamp = f->stamp;
		f->names->v[nt->id].target_macro = target;
	}
	uint32_t tested = cond_target(f, i + 1, eod);
	if (tested != NO_NAME) {
		f->names->v[nt->id].tmacro_stamp = f->stamp;
		f->names->v[nt->id].tmacro_target = tested;
	}
	/* Function-like only when "(" follows the name with no space. */
	if (i + 1 < eod && all_op(f, i + 1, WP_LPAREN) && f->all[i + 1].off == nt->off + nt->len) {
		add_macro(f, i, i + 1, eod);
		return;
	}
	int v = i + 1;
	while (v < eod && all_op(f, v, WP_LPAREN))
		v++;
	if (v < eod && f->all[v].kind == WT_IDENT && (f->all[v].id == WK_warpSize ||
	                                              f->names->v[f->all[v].id].wsize_stamp == f->stamp)) {
		int end = v + 1;
		while (end < eod && all_op(f, end, WP_RPAREN))
			end++;
		if (end == eod) {
			f->names->v[nt->id].wsize_stamp = f->stamp;
			return;
		}
	}
	if (uses_width(f, i + 1, eod)) {
		f->names->v[nt->id].wexpr_stamp = f->stamp;
		return;
	}
	if (v < eod && f->all[v].kind == WT_NUMBER && f->all[v].num_ok) {
		wc_set_const(f, nt->id, f->all[v].num, false);
		width_define(pp, i, v);
	}
}

/* #include "x.h" from the same tree: its #defines (shims, WARP_SIZE) count
 * as this file's, and what its functions do (a warp_reduce_sum that keeps
 * to 32-lane groups) is known to the calls here. Errors and findings in it
 * are not this file's to report. */
static void include_defs(WcFile *f, int tok)
{
	const WcTok *t = &f->all[tok];
	if (f->include_depth >= 8 || t->len < 3 || f->src.text[t->off] != '"')
		return;
	const char *slash = strrchr(f->src.name, '/');
	Buf path = {0};
	if (slash)
		buf_putn(&path, f->src.name, (size_t)(slash - f->src.name) + 1);
	buf_putn(&path, f->src.text + t->off + 1, t->len - 2);
	/* Only regular files: a device or FIFO would never end. */
	struct stat st;
	size_t len = 0;
	char *text = NULL;
	if (f->src.text[t->off + 1] != '/' && stat(buf_str(&path), &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size < (1 << 24))
		text = file_read(buf_str(&path), &len);
	if (text && !memchr(text, '\0', len)) {
		Diag quiet = {0};
		WcFile sub = {.src = {.name = buf_str(&path), .text = text, .len = len}, .diag = &quiet,
		              .names = f->names, .stamp = f->stamp, .include_depth = f->include_depth + 1};
		wc_lex(&sub);
		wc_preprocess(&sub);
		wc_functions(&sub);
		wc_header_kinds(&sub);
		free(sub.fns);
		free(sub.all);
		free(sub.t);
		free(sub.sup);
		free(sub.finds);
		buf_free(&quiet.text);
	}
	free(text);
	buf_free(&path);
}

/* A header's #defines are the same each time: read it once per file. */
static bool first_include(PP *pp, int tok)
{
	const WcTok *t = &pp->f->all[tok];
	uint32_t h = (uint32_t)hash_fnv1a(pp->f->src.text + t->off, t->len, HASH_SEED);
	for (int i = 0; i < pp->nincluded; i++)
		if (pp->included[i] == h)
			return false;
	if (pp->nincluded < (int)TC_COUNT(pp->included))
		pp->included[pp->nincluded++] = h;
	return true;
}

static int find_eod(const WcFile *f, int i)
{
	while (i < f->nall && f->all[i].kind != WT_EOD)
		i++;
	return i;
}

static void begin_if(PP *pp, int i, int d, int eod)
{
	WcFile *f = pp->f;
	CondKind k;
	bool ifdef = all_kw(f, d, WK_ifdef);
	if (ifdef)
		k = d + 1 < eod && (all_flags(f, d + 1) & WN_AMD) ? COND_AMD : COND_OTHER;
	else if (all_kw(f, d, WK_ifndef))
		k = d + 1 < eod && (all_flags(f, d + 1) & WN_AMD) ? COND_CUDA : COND_OTHER;
	else
		k = classify(f, d + 1, eod);
	push_frame(pp, i, d + 1, eod, ifdef, k);
}

static void next_branch(PP *pp, int d, int eod)
{
	WcFile *f = pp->f;
	Frame *fr = &pp->st[imin(pp->depth, MAX_DEPTH) - 1];
	if (all_kw(f, d, WK_else)) {
		fr->cur_cuda = fr->rest_cuda;
		fr->cur_amd = fr->rest_amd;
		fr->arch_else = true;
		return;
	}
	CondKind k = classify(f, d + 1, eod);
	fr->cur_cuda = fr->rest_cuda || k == COND_CUDA;
	fr->cur_amd = !fr->rest_cuda && (fr->rest_amd || k == COND_AMD);
	fr->rest_cuda = fr->rest_cuda || k == COND_AMD;
	uint32_t t = cond_target(f, d + 1, eod);
	if (t != NO_NAME)
		fr->target = t;
	fr->wave_test = fr->wave_test || cond_wave_test(f, d + 1, eod);
	note_arch_list(f, fr, d + 1, eod, false);
}

/* Handles the directive whose '#' is at i; returns the index of its EOD. */
static int directive(PP *pp, int i, bool cuda)
{
	WcFile *f = pp->f;
	int eod = find_eod(f, i);
	int d = i + 1;
	if (d >= eod)
		return eod;
	if (all_kw(f, d, WK_if) || all_kw(f, d, WK_ifdef) || all_kw(f, d, WK_ifndef)) {
		begin_if(pp, i, d, eod);
	} else if (all_kw(f, d, WK_elif) || all_kw(f, d, WK_else) || all_kw(f, d, WK_endif)) {
		if (pp->depth == 0) {
			diag_at(f->diag, DIAG_ERROR, &f->src, f->all[i].off, "#%.*s without #if",
				(int)f->all[d].len, f->src.text + f->all[d].off);
			f->errors++;
		} else if (all_kw(f, d, WK_endif)) {
			pp->depth--;
		} else if (pp->depth <= MAX_DEPTH) {
			next_branch(pp, d, eod);
		}
	} else if (all_kw(f, d, WK_define) && !cuda) {
		define(pp, d + 1, eod);
	} else if (all_kw(f, d, WK_include) && !cuda && d + 1 < eod && f->all[d + 1].kind == WT_STRING &&
	           first_include(pp, d + 1)) {
		include_defs(f, d + 1);
	}
	return eod;
}

static bool assign_op(WcPunct op)
{
	switch (op) {
	case WP_PLUS_EQ: case WP_MINUS_EQ: case WP_STAR_EQ: case WP_SLASH_EQ: case WP_PERCENT_EQ:
	case WP_AMP_EQ: case WP_PIPE_EQ: case WP_CARET_EQ: case WP_SHL_EQ: case WP_SHR_EQ:
	case WP_INC: case WP_DEC:
		return true;
	default:
		return false;
	}
}

/* The value "name = v" gives at i (the name): a literal or a #define'd
 * constant, ending the declaration (; , ) or, after a type word, the ">"
 * of a template's parameter list: template <int width = WARP_SIZE>. */
static bool const_init(const WcFile *f, int i, uint64_t *v)
{
	int r = i + 2, after = i + 3;
	if (after >= f->n || !(f->t[r].kind == WT_NUMBER || f->t[r].kind == WT_IDENT) || !wc_value(f, r, v))
		return false;
	if (wc_op(f, after, WP_SEMI) || wc_op(f, after, WP_COMMA) || wc_op(f, after, WP_RPAREN))
		return true;
	return wc_op(f, after, WP_GT) && (wc_flags(f, i - 1) & WN_TYPE);
}

/* Constants from code: "T name = 32;" Any other write makes them unknown. */
static void code_consts(WcFile *f)
{
	for (int i = 0; i + 1 < f->n; i++) {
		const WcTok *t = &f->t[i];
		if (t->kind != WT_IDENT)
			continue;
		bool pre = wc_op(f, i - 1, WP_INC) || wc_op(f, i - 1, WP_DEC);
		if (wc_op(f, i + 1, WP_ASSIGN)) {
			uint64_t v = 0;
			bool lit = const_init(f, i, &v);
			wc_set_const(f, t->id, v, !lit);
		} else if (pre || (f->t[i + 1].kind == WT_PUNCT && assign_op(f->t[i + 1].op))) {
			wc_set_const(f, t->id, 0, true);
		}
	}
}

/* A directive starts at a '#' that opens a preprocessor line. */
static bool directive_start(const WcFile *f, int i)
{
	return all_op(f, i, WP_HASH) && (i == 0 || f->all[i - 1].kind == WT_EOD);
}

/* Code tokens [from, to) lie in the current region. Most code is in no
 * CUDA-only or all-AMD region, and the lexer left the flags clear. */
static void mark_region(WcFile *f, int from, int to, bool cuda, bool amd_wide)
{
	if (!cuda && !amd_wide)
		return;
	for (int k = from; k < to && k < f->n; k++) {
		f->t[k].cuda_only = cuda;
		f->t[k].amd_wide = amd_wide;
	}
}

void wc_preprocess(WcFile *f)
{
	PP *pp = xmalloc(sizeof *pp);
	pp->f = f;
	pp->depth = 0;
	pp->nincluded = 0;
	bool cuda = false, amd_wide = false;
	int code = 0;  /* code tokens before the next directive */
	for (int i = 0; i < f->nall; i++) {
		if (!directive_start(f, i)) {
			f->all[i].cuda_only = cuda;
			continue;
		}
		int at = (int)f->all[i].num;
		mark_region(f, code, at, cuda, amd_wide);
		code = at;
		int eod = directive(pp, i, cuda);
		for (int j = i; j <= eod && j < f->nall; j++)
			f->all[j].cuda_only = cuda;
		i = eod;
		cuda = in_cuda(pp);  /* the region changes only at directives */
		amd_wide = in_amd_wide(pp);
	}
	mark_region(f, code, f->n, cuda, amd_wide);
	for (int k = pp->depth - 1; k >= 0; k--) {
		if (k < MAX_DEPTH) {
			diag_at(f->diag, DIAG_ERROR, &f->src, f->all[pp->st[k].tok].off, "unterminated #if (no matching #endif)");
			f->errors++;
		}
	}
	free(pp);
	code_consts(f);
}
