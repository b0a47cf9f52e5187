/* A program with functions of the names libtritonc uses inside (eval, arg,
 * lookup, assign, coord, ...), linked with lib/libtritonc.so: the library
 * must keep calling its own (a name it exported would be bound to these,
 * and the compile would abort), and the program its own. Compiles the seed
 * RMSNorm to C and writes it to the file given, for the suite to compare. */
#include "tritonc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int eval(int x);
int arg(int x);
int lookup(int x);
int assign(int x);
int coord(int x);
int ic(int x);
int iadd(int x);
int specialize(int x);
int emit_kernel(int x);
int buf_printf(int x);
int xmalloc(int x);
int lex_run(int x);
int parse_module(int x);

#define MINE(name, k)                                                              \
	int name(int x)                                                            \
	{                                                                          \
		if (x != 12345)                                                    \
			abort(); /* called by the library with its own arguments */ \
		return k;                                                          \
	}
MINE(eval, 1)
MINE(arg, 2)
MINE(lookup, 3)
MINE(assign, 4)
MINE(coord, 5)
MINE(ic, 6)
MINE(iadd, 7)
MINE(specialize, 8)
MINE(emit_kernel, 9)
MINE(buf_printf, 10)
MINE(xmalloc, 11)
MINE(lex_run, 12)
MINE(parse_module, 13)

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	FILE *f = fopen(argv[1], "rb");
	static char src[1 << 20];
	size_t n = f ? fread(src, 1, sizeof src - 1, f) : 0;
	if (f)
		fclose(f);
	src[n] = 0;
	tritonc_options o = {.target = "c", .signature = "*fp32,*fp32,*fp32,i32,i32",
			     .defines = (const char *[]){"XBLOCK=2"}, .ndefines = 1};
	char *diag = NULL;
	char *code = tritonc_compile(src, argv[1], &o, &diag);
	int (*const fns[])(int) = {eval, arg, lookup, assign, coord, ic, iadd, specialize, emit_kernel, buf_printf,
				   xmalloc, lex_run, parse_module};
	int mine = 1;
	for (int i = 0; i < 13; i++)
		mine &= fns[i](12345) == i + 1;
	printf("%s library: the compile through libtritonc.so%s\n", code ? "PASS" : "FAIL", code ? "" : " failed");
	printf("%s library: the program's own eval, arg, lookup, ... are its own\n", mine ? "PASS" : "FAIL");
	if (diag)
		fputs(diag, stderr);
	FILE *out = code ? fopen(argv[2], "wb") : NULL;
	if (out) {
		fputs(code, out);
		fclose(out);
	}
	tritonc_free(code);
	tritonc_free(diag);
	return code && mine ? 0 : 1;
}
