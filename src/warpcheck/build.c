/* build.c: a project read as its build reads it.
 *
 *   - compiler flags (-I, -isystem, -iquote, -D, -U, --offload-arch, and
 *     warpcheck's own --target) on the command line or per file from a
 *     compile_commands.json (as clang-tidy takes them);
 *   - #include "..." and <...> resolved through the including file's folder
 *     and those paths; a header found only in an -isystem folder (a system
 *     or toolkit header) is skipped unless --system-headers;
 *   - with no path that finds it, the headers of the checked tree, by the
 *     include's path suffix (<ATen/cuda/Atomic.cuh> finds
 *     aten/src/ATen/cuda/Atomic.cuh), the one nearest the including file;
 *   - each thread reads a header once, however many files include it. */
#define _DEFAULT_SOURCE  /* realpath */
#include "warpcheck/warpcheck.h"
#include "base/json.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- flags ---- */

static void add_inc(WcConfig *c, const char *dir, const char *base, bool sys)
{
	if (c->ninc == c->inc_cap) {
		c->inc_cap = c->inc_cap ? c->inc_cap * 2 : 8;
		c->inc = base_realloc(c->inc, (size_t)c->inc_cap * sizeof *c->inc);
		c->inc_sys = base_realloc(c->inc_sys, (size_t)c->inc_cap * sizeof *c->inc_sys);
	}
	Buf b = {0};
	if (base && dir[0] != '/')
		buf_printf(&b, "%s/", base);
	buf_puts(&b, dir);
	while (b.len > 1 && b.data[b.len - 1] == '/')
		b.data[--b.len] = '\0';
	c->inc[c->ninc] = buf_detach(&b);
	c->inc_sys[c->ninc++] = sys;
}

static void add_def(WcConfig *c, const char *spec, bool undef)
{
	if (c->ndefs == c->def_cap) {
		c->def_cap = c->def_cap ? c->def_cap * 2 : 8;
		c->defs = base_realloc(c->defs, (size_t)c->def_cap * sizeof *c->defs);
	}
	WcDefine *d = &c->defs[c->ndefs++];
	const char *eq = undef ? NULL : strchr(spec, '=');
	size_t n = eq ? (size_t)(eq - spec) : strlen(spec);
	d->name = base_malloc(n + 1);
	memcpy(d->name, spec, n);
	d->name[n] = '\0';
	d->value = eq ? base_strdup(eq + 1) : NULL;
	d->undef = undef;
}

/* --offload-arch=gfx90a,gfx1100 or gfx90a:xnack+: the chips it names. */
static bool add_targets(WcConfig *c, const char *v)
{
	bool ok = true;
	while (*v) {
		size_t n = strcspn(v, ",");
		size_t chip = strcspn(v, ",:");
		int k = wc_chip_find(v, chip < n ? chip : n);
		if (k >= 0)
			c->targets |= (WcPasses)1 << (k + 1);
		else if (!(n == 6 && memcmp(v, "native", 6) == 0))
			ok = false;
		v += n;
		if (*v == ',')
			v++;
	}
	return ok;
}

int wc_config_arg(WcConfig *c, int argc, char **argv, int *i, const char *dir)
{
	const char *a = argv[*i];
	static const struct {
		const char *flag;
		int kind;  /* 0 -I, 1 -isystem, 2 -D, 3 -U, 4 targets */
	} flags[] = {
		{"-isystem", 1}, {"-idirafter", 1}, {"-iquote", 0}, {"-I", 0}, {"-D", 2}, {"-U", 3},
		{"--offload-arch", 4}, {"--amdgpu-target", 4}, {"--target", 4}, {"--cuda-gpu-arch", 4},
	};
	for (size_t k = 0; k < TC_COUNT(flags); k++) {
		size_t n = strlen(flags[k].flag);
		if (strncmp(a, flags[k].flag, n) != 0)
			continue;
		const char *v;
		if (a[n] == '\0') {
			if (*i + 1 >= argc)
				return -1;
			v = argv[++*i];
		} else if (a[n] == '=' && flags[k].kind == 4) {
			v = a + n + 1;
		} else if (flags[k].kind == 4) {
			continue;  /* --targetfoo */
		} else {
			v = a + n;
		}
		switch (flags[k].kind) {
		case 0: add_inc(c, v, dir, false); break;
		case 1: add_inc(c, v, dir, true); break;
		case 2: add_def(c, v, false); break;
		case 3: add_def(c, v, true); break;
		default:
			/* --target=x86_64-linux-gnu (a clang triple) says nothing of chips. */
			if (!add_targets(c, v) && strcmp(flags[k].flag, "--target") == 0 && !strchr(v, '-'))
				return -2;
			break;
		}
		return 1;
	}
	return 0;
}

void wc_config_copy(WcConfig *dst, const WcConfig *src)
{
	memset(dst, 0, sizeof *dst);
	for (int k = 0; k < src->ninc; k++)
		add_inc(dst, src->inc[k], NULL, src->inc_sys[k]);
	for (int k = 0; k < src->ndefs; k++) {
		add_def(dst, src->defs[k].name, src->defs[k].undef);
		if (src->defs[k].value)
			dst->defs[dst->ndefs - 1].value = base_strdup(src->defs[k].value);
	}
	dst->targets = src->targets;
	dst->system_headers = src->system_headers;
	dst->tree = src->tree;
	dst->hash = src->hash;
}

void wc_config_free(WcConfig *c)
{
	for (int k = 0; k < c->ninc; k++)
		free(c->inc[k]);
	for (int k = 0; k < c->ndefs; k++) {
		free(c->defs[k].name);
		free(c->defs[k].value);
	}
	free(c->inc);
	free(c->inc_sys);
	free(c->defs);
	memset(c, 0, sizeof *c);
}

void wc_config_finish(WcConfig *c)
{
	uint64_t h = HASH_SEED;
	for (int k = 0; k < c->ninc; k++) {
		h = base_hash_fnv1a(c->inc[k], strlen(c->inc[k]) + 1, h);
		h = base_hash_fnv1a(&c->inc_sys[k], 1, h);
	}
	for (int k = 0; k < c->ndefs; k++) {
		h = base_hash_fnv1a(c->defs[k].name, strlen(c->defs[k].name) + 1, h);
		if (c->defs[k].value)
			h = base_hash_fnv1a(c->defs[k].value, strlen(c->defs[k].value) + 1, h);
		h = base_hash_fnv1a(&c->defs[k].undef, 1, h);
	}
	h = base_hash_fnv1a(&c->targets, sizeof c->targets, h);
	h = base_hash_fnv1a(&c->system_headers, 1, h);
	c->hash = h;
}

/* ---- compile_commands.json ---- */

/* A shell command line split as sh would: quotes and backslashes. */
static void split_command(const char *s, Vec *out)
{
	while (*s) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		Buf w = {0};
		char q = 0;
		for (; *s && (q || (*s != ' ' && *s != '\t' && *s != '\n')); s++) {
			if (q == '\'' && *s == '\'') {
				q = 0;
			} else if (q == '\'') {
				buf_putc(&w, *s);
			} else if (*s == '\\' && s[1]) {
				buf_putc(&w, *++s);
			} else if (q == '"' && *s == '"') {
				q = 0;
			} else if (!q && (*s == '"' || *s == '\'')) {
				q = *s;
			} else {
				buf_putc(&w, *s);
			}
		}
		vec_push(out, base_strdup(buf_str(&w)));
		buf_free(&w);
	}
}

static char *real_path(const char *dir, const char *file)
{
	Buf p = {0};
	if (dir && file[0] != '/')
		buf_printf(&p, "%s/", dir);
	buf_puts(&p, file);
	char *r = realpath(buf_str(&p), NULL);
	if (!r)
		r = base_strdup(buf_str(&p));
	buf_free(&p);
	return r;
}

typedef struct DbEntry {
	char *file;
	WcConfig cfg;
} DbEntry;

static int by_file(const void *a, const void *b)
{
	return strcmp(((const DbEntry *)a)->file, ((const DbEntry *)b)->file);
}

bool wc_compile_db_load(WcCompileDb *db, const char *path, const WcConfig *base, Diag *d)
{
	memset(db, 0, sizeof *db);
	size_t len;
	char *text = file_read(path, &len);
	if (!text) {
		diag_plain(d, DIAG_ERROR, "%s: cannot read: %s", path, strerror(errno));
		return false;
	}
	Arena a = {0};
	size_t at = 0;
	Json *root = json_parse(&a, text, len, &at);
	Source src = {.name = path, .text = text, .len = len};
	if (!root || root->kind != JSON_ARRAY) {
		diag_at(d, DIAG_ERROR, &src, root ? 0 : at, "%s", root ? "a compile database is a JSON array" :
			"invalid JSON");
		arena_free(&a);
		free(text);
		return false;
	}
	DbEntry *e = base_calloc((size_t)root->len + 1, sizeof *e);
	int n = 0;
	/* A relative "directory" is taken from the database's own folder. */
	const char *slash = strrchr(path, '/');
	Buf dirb = {0};
	for (int k = 0; k < root->len; k++) {
		Json *o = root->items[k];
		const char *dir = json_str(json_get(o, "directory"), NULL);
		if (dir && dir[0] != '/') {
			dirb.len = 0;
			if (slash)
				buf_putn(&dirb, path, (size_t)(slash - path) + 1);
			buf_puts(&dirb, dir);
			dir = buf_str(&dirb);
		}
		const char *file = json_str(json_get(o, "file"), NULL);
		if (!file)
			continue;
		Vec args = {0};
		Json *arr = json_get(o, "arguments");
		if (arr && arr->kind == JSON_ARRAY) {
			for (int m = 0; m < arr->len; m++)
				vec_push(&args, base_strdup(json_str(arr->items[m], "")));
		} else {
			split_command(json_str(json_get(o, "command"), ""), &args);
		}
		DbEntry *x = &e[n++];
		wc_config_copy(&x->cfg, base);
		x->cfg.targets = 0;
		for (int m = 0; m < args.len; m++) {
			int rc = wc_config_arg(&x->cfg, args.len, (char **)args.data, &m, dir);
			(void)rc;  /* compiler flags warpcheck does not know are the compiler's */
		}
		if (base->targets)
			x->cfg.targets = base->targets;  /* --target narrows what the build names */
		wc_config_finish(&x->cfg);
		x->file = real_path(dir, file);
		for (int m = 0; m < args.len; m++)
			free(args.data[m]);
		vec_free(&args);
	}
	buf_free(&dirb);
	qsort(e, (size_t)n, sizeof *e, by_file);
	db->n = n;
	db->files = base_malloc((size_t)(n + 1) * sizeof *db->files);
	db->cfg = base_malloc((size_t)(n + 1) * sizeof *db->cfg);
	for (int k = 0; k < n; k++) {
		db->files[k] = e[k].file;
		db->cfg[k] = e[k].cfg;
	}
	free(e);
	arena_free(&a);
	free(text);
	return true;
}

/* A file's own entry, or for a header the entry of the file nearest it
 * (the longest common folder). */
const WcConfig *wc_compile_db_find(const WcCompileDb *db, const char *path)
{
	if (!db || db->n == 0)
		return NULL;
	char *r = real_path(NULL, path);
	int lo = 0, hi = db->n - 1;
	const WcConfig *found = NULL;
	while (lo <= hi && !found) {
		int mid = (lo + hi) / 2;
		int c = strcmp(r, db->files[mid]);
		if (c == 0)
			found = &db->cfg[mid];
		else if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	if (!found) {
		size_t best = 0;
		for (int k = 0; k < db->n; k++) {
			size_t m = 0, slash = 0;
			while (r[m] && r[m] == db->files[k][m]) {
				if (r[m] == '/')
					slash = m + 1;
				m++;
			}
			if (slash > best)
				best = slash, found = &db->cfg[k];
		}
	}
	free(r);
	return found;
}

void wc_compile_db_free(WcCompileDb *db)
{
	for (int k = 0; k < db->n; k++) {
		free(db->files[k]);
		wc_config_free(&db->cfg[k]);
	}
	free(db->files);
	free(db->cfg);
	memset(db, 0, sizeof *db);
}

/* ---- the tree's headers, by file name ---- */

struct WcTree {
	char **path;
	uint32_t *hash;    /* of the file name (after the last '/') */
	int n, cap;
	int *slot;         /* open addressing by hash: index + 1 */
	uint32_t mask;
	bool built;
};

WcTree *wc_tree_new(void)
{
	return base_calloc(1, sizeof(WcTree));
}

static uint32_t name_hash(const char *s, size_t n)
{
	return (uint32_t)base_hash_fnv1a(s, n, HASH_SEED);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

void wc_tree_add(WcTree *t, const char *path)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->path = base_realloc(t->path, (size_t)t->cap * sizeof *t->path);
		t->hash = base_realloc(t->hash, (size_t)t->cap * sizeof *t->hash);
	}
	const char *b = base_name(path);
	t->path[t->n] = base_strdup(path);
	t->hash[t->n++] = name_hash(b, strlen(b));
	t->built = false;
}

static void tree_build(WcTree *t)
{
	uint32_t size = 16;
	while (size < (uint32_t)t->n * 2)
		size *= 2;
	free(t->slot);
	t->slot = base_calloc(size, sizeof *t->slot);
	t->mask = size - 1;
	for (int k = 0; k < t->n; k++) {
		uint32_t s = t->hash[k] & t->mask;
		while (t->slot[s])
			s = (s + 1) & t->mask;
		t->slot[s] = k + 1;
	}
	t->built = true;
}

void wc_tree_free(WcTree *t)
{
	if (!t)
		return;
	for (int k = 0; k < t->n; k++)
		free(t->path[k]);
	free(t->path);
	free(t->hash);
	free(t->slot);
	free(t);
}

/* The tree's file whose path ends in "/name" (or is name), nearest from. */
static const char *tree_find(const WcTree *tc, const char *from, const char *name, size_t n)
{
	const WcTree *t = tc;  /* wc_tree_prepare built it before any thread ran */
	if (!t || t->n == 0 || !t->built)
		return NULL;
	const char *b = name + n;
	while (b > name && b[-1] != '/')
		b--;
	size_t bn = n - (size_t)(b - name);
	uint32_t h = name_hash(b, bn);
	const char *best = NULL;
	size_t best_common = 0;
	for (uint32_t s = h & t->mask; t->slot[s]; s = (s + 1) & t->mask) {
		int k = t->slot[s] - 1;
		if (t->hash[k] != h)
			continue;
		const char *p = t->path[k];
		size_t pn = strlen(p);
		if (pn < n || memcmp(p + pn - n, name, n) != 0 || (pn > n && p[pn - n - 1] != '/'))
			continue;
		if (strcmp(p, from) == 0)
			continue;
		size_t m = 0;
		while (p[m] && p[m] == from[m])
			m++;
		if (!best || m > best_common)
			best = p, best_common = m;
	}
	return best;
}

void wc_tree_prepare(WcTree *t)
{
	if (t && !t->built)
		tree_build(t);
}

/* ---- #include resolution ---- */

static bool regular(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < (1 << 24);
}

/* The last component of the path in out can be stepped back over: a name
 * (not "." or ".."), that is a folder and no symbolic link, so that
 * "a/b/.." is "a" for the file system too. */
static bool can_pop(Buf *out)
{
	size_t e = out->len, b = e;
	while (b > 0 && out->data[b - 1] != '/')
		b--;
	if (b == e || (e - b == 1 && out->data[b] == '.') || (e - b == 2 && out->data[b] == '.' && out->data[b + 1] == '.'))
		return false;
	struct stat st;
	return lstat(buf_str(out), &st) == 0 && S_ISDIR(st.st_mode);
}

/* dir (as given) joined with name, whose "." and "dir/.." steps are
 * taken as the file system would take them: "../config.hpp" from
 * rocprim/device/ is rocprim/config.hpp, the path every other file that
 * includes it names, so the header is read and summarized once. */
static bool try_dir(const char *dir, size_t dn, const char *name, size_t n, Buf *out)
{
	out->len = 0;
	if (dn)
		buf_putn(out, dir, dn);
	if (dn && dir[dn - 1] == '/')
		out->data[--out->len] = '\0';  /* "/" stays "": the slash comes back with the first name */
	bool root = dn && dir[0] == '/';
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && name[j] != '/')
			j++;
		size_t cn = j - i;
		if ((cn == 0 || (cn == 1 && name[i] == '.')) && j < n) {
			/* "./" and "//" are no step; a last "." names a folder, no header */
		} else if (cn == 2 && name[i] == '.' && name[i + 1] == '.' && j < n && can_pop(out)) {
			while (out->len > 0 && out->data[out->len - 1] != '/')
				out->len--;
			if (out->len > 0)
				out->len--;
			out->data[out->len] = '\0';
		} else {
			if (out->len || root)
				buf_putc(out, '/');
			buf_putn(out, name + i, cn);
		}
		i = j + 1;
	}
	return regular(buf_str(out));
}

/* The folders' part of a lookup: 1 found in out, 2 found in a system
 * folder that is skipped, 0 none (the tree's headers are left to ask). */
static int resolve_dirs(const WcConfig *c, const char *from, const char *name, size_t n, bool angle, Buf *out)
{
	if (!angle) {
		const char *slash = strrchr(from, '/');
		if (try_dir(from, slash ? (size_t)(slash - from) : 0, name, n, out))
			return 1;
	}
	for (int k = 0; c && k < c->ninc; k++) {
		if (try_dir(c->inc[k], strlen(c->inc[k]), name, n, out))
			return !c->inc_sys[k] || c->system_headers ? 1 : 2;
	}
	return 0;
}

static bool resolve_tree(const WcConfig *c, const char *from, const char *name, size_t n, Buf *out)
{
	const char *p = tree_find(c ? c->tree : NULL, from, name, n);
	if (!p)
		return false;
	out->len = 0;
	buf_puts(out, p);
	return true;
}

bool wc_resolve_include(const WcConfig *c, const char *from, const char *name, size_t n, bool angle, Buf *out)
{
	if (n == 0 || name[0] == '/' || memchr(name, '\0', n))
		return false;
	int r = resolve_dirs(c, from, name, n, angle, out);
	return r ? r == 1 : resolve_tree(c, from, name, n, out);
}

/* A lookup by build flags, folder of the including file ("" for <...>,
 * which does not look there) and name: what resolve_dirs gave. */
struct WcIncl {
	uint64_t hash;
	const WcConfig *cfg;
	char *key;          /* the folder, then the name */
	size_t dn, n;
	bool angle;
	int state;
	char *path;         /* state 1 */
};

static uint64_t incl_hash(const WcConfig *c, const char *dir, size_t dn, const char *name, size_t n, bool angle)
{
	uintptr_t p = (uintptr_t)c;
	uint64_t h = base_hash_fnv1a(&p, sizeof p, HASH_SEED ^ (uint64_t)angle);
	h = base_hash_fnv1a(dir, dn, h ^ dn);
	return base_hash_fnv1a(name, n, h ^ n);
}

bool wc_resolve_include_in(WcWork *w, const WcConfig *c, const char *from, const char *name, size_t n, bool angle,
	Buf *out)
{
	if (!w)
		return wc_resolve_include(c, from, name, n, angle, out);
	if (n == 0 || name[0] == '/' || memchr(name, '\0', n))
		return false;
	const char *slash = angle ? NULL : strrchr(from, '/');
	size_t dn = angle ? 0 : slash ? (size_t)(slash - from) + 1 : 0;  /* with its slash: "" is the current folder */
	uint64_t h = incl_hash(c, from, dn, name, n, angle);
	WcIncl *e = NULL;
	uint32_t at = UINT32_MAX;
	for (WcIncl *x; (x = wc_ptab_next(&w->incl, h, &at)) != NULL;)
		if (x->cfg == c && x->angle == angle && x->dn == dn && x->n == n && memcmp(x->key, from, dn) == 0 &&
		    memcmp(x->key + dn, name, n) == 0) {
			e = x;
			break;
		}
	if (!e) {
		e = base_calloc(1, sizeof *e);
		e->hash = h, e->cfg = c, e->dn = dn, e->n = n, e->angle = angle;
		e->key = base_malloc(dn + n + 1);
		memcpy(e->key, from, dn);
		memcpy(e->key + dn, name, n);
		e->key[dn + n] = '\0';
		e->state = resolve_dirs(c, from, name, n, angle, out);
		if (e->state == 1)
			e->path = base_strdup(buf_str(out));
		wc_ptab_add(&w->incl, h, e, 256);
	}
	if (e->state == 1) {
		out->len = 0;
		buf_puts(out, e->path);
		return true;
	}
	return e->state == 0 && resolve_tree(c, from, name, n, out);
}

void wc_includes_free(WcWork *w)
{
	for (uint32_t k = 0; w->incl.v && k <= w->incl.mask; k++) {
		WcIncl *x = w->incl.v[k];
		if (!x)
			continue;
		free(x->key);
		free(x->path);
		free(x);
	}
	wc_ptab_free(&w->incl);
}

/* ---- a thread's header cache ---- */

struct WcHeader {
	char *path;
	char *text;      /* NULL: unreadable or binary */
	size_t len;
	uint32_t hash;
};

/* The text of a regular file of under 16 MB (NUL-terminated), or NULL: read
 * straight into a buffer of the size fstat gives, where file_read copies
 * each 64 KB read again into a buffer that doubles. */
static char *read_regular(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size >= (1 << 24)) {
		close(fd);
		return NULL;
	}
	size_t cap = (size_t)st.st_size + 2, n = 0;  /* room for the NUL, and a byte to see the end by */
	char *text = base_malloc(cap);
	for (;;) {
		if (n + 1 == cap) {  /* it grew while being read */
			cap *= 2;
			text = base_realloc(text, cap);
		}
		ssize_t got = read(fd, text + n, cap - 1 - n);
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got < 0) {
			free(text);
			close(fd);
			return NULL;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if ((off_t)n > FILE_READ_MAX) {  /* file_read's limit */
			free(text);
			close(fd);
			return NULL;
		}
	}
	close(fd);
	text[n] = '\0';
	*len = n;
	return text;
}

const char *wc_header_text(WcWork *w, const char *path, size_t *len)
{
	uint32_t h = name_hash(path, strlen(path));
	uint32_t at = UINT32_MAX;
	for (WcHeader *x; (x = wc_ptab_next(&w->hdr, h, &at)) != NULL;)
		if (strcmp(x->path, path) == 0) {
			*len = x->len;
			return x->text;
		}
	WcHeader *x = base_calloc(1, sizeof *x);
	x->path = base_strdup(path);
	x->hash = h;
	x->text = read_regular(path, &x->len);
	if (x->text && memchr(x->text, '\0', x->len)) {
		free(x->text);
		x->text = NULL;
	}
	wc_ptab_add(&w->hdr, h, x, 64);
	*len = x->len;
	return x->text;
}

void wc_headers_free(WcWork *w)
{
	for (uint32_t s = 0; w->hdr.v && s <= w->hdr.mask; s++) {
		WcHeader *x = w->hdr.v[s];
		if (!x)
			continue;
		free(x->path);
		free(x->text);
		free(x);
	}
	wc_ptab_free(&w->hdr);
}
