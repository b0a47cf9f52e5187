/* warpcheck: reports CUDA/HIP code that silently assumes 32-lane warps.
 *
 *   warpcheck [--format text|json|sarif] [--fix [--dry-run]] PATH...
 *
 * Exit status: 0 clean, 1 findings, 2 usage, I/O or input errors. */
#include "warpcheck/warpcheck.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct Options {
	WcFormat format;
	bool fix, dry_run;
} Options;

typedef struct Run {
	Options opt;
	Diag diag;       /* errors, to stderr */
	Buf out;         /* JSON/SARIF results */
	bool first;
	int findings;
} Run;

static const char usage[] =
	"usage: warpcheck [options] PATH...\n"
	"Checks CUDA/HIP sources for code that assumes 32-lane warps and breaks on\n"
	"64-lane AMD wavefronts. Directories are searched for .cu .cuh .hip .h .hpp\n"
	".cpp .cc .cxx .inl files.\n"
	"\n"
	"  --format text|json|sarif   output format (default text)\n"
	"  --fix                      rewrite files in place where a safe fix exists\n"
	"  --dry-run                  with --fix: print a unified diff instead\n"
	"  --help                     this text\n"
	"\n"
	"Suppress a finding with '// warpcheck: ignore H3 <reason>' on its line or\n"
	"the line above. Exit status: 0 clean, 1 findings, 2 usage or I/O error.\n";

static bool wanted(const char *name)
{
	static const char *const exts[] = {".cu", ".cuh", ".hip", ".h", ".hpp", ".cpp", ".cc", ".cxx", ".inl"};
	const char *dot = strrchr(name, '.');
	for (size_t i = 0; dot && i < TC_COUNT(exts); i++)
		if (strcmp(dot, exts[i]) == 0)
			return true;
	return false;
}

static void fix_file(Run *r, WcFile *f)
{
	size_t len;
	int applied;
	char *text = wc_apply_fixes(f, &len, &applied);
	if (applied && r->opt.dry_run) {
		wc_unified_diff(stdout, f->src.name, f->src.text, f->src.len, text, len);
	} else if (applied && file_write_atomic(f->src.name, text, len) != 0) {
		diag_plain(&r->diag, DIAG_ERROR, "%s: cannot write: %s", f->src.name, strerror(errno));
	} else if (applied) {
		fprintf(stderr, "%s: fixed %d of %d findings\n", f->src.name, applied, f->nfinds);
	}
	r->findings += f->nfinds - (r->opt.dry_run ? 0 : applied);
	free(text);
}

static void check_one(Run *r, const char *path)
{
	WcFile f;
	if (wc_check_file(&f, &r->diag, path)) {
		if (r->opt.fix)
			fix_file(r, &f);
		else if (r->opt.format == WC_TEXT)
			wc_report_text(stdout, &f);
		else if (r->opt.format == WC_JSON)
			wc_report_json_file(&r->out, &f, &r->first);
		else
			wc_report_sarif_file(&r->out, &f, &r->first);
		if (!r->opt.fix)
			r->findings += f.nfinds;
	}
	r->diag.errors += f.errors;
	wc_file_free(&f);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(Run *r, const char *path, bool top, int depth)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		diag_plain(&r->diag, DIAG_ERROR, "%s: %s", path, strerror(errno));
		return;
	}
	if (S_ISREG(st.st_mode)) {
		if (top || wanted(path))
			check_one(r, path);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		/* A device or FIFO could block or never end. */
		if (top)
			diag_plain(&r->diag, DIAG_ERROR, "%s: not a regular file or directory", path);
		return;
	}
	DIR *dir = opendir(path);
	if (!dir || depth > 64) {
		diag_plain(&r->diag, DIAG_ERROR, "%s: cannot open directory", path);
		if (dir)
			closedir(dir);
		return;
	}
	Vec names = {0};
	for (struct dirent *e; (e = readdir(dir));)
		if (e->d_name[0] != '.')
			vec_push(&names, xstrdup(e->d_name));
	closedir(dir);
	if (names.len > 1)
		qsort(names.data, (size_t)names.len, sizeof *names.data, by_name);  /* stable output */
	for (int i = 0; i < names.len; i++) {
		Buf p = {0};
		buf_printf(&p, "%s/%s", path, (char *)names.data[i]);
		walk(r, buf_str(&p), false, depth + 1);
		buf_free(&p);
		free(names.data[i]);
	}
	vec_free(&names);
}

static void finish_output(Run *r)
{
	if (r->opt.format == WC_JSON) {
		printf("{\"version\": 1, \"findings\": [%s%s]}\n", buf_str(&r->out), r->first ? "" : "\n");
	} else if (r->opt.format == WC_SARIF) {
		printf("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
		       "  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n"
		       "      \"tool\": {\"driver\": {\"name\": \"warpcheck\", \"informationUri\": "
		       "\"https://example.invalid/warpcheck\", \"rules\": [");
		for (int i = 1; i <= 13; i++)
			printf("%s{\"id\": \"H%d\"}", i > 1 ? ", " : "", i);
		printf("]}},\n      \"results\": [%s%s]\n    }\n  ]\n}\n", buf_str(&r->out), r->first ? "" : "\n      ");
	}
	buf_free(&r->out);
}

static int parse_args(int argc, char **argv, Options *o, Vec *paths)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage, stdout);
			exit(0);
		} else if (strcmp(a, "--fix") == 0) {
			o->fix = true;
		} else if (strcmp(a, "--dry-run") == 0) {
			o->dry_run = true;
		} else if (strcmp(a, "--format") == 0 || strncmp(a, "--format=", 9) == 0) {
			const char *v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : "");
			if (strcmp(v, "text") == 0)
				o->format = WC_TEXT;
			else if (strcmp(v, "json") == 0)
				o->format = WC_JSON;
			else if (strcmp(v, "sarif") == 0)
				o->format = WC_SARIF;
			else
				return fprintf(stderr, "warpcheck: error: unknown format '%s' (text, json, sarif)\n", v), 2;
		} else if (a[0] == '-' && a[1]) {
			return fprintf(stderr, "warpcheck: error: unknown option '%s'\n%s", a, usage), 2;
		} else {
			vec_push(paths, argv[i]);
		}
	}
	if (paths->len == 0)
		return fprintf(stderr, "warpcheck: error: no input paths\n%s", usage), 2;
	if (o->dry_run && !o->fix)
		return fprintf(stderr, "warpcheck: error: --dry-run needs --fix\n"), 2;
	return 0;
}

int main(int argc, char **argv)
{
	Run r = {.diag = {.out = stderr}, .first = true};
	Vec paths = {0};
	int rc = parse_args(argc, argv, &r.opt, &paths);
	if (rc)
		return rc;
	for (int i = 0; i < paths.len; i++)
		walk(&r, paths.data[i], true, 0);
	if (!r.opt.fix)
		finish_output(&r);
	vec_free(&paths);
	buf_free(&r.diag.text);
	if (r.diag.errors)
		return 2;
	return r.findings ? 1 : 0;
}
