/* lex.c: a C/C++/CUDA tokenizer that never gives up.
 *
 * Rules need exact line:col for every token, and the checker runs over
 * whatever a tree holds, so every malformed input (unterminated comments
 * and strings, stray bytes, invalid UTF-8) becomes one diagnostic and the
 * lexer carries on. Code tokens go straight to f->t, what rules read;
 * directives go to f->all as tokens flagged `pp`, each closed by a WT_EOD
 * token, and their "#" knows how many code tokens came before it.
 *
 * Speed: one pass over the bytes with a character-class table; the column
 * is the distance from the start of the line, so only newlines are
 * counted; identifiers are interned (one id per spelling) and punctuators
 * get a WcPunct code here, once, so rules never compare strings. The token
 * array is sized from the file length up front and reused across files,
 * and code tokens are never copied. */
#include "warpcheck/warpcheck.h"

#include <stdlib.h>
#include <string.h>

enum { C_SPACE = 1, C_IDENT = 2, C_DIGIT = 4 };

/* Character classes; bytes >= 0x80 count as identifier bytes (UTF-8). */
static const uint8_t cclass[256] = {
	[' '] = C_SPACE, ['\t'] = C_SPACE, ['\r'] = C_SPACE, ['\f'] = C_SPACE, ['\v'] = C_SPACE,
	['_'] = C_IDENT, ['$'] = C_IDENT,
#define R10(b) [b] = C_IDENT | C_DIGIT, [b + 1] = C_IDENT | C_DIGIT, [b + 2] = C_IDENT | C_DIGIT, \
	[b + 3] = C_IDENT | C_DIGIT, [b + 4] = C_IDENT | C_DIGIT, [b + 5] = C_IDENT | C_DIGIT, \
	[b + 6] = C_IDENT | C_DIGIT, [b + 7] = C_IDENT | C_DIGIT, [b + 8] = C_IDENT | C_DIGIT, \
	[b + 9] = C_IDENT | C_DIGIT
	R10('0'),
#undef R10
#define L13(b) [b] = C_IDENT, [b + 1] = C_IDENT, [b + 2] = C_IDENT, [b + 3] = C_IDENT, \
	[b + 4] = C_IDENT, [b + 5] = C_IDENT, [b + 6] = C_IDENT, [b + 7] = C_IDENT, [b + 8] = C_IDENT, \
	[b + 9] = C_IDENT, [b + 10] = C_IDENT, [b + 11] = C_IDENT, [b + 12] = C_IDENT
	L13('a'), L13('n'), L13('A'), L13('N'),
#undef L13
#define H16(b) [b] = C_IDENT, [b + 1] = C_IDENT, [b + 2] = C_IDENT, [b + 3] = C_IDENT, \
	[b + 4] = C_IDENT, [b + 5] = C_IDENT, [b + 6] = C_IDENT, [b + 7] = C_IDENT, [b + 8] = C_IDENT, \
	[b + 9] = C_IDENT, [b + 10] = C_IDENT, [b + 11] = C_IDENT, [b + 12] = C_IDENT, \
	[b + 13] = C_IDENT, [b + 14] = C_IDENT, [b + 15] = C_IDENT
	H16(0x80), H16(0x90), H16(0xa0), H16(0xb0), H16(0xc0), H16(0xd0), H16(0xe0), H16(0xf0),
#undef H16
};

static inline bool ident_char(char c)
{
	return cclass[(unsigned char)c] & C_IDENT;
}

static inline bool digit(char c)
{
	return cclass[(unsigned char)c] & C_DIGIT;
}

typedef struct Lexer {
	WcFile *f;
	const char *s;
	size_t n, pos;
	size_t line_start;  /* offset of the current line's first byte */
	int line;
	bool bol;           /* only whitespace seen on this line so far */
	bool in_pp;
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

static inline char peek(const Lexer *lx, size_t k)
{
	return lx->pos + k < lx->n ? lx->s[lx->pos + k] : '\0';
}

/* The byte at pos is a newline: step over it. */
static inline void newline(Lexer *lx)
{
	lx->pos++;
	lx->line++;
	lx->line_start = lx->pos;
}

/* Steps over one byte, which may be a newline. */
static inline void step(Lexer *lx)
{
	if (lx->s[lx->pos] == '\n')
		newline(lx);
	else
		lx->pos++;
}

/* Code tokens go to f->t, directive tokens to f->all; a directive's "#"
 * records in `num` how many code tokens came before it. */
static void grow_tokens(WcTok **v, int *cap)
{
	*cap = *cap ? *cap * 2 : 256;
	*v = base_realloc(*v, (size_t)*cap * sizeof **v);
}

static inline WcTok *push(Lexer *lx, WcTokKind kind, size_t off)
{
	WcFile *f = lx->f;
	WcTok *t;
	bool pp = lx->in_pp || kind == WT_EOD;
	if (pp) {
		if (f->nall == f->all_cap)
			grow_tokens(&f->all, &f->all_cap);
		t = &f->all[f->nall++];
	} else {
		if (f->n == f->t_cap)
			grow_tokens(&f->t, &f->t_cap);
		t = &f->t[f->n++];
	}
	*t = (WcTok){.off = (uint32_t)off, .len = (uint32_t)(lx->pos - off), .kind = (uint8_t)kind, .pp = pp};
	return t;
}

/* "// warpcheck: ignore H3, H4 -- reason" on this line or the next. */
static void note_suppression(Lexer *lx, size_t from, size_t to, int line)
{
	static const char key[] = "warpcheck:";
	const size_t klen = sizeof key - 1;
	const char *p = lx->s + from, *end = lx->s + to;
	p = to - from >= klen ? memchr(p, 'w', (size_t)(end - p)) : NULL;
	for (; p && p + klen <= end; p = memchr(p + 1, 'w', (size_t)(end - p - 1)))
		if (memcmp(p, key, klen) == 0)
			break;
	if (!p || p + klen > end)
		return;
	p += klen;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p < 6 || memcmp(p, "ignore", 6) != 0)
		return;
	p += 6;
	WcFile *f = lx->f;
	f->sup = base_realloc(f->sup, (size_t)(f->nsup + 1) * sizeof *f->sup);
	WcSuppress *s = &f->sup[f->nsup++];
	s->line = line;
	size_t k = 0;
	/* Keep only the ids ("H3 H4"); the rest is the reason. */
	while (p < end && k + 5 < sizeof s->ids) {
		while (p < end && (*p == ' ' || *p == ',' || *p == '\t'))
			p++;
		if (p >= end || *p != 'H' || p + 1 >= end || !digit(p[1]))
			break;
		s->ids[k++] = *p++;
		while (p < end && digit(*p) && k + 2 < sizeof s->ids)
			s->ids[k++] = *p++;
		s->ids[k++] = ' ';
	}
	s->ids[k] = '\0';
}

static void skip_line_comment(Lexer *lx)
{
	size_t from = lx->pos;
	int line = lx->line;
	for (;;) {
		const char *nl = memchr(lx->s + lx->pos, '\n', lx->n - lx->pos);
		size_t end = nl ? (size_t)(nl - lx->s) : lx->n;
		/* A backslash before the newline continues the comment. */
		bool cont = end < lx->n && end > lx->pos && lx->s[end - 1] == '\\';
		lx->pos = end;
		if (!cont)
			break;
		newline(lx);
	}
	note_suppression(lx, from, lx->pos, line);
}

static void skip_block_comment(Lexer *lx)
{
	size_t from = lx->pos;
	int line = lx->line;
	lx->pos += 2;
	while (lx->pos < lx->n && !(lx->s[lx->pos] == '*' && peek(lx, 1) == '/'))
		step(lx);
	if (lx->pos >= lx->n) {
		lex_error(lx, from, "unterminated comment");
		return;
	}
	lx->pos += 2;
	note_suppression(lx, from, lx->pos, line);
}

/* A quoted literal; stops at an unescaped newline so one bad quote does
 * not swallow the rest of the file. */
static void lex_quoted(Lexer *lx, size_t start, char q)
{
	lx->pos++;
	while (lx->pos < lx->n && lx->s[lx->pos] != q) {
		if (lx->s[lx->pos] == '\n') {
			lex_error(lx, start, q == '"' ? "unterminated string literal"
			                              : "unterminated character literal");
			return;
		}
		if (lx->s[lx->pos] == '\\' && lx->pos + 1 < lx->n)
			lx->pos++;
		step(lx);  /* an escaped newline continues the literal */
	}
	if (lx->pos >= lx->n) {
		lex_error(lx, start, q == '"' ? "unterminated string literal"
		                              : "unterminated character literal");
		return;
	}
	lx->pos++;
}

/* R"delim( ... )delim" */
static void lex_raw(Lexer *lx, size_t start)
{
	lx->pos++;
	size_t d = lx->pos;
	while (lx->pos < lx->n && lx->s[lx->pos] != '(' && lx->pos - d <= 16 &&
	       !strchr(" )\\\t\n\"", lx->s[lx->pos]))
		lx->pos++;
	if (lx->pos >= lx->n || lx->s[lx->pos] != '(') {
		lex_error(lx, start, "invalid raw string delimiter");
		return;
	}
	size_t dlen = lx->pos - d;
	lx->pos++;
	while (lx->pos < lx->n) {
		if (lx->s[lx->pos] == ')' && lx->pos + dlen + 1 < lx->n &&
		    memcmp(lx->s + lx->pos + 1, lx->s + d, dlen) == 0 && lx->s[lx->pos + 1 + dlen] == '"') {
			lx->pos += dlen + 2;
			return;
		}
		step(lx);
	}
	lex_error(lx, start, "unterminated raw string literal");
}

static bool string_prefix(const char *s, size_t n, bool *raw)
{
	static const char *pre[] = {"u8", "u", "U", "L", "R", "u8R", "uR", "UR", "LR"};
	if (n > 3)
		return false;
	for (size_t i = 0; i < TC_COUNT(pre); i++) {
		if (strlen(pre[i]) == n && memcmp(pre[i], s, n) == 0) {
			*raw = s[n - 1] == 'R';
			return true;
		}
	}
	return false;
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/* Fills num/num_ok/num_wide: integers only, with u/l suffixes and digit
 * separators; values that overflow 64 bits are not known. */
static void number_value(WcTok *t, const char *s)
{
	uint32_t i = 0, n = t->len;
	unsigned base = 10;
	if (n > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, i = 2;
	else if (n > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		base = 2, i = 2;
	else if (s[0] == '0')
		base = 8;
	uint64_t v = 0;
	uint32_t digits = 0;
	for (; i < n; i++) {
		if (s[i] == '\'')
			continue;
		unsigned d = (unsigned)digit_value(s[i]);
		if (d >= base)
			break;
		if (v > (UINT64_MAX - d) / base)
			return;
		v = v * base + d;
		digits++;
	}
	if (digits == 0 && base != 8)
		return;
	bool wide = false;
	for (uint32_t k = i; k < n; k++) {
		if (!strchr("uUlL", s[k]) || s[k] == '\0')
			return;
		wide = wide || (k + 1 < n && (s[k] == 'l' || s[k] == 'L') && s[k + 1] == s[k]);
	}
	t->num = v;
	t->num_ok = true;
	t->num_wide = wide;
}

static void lex_number(Lexer *lx)
{
	while (lx->pos < lx->n) {
		char c = lx->s[lx->pos];
		if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && (peek(lx, 1) == '+' || peek(lx, 1) == '-'))
			lx->pos += 2;
		else if (c == '\'' && ident_char(peek(lx, 1)))
			lx->pos += 2;
		else if (ident_char(c) || c == '.')
			lx->pos++;
		else
			break;
	}
}

/* The punctuator at s (left bytes remain): its code and length. */
static WcPunct punct(const char *s, size_t left, size_t *len)
{
	char a = s[0], b = left > 1 ? s[1] : '\0', c = left > 2 ? s[2] : '\0';
	*len = 1;
#define P2(ch, code) if (b == (ch)) return *len = 2, (code)
#define P3(ch2, ch3, code) if (b == (ch2) && c == (ch3)) return *len = 3, (code)
	switch (a) {
	case '(': return WP_LPAREN;
	case ')': return WP_RPAREN;
	case '[': return WP_LBRACK;
	case ']': return WP_RBRACK;
	case '{': return WP_LBRACE;
	case '}': return WP_RBRACE;
	case ';': return WP_SEMI;
	case ',': return WP_COMMA;
	case '?': return WP_QUESTION;
	case '~': return WP_TILDE;
	case '.': P3('.', '.', WP_ELLIPSIS); P2('*', WP_DOT_STAR); return WP_DOT;
	case ':': P2(':', WP_SCOPE); return WP_COLON;
	case '#': P2('#', WP_HASHHASH); return WP_HASH;
	case '=': P2('=', WP_EQ); return WP_ASSIGN;
	case '!': P2('=', WP_NE); return WP_NOT;
	case '<': P3('<', '<', WP_LAUNCH_OPEN); P3('<', '=', WP_SHL_EQ); P3('=', '>', WP_SPACESHIP);
		P2('<', WP_SHL); P2('=', WP_LE); return WP_LT;
	case '>': P3('>', '>', WP_LAUNCH_CLOSE); P3('>', '=', WP_SHR_EQ);
		P2('>', WP_SHR); P2('=', WP_GE); return WP_GT;
	case '+': P2('+', WP_INC); P2('=', WP_PLUS_EQ); return WP_PLUS;
	case '-': P3('>', '*', WP_ARROW_STAR); P2('>', WP_ARROW); P2('-', WP_DEC); P2('=', WP_MINUS_EQ);
		return WP_MINUS;
	case '*': P2('=', WP_STAR_EQ); return WP_STAR;
	case '/': P2('=', WP_SLASH_EQ); return WP_SLASH;
	case '%': P2('=', WP_PERCENT_EQ); return WP_PERCENT;
	case '&': P2('&', WP_ANDAND); P2('=', WP_AMP_EQ); return WP_AMP;
	case '|': P2('|', WP_OROR); P2('=', WP_PIPE_EQ); return WP_PIPE;
	case '^': P2('=', WP_CARET_EQ); return WP_CARET;
	default: return WP_OTHER;
	}
#undef P2
#undef P3
}

static void lex_word(Lexer *lx, size_t start)
{
	uint32_t h = 2166136261u;  /* FNV-1a, as names.c hashes, in the same pass */
	const char *s = lx->s;
	size_t pos = lx->pos;  /* in a register: the stores below cannot change it */
	while (ident_char(s[pos]))  /* the NUL after the text ends it (wc_lex) */
		h = (h ^ (unsigned char)s[pos++]) * 16777619u;
	lx->pos = pos;
	bool raw = false;
	char next = lx->pos < lx->n ? lx->s[lx->pos] : '\0';
	if (next == '"' && string_prefix(lx->s + start, lx->pos - start, &raw)) {
		if (raw)
			lex_raw(lx, start);
		else
			lex_quoted(lx, start, '"');
		push(lx, WT_STRING, start);
	} else if (next == '\'' && string_prefix(lx->s + start, lx->pos - start, &raw) && !raw) {
		lex_quoted(lx, start, '\'');
		push(lx, WT_CHAR, start);
	} else {
		WcTok *t = push(lx, WT_IDENT, start);
		t->id = wc_intern_hashed(lx->f->names, lx->s + start, lx->pos - start, h);
		if (t->id == WK_warpSize && !t->pp)
			lx->f->lex_warp_size = true;
	}
}

/* What a byte starts, for lex_one's one dispatch. */
enum { K_PUNCT, K_SPACE, K_NEWLINE, K_BACKSLASH, K_SLASH, K_HASH, K_DIGIT, K_DOT, K_IDENT, K_QUOTE };

static const uint8_t kstart[256] = {
	[' '] = K_SPACE, ['\t'] = K_SPACE, ['\r'] = K_SPACE, ['\f'] = K_SPACE, ['\v'] = K_SPACE,
	['\n'] = K_NEWLINE, ['\\'] = K_BACKSLASH, ['/'] = K_SLASH, ['#'] = K_HASH, ['.'] = K_DOT,
	['"'] = K_QUOTE, ['\''] = K_QUOTE, ['_'] = K_IDENT, ['$'] = K_IDENT,
#define R10(b) [b] = K_DIGIT, [b + 1] = K_DIGIT, [b + 2] = K_DIGIT, [b + 3] = K_DIGIT, [b + 4] = K_DIGIT, \
	[b + 5] = K_DIGIT, [b + 6] = K_DIGIT, [b + 7] = K_DIGIT, [b + 8] = K_DIGIT, [b + 9] = K_DIGIT
	R10('0'),
#undef R10
#define L13(b) [b] = K_IDENT, [b + 1] = K_IDENT, [b + 2] = K_IDENT, [b + 3] = K_IDENT, \
	[b + 4] = K_IDENT, [b + 5] = K_IDENT, [b + 6] = K_IDENT, [b + 7] = K_IDENT, [b + 8] = K_IDENT, \
	[b + 9] = K_IDENT, [b + 10] = K_IDENT, [b + 11] = K_IDENT, [b + 12] = K_IDENT
	L13('a'), L13('n'), L13('A'), L13('N'),
#undef L13
#define H16(b) [b] = K_IDENT, [b + 1] = K_IDENT, [b + 2] = K_IDENT, [b + 3] = K_IDENT, \
	[b + 4] = K_IDENT, [b + 5] = K_IDENT, [b + 6] = K_IDENT, [b + 7] = K_IDENT, [b + 8] = K_IDENT, \
	[b + 9] = K_IDENT, [b + 10] = K_IDENT, [b + 11] = K_IDENT, [b + 12] = K_IDENT, \
	[b + 13] = K_IDENT, [b + 14] = K_IDENT, [b + 15] = K_IDENT
	H16(0x80), H16(0x90), H16(0xa0), H16(0xb0), H16(0xc0), H16(0xd0), H16(0xe0), H16(0xf0),
#undef H16
};

static inline void lex_punct(Lexer *lx, size_t start)
{
	size_t len;
	WcPunct op = punct(lx->s + start, lx->n - start, &len);
	lx->pos += len;
	push(lx, WT_PUNCT, start)->op = (uint8_t)op;
}

/* One token (or comment/whitespace) at lx->pos: one dispatch on its first
 * byte (kstart), then the tests that byte needs. */
static void lex_one(Lexer *lx)
{
	char c = lx->s[lx->pos];
	size_t start = lx->pos;
	switch (kstart[(unsigned char)c]) {
	case K_SPACE:
		do  /* a run of blanks at once (indentation) */
			lx->pos++;
		while (cclass[(unsigned char)lx->s[lx->pos]] & C_SPACE);  /* the NUL after the text ends it */
		return;
	case K_NEWLINE:
		if (lx->in_pp) {
			push(lx, WT_EOD, start);
			lx->in_pp = false;
		}
		newline(lx);
		lx->bol = true;
		return;
	case K_BACKSLASH:
		if (peek(lx, 1) == '\n' || (peek(lx, 1) == '\r' && peek(lx, 2) == '\n')) {
			lx->pos += peek(lx, 1) == '\n' ? 1 : 2;  /* line continuation */
			newline(lx);
			return;
		}
		lx->bol = false;
		lex_punct(lx, start);
		return;
	case K_SLASH:
		if (peek(lx, 1) == '/') {
			skip_line_comment(lx);
			return;
		}
		if (peek(lx, 1) == '*') {
			skip_block_comment(lx);
			return;
		}
		lx->bol = false;
		lex_punct(lx, start);
		return;
	case K_HASH:
		if (lx->bol) {
			lx->bol = false;
			lx->in_pp = true;
			lx->pos++;
			push(lx, WT_PUNCT, start)->num = (uint64_t)lx->f->n;  /* op set below */
			lx->f->all[lx->f->nall - 1].op = WP_HASH;
			return;
		}
		lex_punct(lx, start);
		return;
	case K_DOT:
		lx->bol = false;
		if (!digit(peek(lx, 1))) {
			lex_punct(lx, start);
			return;
		}
		lex_number(lx);  /* .5 */
		number_value(push(lx, WT_NUMBER, start), lx->s + start);
		return;
	case K_DIGIT:
		lx->bol = false;
		lex_number(lx);
		number_value(push(lx, WT_NUMBER, start), lx->s + start);
		return;
	case K_IDENT:
		lx->bol = false;
		lex_word(lx, start);
		return;
	case K_QUOTE:
		lx->bol = false;
		lex_quoted(lx, start, c);
		push(lx, c == '"' ? WT_STRING : WT_CHAR, start);
		return;
	default:
		lx->bol = false;
		lex_punct(lx, start);
		return;
	}
}

/* Offset of the first byte that is not valid UTF-8, or (size_t)-1. */
static size_t bad_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		uint64_t word, w4[4];
		if (i + 32 <= n && (memcpy(w4, s + i, 32), ((w4[0] | w4[1] | w4[2] | w4[3]) & 0x8080808080808080ull) == 0)) {
			i += 32;  /* 32 ASCII bytes at once */
			continue;
		}
		if (i + 8 <= n && (memcpy(&word, s + i, 8), (word & 0x8080808080808080ull) == 0)) {
			i += 8;  /* eight ASCII bytes at once */
			continue;
		}
		unsigned c = s[i];
		if (c < 0x80) {
			i++;
			continue;
		}
		size_t k = (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : 9;
		if (k == 9 || (k == 1 && c < 0xc2) || i + k >= n)
			return i;
		for (size_t j = 1; j <= k; j++)
			if ((s[i + j] & 0xc0) != 0x80)
				return i;
		i += k + 1;
	}
	return (size_t)-1;
}

/* The text is followed by a NUL (read_text, the header cache): the scans
 * of a word and of blanks stop there without a test of the length. */
void wc_lex(WcFile *f)
{
	Lexer lx = {.f = f, .s = f->src.text, .n = f->src.len, .line = 1, .bol = true};
	free(f->lines);  /* wc_tok_pos makes it again for this text */
	f->lines = NULL, f->nlines = 0;
	size_t bad = bad_utf8((const unsigned char *)lx.s, lx.n);
	if (bad != (size_t)-1)
		lex_error(&lx, bad, "invalid UTF-8 byte; the file is checked as raw bytes");
	if (lx.n >= 3 && memcmp(lx.s, "\xef\xbb\xbf", 3) == 0)
		lx.pos = lx.line_start = 3;  /* a byte-order mark is not a token: "#" after it still starts a directive */
	/* About one token per four bytes of code: at most one allocation,
	 * none when the thread's buffer from the last file is big enough. */
	int want = (int)(lx.n / 4 < 1 << 20 ? lx.n / 4 + 64 : 1 << 20);
	if (f->t_cap < want) {
		free(f->t);
		f->t_cap = want;
		f->t = base_malloc((size_t)want * sizeof *f->t);
	}
	f->n = 0;
	f->nall = 0;
	f->lex_warp_size = false;
	while (lx.pos < lx.n)
		lex_one(&lx);
	if (lx.in_pp)
		push(&lx, WT_EOD, lx.pos);
}

/* By a table of where each line starts, made at the first call: the
 * passes that ask do not all go forward through a file (a finding at a
 * chip list far above the width it reports), and a count from the start
 * for each was quadratic in the findings. */
void wc_tok_pos(const WcFile *f, const WcTok *t, int *line, int *col)
{
	WcFile *m = (WcFile *)f;  /* only its table of lines is written */
	const char *s = f->src.text;
	if (!m->lines) {
		int cap = 64, n = 0;
		uint32_t *v = base_malloc((size_t)cap * sizeof *v);
		v[n++] = f->src.len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;  /* as wc_lex starts */
		const char *p = s + v[0], *end = s + f->src.len;
		while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
			if (n == cap)
				v = base_realloc(v, (size_t)(cap *= 2) * sizeof *v);
			v[n++] = (uint32_t)(++p - s);
		}
		m->lines = v, m->nlines = n;
	}
	uint32_t off = t->off;
	int lo = 1, hi = f->nlines;  /* the first line from lo on starts past off */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (f->lines[mid] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	*line = lo;
	*col = (int)(off - f->lines[lo - 1]) + 1;
}
