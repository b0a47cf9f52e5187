/* lex.c: Python tokens for the Triton front end.
 *
 * Emits NEWLINE at the end of each logical line, INDENT/DEDENT when the
 * indentation changes, and joins lines inside brackets or after a
 * backslash. Every token records its byte offset; bad input ends in
 * diag_fatal at the exact byte. */
#include "triton/triton.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INDENT 100
#define MAX_BRACKETS 1000

typedef struct Lexer {
	Arena *arena;
	Diag *diag;
	const Source *src;
	const char *p;      /* text */
	size_t len;
	size_t i;           /* cursor */
	Token *toks;
	int ntoks, cap;
	int indent[MAX_INDENT + 1];     /* columns, tab to the next multiple of 8 */
	int alt[MAX_INDENT + 1];        /* columns, tab as one column */
	int depth;                      /* indentation levels */
	size_t brackets[MAX_BRACKETS];  /* offsets of open brackets */
	int nbrackets;
} Lexer;

static const char *keywords[] = {
	"False", "None", "True", "and", "as", "assert", "async", "await", "break",
	"class", "continue", "def", "del", "elif", "else", "except", "finally",
	"for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
	"not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
};

/* Longest first, so the first match is the longest. */
static const char *puncts[] = {
	"**=", "//=", ">>=", "<<=", "...",
	"**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=", "*=", "/=",
	"%=", "&=", "|=", "^=", "@=", "->", ":=",
	"+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">", "(", ")",
	"[", "]", "{", "}", ",", ":", ".", ";", "=",
};

const char *lex_kind_name(TokenKind kind)
{
	static const char *names[] = {
		[TK_IDENT] = "identifier", [TK_KEYWORD] = "keyword", [TK_PUNCT] = "operator",
		[TK_INT] = "integer", [TK_FLOAT] = "float", [TK_STR] = "string",
		[TK_NEWLINE] = "newline", [TK_INDENT] = "indent", [TK_DEDENT] = "dedent",
		[TK_EOF] = "end of file",
	};
	return (unsigned)kind < TC_COUNT(names) ? names[kind] : "?";
}

bool lex_equal(const Source *src, const Token *tok, const char *s)
{
	if (tok->kind != TK_PUNCT && tok->kind != TK_KEYWORD)
		return false;
	if (tok->len == 0 || src->text[tok->offset] != s[0])   /* most tries differ at once (the parser asks each level's operators) */
		return tok->len == 0 && s[0] == 0;
	size_t n = strlen(s);
	return tok->len == n && memcmp(src->text + tok->offset, s, n) == 0;
}

static TC_NORETURN void lex_error(Lexer *L, size_t at, const char *msg)
{
	diag_fatal(L->diag, L->src, at, "%s", msg);
}

static Token *push(Lexer *L, TokenKind kind, size_t offset, size_t len)
{
	if (L->ntoks == L->cap) {
		/* At first room for a token per two bytes: a large array lies in
		 * pages the system maps only when touched, so room unused costs
		 * nothing, and most sources need no second array. */
		if (!L->cap && L->len / 2 + 256 > (size_t)INT_MAX / 2)
			lex_error(L, offset, "too many tokens");
		int cap = L->cap ? L->cap * 2 : (int)(L->len / 2 + 256);
		if (L->cap > INT_MAX / 2)
			lex_error(L, offset, "too many tokens");
		Token *t = arena_alloc_lazy(L->arena, sizeof(Token) * (size_t)cap);
		if (L->ntoks)
			memcpy(t, L->toks, sizeof(Token) * (size_t)L->ntoks);
		L->toks = t;
		L->cap = cap;
	}
	Token *t = &L->toks[L->ntoks++];
	memset(t, 0, sizeof *t);
	t->kind = kind;
	t->offset = offset;
	t->len = len;
	return t;
}

static bool last_is_line_end(Lexer *L)
{
	if (L->ntoks == 0)
		return true;
	TokenKind k = L->toks[L->ntoks - 1].kind;
	return k == TK_NEWLINE || k == TK_INDENT || k == TK_DEDENT;
}

static bool is_ident_start(int c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_ident(int c) { return is_ident_start(c) || is_digit(c); }

static int peek(Lexer *L, size_t k)
{
	return L->i + k < L->len ? (unsigned char)L->p[L->i + k] : -1;
}

/* Measures the indentation at the start of a line and emits INDENT or
 * DEDENT tokens. Blank and comment-only lines change nothing. */
static void do_indent(Lexer *L)
{
	int col = 0, alt = 0;
	size_t start = L->i;
	for (;;) {
		int c = peek(L, 0);
		if (c == ' ') {
			col++, alt++;
		} else if (c == '\t') {
			col = (col / 8 + 1) * 8;
			alt++;
		} else if (c == '\f') {
			col = alt = 0;
		} else {
			break;
		}
		L->i++;
	}
	int c = peek(L, 0);
	if (c == '#' || c == '\n' || (c == '\r' && peek(L, 1) == '\n') || c == -1 || (c == '\\' && peek(L, 1) == '\n'))
		return;
	size_t at = L->i;
	int top = L->indent[L->depth], atop = L->alt[L->depth];
	if (col > top) {
		if (alt <= atop)
			lex_error(L, at, "inconsistent use of tabs and spaces in indentation");
		if (L->depth == MAX_INDENT)
			diag_fatal(L->diag, L->src, at, "too many levels of indentation (limit is %d)", MAX_INDENT);
		L->depth++;
		L->indent[L->depth] = col;
		L->alt[L->depth] = alt;
		push(L, TK_INDENT, start, at - start);
		return;
	}
	while (col < L->indent[L->depth]) {
		L->depth--;
		push(L, TK_DEDENT, at, 0);
	}
	if (col != L->indent[L->depth])
		lex_error(L, at, "unindent does not match any outer indentation level");
	if (alt != L->alt[L->depth])
		lex_error(L, at, "inconsistent use of tabs and spaces in indentation");
}

static int hexval(int c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Appends the escape sequence at L->i (just after the backslash). */
static void read_escape(Lexer *L, Buf *b)
{
	int c = peek(L, 0);
	L->i++;
	switch (c) {
	case '\n': return;
	case 'n': buf_putc(b, '\n'); return;
	case 't': buf_putc(b, '\t'); return;
	case 'r': buf_putc(b, '\r'); return;
	case '0': buf_putc(b, '\0'); return;
	case 'a': buf_putc(b, '\a'); return;
	case 'b': buf_putc(b, '\b'); return;
	case 'f': buf_putc(b, '\f'); return;
	case 'v': buf_putc(b, '\v'); return;
	case '\\': case '\'': case '"': buf_putc(b, (char)c); return;
	case 'x':
		if (hexval(peek(L, 0)) >= 0 && hexval(peek(L, 1)) >= 0) {
			buf_putc(b, (char)(hexval(peek(L, 0)) * 16 + hexval(peek(L, 1))));
			L->i += 2;
			return;
		}
		break;
	default:
		break;
	}
	buf_putc(b, '\\');
	buf_putc(b, (char)c);
}

/* string = prefix? (''' ... ''' | """ ... """ | ' ... ' | " ... ") */
static void read_string(Lexer *L, size_t start, bool raw)
{
	char q = L->p[L->i];
	bool triple = peek(L, 1) == q && peek(L, 2) == q;
	L->i += triple ? 3 : 1;
	size_t content = L->i;
	Buf b = {0};
	for (;;) {
		int c = peek(L, 0);
		if (c == -1 || (!triple && c == '\n')) {
			buf_free(&b);
			lex_error(L, start, triple ? "unterminated triple-quoted string literal"
			                           : "unterminated string literal");
		}
		if (c == q && (!triple || (peek(L, 1) == q && peek(L, 2) == q)))
			break;
		L->i++;
		if (c == '\\') {
			if (peek(L, 0) == -1)
				continue;
			if (raw) {
				buf_putc(&b, '\\');
				buf_putc(&b, L->p[L->i++]);
			} else {
				read_escape(L, &b);
			}
			continue;
		}
		buf_putc(&b, (char)c);
	}
	size_t content_end = L->i;
	L->i += triple ? 3 : 1;
	Token *t = push(L, TK_STR, start, L->i - start);
	TokenStr *ts = arena_alloc(L->arena, sizeof *ts);
	ts->str = arena_strndup(L->arena, buf_str(&b), b.len);
	ts->len = b.len;
	ts->raw_offset = content;
	ts->raw_len = content_end - content;
	ts->triple = triple;
	t->s = ts;
	buf_free(&b);
}

/* Copies digits without underscores; reports a misplaced underscore. */
static char *number_text(Lexer *L, size_t start, size_t end)
{
	char *s = arena_alloc(L->arena, end - start + 1);
	size_t n = 0;
	for (size_t k = start; k < end; k++) {
		if (L->p[k] == '_') {
			if (k + 1 >= end || !(hexval((unsigned char)L->p[k + 1]) >= 0))
				lex_error(L, k, "invalid decimal literal");
			continue;
		}
		s[n++] = L->p[k];
	}
	s[n] = '\0';
	return s;
}

/* number = decimal | 0x hex | 0o oct | 0b bin | float (1.5, .5, 1e-06, 4096.0) */
static void read_number(Lexer *L)
{
	size_t start = L->i;
	int base = 10;
	if (peek(L, 0) == '0' && peek(L, 1) != -1 && strchr("xXoObB", peek(L, 1)) && peek(L, 1) != 0) {
		int c = peek(L, 1) | 0x20;
		base = c == 'x' ? 16 : c == 'o' ? 8 : 2;
		L->i += 2;
		size_t digits = L->i;
		while (peek(L, 0) == '_' || (hexval(peek(L, 0)) >= 0 && hexval(peek(L, 0)) < base))
			L->i++;
		if (L->i == digits)
			lex_error(L, start, "invalid number literal");
	} else {
		bool is_float = false;
		while (is_digit(peek(L, 0)) || peek(L, 0) == '_')
			L->i++;
		if (peek(L, 0) == '.') {
			is_float = true;
			L->i++;
			while (is_digit(peek(L, 0)) || peek(L, 0) == '_')
				L->i++;
		}
		if ((peek(L, 0) | 0x20) == 'e' && (is_digit(peek(L, 1)) ||
		    ((peek(L, 1) == '+' || peek(L, 1) == '-') && is_digit(peek(L, 2))))) {
			is_float = true;
			L->i += 2;
			while (is_digit(peek(L, 0)) || peek(L, 0) == '_')
				L->i++;
		}
		if (is_float) {
			if (is_ident(peek(L, 0)))
				lex_error(L, L->i, "invalid decimal literal");
			Token *t = push(L, TK_FLOAT, start, L->i - start);
			t->fval = strtod(number_text(L, start, L->i), NULL);
			return;
		}
	}
	if (is_ident(peek(L, 0)))
		lex_error(L, L->i, "invalid decimal literal");
	const char *s = number_text(L, start + (base == 10 ? 0 : 2), L->i);
	Token *t = push(L, TK_INT, start, L->i - start);
	uint64_t v = 0;
	for (const char *c = s; *c; c++) {
		uint64_t d = (uint64_t)hexval((unsigned char)*c);
		if (v > (UINT64_MAX - d) / (uint64_t)base)
			t->overflow = true;
		v = v * (uint64_t)base + d;
	}
	if (v > INT64_MAX)
		t->overflow = true;
	t->ival = (int64_t)v;
}

static void open_bracket(Lexer *L, size_t at)
{
	if (L->nbrackets == MAX_BRACKETS)
		diag_fatal(L->diag, L->src, at, "too many nested brackets (limit is %d)", MAX_BRACKETS);
	L->brackets[L->nbrackets++] = at;
}

static void close_bracket(Lexer *L, size_t at)
{
	char c = L->p[at];
	if (L->nbrackets == 0)
		diag_fatal(L->diag, L->src, at, "unmatched '%c'", c);
	char o = L->p[L->brackets[L->nbrackets - 1]];
	char want = o == '(' ? ')' : o == '[' ? ']' : '}';
	if (c != want)
		diag_fatal(L->diag, L->src, at, "closing parenthesis '%c' does not match opening parenthesis '%c'", c, o);
	L->nbrackets--;
}

static void read_punct(Lexer *L)
{
	for (size_t k = 0; k < TC_COUNT(puncts); k++) {
		if (puncts[k][0] != L->p[L->i])   /* the first byte rules out most (no strlen per entry) */
			continue;
		size_t n = strlen(puncts[k]);
		if (L->i + n <= L->len && memcmp(L->p + L->i, puncts[k], n) == 0) {
			size_t at = L->i;
			if (n == 1 && strchr("([{", L->p[at]))
				open_bracket(L, at);
			else if (n == 1 && strchr(")]}", L->p[at]))
				close_bracket(L, at);
			push(L, TK_PUNCT, at, n);
			L->i += n;
			return;
		}
	}
	unsigned char c = (unsigned char)L->p[L->i];
	if (c >= 0x20 && c < 0x7f)
		diag_fatal(L->diag, L->src, L->i, "invalid character '%c' in source", c);
	int extra = c >= 0xf0 && c < 0xf8 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 ? 1 : 0;
	uint32_t cp = extra ? c & (0x3f >> extra) : 0;
	for (int k = 1; k <= extra; k++) {
		unsigned char cc = L->i + (size_t)k < L->len ? (unsigned char)L->p[L->i + (size_t)k] : 0;
		if ((cc & 0xc0) != 0x80) {
			extra = 0;
			break;
		}
		cp = cp << 6 | (cc & 0x3f);
	}
	if (extra)   /* Python takes Unicode letters in names; this compiler ASCII ones alone */
		diag_fatal(L->diag, L->src, L->i,
			   "non-ASCII character U+%04X '%.*s': Unicode identifiers are not supported (use ASCII names)",
			   (unsigned)cp, extra + 1, L->p + L->i);
	diag_fatal(L->diag, L->src, L->i, "invalid non-printable character 0x%02x in source", c);
}

/* Reads a name, keyword or prefixed string. */
static void read_word(Lexer *L)
{
	size_t start = L->i;
	while (is_ident(peek(L, 0)))
		L->i++;
	size_t n = L->i - start;
	int q = peek(L, 0);
	if ((q == '\'' || q == '"') && n <= 2) {
		bool raw = false, ok = true;
		for (size_t k = start; k < L->i; k++) {
			int c = L->p[k] | 0x20;
			if (c == 'r')
				raw = true;
			else if (c != 'b' && c != 'u' && c != 'f')
				ok = false;
		}
		if (ok) {
			read_string(L, start, raw);
			return;
		}
	}
	/* Keywords are 2 to 8 bytes; the first byte rules out most of them, so a
	 * name costs a few compares, not a strlen and memcmp per keyword. */
	TokenKind kind = TK_IDENT;
	if (n >= 2 && n <= 8)
		for (size_t k = 0; k < TC_COUNT(keywords) && kind == TK_IDENT; k++)
			if (keywords[k][0] == L->p[start] && strlen(keywords[k]) == n && memcmp(keywords[k], L->p + start, n) == 0)
				kind = TK_KEYWORD;
	push(L, kind, start, n);
}

static void lex_all(Lexer *L)
{
	const char *nul = memchr(L->p, '\0', L->len);
	if (nul)
		lex_error(L, (size_t)(nul - L->p), "source contains a null byte");
	bool line_start = true;
	while (L->i < L->len) {
		if (line_start && L->nbrackets == 0)
			do_indent(L);
		line_start = false;
		int c = peek(L, 0);
		if (c == -1)
			break;
		if (c == '\n') {
			if (L->nbrackets == 0 && !last_is_line_end(L))
				push(L, TK_NEWLINE, L->i, 1);
			L->i++;
			line_start = true;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
			L->i++;
		} else if (c == '#') {
			while (L->i < L->len && L->p[L->i] != '\n')
				L->i++;
		} else if (c == '\\') {
			size_t k = L->i + 1;
			if (k < L->len && L->p[k] == '\r')
				k++;
			if (k >= L->len || L->p[k] != '\n')
				lex_error(L, L->i, "unexpected character after line continuation character");
			L->i = k + 1;
		} else if (c == '\'' || c == '"') {
			read_string(L, L->i, false);
		} else if (is_digit(c) || (c == '.' && is_digit(peek(L, 1)))) {
			read_number(L);
		} else if (is_ident_start(c)) {
			read_word(L);
		} else {
			read_punct(L);
		}
	}
	if (L->nbrackets > 0)
		diag_fatal(L->diag, L->src, L->brackets[L->nbrackets - 1], "'%c' was never closed",
		           L->p[L->brackets[L->nbrackets - 1]]);
	if (!last_is_line_end(L))
		push(L, TK_NEWLINE, L->len, 0);
	while (L->depth > 0) {
		L->depth--;
		push(L, TK_DEDENT, L->len, 0);
	}
	push(L, TK_EOF, L->len, 0);
}

/* Internal: tokenizes, calling diag_fatal on error. */
Token *lex_run(Arena *a, Diag *d, const Source *src, int *count)
{
	Lexer L = {0};
	L.arena = a;
	L.diag = d;
	L.src = src;
	L.p = src->text;
	L.len = src->len;
	lex_all(&L);
	*count = L.ntoks;
	return L.toks;
}

Token *lex_source(Arena *a, Diag *d, const Source *src, int *count)
{
	jmp_buf jb;
	jmp_buf *saved = d->jump;
	Token *volatile toks = NULL;
	d->jump = &jb;
	if (setjmp(jb) == 0)
		toks = lex_run(a, d, src, count);
	d->jump = saved;
	return toks;
}
