/* fuzz_parse.c: libFuzzer target for the Triton front end. Runs source
 * discovery (lexing, parsing, embedded Inductor kernels) and the AST dump
 * on arbitrary bytes; errors must come back as diagnostics, never crashes. */
#include "triton/triton.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz_stack.h"

static int fuzz_one(const uint8_t *data, size_t size)
{
	char *text = base_malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	Source src = {"fuzz.py", text, size, 0, 0};
	Arena a = {0};
	Diag d = {0};
	jmp_buf jb;
	d.jump = &jb;
	if (setjmp(jb) == 0) {
		KernelList kl = {0};
		if (discover_kernels(&a, &d, &src, &kl) >= 0) {
			Buf b = {0};
			for (int i = 0; i < kl.len; i++)
				ast_dump(&b, kl.items[i]->module);
			buf_free(&b);
		}
		Node *m = parse_module(&a, &d, &src);
		if (m) {
			Buf b = {0};
			ast_dump(&b, m);
			buf_free(&b);
		}
		parse_expression(&a, &d, &src);
	}
	buf_free(&d.text);
	arena_free(&a);
	free(text);
	return 0;
}
