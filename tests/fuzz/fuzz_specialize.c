/* fuzz_specialize.c: libFuzzer target for discovery, parsing, the
 * specializer, the axis analysis and the tile-IR printer. Parameters named
 * *ptr* are given pointer types, others i32; every constexpr is 16. Bad
 * kernels must come back as diagnostics, never as crashes. */
#include "ir/specialize.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz_stack.h"

static void try_kernel(Arena *a, const Kernel *k)
{
	Buf sig = {0};
	const char *defines[16];
	int nd = 0;
	for (int i = 0; i < k->func->params.len; i++) {
		const Node *p = k->func->params.items[i];
		bool cx = p->lhs && p->lhs->kind == ND_ATTR && !strcmp(p->lhs->name, "constexpr");
		if (cx && nd < 16)
			defines[nd++] = arena_printf(a, "%s=16", p->name);
		else if (!cx)
			buf_printf(&sig, "%s%s", sig.len ? "," : "", strstr(p->name, "ptr") ? "*fp32" : "i32");
	}
	Diag d = {0};
	SpecOptions opt = {.signature = sig.len ? buf_str(&sig) : NULL, .defines = defines, .ndefines = nd, .num_warps = 4};
	TKernel *tk = spec_kernel(a, &d, k, &opt);
	if (tk) {
		tir_axis_analysis(tk, NULL);
		Buf out = {0};
		tir_dump(&out, tk);
		buf_free(&out);
	}
	buf_free(&d.text);
	buf_free(&sig);
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
		for (int i = 0; i < kl.len && i < 4; i++)
			try_kernel(&a, kl.items[i]);
	buf_free(&d.text);
	arena_free(&a);
	free(text);
	return 0;
}
