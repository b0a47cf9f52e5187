/* test_cpu_runtime.c: the CPU runtime: compiling hand-written launchers
 * with the system C compiler, the object cache, running grids on threads,
 * and timing. */
#include "runtime/cpu.h"
#include "check.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TILE = 64, PROGRAMS = 1000, N = TILE * PROGRAMS };

/* out[p*64+i] = in[p*64+i] * scale * FACTOR + (p % 97) + bias, for p < limit;
 * runs[p] counts how often program p ran. Every value is a small multiple
 * of 0.5, so the result is exact however the compiler orders the math. */
static const char scale_source[] =
	"#include <stdint.h>\n"
	"#ifndef FACTOR\n"
	"#define FACTOR 1\n"
	"#endif\n"
	"void scale_launch(void **args, const int grid[3], long first, long count)\n"
	"{\n"
	"	float *out = *(float **)args[0];\n"
	"	const float *in = *(const float **)args[1];\n"
	"	float scale = *(const float *)args[2];\n"
	"	int32_t bias = *(const int32_t *)args[3];\n"
	"	int64_t limit = *(const int64_t *)args[4];\n"
	"	int32_t *runs = *(int32_t **)args[5];\n"
	"	for (long p = first; p < first + count && p < limit; p++) {\n"
	"		for (int i = 0; i < 64; i++)\n"
	"			out[p * 64 + i] = in[p * 64 + i] * scale * FACTOR + (float)(p % 97 + bias);\n"
	"		runs[p]++;\n"
	"	}\n"
	"}\n";

/* Decodes each program number into (x, y, z), axis 0 fastest, and counts
 * the visits of each cell of an x-major grid[0] x grid[1] x grid[2] array
 * (the transpose of program order, so a wrong grid shows). */
static const char coords_source[] =
	"void coords_launch(void **args, const int grid[3], long first, long count)\n"
	"{\n"
	"	int *hits = *(int **)args[0];\n"
	"	for (long p = first; p < first + count; p++) {\n"
	"		long x = p % grid[0], y = p / grid[0] % grid[1], z = p / grid[0] / grid[1];\n"
	"		hits[(x * grid[1] + y) * grid[2] + z]++;\n"
	"	}\n"
	"}\n";

/* The scale kernel's buffers and its argument list. */
typedef struct ScaleArgs {
	float *out, *in;
	float scale;
	int32_t bias;
	int64_t limit;
	int32_t *runs;
	void *list[6];
} ScaleArgs;

static void scale_args_init(ScaleArgs *a)
{
	a->out = calloc(N, sizeof *a->out);
	a->in = malloc(N * sizeof *a->in);
	a->runs = calloc(PROGRAMS, sizeof *a->runs);
	a->scale = 1.5f;
	a->bias = 7;
	a->limit = PROGRAMS;
	for (uint32_t i = 0; i < N; i++) {
		int v = (int)(hash_input(i, 0) * 1000.0f);
		a->in[i] = (float)(v != 0 ? v : 1);  /* a random non-zero integer */
	}
	void *list[6] = {&a->out, &a->in, &a->scale, &a->bias, &a->limit, &a->runs};
	memcpy(a->list, list, sizeof list);
}

static void scale_args_reset(ScaleArgs *a)
{
	memset(a->out, 0, N * sizeof *a->out);
	memset(a->runs, 0, PROGRAMS * sizeof *a->runs);
}

static void scale_args_free(ScaleArgs *a)
{
	free(a->out);
	free(a->in);
	free(a->runs);
}

/* The output is exact for FACTOR = factor and every program ran once. */
static bool scale_ok(const ScaleArgs *a, int factor)
{
	for (int p = 0; p < PROGRAMS; p++) {
		if (a->runs[p] != 1)
			return false;
		for (int i = 0; i < TILE; i++) {
			int at = p * TILE + i;
			float want = a->in[at] * a->scale * (float)factor + (float)(p % 97 + a->bias);
			if (a->out[at] != want)
				return false;
		}
	}
	return true;
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static bool remove_cache(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return false;
	struct dirent *e;
	char path[512];
	while ((e = readdir(d)) != NULL) {
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlink(path);
	}
	closedir(d);
	return rmdir(dir) == 0;
}

static void test_run_and_cache(const char *cache)
{
	char err[4096] = "";
	ScaleArgs a;
	scale_args_init(&a);
	const int grid[3] = {PROGRAMS, 1, 1};

	CpuKernel *k = cpu_compile(scale_source, "scale", NULL, cache, err, sizeof err);
	CHECK("compile", k != NULL && cpu_kernel_fn(k) != NULL);
	if (!k)
		printf("  %s\n", err);
	CHECK("first compile misses the cache", k && !cpu_kernel_from_cache(k));
	const int thread_counts[] = {1, 3, 0};
	const char *names[] = {"run on 1 thread", "run on 3 threads", "run on auto threads"};
	for (int t = 0; t < 3 && k; t++) {
		scale_args_reset(&a);
		int rc = cpu_run(k, a.list, grid, thread_counts[t], err, sizeof err);
		CHECK(names[t], rc == 0 && scale_ok(&a, 1));
	}
	scale_args_reset(&a);
	CHECK("more threads than programs", k && cpu_run(k, a.list, (int[3]){5, 1, 1}, 16, err,
		sizeof err) == 0 && a.runs[4] == 1 && a.runs[5] == 0);

	CpuKernel *again = cpu_compile(scale_source, "scale", NULL, cache, err, sizeof err);
	CHECK("second compile hits the cache", again && cpu_kernel_from_cache(again));
	scale_args_reset(&a);
	CHECK("cached object runs", again && cpu_run(again, a.list, grid, 2, err, sizeof err) == 0 &&
		scale_ok(&a, 1));
	cpu_kernel_free(again);

	const char *flags[] = {"-DFACTOR=3", NULL};
	CpuKernel *tripled = cpu_compile(scale_source, "scale", flags, cache, err, sizeof err);
	CHECK("flags make a new object", tripled && !cpu_kernel_from_cache(tripled));
	scale_args_reset(&a);
	CHECK("-DFACTOR=3 changes the result", tripled &&
		cpu_run(tripled, a.list, grid, 0, err, sizeof err) == 0 && scale_ok(&a, 3));
	cpu_kernel_free(tripled);
	CHECK("cache holds two objects and no temporaries", count_entries(cache) == 2);

	setenv("TRITONC_CACHE", cache, 1);
	CpuKernel *from_env = cpu_compile(scale_source, "scale", NULL, NULL, err, sizeof err);
	CHECK("$TRITONC_CACHE is the default cache", from_env && cpu_kernel_from_cache(from_env));
	cpu_kernel_free(from_env);
	unsetenv("TRITONC_CACHE");

	double ms[3] = {0};
	CHECK("cpu_time", k && cpu_time(k, a.list, grid, 0, 1, 3, ms, err, sizeof err) == 0 &&
		ms[0] > 0 && ms[1] > 0 && ms[2] > 0);
	scale_args_free(&a);
	cpu_kernel_free(k);
}

static void test_errors(const char *cache)
{
	char err[4096] = "";
	CpuKernel *k = cpu_compile("void broken_launch(void **args { }\n", "broken", NULL, cache,
		err, sizeof err);
	CHECK("syntax error gives NULL", k == NULL);
	CHECK("syntax error message", strstr(err, "error") != NULL);
	CHECK("failed compile leaves no temporaries", count_entries(cache) == 2);

	err[0] = '\0';
	k = cpu_compile(scale_source, "nosuch", NULL, cache, err, sizeof err);
	CHECK("missing launcher", k == NULL && strstr(err, "nosuch_launch") != NULL);

	char tiny[8];
	k = cpu_compile("int x = ;\n", "x", NULL, cache, tiny, sizeof tiny);
	CHECK("error message truncated", k == NULL && strlen(tiny) == sizeof tiny - 1);

	setenv("CC", "/nonexistent/cc", 1);
	err[0] = '\0';
	k = cpu_compile("int y;\n", "y", NULL, "", err, sizeof err);
	CHECK("missing compiler", k == NULL && strstr(err, "/nonexistent/cc") != NULL);
	unsetenv("CC");

	CpuKernel *coords = cpu_compile(coords_source, "coords", NULL, cache, err, sizeof err);
	CHECK("negative grid", coords &&
		cpu_run(coords, NULL, (int[3]){4, -1, 1}, 1, err, sizeof err) != 0 &&
		strstr(err, "negative") != NULL);
	CHECK("empty grid runs nothing", coords &&
		cpu_run(coords, NULL, (int[3]){4, 0, 1}, 1, err, sizeof err) == 0);
	cpu_kernel_free(coords);
}

static void test_grid_3d(void)
{
	char err[4096] = "";
	CpuKernel *k = cpu_compile(coords_source, "coords", NULL, "", err, sizeof err);
	CHECK("private cache compile", k && !cpu_kernel_from_cache(k));
	const int grid[3] = {7, 5, 3};
	int cells = grid[0] * grid[1] * grid[2];
	int *hits = calloc((size_t)cells, sizeof *hits);
	void *args[1] = {&hits};
	CHECK("3-D run", k && cpu_run(k, args, grid, 4, err, sizeof err) == 0);
	bool once = true;
	for (int i = 0; i < cells; i++)
		once = once && hits[i] == 1;
	CHECK("3-D grid covers each (x,y,z) once", once);
	free(hits);
	cpu_kernel_free(k);
}

int main(void)
{
	char cache[] = "/tmp/tc-cpu-runtime-XXXXXX";
	if (!mkdtemp(cache)) {
		CHECK("mkdtemp", false);
		return 1;
	}
	test_run_and_cache(cache);
	test_errors(cache);
	test_grid_3d();
	CHECK("cache removed", remove_cache(cache));
	return failures ? 1 : 0;
}
