/* lex.c: a C/C++/CUDA tokenizer that never gives up.
 *
 * Rules need exact line:col for every token, and the checker runs over
 * whatever a tree holds, so every malformed input (unterminated comments
 * and strings, stray bytes, invalid UTF-8) becomes one diagnostic and the
 * lexer carries on. Directives are kept as tokens flagged `pp` and closed
 * by a WT_EOD token, so pp.c reads them with the same helpers. */
#include "warpcheck/warpcheck.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct Lexer {
	WcFile *f;
	const char *s;
	size_t n, pos;
	int line, col;
	bool bol;      /* only whitespace seen on this line so far */
	bool in_pp;
	int cap;
} Lexer;

/* A garbage file could hold thousands of stray quotes; after a few
 * errors the rest of that file's are not worth reading. */
static void lex_error(Lexer *lx, size_t off, const char *msg)
{
	if (lx->f->errors == 20)
		diag_at(lx->f->diag, DIAG_NOTE, &lx->f->src, off, "too many errors; the rest of this file's are not shown");
	if (lx->f->errors++ < 20)
		diag_at(lx->f->diag, DIAG_ERROR, &lx->f->src, off, "%s", msg);
}

static char peek(const Lexer *lx, size_t k)
{
	return lx->pos + k < lx->n ? lx->s[lx->pos + k] : '\0';
}

static void advance(Lexer *lx, size_t k)
{
	for (size_t i = 0; i < k && lx->pos < lx->n; i++, lx->pos++) {
		if (lx->s[lx->pos] == '\n') {
			lx->line++;
			lx->col = 1;
		} else {
			lx->col++;
		}
	}
}

static WcTok *push(Lexer *lx, WcTokKind kind, size_t off, int line, int col)
{
	WcFile *f = lx->f;
	if (f->nall == lx->cap) {
		lx->cap = lx->cap ? lx->cap * 2 : 256;
		f->all = xrealloc(f->all, (size_t)lx->cap * sizeof *f->all);
	}
	WcTok *t = &f->all[f->nall++];
	memset(t, 0, sizeof *t);
	t->kind = kind;
	t->off = (uint32_t)off;
	t->len = (uint32_t)(lx->pos - off);
	t->line = line;
	t->col = col;
	t->pp = lx->in_pp;
	return t;
}

/* "// warpcheck: ignore H3, H4 -- reason" on this line or the next. */
static void note_suppression(Lexer *lx, size_t from, size_t to, int line)
{
	const char *p = lx->s + from, *end = lx->s + to;
	const char *key = "warpcheck:";
	for (; p + strlen(key) <= end; p++)
		if (memcmp(p, key, strlen(key)) == 0)
			break;
	if (p + strlen(key) > end)
		return;
	p += strlen(key);
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p < 6 || memcmp(p, "ignore", 6) != 0)
		return;
	p += 6;
	WcFile *f = lx->f;
	f->sup = xrealloc(f->sup, (size_t)(f->nsup + 1) * sizeof *f->sup);
	WcSuppress *s = &f->sup[f->nsup++];
	s->line = line;
	size_t k = 0;
	/* Keep only the ids ("H3 H4"); the rest is the reason. */
	while (p < end && k + 5 < sizeof s->ids) {
		while (p < end && (*p == ' ' || *p == ',' || *p == '\t'))
			p++;
		if (p >= end || *p != 'H' || p + 1 >= end || !isdigit((unsigned char)p[1]))
			break;
		s->ids[k++] = *p++;
		while (p < end && isdigit((unsigned char)*p) && k + 2 < sizeof s->ids)
			s->ids[k++] = *p++;
		s->ids[k++] = ' ';
	}
	s->ids[k] = '\0';
}

static void skip_line_comment(Lexer *lx)
{
	size_t from = lx->pos;
	int line = lx->line;
	while (lx->pos < lx->n && lx->s[lx->pos] != '\n') {
		if (lx->s[lx->pos] == '\\' && peek(lx, 1) == '\n')
			advance(lx, 1);
		advance(lx, 1);
	}
	note_suppression(lx, from, lx->pos, line);
}

static void skip_block_comment(Lexer *lx)
{
	size_t from = lx->pos;
	int line = lx->line;
	advance(lx, 2);
	while (lx->pos < lx->n && !(lx->s[lx->pos] == '*' && peek(lx, 1) == '/'))
		advance(lx, 1);
	if (lx->pos >= lx->n) {
		lex_error(lx, from, "unterminated comment");
		return;
	}
	advance(lx, 2);
	note_suppression(lx, from, lx->pos, line);
}

/* A quoted literal; stops at an unescaped newline so one bad quote does
 * not swallow the rest of the file. */
static void lex_quoted(Lexer *lx, size_t start, char q)
{
	advance(lx, 1);
	while (lx->pos < lx->n && lx->s[lx->pos] != q) {
		if (lx->s[lx->pos] == '\n') {
			lex_error(lx, start, q == '"' ? "unterminated string literal"
			                              : "unterminated character literal");
			return;
		}
		advance(lx, lx->s[lx->pos] == '\\' ? 2 : 1);
	}
	if (lx->pos >= lx->n) {
		lex_error(lx, start, q == '"' ? "unterminated string literal"
		                              : "unterminated character literal");
		return;
	}
	advance(lx, 1);
}

/* R"delim( ... )delim" */
static void lex_raw(Lexer *lx, size_t start)
{
	advance(lx, 1);
	size_t d = lx->pos;
	while (lx->pos < lx->n && lx->s[lx->pos] != '(' && lx->pos - d <= 16 &&
	       !strchr(" )\\\t\n\"", lx->s[lx->pos]))
		advance(lx, 1);
	if (lx->pos >= lx->n || lx->s[lx->pos] != '(') {
		lex_error(lx, start, "invalid raw string delimiter");
		return;
	}
	size_t dlen = lx->pos - d;
	advance(lx, 1);
	while (lx->pos < lx->n) {
		if (lx->s[lx->pos] == ')' && lx->pos + dlen + 1 < lx->n &&
		    memcmp(lx->s + lx->pos + 1, lx->s + d, dlen) == 0 && lx->s[lx->pos + 1 + dlen] == '"') {
			advance(lx, dlen + 2);
			return;
		}
		advance(lx, 1);
	}
	lex_error(lx, start, "unterminated raw string literal");
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$' || (unsigned char)c >= 0x80;
}

static bool string_prefix(const char *s, size_t n, bool *raw)
{
	static const char *pre[] = {"u8", "u", "U", "L", "R", "u8R", "uR", "UR", "LR"};
	for (size_t i = 0; i < TC_COUNT(pre); i++) {
		if (strlen(pre[i]) == n && memcmp(pre[i], s, n) == 0) {
			*raw = s[n - 1] == 'R';
			return true;
		}
	}
	return false;
}

/* Fills num/num_ok/num_wide: integers only, with u/l suffixes. */
static void number_value(WcTok *t, const char *s)
{
	char buf[80];
	size_t k = 0;
	for (uint32_t i = 0; i < t->len && k + 1 < sizeof buf; i++)
		if (s[i] != '\'')
			buf[k++] = s[i];
	buf[k] = '\0';
	char *end;
	uint64_t v;
	if (buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B'))
		v = strtoull(buf + 2, &end, 2);
	else
		v = strtoull(buf, &end, 0);
	for (const char *p = end; *p; p++)
		if (!strchr("uUlL", *p))
			return;
	t->num = v;
	t->num_ok = true;
	t->num_wide = strstr(end, "ll") || strstr(end, "LL");
}

static void lex_number(Lexer *lx)
{
	while (lx->pos < lx->n) {
		char c = lx->s[lx->pos];
		if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && (peek(lx, 1) == '+' || peek(lx, 1) == '-'))
			advance(lx, 2);
		else if (c == '\'' && ident_char(peek(lx, 1)))
			advance(lx, 2);
		else if (ident_char(c) || c == '.')
			advance(lx, 1);
		else
			break;
	}
}

static size_t punct_len(const char *s, size_t left)
{
	static const char *ops[] = {
		"<<<", ">>>", "<<=", ">>=", "...", "->*", "<=>",
		"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=",
		"*=", "/=", "%=", "&=", "|=", "^=", "::", "##", ".*",
	};
	for (size_t i = 0; i < TC_COUNT(ops); i++) {
		size_t k = strlen(ops[i]);
		if (k <= left && memcmp(s, ops[i], k) == 0)
			return k;
	}
	return 1;
}

/* One token (or comment/whitespace) at lx->pos. */
static void lex_one(Lexer *lx)
{
	char c = lx->s[lx->pos];
	size_t start = lx->pos;
	int line = lx->line, col = lx->col;
	if (c == '\n') {
		if (lx->in_pp) {
			push(lx, WT_EOD, start, line, col);
			lx->in_pp = false;
		}
		advance(lx, 1);
		lx->bol = true;
		return;
	}
	if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
		advance(lx, 1);
		return;
	}
	if (c == '\\' && (peek(lx, 1) == '\n' || (peek(lx, 1) == '\r' && peek(lx, 2) == '\n'))) {
		advance(lx, peek(lx, 1) == '\n' ? 2 : 3);  /* line continuation */
		return;
	}
	if (c == '/' && peek(lx, 1) == '/') {
		skip_line_comment(lx);
		return;
	}
	if (c == '/' && peek(lx, 1) == '*') {
		skip_block_comment(lx);
		return;
	}
	bool bol = lx->bol;
	lx->bol = false;
	if (c == '#' && bol)
		lx->in_pp = true;
	if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)peek(lx, 1)))) {
		lex_number(lx);
		number_value(push(lx, WT_NUMBER, start, line, col), lx->s + start);
	} else if (ident_char(c)) {
		while (lx->pos < lx->n && ident_char(lx->s[lx->pos]))
			advance(lx, 1);
		bool raw = false;
		if (lx->pos < lx->n && lx->s[lx->pos] == '"' && string_prefix(lx->s + start, lx->pos - start, &raw)) {
			if (raw)
				lex_raw(lx, start);
			else
				lex_quoted(lx, start, '"');
			push(lx, WT_STRING, start, line, col);
		} else if (lx->pos < lx->n && lx->s[lx->pos] == '\'' &&
		           string_prefix(lx->s + start, lx->pos - start, &raw) && !raw) {
			lex_quoted(lx, start, '\'');
			push(lx, WT_CHAR, start, line, col);
		} else {
			push(lx, WT_IDENT, start, line, col);
		}
	} else if (c == '"' || c == '\'') {
		lex_quoted(lx, start, c);
		push(lx, c == '"' ? WT_STRING : WT_CHAR, start, line, col);
	} else {
		advance(lx, punct_len(lx->s + start, lx->n - start));
		push(lx, WT_PUNCT, start, line, col);
	}
}

/* Offset of the first byte that is not valid UTF-8, or (size_t)-1. */
static size_t bad_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned c = s[i];
		size_t k = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : 9;
		if (k == 9 || (k == 1 && c < 0xc2) || i + k >= n + (k == 0))
			return i;
		for (size_t j = 1; j <= k; j++)
			if ((s[i + j] & 0xc0) != 0x80)
				return i;
		i += k + 1;
	}
	return (size_t)-1;
}

void wc_lex(WcFile *f)
{
	Lexer lx = {.f = f, .s = f->src.text, .n = f->src.len, .line = 1, .col = 1, .bol = true};
	size_t bad = bad_utf8((const unsigned char *)lx.s, lx.n);
	if (bad != (size_t)-1)
		lex_error(&lx, bad, "invalid UTF-8 byte; the file is checked as raw bytes");
	if (lx.n >= 3 && memcmp(lx.s, "\xef\xbb\xbf", 3) == 0)
		lx.pos = 3;  /* a byte-order mark is not a token: "#" after it still starts a directive */
	while (lx.pos < lx.n)
		lex_one(&lx);
	if (lx.in_pp)
		push(&lx, WT_EOD, lx.pos, lx.line, lx.col);
}
