/* report.c: findings as GCC-style text, JSON or SARIF 2.1.0, and --fix:
 * the edits applied to a copy of the text and a unified diff of it. */
#include "warpcheck/warpcheck.h"

#include <stdlib.h>
#include <string.h>

void wc_report_text_buf(Buf *b, const WcFile *f)
{
	for (int i = 0; i < f->nfinds; i++) {
		const WcFinding *fd = &f->finds[i];
		buf_printf(b, "%s:%d:%d: %s: %s [%s %s]\n", f->src.name, fd->line, fd->col, fd->note ? "note" : "warning",
			fd->msg, fd->id, fd->name);
		/* The source line and a caret, as every diagnostic shows them;
		 * findings already know their line, so nothing rescans the file. */
		diag_show_line(b, &f->src, fd->off, fd->line);
		buf_printf(b, "      | fix: %s\n", fd->fix);
	}
}

void wc_report_text(FILE *out, const WcFile *f)
{
	Buf b = {0};
	wc_report_text_buf(&b, f);
	fwrite(b.data ? b.data : "", 1, b.len, out);
	buf_free(&b);
}

/* Bytes a JSON string can hold as they are. */
static bool plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/* A JSON string; runs of plain bytes are copied at once. */
static void json_str(Buf *b, const char *s)
{
	buf_putc(b, '"');
	while (*s) {
		const char *run = s;
		while (plain((unsigned char)*s))
			s++;
		buf_putn(b, run, (size_t)(s - run));
		if (!*s)
			break;
		unsigned char c = (unsigned char)*s++;
		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else
			buf_printf(b, "\\u%04x", c);  /* paths may hold any byte */
	}
	buf_putc(b, '"');
}

/* A decimal integer, without printf. */
static void put_int(Buf *b, int v)
{
	char tmp[16];
	int k = sizeof tmp;
	unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
	do
		tmp[--k] = (char)('0' + u % 10);
	while ((u /= 10) && k > 1);
	if (v < 0)
		tmp[--k] = '-';
	buf_putn(b, tmp + k, sizeof tmp - (size_t)k);
}

void wc_report_json_file(Buf *b, const WcFile *f, bool *first)
{
	Buf name = {0};  /* the path, escaped once for all of the file's findings */
	if (f->nfinds)
		json_str(&name, f->src.name);
	for (int i = 0; i < f->nfinds; i++) {
		const WcFinding *fd = &f->finds[i];
		buf_puts(b, *first ? "\n  {" : ",\n  {");
		*first = false;
		buf_puts(b, "\"file\": ");
		buf_putn(b, name.data, name.len);
		buf_puts(b, ", \"line\": ");
		put_int(b, fd->line);
		buf_puts(b, ", \"col\": ");
		put_int(b, fd->col);
		buf_puts(b, ", \"id\": \"");
		buf_puts(b, fd->id);
		buf_puts(b, "\", \"name\": \"");
		buf_puts(b, fd->name);
		buf_puts(b, fd->note ? "\", \"severity\": \"note\", \"message\": " : "\", \"severity\": \"warning\", \"message\": ");
		json_str(b, fd->msg);
		buf_puts(b, ", \"fix\": ");
		json_str(b, fd->fix);
		buf_puts(b, fd->has_edit ? ", \"autofix\": true}" : ", \"autofix\": false}");
	}
	buf_free(&name);
}

void wc_report_sarif_file(Buf *b, const WcFile *f, bool *first)
{
	Buf m = {0};
	for (int i = 0; i < f->nfinds; i++) {
		const WcFinding *fd = &f->finds[i];
		buf_puts(b, *first ? "\n        {" : ",\n        {");
		*first = false;
		buf_puts(b, "\"ruleId\": \"");
		buf_puts(b, fd->id);
		buf_puts(b, fd->note ? "\", \"level\": \"note\", \"message\": {\"text\": " : "\", \"level\": \"warning\", \"message\": {\"text\": ");
		m.len = 0;
		buf_printf(&m, "%s [%s %s]; fix: %s", fd->msg, fd->id, fd->name, fd->fix);
		json_str(b, buf_str(&m));
		buf_puts(b, "}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
		json_str(b, f->src.name);
		buf_puts(b, "}, \"region\": {\"startLine\": ");
		put_int(b, fd->line);
		buf_puts(b, ", \"startColumn\": ");
		put_int(b, fd->col);
		buf_puts(b, "}}}]}");
	}
	buf_free(&m);
}

int wc_warnings(const WcFile *f)
{
	int n = 0;
	for (int i = 0; i < f->nfinds; i++)
		n += !f->finds[i].note;
	return n;
}

static int by_edit_offset(const void *a, const void *b)
{
	const WcFinding *x = *(const WcFinding *const *)a, *y = *(const WcFinding *const *)b;
	if (x->eoff != y->eoff)
		return x->eoff < y->eoff ? -1 : 1;
	return x < y ? -1 : x > y;  /* same place: keep the findings' order */
}

/* A copy of the text with every non-overlapping edit applied, in text
 * order (an edit may lie after another finding's: H11 edits the call's
 * ")", H3 the "& 31" inside it). Of two overlapping edits the first in
 * text order wins. */
char *wc_apply_fixes(const WcFile *f, size_t *len, int *applied)
{
	const WcFinding **edits = xmalloc((size_t)(f->nfinds + 1) * sizeof *edits);
	int n = 0;
	for (int i = 0; i < f->nfinds; i++)
		if (f->finds[i].has_edit)
			edits[n++] = &f->finds[i];
	if (n > 1)
		qsort(edits, (size_t)n, sizeof *edits, by_edit_offset);
	Buf b = {0};
	size_t pos = 0;
	*applied = 0;
	for (int i = 0; i < n; i++) {
		const WcFinding *fd = edits[i];
		if (fd->eoff < pos || fd->eoff + fd->elen > f->src.len)
			continue;
		buf_putn(&b, f->src.text + pos, fd->eoff - pos);
		buf_puts(&b, fd->repl);
		pos = fd->eoff + fd->elen;
		(*applied)++;
	}
	free(edits);
	buf_putn(&b, f->src.text + pos, f->src.len - pos);
	*len = b.len;
	return buf_detach(&b); /* "" when empty; never leaks a reserved buffer */
}

/* Line starts of a text; the last entry is its length. */
static size_t *line_starts(const char *s, size_t n, int *count)
{
	int k = 1;
	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n' && i + 1 < n;
	size_t *ls = xmalloc((size_t)(k + 1) * sizeof *ls);
	ls[0] = 0;
	int j = 1;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\n' && i + 1 < n)
			ls[j++] = i + 1;
	ls[k] = n;
	*count = k;
	return ls;
}

static void put_line(Buf *out, char sign, const char *s, size_t from, size_t to)
{
	buf_putc(out, sign);
	buf_putn(out, s + from, to - from);
	if (to == from || s[to - 1] != '\n')
		buf_puts(out, "\n\\ No newline at end of file\n");
}

/* Fixes never add or remove lines, so the diff pairs line i with line i
 * and emits one zero-context hunk per run of changed lines. */
void wc_unified_diff_buf(Buf *out, const char *path, const char *a, size_t alen, const char *b, size_t blen)
{
	int na, nb;
	size_t *la = line_starts(a, alen, &na), *lb = line_starts(b, blen, &nb);
	bool header = false;
	for (int i = 0; i < na && i < nb;) {
		int j = i;
		while (j < na && j < nb && (la[j + 1] - la[j] != lb[j + 1] - lb[j] ||
		       memcmp(a + la[j], b + lb[j], la[j + 1] - la[j]) != 0))
			j++;
		if (j == i) {
			i++;
			continue;
		}
		if (!header)
			buf_printf(out, "--- %s\n+++ %s\n", path, path);
		header = true;
		buf_printf(out, "@@ -%d,%d +%d,%d @@\n", i + 1, j - i, i + 1, j - i);
		for (int k = i; k < j; k++)
			put_line(out, '-', a, la[k], la[k + 1]);
		for (int k = i; k < j; k++)
			put_line(out, '+', b, lb[k], lb[k + 1]);
		i = j;
	}
	free(la);
	free(lb);
}

void wc_unified_diff(FILE *out, const char *path, const char *a, size_t alen, const char *b, size_t blen)
{
	Buf d = {0};
	wc_unified_diff_buf(&d, path, a, alen, b, blen);
	fwrite(d.data ? d.data : "", 1, d.len, out);
	buf_free(&d);
}
