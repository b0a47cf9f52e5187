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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NO_NAME UINT32_MAX

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
	/* The passes of a HIP build (cond.c): where the branch being read is
	 * certainly (def) or possibly (maybe) compiled, and where an earlier
	 * branch certainly or possibly was. */
	WcPasses def, maybe, done_def, done_maybe;
	bool amd;            /* a condition names AMD, a chip or the wave size */
	bool feature;        /* a test of an AMD feature inside an AMD branch: every branch is AMD code */
	/* What the frames below this one (the #ifs around it) add up to, set
	 * when it is pushed: only the innermost frame changes (#elif, #else),
	 * so each question about the whole stack takes constant time, not a
	 * walk of it per directive (100000 nested #ifs took 43 s). */
	WcPasses below_def, below_maybe; /* the passes all of them compile */
	bool below_amd;        /* one's condition is about AMD (amd) */
	bool below_cuda;       /* one's branch is CUDA-only (cur_cuda) */
	bool below_cur_amd;    /* one's branch is for every AMD target (cur_amd) */
	bool below_per_target; /* one names a target or tests the wave size */
	uint32_t below_target; /* the innermost one's target, or NO_NAME */
	uint32_t below_target_or_wave; /* the same, counting a wave-size test */
	int below_arch;        /* the innermost one with a chip list, or -1 */
} Frame;

typedef struct PP {
	WcFile *f;
	Frame *st;              /* the open #if frames, grown as needed: no depth limit */
	int depth, cap;
	WcPasses all;           /* every pass of the build */
} PP;

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
	bool pure = true;
	for (int i = from; i < to; i++) {
		char chip[32];
		if (!chip_name(f, i, chip, sizeof chip)) {
			pure = pure && (all_op(f, i, WP_OROR) || all_op(f, i, WP_LPAREN) ||
			                all_op(f, i, WP_RPAREN) || all_kw(f, i, WK_defined));
			continue;
		}
		if (fr->arch_tok < 0)
			fr->arch_tok = i;
	}
	fr->arch_from = from;
	fr->arch_to = to;
	fr->arch_ifdef = ifdef;
	fr->arch_pure = pure;
	fr->arch_else = false;
	fr->arch_done = false;
}

static bool same_ci(const char *s, const char *upper, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if ((s[k] >= 'a' && s[k] <= 'z' ? s[k] - 32 : s[k]) != upper[k])
			return false;
	return true;
}

/* The AMD names of the condition [from, to) are features or versions
 * (AMD_MFMA_AVAILABLE, ROCM_VERSION), not the platform: the AMD word is
 * not the name's last (GGML_USE_HIP, USE_ROCM, __HIPCC__) and the name
 * does not say PLATFORM or HCC (__HIP_PLATFORM_AMD__ is not defined for
 * HIP on NVIDIA, so its #else there is NVIDIA's code). */
static bool cond_amd_feature(const WcFile *f, int from, int to)
{
	bool any = false;
	for (int i = from; i < to; i++) {
		if (!(all_flags(f, i) & WN_AMD))
			continue;
		const char *s = f->src.text + f->all[i].off;
		size_t n = f->all[i].len;
		while (n && s[n - 1] == '_')
			n--;
		for (size_t a = 0; a + 8 <= n; a++)
			if (same_ci(s + a, "PLATFORM", 8))
				return false;
		static const char *const last[] = {"HIP", "AMD", "HCC", "ROCM", "HIPCC", "AMDGPU"};
		for (size_t k = 0; k < TC_COUNT(last); k++) {
			size_t m = strlen(last[k]);
			if (n >= m && same_ci(s + n - m, last[k], m))
				return false;
		}
		any = true;
	}
	return any;
}

/* Inside a branch for AMD, of the frames below depth. */
static bool in_amd_branch(const PP *pp, int depth)
{
	if (depth <= 0)
		return false;
	/* Only the innermost frame changes, so what frame depth-1 recorded
	 * of the frames below it when pushed still holds. */
	const Frame *fr = &pp->st[depth - 1];
	return fr->below_cur_amd || fr->cur_amd;
}

/* The condition names AMD, a chip or the wave size: a width chosen under
 * it was chosen for AMD. */
static bool cond_amd(const WcFile *f, int from, int to)
{
	for (int i = from; i < to; i++)
		if ((all_flags(f, i) & (WN_AMD | WN_TARGET)) || all_kw(f, i, WK___AMDGCN_WAVEFRONT_SIZE))
			return true;
	return cond_wave_test(f, from, to) || cond_target(f, from, to) != NO_NAME;
}

/* A branch whose condition is true in passes t and false in fl. */
static void enter_branch(PP *pp, Frame *fr, WcPasses t, WcPasses fl)
{
	WcPasses unk = pp->all & ~(t | fl);
	fr->def = t & ~fr->done_maybe;
	fr->maybe = (t | unk) & ~fr->done_def;
	fr->done_def |= t;
	fr->done_maybe |= t | unk;
}

/* The target (or wave-size test) frame k's own conditions or those below
 * it name, innermost first. */
static uint32_t frame_target(const Frame *fr)
{
	return fr->target != NO_NAME ? fr->target : fr->below_target;
}

static uint32_t frame_target_or_wave(const Frame *fr)
{
	if (fr->target != NO_NAME)
		return fr->target;
	return fr->wave_test ? (uint32_t)WK___AMDGCN_WAVEFRONT_SIZE : fr->below_target_or_wave;
}

/* Sets the summaries of the frames below frame k, from frame k - 1's. */
static void summarize_below(PP *pp, int k)
{
	Frame *fr = &pp->st[k];
	if (k == 0) {
		fr->below_def = fr->below_maybe = pp->all;
		fr->below_amd = fr->below_cuda = fr->below_cur_amd = fr->below_per_target = false;
		fr->below_target = fr->below_target_or_wave = NO_NAME;
		fr->below_arch = -1;
		return;
	}
	const Frame *b = &pp->st[k - 1];
	fr->below_def = b->below_def & b->def;
	fr->below_maybe = b->below_maybe & b->maybe;
	fr->below_amd = b->below_amd || b->amd;
	fr->below_cuda = b->below_cuda || b->cur_cuda;
	fr->below_cur_amd = b->below_cur_amd || b->cur_amd;
	fr->below_per_target = b->below_per_target || b->target != NO_NAME || b->wave_test;
	fr->below_target = frame_target(b);
	fr->below_target_or_wave = frame_target_or_wave(b);
	fr->below_arch = b->arch_tok >= 0 ? k - 1 : b->below_arch;
}

static void push_frame(PP *pp, int tok, int from, int to, bool ifdef, CondKind k, WcPasses t, WcPasses fl)
{
	WcFile *f = pp->f;
	if (pp->depth == pp->cap) {
		pp->cap = pp->cap ? pp->cap * 2 : 32;
		pp->st = base_realloc(pp->st, (size_t)pp->cap * sizeof *pp->st);
	}
	{
		Frame *fr = &pp->st[pp->depth];
		memset(fr, 0, sizeof *fr);
		fr->cur_cuda = k == COND_CUDA;
		fr->rest_cuda = k == COND_AMD;
		fr->cur_amd = k == COND_AMD;
		fr->rest_amd = k == COND_CUDA;
		fr->target = cond_target(f, from, to);
		fr->wave_test = cond_wave_test(f, from, to);
		fr->tok = tok;
		fr->amd = cond_amd(f, from, to);
		note_arch_list(f, fr, from, to, ifdef);
		enter_branch(pp, fr, t, fl);
		summarize_below(pp, pp->depth);
	}
	pp->depth++;
}

/* The passes that certainly (*def) and possibly (*maybe) compile what is
 * being read, and whether a condition around it is about AMD. */
static bool in_passes(const PP *pp, WcPasses *def, WcPasses *maybe)
{
	if (pp->depth == 0) {
		*def = *maybe = pp->all;
		return false;
	}
	const Frame *top = &pp->st[pp->depth - 1];
	*def = top->below_def & top->def;
	*maybe = top->below_maybe & top->maybe;
	return top->below_amd || top->amd;
}

static bool in_cuda(const PP *pp)
{
	return pp->depth > 0 && (pp->st[pp->depth - 1].below_cuda || pp->st[pp->depth - 1].cur_cuda);
}

/* Under a guard for every AMD target alike, and no per-target guard. */
static bool in_amd_wide(const PP *pp)
{
	if (pp->depth == 0)
		return false;
	const Frame *top = &pp->st[pp->depth - 1];
	if (top->below_per_target || top->target != NO_NAME || top->wave_test)
		return false;
	return top->below_cur_amd || top->cur_amd;
}

static uint32_t in_target(const PP *pp)
{
	return pp->depth > 0 ? frame_target(&pp->st[pp->depth - 1]) : NO_NAME;
}

/* The same, counting a wave-size test (#if __AMDGCN_WAVEFRONT_SIZE == 32). */
static uint32_t in_target_or_wave(const PP *pp)
{
	return pp->depth > 0 ? frame_target_or_wave(&pp->st[pp->depth - 1]) : NO_NAME;
}

/* The innermost frame with a chip list (#if defined(__gfx90a__) || ...), or NULL. */
static Frame *in_arch_list(PP *pp)
{
	if (pp->depth == 0)
		return NULL;
	Frame *top = &pp->st[pp->depth - 1];
	if (top->arch_tok >= 0)
		return top;
	return top->below_arch >= 0 ? &pp->st[top->below_arch] : NULL;
}

void wc_set_const(WcFile *f, uint32_t id, uint64_t v, bool conflict)
{
	WcName *nm = &f->names->v[id];
	if (nm->const_stamp == f->stamp) {
		if (conflict || nm->const_value != v)
			nm->const_conflict = true;
		nm->src_stamp = 0;  /* a change with no wc_touch */
		return;
	}
	wc_touch(f->names, id, f->stamp);
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
	wc_touch(f->names, f->all[name].id, f->stamp);
	nm->macro_stamp = f->stamp;
	nm->macro_nparams = (uint8_t)np;
	nm->macro_used = used;
	nm->macro_shuffle = i < eod && macro_body_calls(f, i + 1, eod);
	nm->macro_wsize = i < eod && uses_width(f, i + 1, eod);
	/* The body is one of the parameters: a selector, SELECT(cuda, rocm) rocm. */
	nm->macro_select = 0;
	int b = i + 1;
	while (b < eod && all_op(f, b, WP_LPAREN) && b + 2 < eod && all_op(f, eod - 1, WP_RPAREN))
		b++;
	for (int p = 0; p < np && b < eod && f->all[b].kind == WT_IDENT; p++)
		if (params[p] == f->all[b].id && (b + 1 == eod || all_op(f, b + 1, WP_RPAREN)))
			nm->macro_select = (uint8_t)(p + 1);
}

static void width_define(PP *pp, int name, int value, uint64_t v, WcPasses sel_def, bool sel_amd);

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

/* H8: a width given under conditions about AMD (#define WARP_SIZE 64 under
 * #ifdef __HIP_PLATFORM_AMD__, or a chip list that misses chips) that is
 * wrong for some chip that certainly compiles it. A chip list is judged as
 * a whole: the finding is at the list, once, with the chips that take the
 * wrong branch. */
static void width_define_at(PP *pp, int name, int value, uint64_t v, WcPasses sel_def, bool sel_amd)
{
	WcFile *f = pp->f;
	uint16_t fl = all_flags(f, name);
	if (!(fl & WN_WARPISH) || (v != 32 && v != 64))
		return;
	if (v == 32 && !(fl & WN_WARP_SIZE) && !(fl & WN_WIDTHISH))
		return;
	/* #define ROCPRIM_WARP_SIZE_64 64u: a name for one of the widths, not
	 * the choice of the device's */
	const char *nm = f->src.text + f->all[name].off;
	size_t len = f->all[name].len;
	if (len > 3 && nm[len - 3] == '_' && (unsigned)(nm[len - 2] - '0') * 10 + (unsigned)(nm[len - 1] - '0') == v)
		return;
	/* #define PROJ_MAX_WARP_SIZE 64: an upper bound, right for both widths */
	for (size_t k = 0; v == 64 && k + 3 <= len; k++)
		if ((k == 0 || nm[k - 1] == '_') && memcmp(nm + k, "MAX", 3) == 0 && (k + 3 == len || nm[k + 3] == '_'))
			return;
	WcPasses def, maybe;
	bool amd = in_passes(pp, &def, &maybe) || sel_amd;
	def &= sel_def;
	/* Under no condition at all, 64 is every target's width: RDNA's (and
	 * NVIDIA's) too. A width under a condition that is not about AMD
	 * (#ifdef MY_WAVE64) is the project's choice. */
	if (!amd && (v != 64 || def != pp->all || !(fl & (WN_WARP_SIZE | WN_WIDTHISH))))
		return;
	Frame *fr = in_arch_list(pp);
	if (fr && fr->arch_done)
		return;
	int before = f->nfinds;
	wc_width_passes(f, &f->all[fr ? fr->arch_tok : value], f->src.text + f->all[name].off, (int)f->all[name].len,
		v, def);
	if (f->nfinds > before && fr) {
		fr->arch_done = true;
		if (fr->arch_pure && (v == 64) != fr->arch_else)
			all_edit(&f->finds[f->nfinds - 1], f, fr->arch_from, fr->arch_to,
				fr->arch_ifdef ? "__GFX9__" : "defined(__GFX9__)");
	}
}

static void width_define(PP *pp, int name, int value, uint64_t v, WcPasses sel_def, bool sel_amd)
{
	width_define_at(pp, name, value, v, sel_def, sel_amd);
}

/* #define WARP_SIZE SELECT(32, 64), SELECT a macro that picks one of its
 * arguments, defined per platform: the number it picks here, and the
 * passes its definition holds in. */
static void select_define(PP *pp, int name, int i, int eod)
{
	WcFile *f = pp->f;
	if (f->all[i].kind != WT_IDENT || i + 1 >= eod || !all_op(f, i + 1, WP_LPAREN))
		return;
	const WcName *sel = &f->names->v[f->all[i].id];
	if (sel->macro_stamp != f->stamp || !sel->macro_select)
		return;
	int s = i + 2, k = 1;
	for (; s < eod && k < sel->macro_select; k++) {
		int e = all_arg_end(f, s, eod);
		if (e >= eod || !all_op(f, e, WP_COMMA))
			return;
		s = e + 1;
	}
	int e = all_arg_end(f, s, eod);
	if (e != s + 1 || f->all[s].kind != WT_NUMBER || !f->all[s].num_ok)
		return;
	wc_set_const(f, f->all[name].id, f->all[s].num, false);
	width_define(pp, name, s, f->all[s].num, sel->select_def, sel->select_amd);
}

/* An object-like macro's body, for #if conditions that name it. */
static void keep_body(WcFile *f, uint32_t id, int from, int to)
{
	WcNames *nt = f->names;
	uint32_t n = (uint32_t)(to - from);
	if (n > 256)
		return;
	if (nt->nmt + n > nt->mtcap) {
		nt->mtcap = (nt->nmt + n) * 2 + 64;
		nt->mt = base_realloc(nt->mt, (size_t)nt->mtcap * sizeof *nt->mt);
	}
	if (n)   /* an empty body: mt may still be NULL */
		memcpy(nt->mt + nt->nmt, f->all + from, (size_t)n * sizeof *nt->mt);
	WcName *nm = &nt->v[id];
	wc_touch(nt, id, f->stamp);
	nm->body_stamp = f->stamp;
	nm->body_at = nt->nmt;
	nm->body_len = n;
	nt->nmt += n;
}

/* A function-like macro whose body is a host launcher (it launches a
 * kernel with <<<...>>> and declares no __global__ or __device__ code):
 * a per-target width in it is read on the host (faiss' WARP_SELECT_IMPL
 * sizing its blocks with kWarpSize). The first such name is H8. */
static void host_macro_body(WcFile *f, int from, int eod)
{
	bool launches = false;
	for (int k = from; k < eod; k++) {
		if (all_kw(f, k, WK___global__) || all_kw(f, k, WK___device__))
			return;
		launches = launches || all_op(f, k, WP_LAUNCH_OPEN);
	}
	if (!launches)
		return;
	for (int k = from; k < eod; k++) {
		const WcTok *t = &f->all[k];
		if (t->kind != WT_IDENT || all_op(f, k - 1, WP_DOT) || all_op(f, k - 1, WP_ARROW))
			continue;
		const WcName *nm = &f->names->v[t->id];
		if (nm->target_stamp != f->stamp)
			continue;
		const WcName *mn = &f->names->v[nm->target_macro];
		wc_find_tok(f, t, "H8", "arch-width",
			"query hipDeviceAttributeWarpSize on the host; keep per-target macros to device code",
			"%.*s is chosen under %.*s, which only the device pass defines: this macro's host code always sees "
			"the other branch", (int)t->len, f->src.text + t->off, (int)mn->len, f->names->chars + mn->off);
		return;
	}
}

static void define(PP *pp, int i, int eod)
{
	WcFile *f = pp->f;
	if (i >= eod || f->all[i].kind != WT_IDENT)
		return;
	const WcTok *nt = &f->all[i];
	uint32_t target = in_target(pp);
	if (target != NO_NAME) {
		WcName *nm = &f->names->v[nt->id];
		WcPasses def, maybe;
		in_passes(pp, &def, &maybe);
		if (nm->target_stamp != f->stamp)
			nm->target_file = NULL;
		/* the branch the host pass takes: where a fix goes. Its path must outlive the
		 * file: the file's own name, or a header read for a summary (with no
		 * summaries, a header's path is freed once it is read) */
		if ((maybe & WC_HOST_PASS) && (f->include_depth == 0 || f->work)) {
			nm->target_file = f->src.name;
			nm->target_off = nt->off;
			wc_tok_pos(f, nt, &nm->target_line, &nm->target_col);
		}
		wc_touch(f->names, nt->id, f->stamp);
		nm->target_stamp = f->stamp;
		nm->target_macro = target;
	}
	uint32_t tested = cond_target(f, i + 1, eod);
	if (tested != NO_NAME) {
		wc_touch(f->names, nt->id, f->stamp);
		f->names->v[nt->id].tmacro_stamp = f->stamp;
		f->names->v[nt->id].tmacro_target = tested;
	}
	/* Function-like only when "(" follows the name with no space. */
	if (i + 1 < eod && all_op(f, i + 1, WP_LPAREN) && f->all[i + 1].off == nt->off + nt->len) {
		add_macro(f, i, i + 1, eod);
		host_macro_body(f, i + 1, eod);
		WcName *mn = &f->names->v[nt->id];
		if (mn->macro_select)
			mn->select_amd = in_passes(pp, &mn->select_def, &(WcPasses){0});
		return;
	}
	keep_body(f, nt->id, i + 1, eod);
	int v = i + 1;
	while (v < eod && all_op(f, v, WP_LPAREN))
		v++;
	if (v < eod && f->all[v].kind == WT_IDENT && (f->all[v].id == WK_warpSize ||
	                                              f->names->v[f->all[v].id].wsize_stamp == f->stamp)) {
		int end = v + 1;
		while (end < eod && all_op(f, end, WP_RPAREN))
			end++;
		if (end == eod) {
			wc_touch(f->names, nt->id, f->stamp);
			f->names->v[nt->id].wsize_stamp = f->stamp;
			return;
		}
	}
	if (uses_width(f, i + 1, eod)) {
		wc_touch(f->names, nt->id, f->stamp);
		f->names->v[nt->id].wexpr_stamp = f->stamp;
		return;
	}
	/* #define BNB_WARP_SIZE __AMDGCN_WAVEFRONT_SIZE: a constant per target,
	 * so no one value (a 32 in another branch does not make it 32) */
	if (v + 1 == eod && all_kw(f, v, WK___AMDGCN_WAVEFRONT_SIZE)) {
		wc_set_const(f, nt->id, 0, true);
		return;
	}
	if (v < eod && f->all[v].kind == WT_NUMBER && f->all[v].num_ok) {
		wc_set_const(f, nt->id, f->all[v].num, false);
		width_define(pp, i, v, f->all[v].num, ~(WcPasses)0, false);
	} else if (v < eod) {
		select_define(pp, i, v, eod);
	}
}

/* ---- header summaries: a header is read, lexed and preprocessed once per
 * thread and build flags; later includes replay the facts it gave ---- */

typedef struct SumEntry {
	uint32_t id;
	uint16_t has;             /* bits: which facts */
	uint8_t nparams, select, hdr_kinds, pparam, pmax;
	bool shuffle, wsize_fn, select_amd, conflict;
	uint32_t used, target, tmacro, body_at, body_len;
	uint64_t value, select_def;
	uint32_t wm_at, wm_len;   /* in WcHeaderSum.wm */
	const char *tfile;        /* the #define of a target fact: the summary's path, or another's */
	uint32_t toff;
	int tline, tcol;
} SumEntry;

enum { F_CONST = 1, F_MACRO = 2, F_WSIZE = 4, F_WEXPR = 8, F_TARGET = 16, F_TMACRO = 32, F_BODY = 64, F_HDR = 128, F_PBOUND = 256, F_WMUL = 512 };

struct WcHeaderSum {
	char *path;
	uint64_t key;             /* path and build flags */
	SumEntry *e; int n;       /* a partial summary's own entries; a whole one's are in the pool: */
	uint32_t *ei;             /* ...their indexes in WcSumPool.e (NULL: a partial summary) */
	WcTok *toks; uint32_t ntoks;   /* a partial summary's macro bodies (a whole one's: the pool's) */
	WcWmul *wm; uint32_t nwm;
	Vec paths;                /* the headers it read, itself first */
	uint32_t *path_hash;      /* each one's for seen_add, made once */
	bool partial;             /* it reaches a header that includes it (or the header that
	                             included it): what it holds depends on where it was entered */
	WcHeaderSum *next;
};

/* The entries of whole summaries, each kept once: a header's summary holds
 * every fact of the headers it includes too, so most entries are the same
 * in many summaries (rocPRIM's config headers in each of its 229). An entry
 * is shared only with one equal in every field, its macro body and its
 * wavefront parameters included, so a replay writes the same facts. */
struct WcSumPool {
	SumEntry *e; uint32_t n, cap;
	WcTok *toks; uint32_t ntoks, toks_cap;   /* the entries' macro bodies */
	WcWmul *wm; uint32_t nwm, wm_cap;        /* and wavefront parameters */
	uint32_t *slot; uint32_t mask;           /* open addressing: index + 1, 0 when empty */
	uint64_t *hash;                          /* each entry's */
};

static uint64_t entry_hash(const SumEntry *x, const WcTok *body, const WcWmul *wm)
{
	uint64_t h = base_hash_fnv1a(&x->id, sizeof x->id, x->has);
	if (x->has & F_CONST)
		h = base_hash_fnv1a(&x->value, sizeof x->value, h ^ (uint64_t)x->conflict);
	if (x->has & F_MACRO) {
		uint64_t m[3] = {(uint64_t)x->nparams | (uint64_t)x->select << 8 | (uint64_t)x->shuffle << 16 |
		                 (uint64_t)x->wsize_fn << 17 | (uint64_t)x->select_amd << 18 | (uint64_t)x->used << 32,
		                 x->select_def, 0};
		h = base_hash_fnv1a(m, sizeof m, h);
	}
	if (x->has & F_TARGET) {
		uint64_t m[3] = {(uint64_t)x->target | (uint64_t)x->toff << 32, (uint64_t)(uintptr_t)x->tfile,
		                 (uint64_t)(uint32_t)x->tline | (uint64_t)(uint32_t)x->tcol << 32};
		h = base_hash_fnv1a(m, sizeof m, h);
	}
	uint64_t m[2] = {(uint64_t)x->tmacro | (uint64_t)x->hdr_kinds << 32 | (uint64_t)x->pparam << 40 |
	                 (uint64_t)x->pmax << 48, (uint64_t)x->body_len | (uint64_t)x->wm_len << 32};
	h = base_hash_fnv1a(m, sizeof m, h);
	if ((x->has & F_BODY) && x->body_len)
		h = base_hash_fnv1a(body, (size_t)x->body_len * sizeof *body, h);
	if ((x->has & F_WMUL) && x->wm_len)
		for (uint32_t k = 0; k < x->wm_len; k++) {
			uint64_t w = (uint64_t)wm[k].param | (uint64_t)wm[k].inner << 32;
			h = base_hash_fnv1a(&w, sizeof w, h ^ wm[k].kind);
		}
	return h;
}

/* Every field a replay reads (body_at and wm_at aside: where the body and
 * parameters are, compared by content). */
static bool entry_eq(const SumEntry *a, const WcTok *abody, const WcWmul *awm, const SumEntry *b,
	const WcTok *bbody, const WcWmul *bwm)
{
	if (a->id != b->id || a->has != b->has)
		return false;
	if ((a->has & F_CONST) && (a->value != b->value || a->conflict != b->conflict))
		return false;
	if ((a->has & F_MACRO) && (a->nparams != b->nparams || a->used != b->used || a->shuffle != b->shuffle ||
	                           a->wsize_fn != b->wsize_fn || a->select != b->select ||
	                           a->select_amd != b->select_amd || a->select_def != b->select_def))
		return false;
	if ((a->has & F_TARGET) && (a->target != b->target || a->tfile != b->tfile || a->toff != b->toff ||
	                            a->tline != b->tline || a->tcol != b->tcol))
		return false;
	if ((a->has & F_TMACRO) && a->tmacro != b->tmacro)
		return false;
	if ((a->has & F_HDR) && a->hdr_kinds != b->hdr_kinds)
		return false;
	if ((a->has & F_PBOUND) && (a->pparam != b->pparam || a->pmax != b->pmax))
		return false;
	if ((a->has & F_BODY) && (a->body_len != b->body_len ||
	                          (a->body_len && memcmp(abody, bbody, (size_t)a->body_len * sizeof *abody) != 0)))
		return false;
	if (a->has & F_WMUL) {
		if (a->wm_len != b->wm_len)
			return false;
		for (uint32_t k = 0; k < a->wm_len; k++)
			if (awm[k].param != bwm[k].param || awm[k].inner != bwm[k].inner || awm[k].kind != bwm[k].kind)
				return false;
	}
	return true;
}

/* The pool's index of an entry equal to x (whose body and wavefront
 * parameters are at body and wm), added when there is none. */
static uint32_t pool_intern(WcSumPool *p, const SumEntry *x, const WcTok *body, const WcWmul *wm)
{
	uint64_t h = entry_hash(x, body, wm);
	if (p->slot) {
		for (uint32_t s = (uint32_t)h & p->mask; p->slot[s]; s = (s + 1) & p->mask) {
			uint32_t k = p->slot[s] - 1;
			const SumEntry *y = &p->e[k];
			const WcTok *ybody = y->body_len ? p->toks + y->body_at : NULL;  /* none may be stored yet */
			const WcWmul *ywm = y->wm_len ? p->wm + y->wm_at : NULL;
			if (p->hash[k] == h && entry_eq(x, body, wm, y, ybody, ywm))
				return k;
		}
	}
	if (!p->slot || (p->n + 1) * 2 > p->mask + 1) {
		uint32_t size = p->slot ? (p->mask + 1) * 2 : 4096;
		uint32_t *slots = base_calloc(size, sizeof *slots);
		for (uint32_t k = 0; k < p->n; k++) {
			uint32_t s = (uint32_t)p->hash[k] & (size - 1);
			while (slots[s])
				s = (s + 1) & (size - 1);
			slots[s] = k + 1;
		}
		free(p->slot);
		p->slot = slots;
		p->mask = size - 1;
	}
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 1024;
		p->e = base_realloc(p->e, (size_t)p->cap * sizeof *p->e);
		p->hash = base_realloc(p->hash, (size_t)p->cap * sizeof *p->hash);
	}
	SumEntry y = *x;
	if ((x->has & F_BODY) && x->body_len) {
		if (p->ntoks + x->body_len > p->toks_cap) {
			p->toks_cap = (p->ntoks + x->body_len) * 2 + 256;
			p->toks = base_realloc(p->toks, (size_t)p->toks_cap * sizeof *p->toks);
		}
		memcpy(p->toks + p->ntoks, body, (size_t)x->body_len * sizeof *body);
		y.body_at = p->ntoks;
		p->ntoks += x->body_len;
	} else {
		y.body_at = 0;
	}
	if ((x->has & F_WMUL) && x->wm_len) {
		if (p->nwm + x->wm_len > p->wm_cap) {
			p->wm_cap = (p->nwm + x->wm_len) * 2 + 16;
			p->wm = base_realloc(p->wm, (size_t)p->wm_cap * sizeof *p->wm);
		}
		memcpy(p->wm + p->nwm, wm, (size_t)x->wm_len * sizeof *wm);
		y.wm_at = p->nwm;
		p->nwm += x->wm_len;
	} else {
		y.wm_at = 0;
	}
	uint32_t k = p->n++;
	p->e[k] = y;
	p->hash[k] = h;
	uint32_t s = (uint32_t)h & p->mask;
	while (p->slot[s])
		s = (s + 1) & p->mask;
	p->slot[s] = k + 1;
	return k;
}

static void pool_free(WcSumPool *p)
{
	if (!p)
		return;
	free(p->e);
	free(p->hash);
	free(p->toks);
	free(p->wm);
	free(p->slot);
	free(p);
}

/* Adds a header's path to the set the top file has read; false when it
 * was there. An open-addressing set of path hashes (0 stands for empty). */
static uint32_t seen_hash(const char *path)
{
	return (uint32_t)base_hash_fnv1a(path, strlen(path), HASH_SEED) | 1u;
}

static bool seen_add_hashed(WcFile *top, uint32_t h)
{
	if ((top->nseen + 1) * 2 > top->seen_cap) {
		int cap = top->seen_cap ? top->seen_cap * 2 : 64;
		uint32_t *set = base_calloc((size_t)cap, sizeof *set);
		for (int k = 0; k < top->seen_cap; k++) {
			if (!top->seen[k])
				continue;
			uint32_t s = top->seen[k] & (uint32_t)(cap - 1);
			while (set[s])
				s = (s + 1) & (uint32_t)(cap - 1);
			set[s] = top->seen[k];
		}
		free(top->seen);
		top->seen = set;
		top->seen_cap = cap;
	}
	uint32_t m = (uint32_t)top->seen_cap - 1, s = h & m;
	for (; top->seen[s]; s = (s + 1) & m)
		if (top->seen[s] == h)
			return false;
	top->seen[s] = h;
	top->nseen++;
	return true;
}

static bool seen_add(WcFile *top, const char *path)
{
	return seen_add_hashed(top, seen_hash(path));
}

static uint64_t sum_key(const WcFile *f, const char *path)
{
	return base_hash_fnv1a(path, strlen(path) + 1, f->cfg ? f->cfg->hash : 0);
}

static WcHeaderSum *sum_find(WcWork *w, const char *path, uint64_t key)
{
	for (WcHeaderSum *s = w->sums[key & 255]; s; s = s->next)
		if (s->key == key && strcmp(s->path, path) == 0)
			return s;
	for (int k = w->npartial - 1; k >= 0; k--)
		if (w->partial[k]->key == key && strcmp(w->partial[k]->path, path) == 0)
			return w->partial[k];
	return NULL;
}

/* ids[0, n) in ascending order: a radix sort, 8 bits a pass, as many
 * passes as the largest id has bytes (two for 65,536 names); a short list
 * by insertion. */
static void sort_ids(uint32_t *ids, uint32_t n)
{
	if (n < 2)
		return;
	if (n <= 48) {
		for (uint32_t k = 1; k < n; k++) {
			uint32_t x = ids[k], j = k;
			for (; j > 0 && ids[j - 1] > x; j--)
				ids[j] = ids[j - 1];
			ids[j] = x;
		}
		return;
	}
	uint32_t all = 0;
	for (uint32_t k = 0; k < n; k++)
		all |= ids[k];
	uint32_t *tmp = base_malloc(sizeof *tmp * n), *a = ids, *b = tmp;
	for (int shift = 0; shift < 32 && all >> shift; shift += 8) {
		uint32_t count[257] = {0};
		for (uint32_t k = 0; k < n; k++)
			count[((a[k] >> shift) & 255) + 1]++;
		for (int d = 0; d < 256; d++)
			count[d + 1] += count[d];
		for (uint32_t k = 0; k < n; k++)
			b[count[(a[k] >> shift) & 255]++] = a[k];
		uint32_t *t = a;
		a = b, b = t;
	}
	if (a != ids)
		memcpy(ids, a, sizeof *ids * n);
	free(tmp);
}

/* The facts names got under stamp st: the header's. Only the names
 * touched since the log stood at mark can hold one (wc_touch), taken in
 * the order of their ids, as a scan of the whole table would. */
static WcHeaderSum *sum_capture(WcFile *f, uint32_t st, const char *path, uint64_t key, const Vec *paths,
	uint32_t mark, bool partial)
{
	WcNames *nt = f->names;
	WcHeaderSum *s = base_calloc(1, sizeof *s);
	s->path = base_strdup(path);
	s->key = key;
	WcSumPool *pool = NULL;
	if (!partial) {
		if (!f->work->pool)
			f->work->pool = base_calloc(1, sizeof *f->work->pool);
		pool = f->work->pool;
	}
	int cap = 0;
	uint32_t nids = 0, *ids = nt->touched ? nt->touched + mark : NULL;  /* none touched yet: no log */
	/* A name touched under st, then by a nested summary, then under st
	 * again (that summary's replay) is in the log twice: kept once below. */
	for (uint32_t k = mark; k < nt->ntouched; k++)
		if (nt->v[nt->touched[k]].touch_stamp == st)
			ids[nids++] = nt->touched[k];
	sort_ids(ids, nids);
	uint32_t u = 0;
	for (uint32_t k = 0; k < nids; k++)
		if (u == 0 || ids[u - 1] != ids[k])
			ids[u++] = ids[k];
	nids = u;
	nt->ntouched = mark;  /* ids stays readable: nothing is touched until the loop ends */
	for (uint32_t k = 0; k < nids; k++) {
		uint32_t id = ids[k];
		const WcName *nm = &nt->v[id];
		/* As a replay of a pooled entry left it: that entry (its target's
		 * file aside, which is taken as this header's own when the paths
		 * are equal). */
		if (pool && nm->src_stamp == st && !(pool->e[nm->src_entry].has & F_TARGET)) {
			if (s->n == cap)
				s->ei = base_realloc(s->ei, (size_t)(cap = cap ? cap * 2 : 16) * sizeof *s->ei);
			s->ei[s->n++] = nm->src_entry;
			continue;
		}
		SumEntry x = {.id = id};
		if (nm->const_stamp == st)
			x.has |= F_CONST, x.value = nm->const_value, x.conflict = nm->const_conflict;
		if (nm->macro_stamp == st) {
			x.has |= F_MACRO;
			x.nparams = nm->macro_nparams, x.used = nm->macro_used, x.shuffle = nm->macro_shuffle;
			x.wsize_fn = nm->macro_wsize, x.select = nm->macro_select, x.select_amd = nm->select_amd;
			x.select_def = nm->select_def;
		}
		if (nm->wsize_stamp == st)
			x.has |= F_WSIZE;
		if (nm->wexpr_stamp == st)
			x.has |= F_WEXPR;
		if (nm->target_stamp == st) {
			x.has |= F_TARGET, x.target = nm->target_macro;
			x.tfile = nm->target_file && strcmp(nm->target_file, path) == 0 ? s->path : nm->target_file;
			x.toff = nm->target_off, x.tline = nm->target_line, x.tcol = nm->target_col;
		}
		if (nm->tmacro_stamp == st)
			x.has |= F_TMACRO, x.tmacro = nm->tmacro_target;
		if (nm->hdr_stamp == st)
			x.has |= F_HDR, x.hdr_kinds = nm->hdr_kinds;
		if (nm->pbound_stamp == st)
			x.has |= F_PBOUND, x.pparam = nm->pbound_param, x.pmax = nm->pbound_max;
		if (nm->wm_stamp == st && nm->wm_len)
			x.has |= F_WMUL, x.wm_len = nm->wm_len;
		if (nm->body_stamp == st)
			x.has |= F_BODY, x.body_len = nm->body_len;
		if (!x.has)
			continue;
		/* an empty body may have no token table behind it */
		const WcTok *body = (x.has & F_BODY) && x.body_len ? nt->mt + nm->body_at : NULL;
		const WcWmul *wm = (x.has & F_WMUL) ? nt->wm + nm->wm_at : NULL;
		if (pool) {
			if (s->n == cap)
				s->ei = base_realloc(s->ei, (size_t)(cap = cap ? cap * 2 : 16) * sizeof *s->ei);
			s->ei[s->n++] = pool_intern(pool, &x, body, wm);
			continue;
		}
		if (x.has & F_WMUL) {
			x.wm_at = s->nwm;
			s->wm = base_realloc(s->wm, (size_t)(s->nwm + nm->wm_len) * sizeof *s->wm);
			memcpy(s->wm + s->nwm, wm, (size_t)nm->wm_len * sizeof *s->wm);
			s->nwm += nm->wm_len;
		}
		if (x.has & F_BODY) {
			x.body_at = s->ntoks;
			s->toks = base_realloc(s->toks, (size_t)(s->ntoks + nm->body_len + 1) * sizeof *s->toks);
			if (body)
				memcpy(s->toks + s->ntoks, body, (size_t)nm->body_len * sizeof *s->toks);
			s->ntoks += nm->body_len;
		}
		if (s->n == cap)
			s->e = base_realloc(s->e, (size_t)(cap = cap ? cap * 2 : 16) * sizeof *s->e);
		s->e[s->n++] = x;
	}
	WcFile set = {0};  /* only its seen set: each path once */
	s->path_hash = base_malloc(sizeof *s->path_hash * (size_t)(paths->len ? paths->len : 1));
	for (int k = 0; k < paths->len; k++) {
		uint32_t h = seen_hash(paths->data[k]);
		if (seen_add_hashed(&set, h)) {
			s->path_hash[s->paths.len] = h;
			vec_push(&s->paths, base_strdup(paths->data[k]));
		}
	}
	free(set.seen);
	return s;
}

/* The header's facts, as this file's. */
static void sum_replay(WcFile *f, const WcHeaderSum *s)
{
	WcNames *nt = f->names;
	uint32_t st = f->stamp;
	const WcSumPool *pool = s->ei ? f->work->pool : NULL;   /* a whole summary's entries */
	const SumEntry *base = pool ? pool->e : s->e;
	const WcTok *toks = pool ? pool->toks : s->toks;
	const WcWmul *wms = pool ? pool->wm : s->wm;
	for (int k = 0; k < s->n; k++) {
		const SumEntry *x = s->ei ? &base[s->ei[k]] : &base[k];
		WcName *nm = &nt->v[x->id];
		/* The same entry again, with nothing between: it would change
		 * nothing (the wavefront parameters aside, which it would append
		 * again, so entries with them are never marked). */
		if (pool && nm->src_stamp == st && nm->src_entry == s->ei[k])
			continue;
		/* The name holds no fact of this file yet: after the replay its
		 * facts are exactly the entry's. */
		bool fresh = pool && !(x->has & F_WMUL) && nm->const_stamp != st && nm->macro_stamp != st &&
		             nm->wsize_stamp != st && nm->wexpr_stamp != st && nm->target_stamp != st &&
		             nm->tmacro_stamp != st && nm->hdr_stamp != st && nm->pbound_stamp != st &&
		             nm->wm_stamp != st && nm->body_stamp != st;
		wc_touch(nt, x->id, st);
		if (x->has & F_CONST)
			wc_set_const(f, x->id, x->value, x->conflict);
		if (x->has & F_MACRO) {
			nm->macro_stamp = st, nm->macro_nparams = x->nparams, nm->macro_used = x->used;
			nm->macro_shuffle = x->shuffle, nm->macro_wsize = x->wsize_fn, nm->macro_select = x->select;
			nm->select_amd = x->select_amd, nm->select_def = x->select_def;
		}
		if (x->has & F_WSIZE)
			nm->wsize_stamp = st;
		if (x->has & F_WEXPR)
			nm->wexpr_stamp = st;
		if (x->has & F_TARGET) {
			nm->target_stamp = st, nm->target_macro = x->target;
			nm->target_file = x->tfile, nm->target_off = x->toff;
			nm->target_line = x->tline, nm->target_col = x->tcol;
		}
		if (x->has & F_TMACRO)
			nm->tmacro_stamp = st, nm->tmacro_target = x->tmacro;
		if (x->has & F_HDR) {
			if (nm->hdr_stamp != st)
				nm->hdr_stamp = st, nm->hdr_kinds = 0;
			nm->hdr_kinds |= x->hdr_kinds;
		}
		if (x->has & F_PBOUND)
			nm->pbound_stamp = st, nm->pbound_param = x->pparam, nm->pbound_max = x->pmax;
		if (x->has & F_WMUL) {
			/* appended to what this file already knows of the name */
			uint32_t old = nm->wm_stamp == st ? nm->wm_len : 0;
			if (nt->nwm + old + x->wm_len > nt->wmcap) {
				nt->wmcap = (nt->nwm + old + x->wm_len) * 2 + 16;
				nt->wm = base_realloc(nt->wm, (size_t)nt->wmcap * sizeof *nt->wm);
			}
			if (old)
				memmove(nt->wm + nt->nwm, nt->wm + nm->wm_at, (size_t)old * sizeof *nt->wm);
			memcpy(nt->wm + nt->nwm + old, wms + x->wm_at, (size_t)x->wm_len * sizeof *nt->wm);
			nm->wm_stamp = st, nm->wm_at = nt->nwm, nm->wm_len = old + x->wm_len;
			nt->nwm += old + x->wm_len;
		}
		if (x->has & F_BODY) {
			if (nt->nmt + x->body_len > nt->mtcap) {
				nt->mtcap = (nt->nmt + x->body_len) * 2 + 64;
				nt->mt = base_realloc(nt->mt, (size_t)nt->mtcap * sizeof *nt->mt);
			}
			if (x->body_len)
				memcpy(nt->mt + nt->nmt, toks + x->body_at, (size_t)x->body_len * sizeof *nt->mt);
			nm->body_stamp = st, nm->body_at = nt->nmt, nm->body_len = x->body_len;
			nt->nmt += x->body_len;
		}
		if (fresh)
			nm->src_stamp = st, nm->src_entry = s->ei[k];
	}
}

static void sum_list_free(WcHeaderSum *s)
{
	for (WcHeaderSum *next; s; s = next) {
		next = s->next;
		free(s->path);
		free(s->e);
		free(s->ei);
		free(s->toks);
		free(s->wm);
		for (int k = 0; k < s->paths.len; k++)
			free(s->paths.data[k]);
		vec_free(&s->paths);
		free(s->path_hash);
		free(s);
	}
}

/* The partial summaries that one header a file reads for its summary
 * first, not nested in another's (w->nbuilding 0), made: what they hold
 * depends only on the header, the build flags and the partial summaries
 * the file met before it, which are the groups up the parent chain. So
 * a later file that reads the same headers in the same order takes the
 * group again instead of rereading its headers (faiss' simdlib headers,
 * which include each other, were read once per file that includes them). */
typedef struct WcSumGroup {
	struct WcSumGroup *parent;  /* the file's group before it, or NULL */
	uint64_t key;               /* the header's (sum_key), and its path */
	char *path;
	WcHeaderSum *ret;           /* the header's own summary: one of sums, or a whole one */
	WcHeaderSum **sums;         /* made in this order */
	int n;
	bool again;                 /* may be taken again (else only a parent, unique to its file) */
	bool kept;                  /* in WcWork.groups, for every later file; else in WcWork.local */
	struct WcSumGroup *next_local;
} WcSumGroup;

/* What a thread keeps of groups to be taken again; past it they are all
 * freed after the file being checked, and those of the next files kept. */
#define GROUP_BYTES ((size_t)64 << 20)

static size_t sum_bytes(const WcHeaderSum *s)
{
	size_t b = sizeof *s + strlen(s->path) + (size_t)s->n * sizeof *s->e + (size_t)s->ntoks * sizeof *s->toks +
	           (size_t)s->nwm * sizeof *s->wm + (size_t)s->paths.len * (sizeof *s->path_hash + sizeof(char *));
	for (int k = 0; k < s->paths.len; k++)
		b += strlen(s->paths.data[k]) + 1;
	return b;
}

static void group_free(WcSumGroup *g)
{
	for (int m = 0; m < g->n; m++) {
		g->sums[m]->next = NULL;
		sum_list_free(g->sums[m]);
	}
	free(g->sums);
	free(g->path);
	free(g);
}

static uint64_t group_hash(const WcSumGroup *parent, uint64_t key)
{
	uintptr_t p = (uintptr_t)parent;
	return base_hash_fnv1a(&p, sizeof p, key);
}

static WcSumGroup *group_find(const WcWork *w, const WcSumGroup *parent, uint64_t key, const char *path)
{
	uint32_t at = UINT32_MAX;
	for (WcSumGroup *g; (g = wc_ptab_next(&w->groups, group_hash(parent, key), &at)) != NULL;)
		if (g->again && g->parent == parent && g->key == key && strcmp(g->path, path) == 0)
			return g;
	return NULL;
}

static void group_add(WcWork *w, WcSumGroup *g)
{
	wc_ptab_add(&w->groups, group_hash(g->parent, g->key), g, 64);
}

static void partial_push(WcWork *w, WcHeaderSum *s)
{
	if (w->npartial == w->partial_cap) {
		w->partial_cap = w->partial_cap ? 2 * w->partial_cap : 16;
		w->partial = base_realloc(w->partial, sizeof *w->partial * (size_t)w->partial_cap);
	}
	w->partial[w->npartial++] = s;
}

/* The next file starts with no partial summary (they stay in the groups
 * kept; those of the file's groups that are not kept are freed). */
void wc_partial_sums_free(WcWork *w)
{
	for (WcSumGroup *g = w->local, *next; g; g = next) {
		next = g->next_local;
		group_free(g);
	}
	w->local = NULL;
	w->npartial = 0;
	w->last_group = NULL;
	if (w->group_bytes > GROUP_BYTES) {  /* past the budget: start again with the files to come */
		for (uint32_t k = 0; k <= w->groups.mask; k++)
			if (w->groups.v[k])
				group_free(w->groups.v[k]);
		wc_ptab_clear(&w->groups);
		w->group_bytes = 0;
	}
}

void wc_header_sums_free(WcWork *w)
{
	for (int b = 0; b < 256; b++) {
		sum_list_free(w->sums[b]);
		w->sums[b] = NULL;
	}
	pool_free(w->pool);
	w->pool = NULL;
	for (uint32_t k = 0; w->groups.v && k <= w->groups.mask; k++) {
		if (w->groups.v[k])
			group_free(w->groups.v[k]);
	}
	wc_partial_sums_free(w);
	w->group_bytes = 0;
	wc_ptab_free(&w->groups);
	free(w->partial);
	w->partial = NULL;
	w->npartial = w->partial_cap = 0;
	w->last_group = NULL;
}

/* Reads the header at path (its text already in hand) into sub's facts;
 * true when what it read is partial (sum_build). */
static bool read_header(WcFile *f, WcFile *top, const char *path, const char *text, size_t len, uint32_t stamp,
	Vec *paths)
{
	Diag quiet = {0};
	WcFile sub = {.src = {.name = path, .text = text, .len = len}, .diag = &quiet, .names = f->names,
	              .stamp = stamp, .include_depth = f->include_depth + 1, .cfg = f->cfg, .top = top,
	              .work = top ? NULL : f->work};
	/* The token arrays are freed when the header is read: the next header,
	 * at any depth, takes the same memory again (arrays kept per depth held
	 * the largest header of each depth at once). */
	wc_lex(&sub);
	if (!top) {
		wc_include_summaries(&sub);   /* before the first fact of stamp is set */
		wc_command_line_macros(&sub);
	}
	wc_preprocess(&sub);
	wc_functions(&sub);
	wc_header_kinds(&sub);
	wc_param_bounds(&sub);
	wc_tmpl_facts(&sub);
	if (paths)
		for (int k = 0; k < sub.hdr_paths.len; k++)
			vec_push(paths, sub.hdr_paths.data[k]);
	else
		for (int k = 0; k < sub.hdr_paths.len; k++)
			free(sub.hdr_paths.data[k]);
	vec_free(&sub.hdr_paths);
	free(sub.seen);
	free(sub.fns);
	free(sub.all);
	free(sub.t);
	free(sub.sup);
	free(sub.finds);
	free(sub.hfinds);
	free(sub.hpaths);
	free(sub.regions);
	free(sub.lines);
	buf_free(&quiet.text);
	return sub.partial;
}

static int find_eod(const WcFile *f, int i)
{
	while (i < f->nall && f->all[i].kind != WT_EOD)
		i++;
	return i;
}

static bool directive_start(const WcFile *f, int i);

/* The header that #include "x.h" or <x.h> at all[tok] names, resolved
 * (build.c) to a header of the project: into path, or false. */
static bool include_path(const WcFile *f, int tok, int eod, Buf *path)
{
	const WcTok *t = &f->all[tok];
	bool angle = t->kind == WT_PUNCT;
	const char *name = f->src.text + t->off + 1;
	size_t n;
	if (angle) {
		int close = tok + 1;
		while (close < eod && !all_op(f, close, WP_GT))
			close++;
		if (close >= eod)
			return false;
		n = f->all[close].off - t->off - 1;
	} else {
		if (t->len < 3 || f->src.text[t->off] != '"')
			return false;
		n = t->len - 2;
	}
	return wc_resolve_include_in(f->work, f->cfg, f->src.name, name, n, angle, path);
}

static bool building(const WcWork *w, const char *path)
{
	for (int k = 0; k < w->nbuilding; k++)
		if (strcmp(w->building[k], path) == 0)
			return true;
	return false;
}

/* Reads the header at path for its summary. Its own includes get theirs
 * first (read_header), so no summary is ever made while another file's
 * facts are being set: a name holds one stamp's facts at a time, and a
 * header read in the middle of another would overwrite what that one
 * knew, so that what a file sees would depend on which file of the
 * thread read a header first. A summary that meets a header still being
 * read (a cycle of includes; an include guard stops it there) depends on
 * where the cycle was entered: it is kept for the top file being checked
 * only (WcWork.partial), and so is each one that replays it. */
static WcHeaderSum *sum_make(WcFile *f, const char *path, uint64_t key)
{
	WcWork *w = f->work;
	if (w->nbuilding == w->building_cap) {
		w->building_cap = w->building_cap ? 2 * w->building_cap : 16;
		w->building = base_realloc(w->building, sizeof *w->building * (size_t)w->building_cap);
	}
	w->building[w->nbuilding++] = path;
	int before = w->npartial;
	size_t len = 0;
	const char *text = wc_header_text(w, path, &len);
	Vec paths = {0};
	vec_push(&paths, base_strdup(path));
	uint32_t st = wc_stamp(f->names), mark = f->names->ntouched;
	bool partial = text && read_header(f, NULL, path, text, len, st, &paths);
	w->nbuilding--;
	WcHeaderSum *hs = sum_capture(f, st, path, key, &paths, mark, partial);
	for (int k = 0; k < paths.len; k++)
		free(paths.data[k]);
	vec_free(&paths);
	hs->partial = partial;
	if (partial) {
		partial_push(w, hs);
	} else {
		if (w->npartial > before)
			w->side_partials = true;
		hs->next = w->sums[key & 255];
		w->sums[key & 255] = hs;
	}
	return hs;
}

static WcHeaderSum *sum_build(WcFile *f, const char *path, uint64_t key)
{
	WcWork *w = f->work;
	if (w->nbuilding > 0)
		return sum_make(f, path, key);
	WcSumGroup *g = group_find(w, w->last_group, key, path);
	if (g) {
		for (int k = 0; k < g->n; k++)
			partial_push(w, g->sums[k]);
		w->last_group = g;
		return g->ret;
	}
	int mark = w->npartial;
	w->side_partials = false;
	WcHeaderSum *hs = sum_make(f, path, key);
	if (w->npartial == mark)
		return hs;  /* whole summaries only: found again as they are */
	/* A whole summary made here that made partial ones on the way is
	 * found as it is by later files, which so do not get those partial
	 * ones: the group would not be what they read. */
	g = base_calloc(1, sizeof *g);
	g->again = !w->side_partials;
	g->parent = w->last_group, g->key = key, g->path = base_strdup(path), g->ret = hs;
	g->n = w->npartial - mark;
	g->sums = base_malloc(sizeof *g->sums * (size_t)g->n);
	memcpy(g->sums, w->partial + mark, sizeof *g->sums * (size_t)g->n);
	size_t bytes = 0;
	for (int k = 0; k < g->n; k++)
		bytes += sum_bytes(g->sums[k]);
	/* Kept only under a kept parent (a freed one's address could come back
	 * as another file's parent) and within the thread's budget. */
	bool keep = g->again && (!g->parent || g->parent->kept);
	if (keep) {
		g->kept = true;
		w->group_bytes += bytes;
		group_add(w, g);
	} else {
		g->again = false;
		g->next_local = w->local;
		w->local = g;
	}
	w->last_group = g;
	return hs;
}

/* The summaries of every header f's #include lines name, in any branch,
 * made before f's own facts (sum_build). For a top file and for each
 * header read for a summary, right after it is lexed. */
void wc_include_summaries(WcFile *f)
{
	WcWork *w = f->work;
	if (!w || f->top)
		return;
	Buf path = {0};
	for (int i = 0; i < f->nall; i++) {
		if (!directive_start(f, i))
			continue;
		int eod = find_eod(f, i), d = i + 1;
		if (d + 1 < eod && all_kw(f, d, WK_include) &&
		    (f->all[d + 1].kind == WT_STRING || all_op(f, d + 1, WP_LT)) && include_path(f, d + 1, eod, &path)) {
			uint64_t key = sum_key(f, buf_str(&path));
			if (!sum_find(w, buf_str(&path), key) && !building(w, buf_str(&path)))
				sum_build(f, buf_str(&path), key);
		}
		path.len = 0;
		i = eod;
	}
	buf_free(&path);
}

/* #include "x.h" or <x.h> that resolves to a header of the project: its
 * #defines (shims, WARP_SIZE) count as this file's, and what its
 * functions do (a warp_reduce_sum that keeps to 32-lane groups) is known
 * to the calls here. Errors and findings in it are not this file's to
 * report. Each header is read once per file, and once per thread. */
static void include_defs(WcFile *f, int tok, int eod)
{
	WcFile *top = f->top ? f->top : f;   /* no depth limit: each header is read once a file */
	Buf path = {0};
	if (!include_path(f, tok, eod, &path) || !seen_add(top, buf_str(&path))) {
		buf_free(&path);
		return;
	}
	WcWork *w = top->work;
	if (w) {
		uint64_t key = sum_key(f, buf_str(&path));
		WcHeaderSum *hs = sum_find(w, buf_str(&path), key);
		if (!hs && building(w, buf_str(&path))) {
			top->partial = true;  /* included from itself, through others: as an include guard does */
			buf_free(&path);
			return;
		}
		if (!hs)  /* wc_include_summaries made every one it could see */
			hs = sum_build(f, buf_str(&path), key);
		if (hs->partial)
			top->partial = true;
		sum_replay(f, hs);
		vec_push(&top->hdr_paths, base_strdup(hs->paths.data[0]));
		for (int k = 1; k < hs->paths.len; k++)
			if (seen_add_hashed(top, hs->path_hash[k]))
				vec_push(&top->hdr_paths, base_strdup(hs->paths.data[k]));
		buf_free(&path);
		return;
	}
	vec_push(&top->hdr_paths, base_strdup(buf_str(&path)));
	size_t len = 0;
	char *owned = file_read(buf_str(&path), &len);
	if (owned && !memchr(owned, '\0', len))
		(void)read_header(f, top, buf_str(&path), owned, len, f->stamp, NULL);
	free(owned);
	buf_free(&path);
}


/* #ifndef G at d, the next line #define G: an include guard. Its name may
 * say HIP (GKO_HIP_CONFIG_HPP_) but it is no condition on the platform:
 * the file's text is read (a second inclusion is skipped as a whole). */
static bool include_guard(const WcFile *f, int d, int eod)
{
	return all_kw(f, d, WK_ifndef) && d + 2 == eod && eod + 3 < f->nall && f->all[d + 1].kind == WT_IDENT &&
	       directive_start(f, eod + 1) && all_kw(f, eod + 2, WK_define) && f->all[eod + 3].kind == WT_IDENT &&
	       f->all[eod + 3].id == f->all[d + 1].id;
}

static void begin_if(PP *pp, int i, int d, int eod)
{
	WcFile *f = pp->f;
	CondKind k;
	bool ifdef = all_kw(f, d, WK_ifdef);
	if (include_guard(f, d, eod)) {
		push_frame(pp, i, d + 1, eod, false, COND_OTHER, pp->all, 0);
		return;
	}
	if (ifdef)
		k = d + 1 < eod && (all_flags(f, d + 1) & WN_AMD) ? COND_AMD : COND_OTHER;
	else if (all_kw(f, d, WK_ifndef))
		k = d + 1 < eod && (all_flags(f, d + 1) & WN_AMD) ? COND_CUDA : COND_OTHER;
	else
		k = classify(f, d + 1, eod);
	WcPasses t = 0, fl = 0;
	if (ifdef || all_kw(f, d, WK_ifndef)) {
		if (d + 1 < eod)
			wc_cond_ifdef(f, d + 1, !ifdef, &t, &fl);
	} else {
		wc_cond_eval(f, d + 1, eod, &t, &fl);
	}
	/* #if defined(AMD_MFMA_AVAILABLE) inside #if defined(GGML_USE_HIP):
	 * its #else is AMD code too (chips without the feature), and whether
	 * a pass defines the feature is not known. */
	bool feature = in_amd_branch(pp, pp->depth) && cond_amd_feature(f, d + 1, eod);
	push_frame(pp, i, d + 1, eod, ifdef, feature ? COND_OTHER : k, t & pp->all, fl & pp->all);
	if (feature) {
		pp->st[pp->depth - 1].feature = true;
		pp->st[pp->depth - 1].maybe = pp->all;
	}
}

static void next_branch(PP *pp, int d, int eod)
{
	WcFile *f = pp->f;
	Frame *fr = &pp->st[pp->depth - 1];
	if (all_kw(f, d, WK_else)) {
		fr->cur_cuda = fr->rest_cuda;
		fr->cur_amd = fr->rest_amd;
		fr->arch_else = true;
		enter_branch(pp, fr, pp->all, 0);
		if (fr->feature)
			fr->maybe = pp->all;
		return;
	}
	WcPasses t, fl;
	wc_cond_eval(f, d + 1, eod, &t, &fl);
	enter_branch(pp, fr, t & pp->all, fl & pp->all);
	fr->amd = fr->amd || cond_amd(f, d + 1, eod);
	CondKind k = classify(f, d + 1, eod);
	fr->feature = fr->feature || (in_amd_branch(pp, pp->depth - 1) && cond_amd_feature(f, d + 1, eod));
	if (fr->feature) {
		k = COND_OTHER;
		fr->maybe = pp->all;
	}
	fr->cur_cuda = fr->rest_cuda || k == COND_CUDA;
	fr->cur_amd = !fr->rest_cuda && (fr->rest_amd || k == COND_AMD);
	fr->rest_cuda = fr->rest_cuda || k == COND_AMD;
	uint32_t tg = cond_target(f, d + 1, eod);
	if (tg != NO_NAME)
		fr->target = tg;
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
		} else {
			next_branch(pp, d, eod);
		}
	} else if (all_kw(f, d, WK_define) && !cuda) {
		define(pp, d + 1, eod);
	} else if (all_kw(f, d, WK_include) && !cuda && d + 1 < eod &&
	           (f->all[d + 1].kind == WT_STRING || all_op(f, d + 1, WP_LT))) {
		include_defs(f, d + 1, eod);
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

/* A declaration of a name warpSize of the project's own: "int warpSize",
 * "template <int warpSize = 32>", "const auto warpSize = ...". */
static bool own_decl(const WcFile *f, int i)
{
	if (!(wc_flags(f, i - 1) & WN_TYPE) || wc_op(f, i - 2, WP_DOT) || wc_op(f, i - 2, WP_ARROW))
		return false;
	return wc_op(f, i + 1, WP_ASSIGN) || wc_op(f, i + 1, WP_COMMA) || wc_op(f, i + 1, WP_GT) ||
	       wc_op(f, i + 1, WP_RPAREN) || wc_op(f, i + 1, WP_SEMI) || wc_op(f, i + 1, WP_LBRACE);
}

/* A project's own warpSize (a variable, a parameter, a template parameter)
 * is not the device's: its uses in its scope get a name of their own,
 * which counts as a width name the file gives no fixed value (or the one
 * it is initialised with). The scope: the rest of the enclosing block;
 * for a parameter or template parameter, the function body that follows. */
static void own_warp_size(WcFile *f)
{
	if (!f->lex_warp_size)
		return;  /* no warpSize in the code (the lexer's note): nothing to rename, no scopes to follow */
	uint32_t own = UINT32_MAX;
	int *stack = NULL, depth = 0, cap = 0, paren = 0;
	for (int i = 0; i < f->n; i++) {
		const WcTok *t = &f->t[i];
		if (t->kind == WT_PUNCT) {
			if (t->op == WP_LBRACE) {
				if (depth == cap)
					stack = base_realloc(stack, (size_t)(cap = cap ? cap * 2 : 16) * sizeof *stack);
				stack[depth++] = i;
			} else if (t->op == WP_RBRACE && depth > 0) {
				depth--;
			} else if (t->op == WP_LPAREN) {
				paren++;
			} else if (t->op == WP_RPAREN && paren > 0) {
				paren--;
			}
			continue;
		}
		if (t->id != WK_warpSize || t->kind != WT_IDENT || !own_decl(f, i))
			continue;
		int end = -1;
		bool param = paren > 0 || wc_op(f, i + 1, WP_GT) || wc_op(f, i + 1, WP_COMMA);
		for (int k = i - 1; k >= 0 && k > i - 64 && !param; k--) {
			if (wc_op(f, k, WP_SEMI) || wc_op(f, k, WP_LBRACE) || wc_op(f, k, WP_RBRACE))
				break;
			param = wc_op(f, k, WP_LT) && wc_kw(f, k - 1, WK_template);  /* template <int warpSize = 32> */
		}
		if (param) {
			int k = i + 1, pd = 0;
			for (; k < f->n; k++) {
				if (wc_op(f, k, WP_LPAREN))
					pd++;
				else if (wc_op(f, k, WP_RPAREN))
					pd--;
				else if (pd <= 0 && (wc_op(f, k, WP_LBRACE) || wc_op(f, k, WP_SEMI)))
					break;
			}
			if (k < f->n && wc_op(f, k, WP_LBRACE))
				end = wc_match(f, k);
		} else {
			end = depth > 0 ? wc_match(f, stack[depth - 1]) : f->n - 1;
		}
		if (end < 0)
			continue;
		if (own == UINT32_MAX)
			own = wc_intern(f->names, "warpSize'", 9);
		for (int k = i; k <= end; k++)
			if (f->t[k].kind == WT_IDENT && f->t[k].id == WK_warpSize && !wc_op(f, k - 1, WP_DOT) &&
			    !wc_op(f, k - 1, WP_ARROW) && !wc_op(f, k - 1, WP_SCOPE))
				f->t[k].id = own;
	}
	free(stack);
}

/* Constants from code: "T name = 32;" Any other write makes them unknown. */
static void code_consts(WcFile *f)
{
	own_warp_size(f);
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

/* Two branches of one #if/#else, one for AMD and one for CUDA, that are
 * the same text except that the AMD one has 64 where the other has 32
 * (THREADS_PER_CTA / 64 against / 32, a local "const int THREADS_PER_WARP
 * = 64"): the AMD branch hard-codes the CDNA width for every AMD target,
 * and RDNA runs 32. Branches with directives inside are not compared. */
static bool directive_start(const WcFile *f, int i);

static bool same_tok(const WcFile *f, int a, int b)
{
	const WcTok *x = &f->t[a], *y = &f->t[b];
	if (x->kind != y->kind)
		return false;
	if (x->kind == WT_NUMBER && x->num_ok && y->num_ok)
		return x->num == y->num;
	return x->len == y->len && memcmp(f->src.text + x->off, f->src.text + y->off, x->len) == 0;
}

/* Code tokens [a, a_end) of the AMD branch against [b, b_end) of the other. */
static void pair_branch(WcFile *f, int a, int a_end, int b, int b_end)
{
	if (a_end - a != b_end - b || a_end <= a || a_end - a > 4096)
		return;
	int at64 = -1;
	for (int k = 0; k < a_end - a; k++) {
		if (same_tok(f, a + k, b + k))
			continue;
		const WcTok *x = &f->t[a + k], *y = &f->t[b + k];
		if (x->kind != WT_NUMBER || y->kind != WT_NUMBER || !x->num_ok || !y->num_ok || x->num != 64 || y->num != 32)
			return;
		if (at64 < 0)
			at64 = a + k;
	}
	if (at64 < 0 || f->t[at64].cuda_only)
		return;
	int from = at64;  /* name the expression: "THREADS_PER_CTA/64" */
	while (from > a && at64 - from < 2 && !wc_op(f, from - 1, WP_ASSIGN) && !wc_op(f, from - 1, WP_LPAREN) &&
	       !wc_op(f, from - 1, WP_SEMI) && !wc_op(f, from - 1, WP_LBRACE) && !wc_op(f, from - 1, WP_COMMA))
		from--;
	int last = at64;
	if (from == at64 && wc_op(f, at64 - 1, WP_ASSIGN) && at64 - 2 >= a && wc_ident(f, at64 - 2))
		from = last = at64 - 2;  /* "THREADS_PER_WARP = 64": name the variable */
	const WcTok *t0 = &f->t[from], *t1 = &f->t[last];
	char what[128];
	snprintf(what, sizeof what, "the AMD branch's %.*s (32 in its #else)",
		(int)(t1->off + t1->len - t0->off) > 64 ? 64 : (int)(t1->off + t1->len - t0->off), f->src.text + t0->off);
	WcPasses chips = wc_config_passes(f->cfg) & ~WC_HOST_PASS;
	wc_width_passes(f, &f->t[at64], what, (int)strlen(what), 64, chips);
}

static void branch_pairs(WcFile *f)
{
	typedef struct { int cond, cond_end, els, els_eod, inner; CondKind k; } Open;
	Open st[64];
	int depth = 0;
	for (int i = 0; i < f->nall; i++) {
		if (!directive_start(f, i))
			continue;
		int d = i + 1, eod = find_eod(f, i);
		if (d >= eod) {
			i = eod;
			continue;
		}
		bool ifdef = all_kw(f, d, WK_ifdef), ifndef = all_kw(f, d, WK_ifndef);
		if (ifdef || ifndef || all_kw(f, d, WK_if)) {
			if (depth > 0)
				st[depth - 1 < 64 ? depth - 1 : 63].inner = 1;
			if (depth < 64) {
				CondKind k = ifdef ? (d + 1 < eod && (all_flags(f, d + 1) & WN_AMD) ? COND_AMD : COND_OTHER)
				           : ifndef ? (d + 1 < eod && (all_flags(f, d + 1) & WN_AMD) && !include_guard(f, d, eod)
				                       ? COND_CUDA : COND_OTHER)
				                    : classify(f, d + 1, eod);
				st[depth] = (Open){i, eod, -1, -1, 0, k};
			}
			depth++;
		} else if (all_kw(f, d, WK_elif) && depth > 0 && depth <= 64) {
			st[depth - 1].k = COND_OTHER;
		} else if (all_kw(f, d, WK_else) && depth > 0 && depth <= 64) {
			st[depth - 1].els = i;
			st[depth - 1].els_eod = eod;
		} else if (all_kw(f, d, WK_endif) && depth > 0) {
			if (depth <= 64) {
				Open *o = &st[depth - 1];
				int c0 = (int)f->all[o->cond].num, c1 = o->els >= 0 ? (int)f->all[o->els].num : 0;
				int c2 = (int)f->all[i].num;
				if (o->els >= 0 && !o->inner && o->k == COND_AMD)
					pair_branch(f, c0, c1, c1, c2);
				else if (o->els >= 0 && !o->inner && o->k == COND_CUDA)
					pair_branch(f, c1, c2, c0, c1);
			}
			depth--;
		} else if (depth > 0 && depth <= 64) {
			st[depth - 1].inner = 1;  /* a #define or #include inside: not compared */
		}
		i = eod;
	}
}

/* A width constant chosen per target in code: "constexpr int kWarpSize =
 * 32;" under #if __AMDGCN_WAVEFRONT_SIZE == 32u, "= 64;" in its #else.
 * When the value the host pass sees differs from what some chip compiles,
 * host code that uses the name is wrong for that chip (rule_arch.c, H8),
 * as for a #define under a per-target macro: the name gets the same fact,
 * which a header's summary carries to the files that include it. */
typedef struct { uint32_t id, target; uint64_t v; WcPasses maybe; } TargetDef;

static void target_consts(WcFile *f)
{
	bool amd = false;  /* a definition is taken only in a region about AMD: most files have none */
	for (int r = 0; r < f->nregions && !amd; r++)
		amd = f->regions[r].amd;
	if (!amd)
		return;
	TargetDef defs[32];
	int n = 0;
	const WcTok *t = f->t;
	const uint16_t *fl = f->names->fl;
	for (int i = 1; i + 3 < f->n && n < (int)TC_COUNT(defs); i++) {
		uint64_t v;
		if (t[i].kind != WT_IDENT || !(fl[t[i].id] & WN_WARPISH))  /* wc_flags, read directly */
			continue;
		if (!(wc_flags(f, i - 1) & WN_TYPE) ||
		    !wc_op(f, i + 1, WP_ASSIGN) || f->t[i + 2].kind != WT_NUMBER || !wc_op(f, i + 3, WP_SEMI) ||
		    !wc_value(f, i + 2, &v) || (v != 32 && v != 64) || f->t[i].cuda_only)
			continue;
		const WcRegion *r = wc_region_at(f, i);
		if (r && r->amd)
			defs[n++] = (TargetDef){f->t[i].id, r->target, v, r->maybe};
	}
	for (int a = 0; a < n; a++) {
		if (!(defs[a].maybe & WC_HOST_PASS))
			continue;
		uint32_t target = NO_NAME;
		for (int b = 0; b < n; b++)
			if (defs[b].id == defs[a].id && defs[b].v != defs[a].v && (defs[b].maybe & ~WC_HOST_PASS))
				target = defs[b].target != NO_NAME ? defs[b].target : defs[a].target;
		if (target == NO_NAME)
			continue;
		WcName *nm = &f->names->v[defs[a].id];
		wc_touch(f->names, defs[a].id, f->stamp);
		nm->target_stamp = f->stamp;
		nm->target_macro = target;
		nm->target_file = NULL;
	}
}

/* A directive starts at a '#' that opens a preprocessor line. */
static bool directive_start(const WcFile *f, int i)
{
	return all_op(f, i, WP_HASH) && (i == 0 || f->all[i - 1].kind == WT_EOD);
}

/* Code tokens [from, to) lie in the current region. Most code is in no
 * CUDA-only or all-AMD region, and the lexer left the flags clear. */
/* The code from token at on is compiled by the passes in force now. */
static void add_region(PP *pp, int at)
{
	WcFile *f = pp->f;
	WcRegion r = {.from = at, .target = in_target_or_wave(pp)};
	r.amd = in_passes(pp, &r.def, &r.maybe);
	if (f->nregions && f->regions[f->nregions - 1].from == at)
		f->nregions--;
	if (f->nregions && f->regions[f->nregions - 1].def == r.def && f->regions[f->nregions - 1].maybe == r.maybe &&
	    f->regions[f->nregions - 1].amd == r.amd && f->regions[f->nregions - 1].target == r.target)
		return;
	if (f->nregions == f->regions_cap) {
		f->regions_cap = f->regions_cap ? f->regions_cap * 2 : 16;
		f->regions = base_realloc(f->regions, (size_t)f->regions_cap * sizeof *f->regions);
	}
	f->regions[f->nregions++] = r;
}

/* No pass of a HIP build compiles what is being read: it is for CUDA only
 * (the classification by names, unless the evaluation shows some pass
 * certainly compiles it, or the evaluation alone). */
static bool dead_on_hip(const PP *pp)
{
	WcPasses def, maybe;
	in_passes(pp, &def, &maybe);
	return maybe == 0 || (in_cuda(pp) && def == 0);
}

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
	PP *pp = base_malloc(sizeof *pp);
	pp->f = f;
	pp->depth = pp->cap = 0;
	pp->st = NULL;
	pp->all = wc_config_passes(f->cfg);
	f->nregions = 0;
	add_region(pp, 0);
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
		cuda = dead_on_hip(pp);  /* the region changes only at directives */
		amd_wide = in_amd_wide(pp);
		add_region(pp, at);
	}
	mark_region(f, code, f->n, cuda, amd_wide);
	for (int k = pp->depth - 1; k >= 0; k--) {
		diag_at(f->diag, DIAG_ERROR, &f->src, f->all[pp->st[k].tok].off, "unterminated #if (no matching #endif)");
		f->errors++;
	}
	free(pp->st);
	free(pp);
	code_consts(f);
	target_consts(f);
	branch_pairs(f);
}
