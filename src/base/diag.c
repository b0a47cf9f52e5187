/* diag.c: diagnostics in the GCC style, so editors and CI can read them:
 *
 *   kernel.py:12:17: error: unknown function 'tl.sume'
 *      12 |     row_sum = tl.sume(x_sq, 1)
 *         |               ^
 */
#include "base.h"

#include <string.h>

static const char *kind_name[] = {
	[DIAG_ERROR] = "error",
	[DIAG_WARNING] = "warning",
	[DIAG_NOTE] = "note",
};

void diag_source_linecol(const Source *src, size_t offset, int *line, int *col)
{
	if (offset > src->len)
		offset = src->len;
	int l = 1;
	size_t start = 0;
	for (const char *p = src->text, *end = src->text + offset, *nl; (nl = memchr(p, '\n', (size_t)(end - p)));
	     p = nl + 1) {   /* memchr: a diagnostic in a long file scans it fast */
		l++;
		start = (size_t)(nl + 1 - src->text);
	}
	*line = l + src->line_base;
	*col = (int)(offset - start) + 1 + (l == 1 ? src->col_base : 0);
}

LineTable *base_line_table(Arena *a, const Source *src)
{
	LineTable *t = arena_alloc(a, sizeof *t);
	t->src = src;
	size_t n = 1;
	for (size_t i = 0; i < src->len; i++)
		n += src->text[i] == '\n';
	t->starts = arena_alloc(a, sizeof *t->starts * n);
	t->starts[0] = 0;
	t->n = 1;
	for (size_t i = 0; i < src->len; i++)
		if (src->text[i] == '\n')
			t->starts[t->n++] = i + 1;
	return t;
}

/* Whether line i (0-based) holds offset. */
static bool line_holds(const LineTable *t, size_t i, size_t offset)
{
	return i < t->n && t->starts[i] <= offset && (i + 1 == t->n || offset < t->starts[i + 1]);
}

void base_line_table_linecol(LineTable *t, size_t offset, int *line, int *col)
{
	if (offset > t->src->len)
		offset = t->src->len;
	size_t lo = t->last;   /* the last start <= offset */
	if (line_holds(t, lo + 1, offset)) {
		lo++;
	} else if (!line_holds(t, lo, offset)) {
		size_t hi = t->n;
		lo = 0;
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;
			if (t->starts[mid] <= offset)
				lo = mid;
			else
				hi = mid;
		}
	}
	t->last = lo;
	*line = (int)lo + 1 + t->src->line_base;
	*col = (int)(offset - t->starts[lo]) + 1 + (lo == 0 ? t->src->col_base : 0);
}

size_t base_line_table_start(const LineTable *t, int line)
{
	int64_t i = (int64_t)line - 1 - t->src->line_base;
	if (i < 0)
		return 0;
	return (uint64_t)i < t->n ? t->starts[i] : t->src->len;
}

static void emit(Diag *d, const char *s, size_t n)
{
	buf_putn(&d->text, s, n);
	if (d->out)
		fwrite(s, 1, n, d->out);
}

/* Prints the source line holding `offset` and a caret under it. Control
 * bytes and overlong lines are shown safely. */
void diag_show_line(Buf *b, const Source *src, size_t offset, int line)
{
	if (offset > src->len)
		offset = src->len;
	size_t start = offset, end = offset;
	while (start > 0 && src->text[start - 1] != '\n')
		start--;
	while (end < src->len && src->text[end] != '\n')
		end++;
	/* Keep at most 200 bytes around the caret. */
	size_t from = start, to = end;
	if (offset - from > 80)
		from = offset - 80;
	if (to - offset > 120)
		to = offset + 120;
	buf_printf(b, "%5d | ", line);
	size_t caret = 0;
	for (size_t i = from; i < to; i++) {
		unsigned char c = (unsigned char)src->text[i];
		if (c == '\t' || (c >= 0x20 && c != 0x7f))
			buf_putc(b, (char)c);
		else
			buf_putc(b, '?');
		if (i < offset)
			caret++;
	}
	buf_puts(b, "\n      | ");
	for (size_t i = 0; i < caret; i++)
		buf_putc(b, src->text[from + i] == '\t' ? '\t' : ' ');
	buf_puts(b, "^\n");
}

void diag_vat(Diag *d, DiagKind kind, const Source *src, size_t offset, const char *fmt, va_list ap)
{
	Buf b = {0};
	int line = 0, col = 0;
	if (src) {
		diag_source_linecol(src, offset, &line, &col);
		buf_printf(&b, "%s:%d:%d: %s: ", src->name, line, col, kind_name[kind]);
	} else {
		buf_printf(&b, "%s%s%s: ", d->prog ? d->prog : "", d->prog ? ": " : "", kind_name[kind]);
	}
	buf_vprintf(&b, fmt, ap);
	buf_putc(&b, '\n');
	if (src)
		diag_show_line(&b, src, offset, line);
	emit(d, b.data, b.len);
	buf_free(&b);
	if (kind == DIAG_ERROR)
		d->errors++;
	else if (kind == DIAG_WARNING)
		d->warnings++;
}

void diag_at(Diag *d, DiagKind kind, const Source *src, size_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(d, kind, src, offset, fmt, ap);
	va_end(ap);
}

void diag_plain(Diag *d, DiagKind kind, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(d, kind, NULL, 0, fmt, ap);
	va_end(ap);
}

void diag_vfatal(Diag *d, const Source *src, size_t offset, const char *fmt, va_list ap)
{
	diag_vat(d, DIAG_ERROR, src, offset, fmt, ap);
	if (d->jump)
		longjmp(*d->jump, 1);
	base_die("fatal diagnostic with no recovery point");
}

void diag_fatal(Diag *d, const Source *src, size_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vfatal(d, src, offset, fmt, ap);
	va_end(ap);
}
