/* util.c: token helpers the rules share, and the one place findings are
 * made (so the CUDA-only exemption cannot be forgotten by a rule). */
#include "warpcheck/warpcheck.h"

#include <string.h>

bool wc_is(const WcFile *f, int i, const char *s)
{
	if (i < 0 || i >= f->n)
		return false;
	const WcTok *t = &f->t[i];
	const char *p = f->src.text + t->off;
	/* Rules ask this of every token: reject on the first byte before
	 * measuring anything. */
	if (t->len == 0 || p[0] != s[0] || t->kind == WT_STRING || t->kind == WT_CHAR)
		return false;
	return strncmp(p, s, t->len) == 0 && s[t->len] == '\0';
}

bool wc_ident_is(const WcFile *f, int i, const char *s)
{
	return i >= 0 && i < f->n && f->t[i].kind == WT_IDENT && wc_is(f, i, s);
}

/* Case-insensitive substring test on an identifier ("laneId" has "lane"). */
bool wc_ident_has(const WcFile *f, int i, const char *part)
{
	if (i < 0 || i >= f->n || f->t[i].kind != WT_IDENT)
		return false;
	const char *s = f->src.text + f->t[i].off;
	size_t n = f->t[i].len, k = strlen(part);
	for (size_t a = 0; a + k <= n; a++) {
		size_t b = 0;
		while (b < k && (s[a + b] | 0x20) == (part[b] | 0x20))
			b++;
		if (b == k)
			return true;
	}
	return false;
}

int wc_match(const WcFile *f, int open)
{
	const char *o = wc_is(f, open, "(") ? "(" : wc_is(f, open, "[") ? "[" : wc_is(f, open, "{") ? "{" : NULL;
	if (!o)
		return -1;
	const char *c = o[0] == '(' ? ")" : o[0] == '[' ? "]" : "}";
	int depth = 0;
	for (int i = open; i < f->n; i++) {
		if (wc_is(f, i, o))
			depth++;
		else if (wc_is(f, i, c) && --depth == 0)
			return i;
	}
	return -1;
}

/* Splits the arguments of the call whose "(" is at `open` at top-level
 * commas; returns how many (0 for "()"), -1 when unbalanced. */
int wc_call_args(const WcFile *f, int open, int *starts, int *ends, int max)
{
	int close = wc_match(f, open);
	if (close < 0)
		return -1;
	if (close == open + 1)
		return 0;
	int n = 0, depth = 0, start = open + 1;
	for (int i = open + 1; i <= close; i++) {
		if (wc_is(f, i, "(") || wc_is(f, i, "[") || wc_is(f, i, "{"))
			depth++;
		else if (i < close && (wc_is(f, i, ")") || wc_is(f, i, "]") || wc_is(f, i, "}")))
			depth--;
		if ((i == close || (depth == 0 && wc_is(f, i, ","))) && n < max) {
			starts[n] = start;
			ends[n] = i;  /* exclusive */
			n++;
			start = i + 1;
		}
	}
	return n;
}

const WcConst *wc_const(const WcFile *f, const char *name, size_t len)
{
	for (int i = 0; i < f->nconsts; i++)
		if (strlen(f->consts[i].name) == len && memcmp(f->consts[i].name, name, len) == 0)
			return f->consts[i].conflict ? NULL : &f->consts[i];
	return NULL;
}

const WcMacro *wc_macro(const WcFile *f, const char *name, size_t len)
{
	for (int i = 0; i < f->nmacros; i++)
		if (strlen(f->macros[i].name) == len && memcmp(f->macros[i].name, name, len) == 0)
			return &f->macros[i];
	return NULL;
}

bool wc_value(const WcFile *f, int i, uint64_t *v)
{
	if (i < 0 || i >= f->n)
		return false;
	const WcTok *t = &f->t[i];
	if (t->kind == WT_NUMBER && t->num_ok) {
		*v = t->num;
		return true;
	}
	if (t->kind != WT_IDENT)
		return false;
	const WcConst *c = wc_const(f, f->src.text + t->off, t->len);
	if (c)
		*v = c->value;
	return c != NULL;
}

static bool name_in(const WcFile *f, int i, const char *const *names, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (wc_ident_is(f, i, names[k]))
			return true;
	return false;
}

bool wc_is_shuffle(const WcFile *f, int i)
{
	static const char *const names[] = {
		"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor",
		"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
	};
	return name_in(f, i, names, TC_COUNT(names));
}

bool wc_is_ballot(const WcFile *f, int i)
{
	static const char *const names[] = {"__ballot", "__ballot_sync", "__activemask", "__match_any_sync"};
	return name_in(f, i, names, TC_COUNT(names));
}

/* Intrinsics whose first argument is a lane mask. */
bool wc_is_sync(const WcFile *f, int i)
{
	static const char *const names[] = {
		"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
		"__ballot_sync", "__any_sync", "__all_sync", "__syncwarp", "__match_any_sync",
		"__match_all_sync", "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
		"__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync",
	};
	return name_in(f, i, names, TC_COUNT(names));
}

WcFinding *wc_find(WcFile *f, int i, const char *id, const char *name, const char *fix,
	const char *fmt, ...)
{
	if (i < 0 || i >= f->n)
		return NULL;
	va_list ap;
	va_start(ap, fmt);
	WcFinding *fd = wc_vfind(f, &f->t[i], id, name, fix, fmt, ap);
	va_end(ap);
	return fd;
}

WcFinding *wc_find_tok(WcFile *f, const WcTok *t, const char *id, const char *name, const char *fix,
	const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	WcFinding *fd = wc_vfind(f, t, id, name, fix, fmt, ap);
	va_end(ap);
	return fd;
}

WcFinding *wc_vfind(WcFile *f, const WcTok *t, const char *id, const char *name, const char *fix,
	const char *fmt, va_list ap)
{
	if (t->cuda_only)
		return NULL;
	if ((f->nfinds & (f->nfinds - 1)) == 0)  /* grow at powers of two */
		f->finds = xrealloc(f->finds, (size_t)(f->nfinds ? f->nfinds * 2 : 1) * sizeof *f->finds);
	WcFinding *fd = &f->finds[f->nfinds++];
	memset(fd, 0, sizeof *fd);
	fd->off = t->off;
	fd->line = t->line;
	fd->col = t->col;
	fd->id = id;
	fd->name = name;
	snprintf(fd->fix, sizeof fd->fix, "%s", fix);
	vsnprintf(fd->msg, sizeof fd->msg, fmt, ap);
	return fd;
}

/* The edit replaces tokens first..last (inclusive) with `repl`. */
void wc_edit(WcFinding *fd, const WcFile *f, int first, int last, const char *repl)
{
	if (!fd)
		return;
	fd->has_edit = true;
	fd->eoff = f->t[first].off;
	fd->elen = f->t[last].off + f->t[last].len - fd->eoff;
	snprintf(fd->repl, sizeof fd->repl, "%s", repl);
}
