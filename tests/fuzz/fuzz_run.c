/* fuzz_run.c: libFuzzer target for `tritonc run` on the C target: every
 * kernel that compiles is printed as C, built with the system cc (a
 * compile error there is a bug of the printer: abort) and run on a grid of
 * two programs over guarded buffers of 256 elements, every access checked
 * against them as `tritonc run` does (a stray one is reported by the
 * runtime, not a crash). Parameters named *ptr* are
 * *fp32, others i32 = 100; every constexpr is 16. Slow per input (cc). */
#include "driver/driver.h"
#include "emit/emit.h"
#include "gpu/simt.h"
#include "ir/heuristics.h"
#include "ir/specialize.h"
#include "runtime/run.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz_stack.h"

static void try_kernel(const Kernel *k, bool wave64)
{
	Arena a = {0};
	Buf sig = {0};
	const char *defines[16];
	int nd = 0;
	for (int i = 0; i < k->func->params.len; i++) {
		const Node *p = k->func->params.items[i];
		bool cx = p->lhs && p->lhs->kind == ND_ATTR && !strcmp(p->lhs->name, "constexpr");
		const char *st = discover_sig_type(k, p->name);
		if (st && !strcmp(st, "constexpr"))
			cx = true;
		if (cx && nd < 16 && !k->signature)
			defines[nd++] = arena_printf(&a, "%s=16", p->name);
		else if (!cx && !k->signature)
			buf_printf(&sig, "%s%s", sig.len ? "," : "", strstr(p->name, "ptr") ? "*fp32" : "i32");
	}
	BlockDefaults dflt = {0};
	if (k->signature) {
		dflt = inductor_block_defaults(k, NULL, 0);
		for (int i = 0; i < dflt.count && nd < 16; i++)
			defines[nd++] = dflt.text[i];
	}
	Diag d = {0};
	SpecOptions opt = {.signature = sig.len ? buf_str(&sig) : NULL, .defines = defines, .ndefines = nd, .num_warps = 2};
	TKernel *tk = spec_kernel(&a, &d, k, &opt);
	Target t;
	char err[4096];
	SKernel *sk = NULL;
	bool parsed = tk && target_parse(wave64 ? "c:wave64" : "c", &t, err, sizeof err);
	/* every access checked against the buffers, as `tritonc run` builds
	 * kernels: a stray access far from any buffer (past the guard pages)
	 * is reported instead of landing in the fuzzer's own heap */
	t.checked = true;
	if (parsed)
		sk = (driver_passes(&a, tk, NULL), simt_lower(&a, &d, k->src, tk, &t));
	if (sk) {
		Buf src = {0};
		emit_kernel(&src, sk);
		RunArg *args = base_calloc((size_t)tk->nargs + 1, sizeof *args);
		for (int i = 0; i < tk->nargs; i++) {
			const TValue *v = tk->args[i];
			if (v->type.dtype == DT_PTR) {
				size_t es = (size_t)dtype_bytes(v->type.elem);
				args[i].bytes = 256 * es;
				args[i].host = base_calloc(256, es);
				run_fill(args[i].host, v->type.elem, 256, i, 16);
			} else {
				args[i].i = 100;
				args[i].f = 0.5;
			}
		}
		const char *cache = getenv("FUZZ_RUN_CACHE");   /* run.sh: in its work folder */
		RunOptions ro = {.device = DEVICE_CPU, .grid = {2, 1, 1}, .cpu_threads = 1,
				 .cache_dir = cache && *cache ? cache : "/tmp/tritonc-fuzz-run-cache"};
		RunResult res;
		if (run_kernel(sk, buf_str(&src), args, &ro, &res, err, sizeof err) != 0 &&
		    (strstr(err, "the C compiler") || strstr(err, "has no function"))) {
			fprintf(stderr, "the generated C does not build or load:\n%s\n", err);
			abort();
		}
		for (int i = 0; i < tk->nargs; i++)
			free(args[i].host);
		free(args);
		buf_free(&src);
	}
	buf_free(&d.text);
	buf_free(&sig);
	arena_free(&a);
}

static int fuzz_one(const uint8_t *data, size_t size)
{
	char *text = base_malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	Source src = {"fuzz.py", text, size, 0, 0};
	Arena a = {0};
	Diag d = {0};
	KernelList kl = {0};
	if (discover_kernels(&a, &d, &src, &kl) > 0)
		try_kernel(kl.items[0], size % 2);
	buf_free(&d.text);
	arena_free(&a);
	free(text);
	return 0;
}
