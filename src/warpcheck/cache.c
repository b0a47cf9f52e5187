/* cache.c: results kept by content, for CI runs over a large tree.
 *
 * A file's report (its output bytes and its count of warnings) is stored
 * under a key made of its path, its text, the build flags, the output
 * format and the program's own bytes (rules_id), together with the headers it read and a hash of each one's text.
 * A later run with the same key and the same headers takes the report as it
 * is, without lexing the file (the kernels it defines and the launches it
 * leaves to other files are kept with it): only changed files (or files whose headers
 * changed) are checked again. Entries are written whole or not at all
 * (through a temporary file and a rename); one that cannot be read or does
 * not match is ignored and rewritten. */
#include "warpcheck/warpcheck.h"

#include <sys/stat.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_MAGIC "warpcheck-cache 3\n"

/* A hash of len bytes eight at a time (FNV-1a's byte loop was a third of a
 * cached run): each word is mixed in with a multiply and a shift. */
static uint64_t text_hash(const void *p, size_t len, uint64_t h)
{
	const unsigned char *s = p;
	h ^= (uint64_t)len * 0x9e3779b97f4a7c15ull;
	for (; len >= 8; s += 8, len -= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	uint64_t w = 0;
	memcpy(&w, s, len);
	h = (h ^ w ^ ((uint64_t)len << 56)) * 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 29);
}

/* The rules that wrote an entry: a hash of the running program's bytes
 * (a rebuilt warpcheck, whose checks may differ, finds none of the old
 * entries), or of the build's date where the program cannot be read.
 * Worker threads may race to compute it; they store the same value. */
static uint64_t rules_id(void)
{
	static _Atomic uint64_t id;
	uint64_t h = atomic_load(&id);
	if (h)
		return h;
	h = text_hash(__DATE__ " " __TIME__, sizeof __DATE__ " " __TIME__, HASH_SEED);
	FILE *f = fopen("/proc/self/exe", "rb");
	if (f) {
		char buf[1 << 16];
		size_t n;
		while ((n = fread(buf, 1, sizeof buf, f)) > 0)
			h = text_hash(buf, n, h);
		fclose(f);
	}
	h |= 1;   /* never 0, the value for "not yet" */
	atomic_store(&id, h);
	return h;
}

uint64_t wc_cache_key(const char *path, const char *text, size_t len, uint64_t extra)
{
	uint64_t h = text_hash(path, strlen(path) + 1, HASH_SEED ^ extra ^ rules_id());
	return text_hash(text, len, h);
}

static void entry_path(Buf *b, const char *dir, uint64_t key)
{
	buf_printf(b, "%s/%016llx", dir, (unsigned long long)key);
}

static uint64_t header_hash(WcWork *w, const char *path)
{
	size_t len = 0;
	const char *text = wc_header_text(w, path, &len);
	return text ? text_hash(text, len, HASH_SEED) : 0;
}

/* A line of identifier characters, from s, into a new string; NULL when
 * there is none. *next: past its newline. */
static char *ident_line(const char *s, const char *end, const char **next)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s));
	if (!nl || nl == s)
		return NULL;
	for (const char *c = s; c < nl; c++)
		if (!(*c == '_' || (*c >= '0' && *c <= '9') || ((*c | 32) >= 'a' && (*c | 32) <= 'z')))
			return NULL;
	char *r = base_malloc((size_t)(nl - s) + 1);
	memcpy(r, s, (size_t)(nl - s));
	r[nl - s] = '\0';
	*next = nl + 1;
	return r;
}

/* The kernel facts and launch references after the header lines. */
static bool read_refs(const char **ps, const char *end, WcFile *refs)
{
	const char *s = *ps;
	char *e;
	long nk = strtol(s, &e, 10), nl;
	if (e == s || *e != ' ' || nk < 0)
		return false;
	s = e + 1;
	nl = strtol(s, &e, 10);
	if (e == s || *e != '\n' || nl < 0)
		return false;
	s = e + 1;
	for (long k = 0; k < nk; k++) {
		long kinds = strtol(s, &e, 10);
		char *name;
		if (e == s || *e != ' ' || !(name = ident_line(e + 1, end, &s)))
			return false;
		refs->kfacts = base_realloc(refs->kfacts, (size_t)(refs->nkfacts + 1) * sizeof *refs->kfacts);
		refs->kfacts[refs->nkfacts++] = (WcKernelFact){name, (int)kinds};
	}
	for (long k = 0; k < nl; k++) {
		WcLaunchRef r = {0};
		long v[5];
		for (int m = 0; m < 5; m++) {
			v[m] = strtol(s, &e, 10);
			if (e == s || *e != ' ' || v[m] < 0)
				return false;
			s = e + 1;
		}
		if (!(r.name = ident_line(s, end, &s)))
			return false;
		r.x = (uint64_t)v[0], r.rows = v[1] != 0, r.off = (uint32_t)v[2], r.line = (int)v[3], r.col = (int)v[4];
		refs->lrefs = base_realloc(refs->lrefs, (size_t)(refs->nlrefs + 1) * sizeof *refs->lrefs);
		refs->lrefs[refs->nlrefs++] = r;
	}
	*ps = s;
	return true;
}

bool wc_cache_get(const char *dir, uint64_t key, WcWork *w, Buf *out, int *findings, WcFile *refs)
{
	Buf p = {0};
	entry_path(&p, dir, key);
	size_t len;
	char *text = file_read(buf_str(&p), &len);
	buf_free(&p);
	if (!text)
		return false;
	bool ok = false;
	size_t m = strlen(CACHE_MAGIC);
	const char *s = text + m, *end = text + len;
	if (len < m || memcmp(text, CACHE_MAGIC, m) != 0)
		goto done;
	char *e;
	long nf = strtol(s, &e, 10), nh;
	if (e == s || *e != '\n')
		goto done;
	s = e + 1;
	nh = strtol(s, &e, 10);
	if (e == s || *e != '\n' || nh < 0)
		goto done;
	s = e + 1;
	for (long k = 0; k < nh; k++) {
		unsigned long long hh = strtoull(s, &e, 16);
		if (e == s || *e != ' ')
			goto done;
		const char *nl = memchr(e + 1, '\n', (size_t)(end - e - 1));
		if (!nl)
			goto done;
		char *hp = base_malloc((size_t)(nl - e));
		memcpy(hp, e + 1, (size_t)(nl - e - 1));
		hp[nl - e - 1] = '\0';
		bool same = header_hash(w, hp) == hh;
		free(hp);
		if (!same)
			goto done;
		s = nl + 1;
	}
	if (!read_refs(&s, end, refs)) {
		wc_kernel_facts_free(refs->kfacts, refs->nkfacts);
		wc_launch_refs_free(refs->lrefs, refs->nlrefs);
		refs->kfacts = NULL, refs->lrefs = NULL;
		refs->nkfacts = refs->nlrefs = 0;
		goto done;
	}
	buf_putn(out, s, (size_t)(end - s));
	*findings = (int)nf;
	ok = true;
done:
	free(text);
	return ok;
}

void wc_cache_put(const char *dir, uint64_t key, const WcFile *f, WcWork *w, const Buf *out, int findings)
{
	Buf b = {0};
	buf_puts(&b, CACHE_MAGIC);
	buf_printf(&b, "%d\n%d\n", findings, f->hdr_paths.len);
	for (int k = 0; k < f->hdr_paths.len; k++) {
		const char *hp = f->hdr_paths.data[k];
		if (strchr(hp, '\n')) {
			buf_free(&b);
			return;  /* a name the entry cannot hold: not cached */
		}
		buf_printf(&b, "%016llx %s\n", (unsigned long long)header_hash(w, hp), hp);
	}
	buf_printf(&b, "%d %d\n", f->nkfacts, f->nlrefs);
	for (int k = 0; k < f->nkfacts; k++)
		buf_printf(&b, "%d %s\n", f->kfacts[k].kinds, f->kfacts[k].name);
	for (int k = 0; k < f->nlrefs; k++) {
		const WcLaunchRef *r = &f->lrefs[k];
		buf_printf(&b, "%llu %d %u %d %d %s\n", (unsigned long long)r->x, r->rows ? 1 : 0, r->off, r->line, r->col,
			r->name);
	}
	buf_putn(&b, out->data ? out->data : "", out->len);
	Buf p = {0};
	entry_path(&p, dir, key);
	(void)mkdir(dir, 0777);  /* the first run makes the folder (one level); it may exist */
	(void)file_write_atomic(buf_str(&p), b.data, b.len);  /* a cache that cannot be written is no error */
	buf_free(&p);
	buf_free(&b);
}
