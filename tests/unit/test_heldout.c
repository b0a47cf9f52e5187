/* test_heldout.c: TorchInductor kernels of operations outside the corpus
 * (tests/heldout/, written by capture.py), against the values real Triton
 * computed for the same inputs (tests/heldout/golden/, by gen_golden.py).
 * Nothing in the compiler was written against them: they measure how
 * general it is.
 *
 * Each kernel runs through the interpreter (every program, or the
 * programs that write the sampled positions when every program would take
 * too long), then lowered for 32- and 64-lane warps, compiled by the system
 * cc and run over its whole grid. With --cuda it runs the CUDA lowering on
 * the GPU instead of the C ones (make gpu-check; TARGET=cuda:sm_NN picks
 * the architecture, sm_90 by default).
 *
 *   test_heldout [--cuda] [NAME...]        NAME: a golden file's name */
#include "golden.h"
#include "driver/driver.h"
#include "emit/emit.h"
#include "runtime/run.h"

#include <dirent.h>

/* Element operations the interpreter may spend on one kernel. */
#define INTERP_BUDGET 5e7

/* Programs a sampled position belongs to, for kernels too long to
 * interpret whole: Inductor's 1-D grids cover their outputs in order. */
typedef struct Sample {
	int64_t programs;
	const unsigned char *done;
} Sample;

static int64_t program_of(const Sample *s, int64_t at, int64_t numel)
{
	return at * s->programs / numel;
}

static bool not_run(const Golden *G, int out, int64_t at, void *ctx)
{
	const Sample *s = ctx;
	return !s->done[program_of(s, at, G->sizes[out])];
}

static const char *check_interpreter(Golden *G, const char *name, char *why, size_t whylen)
{
	TArgValue *kv = golden_kernel_args(G);
	int64_t programs = (int64_t)G->grid[0] * G->grid[1] * G->grid[2];
	char err[256];
	const char *fail = NULL;
	golden_fill(G);
	if (G->atomics || G->grid[1] * G->grid[2] > 1 || block_work(G->tk->body) * (double)programs <= INTERP_BUDGET) {
		if (tir_interpret(G->tk, kv, G->grid, err, sizeof err) != 0) {
			snprintf(why, whylen, "interpreter: %s", err);
			fail = why;
		}
		fail = fail ? fail : golden_compare(G, name, NULL, NULL, why, whylen);
		free(kv);
		return fail;
	}
	unsigned char *done = base_calloc((size_t)programs, 1);
	Sample s = {.programs = programs, .done = done};
	int budget = (int)fmax(16, INTERP_BUDGET / block_work(G->tk->body));
	for (int o = 0; G->outs && o < G->outs->len && !fail; o++) {
		int ai = golden_arg_named(G, G->outs->keys[o]);
		Json *pos = json_get(G->outs->items[o], "positions");
		for (int p = 0; ai >= 0 && pos && p < pos->len && !fail && budget > 0; p++) {
			int64_t pid = program_of(&s, (int64_t)json_num(json_at(pos, p), 0), G->sizes[ai]);
			if (pid < 0 || pid >= programs || done[pid])
				continue;
			done[pid] = 1;
			budget--;
			if (tir_interpret_range(G->tk, kv, G->grid, pid, 1, err, sizeof err) != 0) {
				snprintf(why, whylen, "interpreter: %s", err);
				fail = why;
			}
		}
	}
	fail = fail ? fail : golden_compare(G, name, not_run, &s, why, whylen);
	free(done);
	free(kv);
	return fail;
}

/* The GPU's runtime, opened once for every kernel (--cuda). */
static CudaRuntime *cuda;

/* Lowers for `target`, runs the whole grid on `device`, compares. */
static const char *check_lowered(Golden *G, const char *name, const char *target, Device device, char *why,
				 size_t whylen)
{
	Target t;
	char err[4096];
	if (!target_parse(target, &t, err, sizeof err)) {
		snprintf(why, whylen, "%.500s", err);
		return why;
	}
	golden_fill(G);
	int n = G->tk->nargs;
	TArgValue *kv = golden_kernel_args(G);
	RunArg *args = base_calloc((size_t)n + 1, sizeof *args);
	int64_t *div = base_calloc((size_t)n + 1, sizeof *div);
	for (int i = 0; i < n && i < G->nk; i++) {
		int gi = G->kargs[i];
		if (G->tk->args[i]->type.dtype == DT_PTR) {
			args[i].host = kv[i].ptr;
			args[i].bytes = (size_t)(G->sizes[gi] * dtype_bytes(G->dts[gi]));
			div[i] = 16;
		} else {
			args[i].i = kv[i].i;
			args[i].f = (double)kv[i].i;
			/* Triton specializes integers divisible by 16. */
			div[i] = kv[i].i % 16 == 0 ? 16 : 1;
		}
	}
	const char *fail = NULL;
	driver_passes(&G->a, G->tk, div);
	SKernel *sk = simt_lower(&G->a, &G->diag, G->k->src, G->tk, &t);
	if (!sk) {
		snprintf(why, whylen, "lowering for %s failed", target);
		fail = why;
		goto done;
	}
	Buf source = {0};
	emit_kernel(&source, sk);
	RunOptions ro = {.device = device, .grid = {G->grid[0], G->grid[1], G->grid[2]}, .cpu_threads = 0,
			 .cache_dir = test_cache_dir(), .cuda = cuda};
	RunResult res;
	if (run_kernel(sk, buf_str(&source), args, &ro, &res, err, sizeof err) != 0) {
		snprintf(why, whylen, "%s: %.300s", target, err);
		fail = why;
	}
	buf_free(&source);
	char label[160];
	snprintf(label, sizeof label, "%s [%s]", name, target);
	fail = fail ? fail : golden_compare(G, label, NULL, NULL, why, whylen);
done:
	free(args);
	free(div);
	free(kv);
	return fail;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	const char *dir = "tests/heldout/golden";
	bool cuda_wanted = argc > 1 && !strcmp(argv[1], "--cuda");
	char **only = argv + 1 + cuda_wanted;
	int nonly = argc - 1 - cuda_wanted;
	if (cuda_wanted) {
		char err[4096];
		if (!(cuda = cuda_open(err, sizeof err))) {
			printf("FAIL heldout: no CUDA device: %.300s\n", err);
			return 1;
		}
	}
	DIR *dh = opendir(dir);
	if (!dh) {
		printf("FAIL heldout: cannot open %s\n", dir);
		return 1;
	}
	char **names = NULL;
	int nnames = 0;
	for (struct dirent *e; (e = readdir(dh));) {
		size_t len = strlen(e->d_name);
		if (len > 5 && !strcmp(e->d_name + len - 5, ".json")) {
			names = base_realloc(names, (size_t)(nnames + 1) * sizeof *names);
			names[nnames] = base_malloc(len - 4);
			memcpy(names[nnames], e->d_name, len - 5);
			names[nnames++][len - 5] = 0;
		}
	}
	closedir(dh);
	qsort(names, (size_t)nnames, sizeof *names, by_name);
	int ran = 0;
	for (int i = 0; i < nnames; i++) {
		bool wanted = nonly == 0;
		for (int j = 0; j < nonly; j++)
			wanted |= !strcmp(only[j], names[i]);
		if (!wanted)
			continue;
		ran++;
		char path[512], why[600], name[300];
		snprintf(path, sizeof path, "%s/%s.json", dir, names[i]);
		Golden G;
		const char *fail = golden_open(&G, path, stdout);
		if (fail) {
			snprintf(name, sizeof name, "heldout %s: compiles", names[i]);
			report(false, name, fail);
			golden_close(&G);
			continue;
		}
		if (cuda_wanted) {
			const char *target = getenv("TARGET") ? getenv("TARGET") : "cuda:sm_90";
			fail = check_lowered(&G, names[i], target, DEVICE_CUDA, why, sizeof why);
			snprintf(name, sizeof name, "heldout %s: CUDA on the GPU matches Triton", names[i]);
			report(!fail, name, fail ? fail : "");
		} else {
			fail = check_interpreter(&G, names[i], why, sizeof why);
			snprintf(name, sizeof name, "heldout %s: interpreter matches Triton", names[i]);
			report(!fail, name, fail ? fail : "");
			static const char *const targets[] = {"c", "c:wave64"};
			for (int t = 0; t < 2; t++) {
				fail = check_lowered(&G, names[i], targets[t], DEVICE_CPU, why, sizeof why);
				snprintf(name, sizeof name, "heldout %s: %s lowering on the CPU matches Triton", names[i],
					 t ? "64-lane" : "32-lane");
				report(!fail, name, fail ? fail : "");
			}
		}
		golden_close(&G);
	}
	for (int i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	if (cuda)
		cuda_close(cuda);
	if (!ran) {
		printf("FAIL heldout: no golden file matched\n");
		failures++;
	}
	return failures ? 1 : 0;
}
