/* test_cpu_runtime.c: the CPU runtime: compiling hand-written launchers
 * with the system C compiler, the object cache, running grids on threads,
 * and timing. */
#include "runtime/cpu.h"
#include "check.h"

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
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

	/* $TRITONC_CFLAGS: split at blanks, after the fixed flags, in the key */
	setenv("TRITONC_CFLAGS", " -DFACTOR=2\t-O1 ", 1);
	CpuKernel *doubled = cpu_compile(scale_source, "scale", NULL, cache, err, sizeof err);
	CHECK("$TRITONC_CFLAGS makes a new object", doubled && !cpu_kernel_from_cache(doubled));
	scale_args_reset(&a);
	CHECK("$TRITONC_CFLAGS reaches the compiler", doubled &&
		cpu_run(doubled, a.list, grid, 0, err, sizeof err) == 0 && scale_ok(&a, 2));
	cpu_kernel_free(doubled);
	unsetenv("TRITONC_CFLAGS");
	CHECK("cache holds three objects", count_entries(cache) == 3);

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
	CHECK("failed compile leaves no temporaries", count_entries(cache) == 3);

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

/* Kernels that fault: `mode` 0 reads in[n] (one past the end) in program
 * `bad`, 1 divides by a zero read from memory, 2 recurses without end;
 * every other program copies its element. */
static const char fault_source[] =
	"#include <stdint.h>\n"
	"static int deep(volatile char *p, int n) { volatile char pad[4096]; pad[0] = p[0]; "
	"return n + deep(pad, n + 1) + pad[1]; }\n"
	"void fault_launch(void **args, const int grid[3], long first, long count)\n"
	"{\n"
	"	int32_t *out = *(int32_t **)args[0];\n"
	"	const int32_t *in = *(const int32_t **)args[1];\n"
	"	int32_t mode = *(const int32_t *)args[2], bad = *(const int32_t *)args[3];\n"
	"	int32_t n = *(const int32_t *)args[4];\n"
	"	for (long p = first; p < first + count; p++) {\n"
	"		if (p != bad) { out[p] = in[p] + 1; continue; }\n"
	"		if (mode == 0) out[p] = in[n];\n"
	"		else if (mode == 1) { volatile const int32_t *v = in; out[p] = in[p] / (v[p] - v[p]); }\n"
	"		else out[p] = deep((volatile char *)&out[p], 0);\n"
	"	}\n"
	"}\n";

static volatile sig_atomic_t own_handler_ran;

static void own_handler(int sig)
{
	(void)sig;
	own_handler_ran = 1;
}

typedef struct FaultRun {
	const CpuKernel *k;
	int32_t *out, *in;
	int32_t n;
	int threads;
	int launches;
	bool ok;
} FaultRun;

/* Runs the copying grid (no program faults) `launches` times; ok when every result is right. */
static void *clean_runs(void *arg)
{
	FaultRun *f = arg;
	int32_t mode = 0, bad = -1;
	void *args[] = {&f->out, &f->in, &mode, &bad, &f->n};
	char err[512];
	f->ok = true;
	for (int i = 0; i < f->launches && f->ok; i++) {
		memset(f->out, 0, (size_t)f->n * sizeof *f->out);
		if (cpu_run(f->k, args, (int[3]){f->n, 1, 1}, f->threads, err, sizeof err) != 0) {
			printf("note: %s\n", err);
			f->ok = false;
		}
		for (int j = 0; j < f->n && f->ok; j++)
			f->ok = f->out[j] == f->in[j] + 1;
	}
	return NULL;
}

/* Faults on the launching thread (1 thread) and on workers (3), the runs
 * after them, a handler the program installed (it gets faults outside a
 * run), and launches from several threads at once. */
static void test_faults(void)
{
	char err[1024];
	const char *no_flags[] = {NULL};
	CpuKernel *k = cpu_compile(fault_source, "fault", no_flags, "", err, sizeof err);
	CHECK("compile the faulting kernels", k != NULL);
	if (!k) {
		printf("note: %s\n", err);
		return;
	}
	enum { FN = 40 };
	int32_t *in = cpu_buffer_alloc(FN * sizeof *in, sizeof *in, "in_ptr", err, sizeof err);
	int32_t *out = cpu_buffer_alloc(FN * sizeof *out, sizeof *out, "out_ptr", err, sizeof err);
	CHECK("guarded buffers", in && out);
	if (!in || !out) {
		cpu_kernel_free(k);
		return;
	}
	for (int i = 0; i < FN; i++)
		in[i] = (int32_t)(hash_input((uint32_t)i, 3) * 1000.0f) + 1001;
	FaultRun clean = {.k = k, .out = out, .in = in, .n = FN, .threads = 1, .launches = 3};
	for (int threads = 1; threads <= 3; threads += 2) {
		int32_t n = FN, bad = 17, mode = 0;
		void *args[] = {&out, &in, &mode, &bad, &n};
		char what[96];
		int rc = cpu_run(k, args, (int[3]){FN, 1, 1}, threads, err, sizeof err);
		snprintf(what, sizeof what, "a read past a buffer on %d thread(s) names it", threads);
		CHECK(what, rc != 0 && strstr(err, "in_ptr[40], past its 40 elements") != NULL);
		if (rc == 0 || !strstr(err, "in_ptr[40]"))
			printf("note: %s\n", err);
		mode = 1;
		rc = cpu_run(k, args, (int[3]){FN, 1, 1}, threads, err, sizeof err);
		snprintf(what, sizeof what, "a division by zero on %d thread(s) is SIGFPE", threads);
		CHECK(what, rc != 0 && strstr(err, "SIGFPE") != NULL);
		mode = 2;
		rc = cpu_run(k, args, (int[3]){FN, 1, 1}, threads, err, sizeof err);
		snprintf(what, sizeof what, "unbounded recursion on %d thread(s) stops with a fault", threads);
		CHECK(what, rc != 0 && strstr(err, "stack overflowed") != NULL);
		clean.threads = threads;
		clean_runs(&clean);
		snprintf(what, sizeof what, "runs on %d thread(s) after the faults are right", threads);
		CHECK(what, clean.ok);
	}
	/* a SIGSEGV handler of the program's own, installed over ours: ours goes
	 * back in at the next run and hands it signals that are not our faults */
	struct sigaction own = {0}, saved;
	own.sa_handler = own_handler;
	sigemptyset(&own.sa_mask);
	sigaction(SIGSEGV, &own, &saved);
	clean_runs(&clean);
	struct sigaction now;
	sigaction(SIGSEGV, NULL, &now);
	CHECK("the next run puts the fault handler back", clean.ok && now.sa_handler != own_handler);
	raise(SIGSEGV);
	CHECK("a SIGSEGV outside a run reaches the program's own handler", own_handler_ran == 1);
	int32_t n = FN, bad = 3, mode = 0;
	void *args[] = {&out, &in, &mode, &bad, &n};
	int rc = cpu_run(k, args, (int[3]){FN, 1, 1}, 2, err, sizeof err);
	CHECK("faults are caught again after that", rc != 0 && strstr(err, "in_ptr[40]") != NULL);
	sigaction(SIGSEGV, &saved, NULL);

	/* four threads launching at once, each on its own buffers */
	enum { CALLERS = 4 };
	FaultRun runs[CALLERS];
	pthread_t tid[CALLERS];
	bool all = true;
	for (int t = 0; t < CALLERS; t++) {
		runs[t] = (FaultRun){.k = k, .n = 64 + 13 * t, .threads = 1 + t, .launches = 200};
		runs[t].in = malloc((size_t)runs[t].n * sizeof(int32_t));
		runs[t].out = malloc((size_t)runs[t].n * sizeof(int32_t));
		for (int i = 0; i < runs[t].n; i++)
			runs[t].in[i] = (int32_t)(hash_input((uint32_t)i, 10 + (uint32_t)t) * 1000.0f) + 1001;
		all = all && pthread_create(&tid[t], NULL, clean_runs, &runs[t]) == 0;
	}
	for (int t = 0; t < CALLERS; t++) {
		pthread_join(tid[t], NULL);
		all = all && runs[t].ok;
		free(runs[t].in);
		free(runs[t].out);
	}
	CHECK("200 launches from each of 4 threads at once are right", all);
	cpu_buffer_free(in);
	cpu_buffer_free(out);
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
	test_faults();
	CHECK("cache removed", remove_cache(cache));
	return failures ? 1 : 0;
}
