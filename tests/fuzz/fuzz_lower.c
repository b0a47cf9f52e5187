/* fuzz_lower.c: libFuzzer target for the whole compile: discovery, the
 * specializer, the lowering and every printer (CUDA, HIP, C at W=32 and
 * W=64), with the tile and SIMT dumps. Parameters named *ptr* are *fp32,
 * others i32; every constexpr is 16. Bad kernels must come back as
 * diagnostics, never as crashes. */
#include "driver/driver.h"
#include "emit/emit.h"
#include "gpu/simt.h"
#include "ir/heuristics.h"
#include "ir/specialize.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz_stack.h"

static const char *const targets[] = {"cuda:sm_90", "hip:gfx90a", "c", "c:wave64", "hip:gfx1030", "cuda:sm_80"};

static void try_kernel(const Kernel *k, int which)
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
	if (k->signature) {   /* an Inductor kernel: its own signature and block sizes */
		dflt = inductor_block_defaults(k, NULL, 0);
		for (int i = 0; i < dflt.count && nd < 16; i++)
			defines[nd++] = dflt.text[i];
	}
	Diag d = {0};
	SpecOptions opt = {.signature = sig.len ? buf_str(&sig) : NULL, .defines = defines, .ndefines = nd, .num_warps = 4};
	TKernel *tk = spec_kernel(&a, &d, k, &opt);
	if (tk) {
		Target t;
		char err[200];
		if (target_parse(targets[which % (int)(sizeof targets / sizeof *targets)], &t, err, sizeof err)) {
			SKernel *sk = (driver_passes(&a, tk, NULL), simt_lower(&a, &d, k->src, tk, &t));
			if (sk) {
				Buf out = {0};
				simt_dump(&out, sk);
				buf_free(&out);
				emit_kernel(&out, sk);
				buf_free(&out);
			}
		}
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
	/* which targets: from the input's length, so every one is reached over a run */
	if (discover_kernels(&a, &d, &src, &kl) > 0)
		for (int i = 0; i < kl.len && i < 2; i++)
			for (int t = 0; t < 2; t++)
				try_kernel(kl.items[i], (int)(size % 3) * 2 + t);
	buf_free(&d.text);
	arena_free(&a);
	free(text);
	return 0;
}
