/* grid.c: --grid expressions to C.
 *
 *   expr    = term (("+" | "-") term)*
 *   term    = unary (("*" | "/" | "%") unary)*
 *   unary   = "-" unary | primary
 *   primary = INT | NAME | ("cdiv" | "min" | "max") "(" expr "," expr ")" | "(" expr ")"
 *
 * A NAME is an integer parameter of the launcher (read at launch) or a
 * constexpr of the variant (its value). Division, modulo and cdiv go
 * through helpers that flag a zero divisor, so a bad grid is an error code
 * at run time and never a crash. */
#include "export/internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct GridParser {
	const char *s;               /* the next character */
	const char *expr;
	const ExKernel *k;
	const ExLowered *info;
	Buf out;
	char *err;
	size_t errlen;
	bool failed;
} GridParser;

static void fail(GridParser *g, const char *what)
{
	if (!g->failed)
		snprintf(g->err, g->errlen, "--grid '%s': %s at column %d", g->expr, what, (int)(g->s - g->expr) + 1);
	g->failed = true;
}

static void skip_blanks(GridParser *g)
{
	while (*g->s == ' ' || *g->s == '\t')
		g->s++;
}

static bool accept(GridParser *g, char c)
{
	skip_blanks(g);
	if (*g->s != c)
		return false;
	g->s++;
	return true;
}

static void expr(GridParser *g);

/* The value of constexpr `name` of the variant, when it is an integer. */
static bool constexpr_value(const ExLowered *info, const char *name, size_t n, long long *v)
{
	for (int i = info->ndefines - 1; i >= 0; i--) {
		const char *d = info->defines[i];
		if (strncmp(d, name, n) || d[n] != '=')
			continue;
		char *end;
		*v = strtoll(d + n + 1, &end, 0);
		return end != d + n + 1 && !*end;
	}
	return false;
}

static void name(GridParser *g)
{
	const char *start = g->s;
	while (isalnum((unsigned char)*g->s) || *g->s == '_')
		g->s++;
	size_t n = (size_t)(g->s - start);
	static const char *const fns[] = {"cdiv", "min", "max"};
	for (int f = 0; f < 3; f++) {
		if (strlen(fns[f]) != n || strncmp(start, fns[f], n))
			continue;
		if (!accept(g, '('))
			return fail(g, "expected '(' after the function's name");
		buf_printf(&g->out, "tcx_%s(%s", fns[f], f == 0 ? "&tcx_bad, " : "");
		expr(g);
		if (!accept(g, ','))
			return fail(g, "expected ','");
		buf_puts(&g->out, ", ");
		expr(g);
		if (!accept(g, ')'))
			return fail(g, "expected ')'");
		buf_putc(&g->out, ')');
		return;
	}
	for (int p = 0; p < g->k->nparams; p++) {
		const ExParam *q = &g->k->params[p];
		if (strlen(q->name) != n || strncmp(start, q->name, n))
			continue;
		if (q->is_ptr || q->dtype == DT_F16 || q->dtype == DT_BF16 || q->dtype == DT_F32 || q->dtype == DT_F64)
			return fail(g, "a pointer or float argument in the grid (integer arguments only)");
		buf_printf(&g->out, "(int64_t)%s", q->name);
		return;
	}
	long long v;
	if (constexpr_value(g->info, start, n, &v)) {
		buf_printf(&g->out, "INT64_C(%lld)", v);
		return;
	}
	g->s = start;
	fail(g, "not an integer argument or constexpr of the kernel");
}

static void primary(GridParser *g)
{
	skip_blanks(g);
	if (isdigit((unsigned char)*g->s)) {
		char *end;
		long long v = strtoll(g->s, &end, 10);
		if (isalnum((unsigned char)*end) || *end == '_')
			return fail(g, "bad number");
		g->s = end;
		buf_printf(&g->out, "INT64_C(%lld)", v);
	} else if (isalpha((unsigned char)*g->s) || *g->s == '_') {
		name(g);
	} else if (accept(g, '(')) {
		buf_putc(&g->out, '(');
		expr(g);
		if (!accept(g, ')'))
			return fail(g, "expected ')'");
		buf_putc(&g->out, ')');
	} else {
		fail(g, *g->s ? "expected a number, a name or '('" : "the expression ends early");
	}
}

static void unary(GridParser *g)
{
	if (accept(g, '-')) {
		buf_puts(&g->out, "-");
		unary(g);
	} else {
		primary(g);
	}
}

static void term(GridParser *g)
{
	unary(g);
	for (;;) {
		char op = accept(g, '*') ? '*' : accept(g, '/') ? '/' : accept(g, '%') ? '%' : 0;
		if (!op || g->failed)
			break;
		if (op == '*') {
			buf_puts(&g->out, " * ");
			unary(g);
			continue;
		}
		/* a / b -> tcx_div(&tcx_bad, a, b), a being the term so far */
		char *left = buf_detach(&g->out);
		g->out = (Buf){0};
		unary(g);
		char *right = buf_detach(&g->out);
		g->out = (Buf){0};
		buf_printf(&g->out, "tcx_%s(&tcx_bad, %s, %s)", op == '/' ? "div" : "mod", left ? left : "",
			   right ? right : "");
		free(left);
		free(right);
	}
}

/* A term is parsed into an output of its own, so that a division can take
 * the term's left part as its first operand. */
static void term_scoped(GridParser *g)
{
	Buf outer = g->out;
	g->out = (Buf){0};
	term(g);
	Buf inner = g->out;
	g->out = outer;
	buf_puts(&g->out, buf_str(&inner));
	buf_free(&inner);
}

static void expr(GridParser *g)
{
	Buf outer = g->out;
	g->out = (Buf){0};
	buf_putc(&g->out, '(');
	term_scoped(g);
	for (;;) {
		char op = accept(g, '+') ? '+' : accept(g, '-') ? '-' : 0;
		if (!op || g->failed)
			break;
		buf_printf(&g->out, " %c ", op);
		term_scoped(g);
	}
	buf_putc(&g->out, ')');
	Buf inner = g->out;
	g->out = outer;
	buf_puts(&g->out, buf_str(&inner));
	buf_free(&inner);
}

char *export_grid_expr(Arena *a, const char *text, const ExKernel *k, const ExLowered *info, char *err,
		       size_t errlen)
{
	GridParser g = {.s = text, .expr = text, .k = k, .info = info, .err = err, .errlen = errlen};
	expr(&g);
	skip_blanks(&g);
	if (!g.failed && *g.s)
		fail(&g, "unexpected character");
	char *result = g.failed ? NULL : arena_strdup(a, buf_str(&g.out));
	buf_free(&g.out);
	return result;
}
