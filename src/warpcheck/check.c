/* check.c: one file through the pipeline: read, refuse binaries, lex,
 * preprocess, dataflow, the rules, then suppression comments. */
#include "warpcheck/warpcheck.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool suppressed(const WcFile *f, const WcFinding *fd)
{
	for (int i = 0; i < f->nsup; i++) {
		const WcSuppress *s = &f->sup[i];
		if (s->line != fd->line && s->line != fd->line - 1)
			continue;
		if (!s->ids[0])
			return true;
		char key[8];
		snprintf(key, sizeof key, "%s ", fd->id);
		if (strstr(s->ids, key))
			return true;
	}
	return false;
}

static int by_offset(const void *a, const void *b)
{
	const WcFinding *x = a, *y = b;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return strcmp(x->id, y->id);
}

static void finish(WcFile *f)
{
	int k = 0;
	for (int i = 0; i < f->nfinds; i++)
		if (!suppressed(f, &f->finds[i]))
			f->finds[k++] = f->finds[i];
	if (k > 1)
		qsort(f->finds, (size_t)k, sizeof *f->finds, by_offset);
	/* One finding per token and hazard, however many paths reach it. */
	int u = 0;
	for (int i = 0; i < k; i++)
		if (u == 0 || f->finds[u - 1].off != f->finds[i].off || strcmp(f->finds[u - 1].id, f->finds[i].id) != 0)
			f->finds[u++] = f->finds[i];
	f->nfinds = u;
}

bool wc_check_file(WcFile *f, Diag *d, const char *path)
{
	memset(f, 0, sizeof *f);
	f->diag = d;
	size_t len = 0;
	char *text = file_read(path, &len);
	if (!text) {
		diag_plain(d, DIAG_ERROR, "%s: cannot read: %s", path, strerror(errno));
		return false;
	}
	f->src = (Source){.name = path, .text = text, .len = len};
	const char *nul = memchr(text, '\0', len < 8192 ? len : 8192);
	if (nul) {
		diag_at(d, DIAG_ERROR, &f->src, (size_t)(nul - text), "binary file (NUL byte); skipped");
		f->errors++;
		return false;
	}
	wc_lex(f);
	wc_preprocess(f);
	wc_dataflow(f);
	wc_rule_loops(f);
	wc_rule_masks(f);
	wc_rule_lanes(f);
	wc_rule_ballot(f);
	wc_rule_host(f);
	finish(f);
	return true;
}

void wc_file_free(WcFile *f)
{
	free((void *)f->src.text);
	free(f->all);
	free(f->t);
	free(f->consts);
	free(f->macros);
	free(f->sup);
	free(f->finds);
	for (int i = 0; i < f->derived.len; i++)
		free(f->derived.data[i]);
	for (int i = 0; i < f->warp32.len; i++)
		free(f->warp32.data[i]);
	vec_free(&f->derived);
	vec_free(&f->warp32);
	memset(f, 0, sizeof *f);
}
