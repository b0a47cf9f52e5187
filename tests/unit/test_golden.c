/* test_golden.c: corpus kernels, from their source text through discovery,
 * parsing, specialization and the tile-IR interpreter, against the values
 * real Triton produced on a GPU for the same inputs (tests/triton_values/). */
#include "golden.h"

/* Element operations the interpreter may spend per output: programs
 * beyond it are not run and the positions they write are skipped, so the
 * big kernels (32 unrolled steps over 1024 columns) stay a few seconds.
 * The positions come first and last, then random. */
#define WORK_BUDGET 1e8

/* Which program writes flat output position `at`. Grid1D kernels cover
 * their row-major output in order: at * programs / numel. Grid2D kernels
 * (Inductor's YBLOCK x XBLOCK tiles, x fastest in memory and in axis 0 of
 * the grid) write [y, x] at y * xnumel + x. */
typedef struct GridMap {
	int64_t grid0, xnumel, xblock, yblock;
} GridMap;

static int64_t program_of(const GridMap *m, int64_t at, int64_t programs, int64_t numel)
{
	if (!m->xnumel)
		return at * programs / numel;
	int64_t x = at % m->xnumel, y = at / m->xnumel;
	return x / m->xblock + y / m->yblock * m->grid0;
}


/* Which programs ran, for golden_compare's skip. */
typedef struct Ran {
	GridMap map;
	int64_t programs;
	const unsigned char *done;
} Ran;

static bool not_run(const Golden *G, int out, int64_t at, void *ctx)
{
	const Ran *r = ctx;
	return !r->done[program_of(&r->map, at, r->programs, G->sizes[out])];
}

/* One golden file through the interpreter: the programs that write the
 * sampled positions (see program_of), or every program when the kernel adds
 * atomically. Returns a failure reason or NULL. */
static const char *run_golden(const char *name, char *why, size_t whylen)
{
	char path[256];
	snprintf(path, sizeof path, "tests/triton_values/%s.json", name);
	Golden G;
	const char *fail = golden_open(&G, path, stdout);
	if (fail) {
		golden_close(&G);
		return fail;
	}
	TArgValue *kvals = golden_kernel_args(&G);
	int64_t programs = (int64_t)G.grid[0] * G.grid[1] * G.grid[2];
	char err[256];
	Json *cx = json_get(G.g, "constexprs");
	Ran ran = {.map = {.grid0 = G.grid[0]}, .programs = programs};
	if (G.grid[1] > 1) {
		int xi = golden_arg_named(&G, "xnumel");
		ran.map.xnumel = xi >= 0 ? G.vals[xi].i : 0;
		ran.map.xblock = (int64_t)json_num(json_get(cx, "XBLOCK"), 1);
		ran.map.yblock = (int64_t)json_num(json_get(cx, "YBLOCK"), 1);
	}
	unsigned char *done = base_calloc((size_t)programs, 1);
	ran.done = done;
	if (G.atomics) {
		if (tir_interpret(G.tk, kvals, G.grid, err, sizeof err) != 0) {
			snprintf(why, whylen, "interpreter: %s", err);
			fail = why;
		}
		fail = fail ? fail : golden_compare(&G, name, NULL, NULL, why, whylen);
		goto done;
	}
	int run = 0, max_programs = (int)fmax(16, WORK_BUDGET / block_work(G.tk->body));
	for (int o = 0; G.outs && o < G.outs->len && !fail; o++) {
		int ai = golden_arg_named(&G, G.outs->keys[o]);
		Json *pos = json_get(G.outs->items[o], "positions");
		for (int p = 0; ai >= 0 && pos && p < pos->len && !fail; p++) {
			int64_t at = (int64_t)json_num(json_at(pos, p), 0);
			int64_t pid = program_of(&ran.map, at, programs, G.sizes[ai]);
			if (pid < 0 || pid >= programs || done[pid] || run >= max_programs)
				continue;
			run++;
			done[pid] = 1;
			if (tir_interpret_range(G.tk, kvals, G.grid, pid, 1, err, sizeof err) != 0) {
				snprintf(why, whylen, "interpreter: %s", err);
				fail = why;
			}
		}
	}
	if (!fail)
		fail = golden_compare(&G, name, not_run, &ran, why, whylen);
done:
	free(done);
	free(kvals);
	golden_close(&G);
	return fail;
}

int main(int argc, char **argv)
{
	static const char *cases[] = {
		"rmsnorm_inductor_r37", "rmsnorm_f32_4096", "rmsnorm_bf16_4096", "softmax_f32_1024",
		"add_relu_mul_f32", "gelu_tanh_bf16", "swiglu_bf16", "broadcast_bias_f16",
		"layernorm_f32_1024", "log_softmax_f32_777", "colsum_f32_k0", "colsum_f32_k1",
		"mean_all_f32_k0", "index_add_f32_k0", "transpose_add_f32", "cumsum_f32",
		"embedding_f32", "index_add_f32_k1", "max_argmax_f32", "mean_all_f32_k1", "softmax_f16_32000",
		"var_mean_f32",
	};
	for (size_t i = 0; i < TC_COUNT(cases); i++) {
		if (argc > 1 && strcmp(argv[1], cases[i]))
			continue;
		char why[300];
		const char *fail = run_golden(cases[i], why, sizeof why);
		char name[128];
		snprintf(name, sizeof name, "interpreter matches Triton: %s", cases[i]);
		report(!fail, name, fail ? fail : "");
	}
	return failures ? 1 : 0;
}
