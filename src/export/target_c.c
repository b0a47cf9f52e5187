/* target_c.c: the c target: NAME.h and NAME.c, plain C11 that runs the
 * kernel's programs on the CPU's threads (or, built with
 * -DTRITONC_NO_THREADS, on the caller's). */
#include "export/internal.h"

static const char rt_cpu[] =
#include "export/rt_cpu.inc"
	;

/* NAME__launch for the CPU: each variant's own launcher over its arguments. */
static void write_launch(Buf *b, const ExKernel *k)
{
	Buf params = {0};
	export_write_params(&params, k);
	buf_printf(b, "static int %s__launch(int tcx_v, void *tcx_stream, const int64_t tcx_g[3]%s)\n{\n", k->name,
		   buf_str(&params));
	buf_puts(b, "\tconst tritonc_cpu_stream *tcx_s = (const tritonc_cpu_stream *)tcx_stream;\n");
	for (int p = 0; p < k->nparams; p++)
		buf_printf(b, "\t(void)%s;\n", k->params[p].name);
	for (int p = 0; p < k->nparams; p++)
		if (k->params[p].is_ptr)
			buf_printf(b, "\tif (!%s)\n\t\treturn TRITONC_ERROR_INVALID_VALUE;\n", k->params[p].name);
	buf_puts(b, "\tswitch (tcx_v) {\n");
	for (int i = 0; i < k->nv; i++) {
		const ExVariant *v = &k->v[i];
		buf_printf(b, "\tcase %d: {\n\t\tvoid *tcx_args[] = {", i);
		int n = 0;
		for (int p = 0; p < k->nparams; p++)
			if (v->arg[p] >= 0)
				buf_printf(b, "%s(void *)&%s", n++ ? ", " : "", k->params[p].name);
		buf_printf(b, "%s};\n\t\treturn tcx_cpu_run(tcx_s, %s_launch, tcx_args, tcx_g, tc%d_assertion);\n\t}\n", n ? "" : "0", v->fn,
			   i);
	}
	buf_puts(b, "\tdefault:\n\t\treturn TRITONC_ERROR_INVALID_VALUE;\n\t}\n}\n\n");
	buf_free(&params);
}

int export_target_c(const ExKernel *k, int t, const char *dir, FILE *errors)
{
	Buf h = {0}, c = {0};
	export_write_header(&h, k, TARGET_C);
	buf_printf(&c, "/* %s.c: the kernel %s for the CPU (%d variant%s), exported by tritonc.\n"
		       " * Build: cc -std=c11 -O2 -pthread -c %s.c (-DTRITONC_NO_THREADS: no threads). */\n",
		   k->name, k->name, k->nv, k->nv > 1 ? "s" : "", k->name);
	buf_puts(&c, "#ifndef _POSIX_C_SOURCE\n#define _POSIX_C_SOURCE 200809L\n#endif\n");
	buf_printf(&c, "#include \"%s.h\"\n\n#include <stdlib.h>\n#include <string.h>\n"
		       "#ifndef TRITONC_NO_THREADS\n#include <pthread.h>\n#include <unistd.h>\n#endif\n\n", k->name);
	buf_puts(&c, "#if defined(__GNUC__) || defined(__clang__) /* the kernels' code leaves some helpers unused */\n"
		    "#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored \"-Wunused-parameter\"\n"
		    "#pragma GCC diagnostic ignored \"-Wunused-function\"\n#pragma GCC diagnostic ignored \"-Wparentheses\"\n#pragma GCC diagnostic ignored \"-Wunused-variable\"\n"
		    "#endif\n\n");
	for (int i = 0; i < k->nv; i++) {
		buf_printf(&c, "/* ==== variant %d: %s ==== */\n", i, k->v[i].describe);
		buf_puts(&c, k->v[i].code[t].source);
		buf_putc(&c, '\n');
	}
	buf_puts(&c, "#if defined(__GNUC__) || defined(__clang__)\n#pragma GCC diagnostic pop\n#endif\n\n");
	buf_puts(&c, rt_cpu);
	buf_putc(&c, '\n');
	write_launch(&c, k);
	export_write_dispatch(&c, k);
	buf_printf(&c, "\nint %s_unload(void)\n{\n\treturn TRITONC_SUCCESS;\n}\n\n", k->name);
	export_write_errors(&c);
	return export_write_files(k, dir, &h, &c, NULL, NULL, errors);
}
