/* pp.c: just enough of the preprocessor to be precise.
 *
 * Code that only NVIDIA compilers see (under #ifndef __HIP_PLATFORM_AMD__,
 * #if !defined(USE_ROCM), the #else of #ifdef GGML_USE_HIP, ...) cannot hurt
 * a wavefront, so its tokens are marked cuda_only and rules stay quiet.
 * __CUDA_ARCH__ and __CUDACC__ are not such guards: HIP ports define them.
 * Object-like #defines with a number become constants (WARP_SIZE 32), and
 * function-like ones record which parameters they use, so a shim that drops
 * the mask of a _sync intrinsic is recognised. */
#include "warpcheck/warpcheck.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef enum { COND_OTHER, COND_CUDA, COND_AMD } CondKind;

typedef struct Frame {
	bool cur_cuda;   /* the branch being read is CUDA-only */
	bool rest_cuda;  /* every later #elif/#else branch is CUDA-only */
	int tok;         /* the #if, for "unterminated #if" */
} Frame;

/* A macro that is only defined when compiling for AMD GPUs. */
static bool amd_macro(const WcFile *f, int i)
{
	const WcTok *t = &f->all[i];
	if (t->kind != WT_IDENT)
		return false;
	char name[96];
	size_t n = t->len < sizeof name - 1 ? t->len : sizeof name - 1;
	memcpy(name, f->src.text + t->off, n);
	name[n] = '\0';
	if (strstr(name, "NVIDIA") || strstr(name, "NVCC") || strstr(name, "CUDA"))
		return false;
	return strstr(name, "HIP") || strstr(name, "ROCM") || strstr(name, "AMD");
}

static bool all_is(const WcFile *f, int i, const char *s)
{
	const WcTok *t = &f->all[i];
	return t->len == strlen(s) && memcmp(f->src.text + t->off, s, t->len) == 0;
}

/* Classifies the condition tokens [from, to) of #if/#elif. */
static CondKind classify(const WcFile *f, int from, int to)
{
	bool neg_amd = false, pos_amd = false, has_or = false, has_and = false;
	for (int i = from; i < to; i++) {
		if (all_is(f, i, "||"))
			has_or = true;
		if (all_is(f, i, "&&"))
			has_and = true;
		if (!amd_macro(f, i))
			continue;
		/* Walk back over "defined" and "(" to find a "!". */
		int j = i - 1;
		while (j >= from && (all_is(f, j, "(") || all_is(f, j, "defined")))
			j--;
		if (j >= from && all_is(f, j, "!"))
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

static void add_const(WcFile *f, const char *name, size_t len, uint64_t v, bool conflict)
{
	if (len >= sizeof f->consts[0].name)
		return;
	for (int i = 0; i < f->nconsts; i++) {
		WcConst *c = &f->consts[i];
		if (strlen(c->name) == len && memcmp(c->name, name, len) == 0) {
			if (conflict || c->value != v)
				c->conflict = true;
			return;
		}
	}
	f->consts = xrealloc(f->consts, (size_t)(f->nconsts + 1) * sizeof *f->consts);
	WcConst *c = &f->consts[f->nconsts++];
	memcpy(c->name, name, len);
	c->name[len] = '\0';
	c->value = v;
	c->conflict = conflict;
}

/* #define NAME(params) body: which params does the body use? */
static void add_macro(WcFile *f, int name, int open, int eod)
{
	const WcTok *nt = &f->all[name];
	if (nt->len >= sizeof f->macros[0].name)
		return;
	WcMacro m = {0};
	memcpy(m.name, f->src.text + nt->off, nt->len);
	int params[32], np = 0, i = open + 1;
	for (; i < eod && !all_is(f, i, ")"); i++)
		if (f->all[i].kind == WT_IDENT && np < 32)
			params[np++] = i;
	m.nparams = np;
	for (int j = i + 1; j < eod; j++) {
		for (int p = 0; p < np; p++) {
			const WcTok *a = &f->all[params[p]], *b = &f->all[j];
			if (a->len == b->len && memcmp(f->src.text + a->off, f->src.text + b->off, a->len) == 0)
				m.used |= 1u << p;
		}
	}
	f->macros = xrealloc(f->macros, (size_t)(f->nmacros + 1) * sizeof *f->macros);
	f->macros[f->nmacros++] = m;
}

static void define(WcFile *f, int i, int eod)
{
	if (i >= eod || f->all[i].kind != WT_IDENT)
		return;
	const WcTok *nt = &f->all[i];
	/* Function-like only when "(" follows the name with no space. */
	if (i + 1 < eod && all_is(f, i + 1, "(") && f->all[i + 1].off == nt->off + nt->len) {
		add_macro(f, i, i + 1, eod);
		return;
	}
	int v = i + 1;
	while (v < eod && all_is(f, v, "("))
		v++;
	if (v < eod && f->all[v].kind == WT_NUMBER && f->all[v].num_ok)
		add_const(f, f->src.text + nt->off, nt->len, f->all[v].num, false);
}

/* #include "x.h" from the same tree: its #defines (shims, WARP_SIZE) count
 * as this file's. Errors in it are not this file's to report. */
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
		              .include_depth = f->include_depth + 1};
		wc_lex(&sub);
		wc_preprocess(&sub);
		for (int i = 0; i < sub.nconsts; i++)
			if (!sub.consts[i].conflict)
				add_const(f, sub.consts[i].name, strlen(sub.consts[i].name), sub.consts[i].value, false);
		f->macros = xrealloc(f->macros, (size_t)(f->nmacros + sub.nmacros + 1) * sizeof *f->macros);
		memcpy(f->macros + f->nmacros, sub.macros, (size_t)sub.nmacros * sizeof *sub.macros);
		f->nmacros += sub.nmacros;
		free(sub.all);
		free(sub.t);
		free(sub.consts);
		free(sub.macros);
		free(sub.sup);
		buf_free(&quiet.text);
	}
	free(text);
	buf_free(&path);
}

static int find_eod(const WcFile *f, int i)
{
	while (i < f->nall && f->all[i].kind != WT_EOD)
		i++;
	return i;
}

/* Handles the directive whose '#' is at i; returns the index of its EOD. */
static int directive(WcFile *f, int i, Frame *st, int *depth, bool cuda)
{
	int eod = find_eod(f, i);
	int d = i + 1;
	if (d >= eod)
		return eod;
	if (all_is(f, d, "if") || all_is(f, d, "ifdef") || all_is(f, d, "ifndef")) {
		CondKind k = classify(f, d + 1, eod);
		if (all_is(f, d, "ifdef"))
			k = d + 1 < eod && amd_macro(f, d + 1) ? COND_AMD : COND_OTHER;
		else if (all_is(f, d, "ifndef"))
			k = d + 1 < eod && amd_macro(f, d + 1) ? COND_CUDA : COND_OTHER;
		if (*depth < 256)
			st[*depth] = (Frame){k == COND_CUDA, k == COND_AMD, i};
		(*depth)++;
	} else if (all_is(f, d, "elif") || all_is(f, d, "else") || all_is(f, d, "endif")) {
		if (*depth == 0) {
			diag_at(f->diag, DIAG_ERROR, &f->src, f->all[i].off, "#%.*s without #if",
				(int)f->all[d].len, f->src.text + f->all[d].off);
			f->errors++;
			return eod;
		}
		Frame *fr = &st[imin(*depth, 256) - 1];
		if (all_is(f, d, "endif")) {
			(*depth)--;
		} else if (all_is(f, d, "else")) {
			fr->cur_cuda = fr->rest_cuda;
		} else {
			CondKind k = classify(f, d + 1, eod);
			fr->cur_cuda = fr->rest_cuda || k == COND_CUDA;
			fr->rest_cuda = fr->rest_cuda || k == COND_AMD;
		}
	} else if (all_is(f, d, "define") && !cuda) {
		define(f, d + 1, eod);
	} else if (all_is(f, d, "include") && !cuda && d + 1 < eod && f->all[d + 1].kind == WT_STRING) {
		include_defs(f, d + 1);
	}
	return eod;
}

static bool in_cuda(const Frame *st, int depth)
{
	for (int k = 0; k < imin(depth, 256); k++)
		if (st[k].cur_cuda)
			return true;
	return false;
}

/* Constants from code: "T name = 32;" Any other write makes them unknown. */
static void code_consts(WcFile *f)
{
	for (int i = 0; i + 1 < f->n; i++) {
		WcTok *t = &f->t[i];
		if (t->kind != WT_IDENT)
			continue;
		const char *s = f->src.text + t->off;
		bool pre = i > 0 && (wc_is(f, i - 1, "++") || wc_is(f, i - 1, "--"));
		if (wc_is(f, i + 1, "=")) {
			bool lit = i + 3 < f->n && f->t[i + 2].kind == WT_NUMBER && f->t[i + 2].num_ok &&
			           (wc_is(f, i + 3, ";") || wc_is(f, i + 3, ",") || wc_is(f, i + 3, ")"));
			add_const(f, s, t->len, lit ? f->t[i + 2].num : 0, !lit);
		} else if (pre || (f->t[i + 1].kind == WT_PUNCT && f->t[i + 1].len >= 2 &&
		                   (f->src.text[f->t[i + 1].off + f->t[i + 1].len - 1] == '=' ||
		                    wc_is(f, i + 1, "++") || wc_is(f, i + 1, "--")) &&
		                   !wc_is(f, i + 1, "==") && !wc_is(f, i + 1, "!=") &&
		                   !wc_is(f, i + 1, "<=") && !wc_is(f, i + 1, ">="))) {
			add_const(f, s, t->len, 0, true);
		}
	}
}

void wc_preprocess(WcFile *f)
{
	Frame st[256];
	int depth = 0;
	f->t = xmalloc((size_t)(f->nall + 1) * sizeof *f->t);
	f->n = 0;
	for (int i = 0; i < f->nall; i++) {
		bool cuda = in_cuda(st, depth);
		if (f->all[i].pp) {
			f->all[i].cuda_only = cuda;
			if (f->all[i].kind == WT_PUNCT && all_is(f, i, "#") &&
			    (i == 0 || f->all[i - 1].kind == WT_EOD || !f->all[i - 1].pp)) {
				int eod = directive(f, i, st, &depth, cuda);
				for (int j = i; j <= eod && j < f->nall; j++)
					f->all[j].cuda_only = cuda;
				i = eod;
			}
			continue;
		}
		f->all[i].cuda_only = cuda;
		f->t[f->n++] = f->all[i];
	}
	for (int k = depth - 1; k >= 0; k--) {
		if (k < 256) {
			diag_at(f->diag, DIAG_ERROR, &f->src, f->all[st[k].tok].off, "unterminated #if (no matching #endif)");
			f->errors++;
		}
	}
	code_consts(f);
}
