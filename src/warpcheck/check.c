/* check.c: one file through the pipeline: read, refuse binaries, lex,
 * preprocess, find functions, dataflow, the rules, then suppression
 * comments and sorting. */
#include "warpcheck/warpcheck.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

void wc_work_init(WcWork *w)
{
	memset(w, 0, sizeof *w);
	wc_names_init(&w->names);
}

void wc_work_free(WcWork *w)
{
	wc_header_sums_free(w);
	wc_headers_free(w);
	wc_includes_free(w);
	wc_names_free(&w->names);
	free(w->text);
	free(w->all);
	free(w->t);
	free(w->building);
	memset(w, 0, sizeof *w);
}

/* Reads the whole file into f's text buffer (NUL-terminated), reusing it.
 * false with errno set on failure. */
static bool read_text(WcFile *f, const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	struct stat st;
	bool sized = fstat(fd, &st) == 0;
	if (sized && S_ISDIR(st.st_mode)) {
		close(fd);
		errno = EISDIR;
		return false;
	}
	size_t len = 0, want = sized && st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
	for (;;) {
		if (f->text_cap < want + 1) {
			f->text_cap = want + 1;
			f->src.text = base_realloc((char *)f->src.text, f->text_cap);
		}
		ssize_t got = read(fd, (char *)f->src.text + len, f->text_cap - 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int err = errno;
			close(fd);
			errno = err;
			return false;
		}
		if (got == 0)
			break;
		len += (size_t)got;
		if (sized && len == (size_t)st.st_size && (size_t)got < f->text_cap - 1 - (len - (size_t)got))
			break;  /* a short read of a regular file is its end: no second read for the 0 */
		if (len + 1 >= f->text_cap)
			want = f->text_cap * 2;  /* grew while being read, or no size known */
	}
	close(fd);
	((char *)f->src.text)[len] = '\0';
	f->src.len = len;
	return true;
}

/* -D NAME[=VALUE] and -U NAME: known to #if, and -D WARP_SIZE=64 (or
 * =warpSize) to the rules as a #define in the file would be. */
void wc_command_line_macros(WcFile *f)
{
	for (int k = 0; k < f->cfg->ndefs; k++) {
		const WcDefine *d = &f->cfg->defs[k];
		uint32_t id = wc_intern(f->names, d->name, strlen(d->name));
		WcName *nm = &f->names->v[id];
		nm->cdef_stamp = f->stamp;
		nm->cdef = d->undef ? 2 : 1;
		const char *v = d->value ? d->value : "1";
		char *end;
		unsigned long long x = strtoull(v, &end, 0);
		while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
			end++;
		nm->cdef_num = !d->undef && *v && !*end;
		nm->cdef_value = x;
		if (nm->cdef_num && d->value)
			wc_set_const(f, id, x, false);
		else if (!d->undef && strcmp(v, "warpSize") == 0)
			wc_touch(f->names, id, f->stamp), nm->wsize_stamp = f->stamp;
	}
}

/* Borrows the thread's buffers (or starts with none). */
static void setup(WcFile *f, Diag *d, const char *path, WcWork *w)
{
	memset(f, 0, sizeof *f);
	f->diag = d;
	f->work = w;
	if (w) {
		f->names = &w->names;
		f->src.text = w->text, f->text_cap = w->text_cap;
		f->all = w->all, f->all_cap = w->all_cap;
		f->t = w->t, f->t_cap = w->t_cap;
		w->text = NULL, w->all = NULL, w->t = NULL;
	} else {
		f->names = base_malloc(sizeof *f->names);
		wc_names_init(f->names);
		f->own_names = true;
	}
	f->src.name = path;
	f->stamp = wc_stamp(f->names);
	f->names->nmt = 0;  /* macro bodies are per file */
	f->names->nwm = 0;  /* and templates' wavefront parameters */
	f->names->ntouched = 0;  /* and the names whose facts were set */
	static const WcConfig none;
	f->cfg = w && w->cfg ? w->cfg : &none;
	if (w)
		wc_partial_sums_free(w);
}

bool wc_check_path(WcFile *f, Diag *d, const char *path, WcWork *w)
{
	setup(f, d, path, w);
	if (!read_text(f, path)) {
		diag_plain(d, DIAG_ERROR, "%s: cannot read: %s", path, file_strerror(errno));
		return false;
	}
	const char *text = f->src.text;
	size_t len = f->src.len;
	const char *nul = memchr(text, '\0', len < 8192 ? len : 8192);
	if (nul) {
		diag_at(d, DIAG_ERROR, &f->src, (size_t)(nul - text), "binary file (NUL byte); skipped");
		f->errors++;
		return false;
	}
	wc_lex(f);
	wc_include_summaries(f);
	wc_command_line_macros(f);
	wc_preprocess(f);
	wc_match_table(f);
	wc_functions(f);
	wc_dataflow(f);
	wc_rule_loops(f);
	wc_rule_masks(f);
	wc_rule_lanes(f);
	wc_rule_ballot(f);
	wc_rule_host(f);
	wc_rule_arch(f);
	wc_rule_library(f);
	wc_rule_branch(f);
	wc_rule_width(f);
	wc_rule_params(f);
	wc_rule_tmpl(f);
	wc_rule_shims(f);
	wc_scheme_notes(f);
	finish(f);
	return true;
}

bool wc_check_file(WcFile *f, Diag *d, const char *path)
{
	return wc_check_path(f, d, path, NULL);
}

/* Frees what the file owns; borrowed buffers go back to the thread. */
void wc_file_free(WcFile *f)
{
	if (f->work) {
		WcWork *w = f->work;
		w->text = (char *)f->src.text, w->text_cap = f->text_cap;
		w->all = f->all, w->all_cap = f->all_cap;
		w->t = f->t, w->t_cap = f->t_cap;
	} else {
		free((void *)f->src.text);
		free(f->all);
		free(f->t);
	}
	free(f->match);
	free(f->stmt_next);
	free(f->lines);
	free(f->sup);
	free(f->finds);
	free(f->hfinds);
	free(f->hpaths);
	f->hfinds = NULL;
	f->hpaths = NULL;
	f->nhfinds = f->hfinds_cap = 0;
	free(f->fns);
	wc_kernel_facts_free(f->kfacts, f->nkfacts);
	wc_launch_refs_free(f->lrefs, f->nlrefs);
	free(f->regions);
	free(f->seen);
	for (int i = 0; i < f->hdr_paths.len; i++)
		free(f->hdr_paths.data[i]);
	vec_free(&f->hdr_paths);
	if (f->own_names) {
		wc_names_free(f->names);
		free(f->names);
	}
	memset(f, 0, sizeof *f);
}
