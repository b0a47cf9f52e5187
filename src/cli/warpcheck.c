/* warpcheck: reports CUDA/HIP code that silently assumes 32-lane warps.
 *
 *   warpcheck [--format text|json|sarif] [--fix [--dry-run]] [-j N]
 *             [-I DIR] [-isystem DIR] [-D NAME[=V]] [-U NAME] [--target gfx...]
 *             [-p BUILD | --compile-commands FILE] [--baseline FILE] PATH...
 *
 * The paths are walked first, into a list of jobs sorted by path (a job is
 * a file, or an error met while walking). Worker threads check the files,
 * each into its own output buffers, and the main thread writes the jobs
 * out strictly in list order, so the output does not depend on -j. Workers
 * stay at most a window of jobs ahead of the writer, which bounds memory.
 *
 * Exit status: 0 clean (notes allowed), 1 warnings, 2 usage, I/O or input
 * errors. */
#define _DEFAULT_SOURCE  /* struct dirent's d_type: one stat less per file */
#include "warpcheck/warpcheck.h"

#include <dirent.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct Options {
	WcFormat format;
	bool fix, dry_run;
	int jobs;        /* threads; 0: the number of online CPUs */
	WcConfig cfg;    /* the build flags of the command line */
	const char *db_path;   /* compile_commands.json */
	const char *baseline;  /* an earlier --format json report */
	const char *cache;     /* --cache DIR */
	WcCompileDb db;
	WcBaseline *base;
	uint64_t base_hash;    /* of the baseline's text: part of the cache key */
} Options;

/* One file to check (or one walk error to report), and what it produced. */
typedef struct Job {
	char *path;      /* NULL for an error job */
	const WcConfig *cfg;
	Buf out;         /* for stdout: findings, or a --dry-run diff */
	Buf err;         /* for stderr: diagnostics, "fixed N of M" */
	int findings;
	int errors;
	bool done;
	Buf *hout;       /* findings in included headers, each printed once per run */
	uint64_t *hkey;
	int nh, hcap;
	WcFile refs;     /* only kfacts and lrefs: the kernels it defines, the launches it leaves to others */
} Job;

typedef struct Run {
	Options opt;
	Job *jobs;
	int njobs, cap;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int next;        /* the next job a worker takes */
	int written;     /* jobs the writer has finished */
	int window;      /* how far workers may run ahead of the writer */
	bool any_finding_written;  /* JSON/SARIF: the next finding needs a comma */
	int findings, errors;
	uint64_t *seen;  /* files and folders walked, by device and inode (open addressing; 0 free) */
	size_t nseen, capseen;
	uint64_t *hdone; int nhdone, caphdone;  /* header findings written */
} Run;

/* True the first time a file or folder is met: a symlink loop, a link to
 * a file already seen or a path given twice is walked once. */
static bool first_visit(Run *r, const struct stat *st)
{
	uint64_t key = ((uint64_t)st->st_dev * 0x9e3779b97f4a7c15ull) ^ (uint64_t)st->st_ino;
	key = key ? key : 1;
	if (2 * (r->nseen + 1) > r->capseen) {
		size_t cap = r->capseen ? 2 * r->capseen : 256;
		uint64_t *t = base_calloc(cap, sizeof *t);
		for (size_t i = 0; i < r->capseen; i++)
			for (size_t h = r->seen[i] % cap; r->seen[i]; h = (h + 1) % cap)
				if (!t[h]) {
					t[h] = r->seen[i];
					break;
				}
		free(r->seen);
		r->seen = t;
		r->capseen = cap;
	}
	size_t h = key % r->capseen;
	for (; r->seen[h]; h = (h + 1) % r->capseen)
		if (r->seen[h] == key)
			return false;
	r->seen[h] = key;
	r->nseen++;
	return true;
}

static const char usage[] =
	"usage: warpcheck [options] PATH...\n"
	"Checks CUDA/HIP sources for code that assumes 32-lane warps and breaks on\n"
	"64-lane AMD wavefronts. Directories are searched for .cu .cuh .hip .h .hpp\n"
	".cpp .cc .cxx .inl files.\n"
	"\n"
	"  --format text|json|sarif   output format (default text)\n"
	"  --fix                      rewrite files in place where a safe fix exists\n"
	"  --dry-run                  with --fix: print a unified diff instead\n"
	"  -j N, --jobs N             check N files at a time (default: online CPUs);\n"
	"                             the output is the same for every N\n"
	"  -I DIR, -isystem DIR       where #include finds headers (-isystem: system\n"
	"                             headers, not read unless --system-headers)\n"
	"  -D NAME[=VALUE], -U NAME   macros as the build defines them\n"
	"  --target gfx90a[,gfx1100]  the chips the build targets (default: current\n"
	"                             ROCm targets); --offload-arch= is the same\n"
	"  -p BUILD                   take each file's flags from BUILD/compile_commands.json\n"
	"  --compile-commands FILE    the same, from FILE; with no PATH, check its files\n"
	"  --system-headers           read headers found through -isystem too\n"
	"  --baseline FILE            report only findings not in FILE (an earlier\n"
	"                             --format json report)\n"
	"  --cache DIR                keep each file's report in DIR by content; later\n"
	"                             runs check only files (or headers) that changed\n"
	"  --help                     this text\n"
	"\n"
	"Suppress a finding with '// warpcheck: ignore H3 <reason>' on its line or\n"
	"the line above. Notes (a consistent 32-lane logical warp) are not bugs.\n"
	"Exit status: 0 clean or notes only, 1 warnings, 2 usage or I/O error.\n";

static bool wanted(const char *name)
{
	static const char *const exts[] = {".cu", ".cuh", ".hip", ".h", ".hpp", ".cpp", ".cc", ".cxx", ".inl"};
	const char *dot = strrchr(name, '.');
	for (size_t i = 0; dot && i < TC_COUNT(exts); i++)
		if (strcmp(dot, exts[i]) == 0)
			return true;
	return false;
}

/* ---- the job list ---- */

static Job *add_job(Run *r)
{
	if (r->njobs == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->jobs = base_realloc(r->jobs, (size_t)r->cap * sizeof *r->jobs);
	}
	Job *j = &r->jobs[r->njobs++];
	memset(j, 0, sizeof *j);
	return j;
}

static void add_file(Run *r, const char *path)
{
	add_job(r)->path = base_strdup(path);
}

/* An error found while walking, reported in its place in the order. */
static void add_error(Run *r, const char *path, const char *what)
{
	Job *j = add_job(r);
	Diag d = {0};
	diag_plain(&d, DIAG_ERROR, "%s: %s", path, what);
	buf_puts(&j->err, buf_str(&d.text));
	buf_free(&d.text);
	j->errors = 1;
	j->done = true;
}

/* Names carry a one-byte kind prefix; they sort by the name itself. */
static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a + 1, *(char *const *)b + 1);
}

static void walk(Run *r, const char *path, bool top, int depth);

static void walk_dir(Run *r, const char *path, int depth)
{
	DIR *dir = opendir(path);
	if (!dir || depth > 64) {
		add_error(r, path, "cannot open directory");
		if (dir)
			closedir(dir);
		return;
	}
	Vec names = {0};
	for (struct dirent *e; (e = readdir(dir));) {
		if (e->d_name[0] == '.')
			continue;
		/* Regular files that are not sources need no stat; d_type may be unknown. */
		if (e->d_type == DT_REG && !wanted(e->d_name))
			continue;
		size_t n = strlen(e->d_name);
		char *name = base_malloc(n + 2);
		name[0] = e->d_type == DT_REG ? 'f' : '?';  /* a regular file, or stat to know */
		memcpy(name + 1, e->d_name, n + 1);
		vec_push(&names, name);
	}
	closedir(dir);
	if (names.len > 1)
		qsort(names.data, (size_t)names.len, sizeof *names.data, by_name);  /* stable output */
	for (int i = 0; i < names.len; i++) {
		const char *name = names.data[i];
		Buf p = {0};
		buf_printf(&p, "%s/%s", path, name + 1);
		walk(r, buf_str(&p), false, depth + 1);   /* a stat each: the same file twice is checked once */
		buf_free(&p);
		free(names.data[i]);
	}
	vec_free(&names);
}

static void walk(Run *r, const char *path, bool top, int depth)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		add_error(r, path, strerror(errno));
		return;
	}
	if (S_ISREG(st.st_mode)) {
		if ((top || wanted(path)) && first_visit(r, &st))
			add_file(r, path);
	} else if (S_ISDIR(st.st_mode)) {
		if (first_visit(r, &st))
			walk_dir(r, path, depth);
	} else if (top) {
		/* A device or FIFO could block or never end. */
		add_error(r, path, "not a regular file or directory");
	}
}

/* ---- checking one job (any thread) ---- */

static void fix_file(const Options *o, Job *j, Diag *d, WcFile *f)
{
	size_t len;
	int applied;
	char why[300];
	char *text = wc_apply_fixes(f, &len, &applied);
	if (applied && o->dry_run) {
		wc_unified_diff_buf(&j->out, f->src.name, f->src.text, f->src.len, text, len);
	} else if (applied && file_write_safe(f->src.name, text, len, NULL, why, sizeof why) != 0) {
		diag_plain(d, DIAG_ERROR, "%s: cannot write: %s", f->src.name, why);
	} else if (applied) {
		buf_printf(&j->err, "%s: fixed %d of %d findings\n", f->src.name, applied, wc_warnings(f));
	}
	j->findings += wc_warnings(f) - (o->dry_run ? 0 : applied);
	free(text);
}

/* The findings f reports in the headers it includes, each rendered with
 * the header's text (read once per thread) and keyed for the writer. */
static void header_findings(const Options *o, Job *j, WcWork *w, WcFile *f)
{
	for (int k = 0; k < f->nhfinds; k++) {
		size_t len = 0;
		const char *text = wc_header_text(w, f->hpaths[k], &len);
		if (!text || f->hfinds[k].off >= len)
			continue;
		WcFile h = {.src = {.name = f->hpaths[k], .text = text, .len = len}, .finds = &f->hfinds[k], .nfinds = 1};
		if (o->base)
			wc_baseline_filter(o->base, &h);
		if (h.nfinds == 0)
			continue;
		bool first = true;
		if (j->nh == j->hcap) {
			j->hcap = j->hcap ? 2 * j->hcap : 4;
			j->hout = base_realloc(j->hout, sizeof *j->hout * (size_t)j->hcap);
			j->hkey = base_realloc(j->hkey, sizeof *j->hkey * (size_t)j->hcap);
		}
		Buf *b = &j->hout[j->nh];
		*b = (Buf){0};
		if (o->format == WC_TEXT)
			wc_report_text_buf(b, &h);
		else if (o->format == WC_JSON)
			wc_report_json_file(b, &h, &first);
		else
			wc_report_sarif_file(b, &h, &first);
		uint64_t key = base_hash_fnv1a(f->hpaths[k], strlen(f->hpaths[k]), HASH_SEED);
		key = base_hash_fnv1a(&f->hfinds[k].off, sizeof f->hfinds[k].off, key);
		j->hkey[j->nh++] = base_hash_fnv1a(f->hfinds[k].id, strlen(f->hfinds[k].id), key);
	}
}

static void check_job(const Options *o, Job *j, WcWork *w)
{
	Diag d = {0};  /* no stream: messages are kept for the writer */
	WcFile f;
	w->cfg = j->cfg;
	uint64_t key = 0;
	if (o->cache && !o->fix) {
		size_t len;
		char *text = file_read(j->path, &len);
		if (text) {
			key = wc_cache_key(j->path, text, len, j->cfg->hash ^ (uint64_t)o->format ^ o->base_hash);
			free(text);
			if (wc_cache_get(o->cache, key, w, &j->out, &j->findings, &j->refs))
				return;
		}
	}
	if (wc_check_path(&f, &d, j->path, w)) {
		if (o->base)
			wc_baseline_filter(o->base, &f);
		bool first = true;  /* the writer adds the comma between files */
		if (o->fix)
			fix_file(o, j, &d, &f);
		else if (o->format == WC_TEXT)
			wc_report_text_buf(&j->out, &f);
		else if (o->format == WC_JSON)
			wc_report_json_file(&j->out, &f, &first);
		else
			wc_report_sarif_file(&j->out, &f, &first);
		if (!o->fix)
			j->findings += wc_warnings(&f);
		if (!o->fix)
			header_findings(o, j, w, &f);
		if (key && !d.text.len && !f.errors && j->nh == 0)
			wc_cache_put(o->cache, key, &f, w, &j->out, j->findings);
	}
	if (!o->fix) {
		j->refs.kfacts = f.kfacts, j->refs.nkfacts = f.nkfacts;
		j->refs.lrefs = f.lrefs, j->refs.nlrefs = f.nlrefs;
		f.kfacts = NULL, f.lrefs = NULL;
		f.nkfacts = f.nlrefs = 0;
	}
	j->errors += d.errors + f.errors;
	/* Diagnostics first, as they were printed while checking. */
	Buf err = {0};
	buf_puts(&err, buf_str(&d.text));
	buf_puts(&err, buf_str(&j->err));
	buf_free(&j->err);
	j->err = err;
	buf_free(&d.text);
	wc_file_free(&f);
}

/* ---- writing jobs out, in order (main thread) ---- */

static void write_job(Run *r, Job *j)
{
	if (j->out.len) {
		if (r->opt.format != WC_TEXT && !r->opt.fix && r->any_finding_written)
			fputc(',', stdout);
		fwrite(j->out.data, 1, j->out.len, stdout);
		r->any_finding_written = true;
	}
	if (j->err.len) {
		fflush(stdout);
		fwrite(j->err.data, 1, j->err.len, stderr);
	}
	for (int k = 0; k < j->nh; k++) {
		bool dup = false;
		for (int m = 0; m < r->nhdone && !dup; m++)
			dup = r->hdone[m] == j->hkey[k];
		if (!dup && j->hout[k].len) {
			if (r->nhdone == r->caphdone) {
				r->caphdone = r->caphdone ? r->caphdone * 2 : 16;
				r->hdone = base_realloc(r->hdone, (size_t)r->caphdone * sizeof *r->hdone);
			}
			r->hdone[r->nhdone++] = j->hkey[k];
			if (r->opt.format != WC_TEXT && r->any_finding_written)
				fputc(',', stdout);
			fwrite(j->hout[k].data, 1, j->hout[k].len, stdout);
			r->any_finding_written = true;
			r->findings++;  /* a warning: the exit status says so even where a baseline hid the use */
		}
		buf_free(&j->hout[k]);
	}
	free(j->hout);
	free(j->hkey);
	j->hout = NULL;
	j->hkey = NULL;
	j->nh = j->hcap = 0;
	r->findings += j->findings;
	r->errors += j->errors;
	buf_free(&j->out);
	buf_free(&j->err);
	if (!j->refs.nlrefs) {  /* a path with launches to judge is kept for the end of the run */
		free(j->path);
		j->path = NULL;
	}
}

/* ---- launches joined with kernels of other files (main thread, at the end) ---- */

typedef struct KernelEntry {
	const char *name;
	int kinds;
} KernelEntry;

static int by_kernel_name(const void *a, const void *b)
{
	return strcmp(((const KernelEntry *)a)->name, ((const KernelEntry *)b)->name);
}

/* Each job's launches of kernels it does not define, judged with what the
 * kernels of the other files do (every definition of a name together), in
 * job order: the same for any -j, with or without --cache. */
static void cross_launches(Run *r)
{
	if (r->opt.fix)
		return;
	int n = 0;
	for (int k = 0; k < r->njobs; k++)
		n += r->jobs[k].refs.nkfacts;
	KernelEntry *ks = base_malloc((size_t)(n ? n : 1) * sizeof *ks);
	n = 0;
	for (int k = 0; k < r->njobs; k++)
		for (int m = 0; m < r->jobs[k].refs.nkfacts; m++)
			ks[n++] = (KernelEntry){r->jobs[k].refs.kfacts[m].name, r->jobs[k].refs.kfacts[m].kinds};
	qsort(ks, (size_t)n, sizeof *ks, by_kernel_name);
	int u = 0;
	for (int k = 0; k < n; k++) {
		if (u > 0 && strcmp(ks[u - 1].name, ks[k].name) == 0)
			ks[u - 1].kinds |= ks[k].kinds;
		else
			ks[u++] = ks[k];
	}
	for (int k = 0; k < r->njobs; k++) {
		Job *j = &r->jobs[k];
		char *text = NULL;
		size_t len = 0;
		for (int m = 0; m < j->refs.nlrefs && j->path; m++) {
			const WcLaunchRef *lr = &j->refs.lrefs[m];
			KernelEntry key = {lr->name, 0};
			const KernelEntry *ke = u ? bsearch(&key, ks, (size_t)u, sizeof *ks, by_kernel_name) : NULL;
			char msg[200];
			const char *fix;
			if (!ke || !wc_launch_judge(ke->kinds, lr->x, lr->rows, lr->name, (int)strlen(lr->name), msg, sizeof msg,
			                            &fix))
				continue;
			if (!text && !(text = file_read(j->path, &len)))
				break;
			if (lr->off >= len)
				continue;
			WcFinding fd = {.off = lr->off, .line = lr->line, .col = lr->col, .id = "H6", .name = "launch-width",
			                .fix = fix};
			snprintf(fd.msg, sizeof fd.msg, "%.170s (a kernel of another file)", msg);
			WcFile h = {.src = {.name = j->path, .text = text, .len = len}, .finds = &fd, .nfinds = 1};
			if (r->opt.base)
				wc_baseline_filter(r->opt.base, &h);
			if (h.nfinds == 0)
				continue;
			Buf b = {0};
			bool first = true;
			if (r->opt.format == WC_TEXT)
				wc_report_text_buf(&b, &h);
			else if (r->opt.format == WC_JSON)
				wc_report_json_file(&b, &h, &first);
			else
				wc_report_sarif_file(&b, &h, &first);
			if (r->opt.format != WC_TEXT && r->any_finding_written)
				fputc(',', stdout);
			fwrite(b.data, 1, b.len, stdout);
			r->any_finding_written = true;
			r->findings++;
			buf_free(&b);
		}
		free(text);
	}
	free(ks);
}

static void *worker(void *arg)
{
	Run *r = arg;
	WcWork w;
	wc_work_init(&w);
	pthread_mutex_lock(&r->lock);
	for (;;) {
		while (r->next < r->njobs && r->next >= r->written + r->window)
			pthread_cond_wait(&r->cond, &r->lock);
		if (r->next >= r->njobs)
			break;
		Job *j = &r->jobs[r->next++];
		if (j->done)
			continue;  /* a walk error: nothing to check */
		pthread_mutex_unlock(&r->lock);
		check_job(&r->opt, j, &w);
		pthread_mutex_lock(&r->lock);
		j->done = true;
		pthread_cond_broadcast(&r->cond);
	}
	pthread_mutex_unlock(&r->lock);
	wc_work_free(&w);
	return NULL;
}

static void run_sequential(Run *r)
{
	WcWork w;
	wc_work_init(&w);
	for (int i = 0; i < r->njobs; i++) {
		if (!r->jobs[i].done)
			check_job(&r->opt, &r->jobs[i], &w);
		write_job(r, &r->jobs[i]);
	}
	wc_work_free(&w);
}

/* Falls back on fewer threads (down to none) when they cannot be made. */
static void run_parallel(Run *r, int nthreads)
{
	pthread_t *th = base_malloc((size_t)nthreads * sizeof *th);
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	r->window = 16 * nthreads;
	int started = 0;
	pthread_attr_t attr;   /* deep nesting in a file needs more than the default stack */
	bool big = pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, (size_t)256 << 20) == 0;
	while (started < nthreads && (pthread_create(&th[started], big ? &attr : NULL, worker, r) == 0 ||
				      (big && pthread_create(&th[started], NULL, worker, r) == 0)))
		started++;
	pthread_attr_destroy(&attr);
	if (started == 0) {
		free(th);
		run_sequential(r);
		return;
	}
	for (int i = 0; i < r->njobs; i++) {
		pthread_mutex_lock(&r->lock);
		while (!r->jobs[i].done)
			pthread_cond_wait(&r->cond, &r->lock);
		pthread_mutex_unlock(&r->lock);
		write_job(r, &r->jobs[i]);
		pthread_mutex_lock(&r->lock);
		r->written = i + 1;
		pthread_cond_broadcast(&r->cond);
		pthread_mutex_unlock(&r->lock);
	}
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->cond);
	free(th);
}

static void begin_output(const Run *r)
{
	if (r->opt.fix)
		return;
	if (r->opt.format == WC_JSON) {
		fputs("{\"version\": 1, \"findings\": [", stdout);
	} else if (r->opt.format == WC_SARIF) {
		printf("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
		       "  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n"
		       "      \"tool\": {\"driver\": {\"name\": \"warpcheck\", \"informationUri\": "
		       "\"https://example.invalid/warpcheck\", \"rules\": [");
		Buf rules = {0};
		wc_sarif_rules(&rules);
		fputs(buf_str(&rules), stdout);
		buf_free(&rules);
		fputs("\n        ]}},\n      \"results\": [", stdout);
	}
}

static void end_output(const Run *r)
{
	if (r->opt.fix)
		return;
	if (r->opt.format == WC_JSON)
		printf("%s]}\n", r->any_finding_written ? "\n" : "");
	else if (r->opt.format == WC_SARIF)
		printf("%s]\n    }\n  ]\n}\n", r->any_finding_written ? "\n      " : "");
}

/* ---- command line ---- */

static int parse_jobs(const char *v, int *out)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (!*v || *end || n < 1 || n > 1024)
		return fprintf(stderr, "warpcheck: error: -j wants a number of threads from 1 to 1024, not '%s'\n", v), 2;
	*out = (int)n;
	return 0;
}

static int parse_format(const char *v, WcFormat *out)
{
	if (strcmp(v, "text") == 0)
		*out = WC_TEXT;
	else if (strcmp(v, "json") == 0)
		*out = WC_JSON;
	else if (strcmp(v, "sarif") == 0)
		*out = WC_SARIF;
	else
		return fprintf(stderr, "warpcheck: error: unknown format '%s' (text, json, sarif)\n", v), 2;
	return 0;
}

/* -p BUILD: BUILD/compile_commands.json, or BUILD when it names the file. */
static const char *build_db_path(const char *v)
{
	static char path[4096];
	size_t n = strlen(v);
	if (n > 5 && strcmp(v + n - 5, ".json") == 0)
		return v;
	snprintf(path, sizeof path, "%s%scompile_commands.json", v, n && v[n - 1] == '/' ? "" : "/");
	return path;
}

static int parse_args(int argc, char **argv, Options *o, Vec *paths)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int rc = 0;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage, stdout);
			exit(0);
		} else if (strcmp(a, "--fix") == 0) {
			o->fix = true;
		} else if (strcmp(a, "--dry-run") == 0) {
			o->dry_run = true;
		} else if (strcmp(a, "--format") == 0 || strncmp(a, "--format=", 9) == 0) {
			rc = parse_format(a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : ""), &o->format);
		} else if (strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0) {
			rc = parse_jobs(i + 1 < argc ? argv[++i] : "", &o->jobs);
		} else if (strncmp(a, "-j", 2) == 0 || strncmp(a, "--jobs=", 7) == 0) {
			rc = parse_jobs(a[1] == 'j' ? a + 2 : a + 7, &o->jobs);
		} else if (strcmp(a, "-p") == 0 || strcmp(a, "--compile-commands") == 0 ||
		           strncmp(a, "--compile-commands=", 19) == 0 || strcmp(a, "--baseline") == 0 ||
		           strncmp(a, "--baseline=", 11) == 0 || strcmp(a, "--cache") == 0 || strncmp(a, "--cache=", 8) == 0) {
			const char *eq = strchr(a, '=');
			const char *v = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
			if (!v || !*v)
				return fprintf(stderr, "warpcheck: error: %s wants a value\n", a), 2;
			if (a[1] == 'p')
				o->db_path = build_db_path(v);
			else if (a[2] == 'c' && a[3] == 'a')
				o->cache = v;
			else if (a[2] == 'c')
				o->db_path = v;
			else
				o->baseline = v;
		} else if (strcmp(a, "--system-headers") == 0) {
			o->cfg.system_headers = true;
		} else if (a[0] == '-' && a[1] && (rc = wc_config_arg(&o->cfg, argc, argv, &i, NULL)) != 0) {
			if (rc == -1)
				return fprintf(stderr, "warpcheck: error: %s wants a value\n", a), 2;
			if (rc == -2)
				return fprintf(stderr, "warpcheck: error: unknown target in '%s %s' (gfx908, gfx90a, gfx1100, ...)\n",
					a, argv[i]), 2;
			rc = 0;
		} else if (a[0] == '-' && a[1]) {
			return fprintf(stderr, "warpcheck: error: unknown option '%s'\n%s", a, usage), 2;
		} else {
			vec_push(paths, argv[i]);
		}
		if (rc)
			return rc;
	}
	if (paths->len == 0 && !o->db_path)
		return fprintf(stderr, "warpcheck: error: no input paths\n%s", usage), 2;
	if (o->dry_run && !o->fix)
		return fprintf(stderr, "warpcheck: error: --dry-run needs --fix\n"), 2;
	return 0;
}

/* Every job's build flags, and the tree's headers for #include. */
static int prepare_jobs(Run *r, Vec *paths, WcTree *tree)
{
	Options *o = &r->opt;
	wc_config_finish(&o->cfg);
	if (o->db_path) {
		Diag d = {.out = stderr};
		bool ok = wc_compile_db_load(&o->db, o->db_path, &o->cfg, &d);
		buf_free(&d.text);
		if (!ok)
			return 2;
		if (paths->len == 0)
			for (int k = 0; k < o->db.n; k++)
				walk(r, o->db.files[k], true, 0);
	}
	if (o->baseline) {
		Diag d = {.out = stderr};
		o->base = wc_baseline_load(o->baseline, &d);
		buf_free(&d.text);
		if (!o->base)
			return 2;
		size_t len;
		char *text = file_read(o->baseline, &len);
		o->base_hash = text ? base_hash_fnv1a(text, len, HASH_SEED) : 0;
		free(text);
	}
	for (int k = 0; k < r->njobs; k++) {
		Job *j = &r->jobs[k];
		if (!j->path)
			continue;
		wc_tree_add(tree, j->path);
		const WcConfig *c = wc_compile_db_find(&o->db, j->path);
		j->cfg = c ? c : &o->cfg;
	}
	wc_tree_prepare(tree);
	o->cfg.tree = tree;
	for (int k = 0; k < o->db.n; k++)
		o->db.cfg[k].tree = tree;
	return 0;
}

static int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

/* Everything a run holds, on every way out (LeakSanitizer checks the error
 * paths too). */
static void run_free(Run *r, Vec *paths, WcTree *tree)
{
	for (int k = 0; k < r->njobs; k++) {
		buf_free(&r->jobs[k].out);
		buf_free(&r->jobs[k].err);
		free(r->jobs[k].path);
		wc_kernel_facts_free(r->jobs[k].refs.kfacts, r->jobs[k].refs.nkfacts);
		wc_launch_refs_free(r->jobs[k].refs.lrefs, r->jobs[k].refs.nlrefs);
	}
	free(r->jobs);
	free(r->seen);
	free(r->hdone);
	vec_free(paths);
	wc_tree_free(tree);
	wc_compile_db_free(&r->opt.db);
	wc_config_free(&r->opt.cfg);
	wc_baseline_free(r->opt.base);
}

static int warpcheck_main(int argc, char **argv)
{
	Run r = {0};
	Vec paths = {0};
	WcTree *tree = NULL;
	int nthreads;
	int rc = parse_args(argc, argv, &r.opt, &paths);
	if (rc)
		goto out;
	for (int i = 0; i < paths.len; i++)
		walk(&r, paths.data[i], true, 0);
	tree = wc_tree_new();
	rc = prepare_jobs(&r, &paths, tree);
	if (rc)
		goto out;
	begin_output(&r);
	nthreads = imin(r.opt.jobs ? r.opt.jobs : online_cpus(), r.njobs);
	if (nthreads > 1)
		run_parallel(&r, nthreads);
	else
		run_sequential(&r);
	cross_launches(&r);
	end_output(&r);
	rc = r.errors ? 2 : r.findings ? 1 : 0;
out:
	run_free(&r, &paths, tree);
	return rc;
}

typedef struct MainArgs {
	int argc;
	char **argv;
} MainArgs;

static int main_on_stack(void *p)
{
	MainArgs *m = p;
	return warpcheck_main(m->argc, m->argv);
}

/* The work runs on a big stack: deeply nested files never overflow it. */
int main(int argc, char **argv)
{
	MainArgs m = {argc, argv};
#ifdef __GLIBC__
	/* Memory a file frees is kept for the next one, not handed back to the
	 * system and faulted in again page by page (a first touch costs more
	 * than the work on most pages here): blocks under 4 MB come from the
	 * heap, whatever sizes were freed before, and the heap is not trimmed. */
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
	return base_run_on_big_stack(main_on_stack, &m);
}
