/* report.c: findings as GCC-style text, JSON or SARIF 2.1.0, and --fix:
 * the edits applied to a copy of the text and a unified diff of it. */
#include "warpcheck/warpcheck.h"

#include <stdlib.h>
#include <string.h>

/* The source line and a caret, as every diagnostic shows them; findings
 * already know their line, so nothing rescans the file from the top. */
static void show_line(FILE *out, const WcFile *f, const WcFinding *fd)
{
	Buf b = {0};
	diag_show_line(&b, &f->src, fd->off, fd->line);
	fputs(buf_str(&b), out);
	buf_free(&b);
}

void wc_report_text(FILE *out, const WcFile *f)
{
	for (int i = 0; i < f->nfinds; i++) {
		const WcFinding *fd = &f->finds[i];
		fprintf(out, "%s:%d:%d: warning: %s [%s %s]\n", f->src.name, fd->line, fd->col, fd->msg, fd->id, fd->name);
		show_line(out, f, fd);
		fprintf(out, "      | fix: %s\n", fd->fix);
	}
}

static void json_str(Buf *b, const char *s)
{
	buf_putc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			buf_printf(b, "\\u%04x", c);  /* paths may hold any byte */
		else
			buf_putc(b, (char)c);
	}
	buf_putc(b, '"');
}

void wc_report_json_file(Buf *b, const WcFile *f, bool *first)
{
	for (int i = 0; i < f->nfinds; i++) {
		const WcFinding *fd = &f->finds[i];
		buf_puts(b, *first ? "\n  {" : ",\n  {");
		*first = false;
		buf_puts(b, "\"file\": ");
		json_str(b, f->src.name);
		buf_printf(b, ", \"line\": %d, \"col\": %d, \"id\": \"%s\", \"name\": \"%s\", \"message\": ",
			fd->line, fd->col, fd->id, fd->name);
		json_str(b, fd->msg);
		buf_puts(b, ", \"fix\": ");
		json_str(b, fd->fix);
		buf_printf(b, ", \"autofix\": %s}", fd->has_edit ? "true" : "false");
	}
}

void wc_report_sarif_file(Buf *b, const WcFile *f, bool *first)
{
	for (int i = 0; i < f->nfinds; i++) {
		const WcFinding *fd = &f->finds[i];
		buf_puts(b, *first ? "\n        {" : ",\n        {");
		*first = false;
		buf_printf(b, "\"ruleId\": \"%s\", \"level\": \"warning\", \"message\": {\"text\": ", fd->id);
		Buf m = {0};
		buf_printf(&m, "%s [%s %s]; fix: %s", fd->msg, fd->id, fd->name, fd->fix);
		json_str(b, buf_str(&m));
		buf_free(&m);
		buf_puts(b, "}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
		json_str(b, f->src.name);
		buf_printf(b, "}, \"region\": {\"startLine\": %d, \"startColumn\": %d}}}]}", fd->line, fd->col);
	}
}

/* A copy of the text with every non-overlapping edit applied (findings
 * are sorted by offset, and each edit lies at or after its finding). */
char *wc_apply_fixes(const WcFile *f, size_t *len, int *applied)
{
	Buf b = {0};
	size_t pos = 0;
	*applied = 0;
	for (int i = 0; i < f->nfinds; i++) {
		const WcFinding *fd = &f->finds[i];
		if (!fd->has_edit || fd->eoff < pos)
			continue;
		buf_putn(&b, f->src.text + pos, fd->eoff - pos);
		buf_puts(&b, fd->repl);
		pos = fd->eoff + fd->elen;
		(*applied)++;
	}
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

static void put_line(FILE *out, char sign, const char *s, size_t from, size_t to)
{
	fputc(sign, out);
	fwrite(s + from, 1, to - from, out);
	if (to == from || s[to - 1] != '\n')
		fputs("\n\\ No newline at end of file\n", out);
}

/* Fixes never add or remove lines, so the diff pairs line i with line i
 * and emits one zero-context hunk per run of changed lines. */
void wc_unified_diff(FILE *out, const char *path, const char *a, size_t alen, const char *b, size_t blen)
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
			fprintf(out, "--- %s\n+++ %s\n", path, path);
		header = true;
		fprintf(out, "@@ -%d,%d +%d,%d @@\n", i + 1, j - i, i + 1, j - i);
		for (int k = i; k < j; k++)
			put_line(out, '-', a, la[k], la[k + 1]);
		for (int k = i; k < j; k++)
			put_line(out, '+', b, lb[k], lb[k + 1]);
		i = j;
	}
	free(la);
	free(lb);
}
