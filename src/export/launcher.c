/* launcher.c: what every target's files share: the header, the error
 * strings, the dispatch over variants, the renaming that lets several
 * variants share one file. */
#include "export/internal.h"

#include "gpu/simt.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

/* The error codes: one list for every exported kernel and for libtritonc.
 * Keep in step with docs/export.md. */
static const struct {
	const char *name;
	const char *text;
} errors[] = {
	{"TRITONC_SUCCESS", "success"},
	{"TRITONC_ERROR_INVALID_VALUE", "an argument is invalid (a null buffer, a bad variant index, bad CPU stream options)"},
	{"TRITONC_ERROR_INVALID_GRID", "the grid is invalid (negative, too large, or its expression divides by zero)"},
	{"TRITONC_ERROR_NO_VARIANT", "no exported variant accepts these arguments (alignment, divisibility or fixed values)"},
	{"TRITONC_ERROR_NO_DRIVER", "the GPU driver or runtime cannot be loaded or lacks an entry point"},
	{"TRITONC_ERROR_NO_CONTEXT", "no current CUDA context (or no HIP device)"},
	{"TRITONC_ERROR_NO_BINARY", "no code for this device's architecture"},
	{"TRITONC_ERROR_LOAD", "the driver refused to load the kernel's module"},
	{"TRITONC_ERROR_SHARED_MEMORY", "the device cannot give the shared memory the kernel needs"},
	{"TRITONC_ERROR_LAUNCH", "the launch failed"},
	{"TRITONC_ERROR_OUT_OF_RESOURCES", "the CPU worker threads could not be started"},
	{"TRITONC_ERROR_ASSERT", "a device_assert failed"},
};
enum { NERRORS = sizeof errors / sizeof errors[0] };

static const char *stdint_name(const char *tc)
{
	static const char *const map[][2] = {
		{"bool", "bool"}, {"tc_i8", "int8_t"}, {"tc_i16", "int16_t"}, {"tc_i32", "int32_t"},
		{"tc_i64", "int64_t"}, {"tc_u8", "uint8_t"}, {"tc_u16", "uint16_t"}, {"tc_u32", "uint32_t"},
		{"tc_u64", "uint64_t"}, {"float", "float"}, {"double", "double"},
	};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (!strcmp(map[i][0], tc))
			return map[i][1];
	return "int32_t";
}

const char *export_param_ctype(const ExParam *p)
{
	static char buf[64];
	if (!p->is_ptr)
		return stdint_name(simt_reg_ctype(p->known ? p->dtype : DT_I32));
	snprintf(buf, sizeof buf, "%s *", stdint_name(simt_mem_ctype(p->elem)));
	return buf;
}

void export_write_params(Buf *b, const ExKernel *k)
{
	for (int p = 0; p < k->nparams; p++) {
		const char *t = export_param_ctype(&k->params[p]);
		buf_printf(b, ", %s%s%s", t, t[strlen(t) - 1] == '*' ? "" : " ", k->params[p].name);
	}
}

void export_write_arg_names(Buf *b, const ExKernel *k)
{
	for (int p = 0; p < k->nparams; p++)
		buf_printf(b, ", %s", k->params[p].name);
}

void export_write_unused(Buf *b, const ExKernel *k)
{
	for (int p = 0; p < k->nparams; p++)
		buf_printf(b, "\t(void)%s;\n", k->params[p].name);
}

void export_write_args(Buf *b, const ExKernel *k, int i, bool call)
{
	const ExVariant *v = &k->v[i];
	int n = 0;
	for (int p = 0; p < k->nparams; p++) {
		if (v->arg[p] < 0)
			continue;
		const ExParam *q = &k->params[p];
		buf_puts(b, n++ ? ", " : "");
		if (!call) {
			buf_printf(b, "(void *)&%s", q->name);
		} else if (q->is_ptr) {
			const char *t = simt_mem_ctype(q->elem);
			if (!strncmp(t, "tc_", 3))
				buf_printf(b, "(tc%d_%s *)%s", i, t + 3, q->name);
			else
				buf_printf(b, "(%s *)%s", t, q->name);
		} else {
			buf_puts(b, q->name);
		}
	}
	if (!n && !call)
		buf_puts(b, "0");
}

/* "stream" and "variant" in the header, unless the kernel has a parameter of that name. */
static const char *header_name(const ExKernel *k, const char *name)
{
	for (int p = 0; p < k->nparams; p++)
		if (!strcmp(k->params[p].name, name))
			return !strcmp(name, "stream") ? "tcx_stream" : "tcx_variant";
	return name;
}

void export_write_header(Buf *b, const ExKernel *k, TargetKind kind)
{
	const char *what = kind == TARGET_CUDA ? "CUDA (libcuda, or the CUDA runtime when built from the .cu)"
			   : kind == TARGET_HIP ? "HIP (the HIP runtime)" : "the CPU (C11, programs on POSIX threads)";
	buf_printf(b, "/* %s.h: the kernel %s, exported by tritonc for %s.\n *\n", k->name, k->name, what);
	buf_printf(b, " * int %s(void *stream, ...) computes the grid from the arguments, picks\n", k->name);
	buf_puts(b, " * the most specialized variant they allow and launches it; it returns 0 or\n"
		    " * a TRITONC_ERROR_ code (tritonc_error_string says what it means). It never\n"
		    " * prints or exits. ");
	if (kind == TARGET_C)
		buf_puts(b, "`stream` is NULL (every core) or a tritonc_cpu_stream\n"
			    " * saying how many threads to use; the call returns when the grid has run. */\n");
	else
		buf_printf(b, "`stream` is a %s (NULL: the default stream) of the\n"
			      " * current context; the kernel's module is loaded once in each context\n"
			      " * (or device) on first use, and %s_unload releases them all. */\n",
			   kind == TARGET_CUDA ? "CUstream or cudaStream_t" : "hipStream_t", k->name);
	buf_printf(b, "#ifndef TRITONC_EXPORT_%s_H\n#define TRITONC_EXPORT_%s_H\n\n", k->name, k->name);
	buf_puts(b, "#include <stdbool.h>\n#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
	buf_puts(b, "#ifndef TRITONC_API\n#if defined(__GNUC__) || defined(__clang__)\n"
		    "#define TRITONC_API __attribute__((visibility(\"default\")))\n#else\n#define TRITONC_API\n#endif\n#endif\n\n");
	buf_puts(b, "#ifndef TRITONC_ERROR_CODES /* shared by every exported kernel and tritonc.h */\n"
		    "#define TRITONC_ERROR_CODES\nenum {\n");
	for (int i = 0; i < NERRORS; i++)
		buf_printf(b, "\t%s = %d, /* %s */\n", errors[i].name, i, errors[i].text);
	buf_puts(b, "};\n/* What a TRITONC_ERROR_ code means (\"unknown error code\" for others). */\n"
		    "TRITONC_API const char *tritonc_error_string(int code);\n#endif\n\n");
	if (kind == TARGET_C)
		buf_puts(b, "#ifndef TRITONC_CPU_STREAM\n#define TRITONC_CPU_STREAM\n"
			    "/* The `stream` of a CPU launch: threads = 0 uses every core, 1 runs the\n"
			    " * programs one after another on one worker thread. */\n"
			    "typedef struct tritonc_cpu_stream {\n\tint threads;\n} tritonc_cpu_stream;\n#endif\n\n");
	Buf params = {0};
	export_write_params(&params, k);
	const char *sn = header_name(k, "stream"), *vn = header_name(k, "variant");
	buf_printf(b, "/* Launches %s on `%s`: the variant the arguments allow that is the most\n"
		      " * specialized (see %s_variant_name). */\n", k->name, sn, k->name);
	buf_printf(b, "TRITONC_API int %s(void *%s%s);\n\n", k->name, sn, buf_str(&params));
	buf_printf(b, "/* Launches variant number `%s` (0 .. %s_variant_count() - 1), for a choice\n"
		      " * made ahead of time (autotuning): TRITONC_ERROR_NO_VARIANT when the\n"
		      " * arguments break its assumptions. */\n", vn, k->name);
	buf_printf(b, "TRITONC_API int %s_variant(int %s, void *%s%s);\n", k->name, vn, sn, buf_str(&params));
	buf_printf(b, "TRITONC_API int %s_variant_count(void);\n", k->name);
	buf_printf(b, "/* How a variant was exported: \"-s ... -D ... --num-warps N\"; NULL when out of range. */\n"
		      "TRITONC_API const char *%s_variant_name(int %s);\n", k->name, vn);
	buf_printf(b, "/* Unloads the kernel's modules from every context they were loaded in\n"
		      " * (nothing to do on the CPU); the next launch loads them again. */\n"
		      "TRITONC_API int %s_unload(void);\n\n", k->name);
	buf_puts(b, "#ifdef __cplusplus\n}\n#endif\n\n#endif\n");
	buf_free(&params);
}

void export_write_errors(Buf *b)
{
	buf_puts(b, "/* Every exported kernel defines it, weakly, so that any number of them\n"
		    " * (and libtritonc) link into one program. */\n"
		    "#if defined(__GNUC__) || defined(__clang__)\n__attribute__((weak))\n#endif\n"
		    "const char *tritonc_error_string(int code)\n{\n\tswitch (code) {\n");
	for (int i = 0; i < NERRORS; i++)
		buf_printf(b, "\tcase %s: return \"%s\";\n", errors[i].name, errors[i].text);
	buf_puts(b, "\tdefault: return \"unknown error code\";\n\t}\n}\n\n");
}

/* The condition of variant v on its parameters, as C. */
static void write_condition(Buf *b, const ExKernel *k, const ExVariant *v)
{
	int n = 0;
	for (int p = 0; p < k->nparams; p++) {
		const ExCond *c = &v->cond[p];
		const char *name = k->params[p].name;
		if (c->kind == EXC_NONE)
			continue;
		buf_puts(b, n++ ? " && " : "");
		if (c->kind == EXC_DIV16 && k->params[p].is_ptr)
			buf_printf(b, "(uintptr_t)%s %% 16 == 0", name);
		else if (c->kind == EXC_DIV16)
			buf_printf(b, "%s %% 16 == 0", name);
		else
			buf_printf(b, "%s == %lld", name, (long long)c->value);
	}
	if (!n)
		buf_puts(b, "1");
}

void export_write_dispatch(Buf *b, const ExKernel *k)
{
	const char *N = k->name, *sn = "tcx_stream";
	Buf params = {0}, args = {0};
	export_write_params(&params, k);
	export_write_arg_names(&args, k);
	const char *P = buf_str(&params), *A = buf_str(&args);

	buf_puts(b, "/* ---- the grid and the dispatch ---- */\n\n");
	buf_puts(b, "static int64_t tcx_div(int *bad, int64_t a, int64_t b) { if (b == 0) { *bad = 1; return 0; } return a / b; }\n"
		    "static int64_t tcx_mod(int *bad, int64_t a, int64_t b) { if (b == 0) { *bad = 1; return 0; } return a % b; }\n"
		    "static int64_t tcx_cdiv(int *bad, int64_t a, int64_t b) { if (b <= 0) { *bad = 1; return 0; } return a >= 0 ? (a + b - 1) / b : -(-a / b); }\n"
		    "static int64_t tcx_min(int64_t a, int64_t b) { return a < b ? a : b; }\n"
		    "static int64_t tcx_max(int64_t a, int64_t b) { return a > b ? a : b; }\n\n");
	buf_printf(b, "/* Variant v's grid; nonzero when its expression divides by zero. */\n"
		      "static int %s__grid(int tcx_v, int64_t tcx_g[3]%s)\n{\n\tint tcx_bad = 0;\n", N, P);
	export_write_unused(b, k);
	buf_puts(b, "\tswitch (tcx_v) {\n");
	for (int i = 0; i < k->nv; i++)
		buf_printf(b, "\tcase %d:\n\t\ttcx_g[0] = %s;\n\t\ttcx_g[1] = %s;\n\t\ttcx_g[2] = %s;\n\t\tbreak;\n", i,
			   k->v[i].grid_c[0], k->v[i].grid_c[1], k->v[i].grid_c[2]);
	buf_puts(b, "\tdefault:\n\t\treturn 1;\n\t}\n\t(void)tcx_div;\n\t(void)tcx_mod;\n\t(void)tcx_cdiv;\n"
		    "\t(void)tcx_min;\n\t(void)tcx_max;\n\treturn tcx_bad;\n}\n\n");

	buf_printf(b, "/* Whether the arguments meet variant v's assumptions (its -s hints and -D values). */\n"
		      "static int %s__accepts(int tcx_v%s)\n{\n", N, P);
	export_write_unused(b, k);
	buf_puts(b, "\tswitch (tcx_v) {\n");
	for (int i = 0; i < k->nv; i++) {
		buf_printf(b, "\tcase %d: return ", i);
		write_condition(b, k, &k->v[i]);
		buf_puts(b, ";\n");
	}
	buf_puts(b, "\tdefault: return 0;\n\t}\n}\n\n");

	buf_printf(b, "static int %s__run(int tcx_v, void *%s%s)\n{\n\tint64_t tcx_g[3];\n", N, sn, P);
	buf_printf(b, "\tif (%s__grid(tcx_v, tcx_g%s))\n\t\treturn TRITONC_ERROR_INVALID_GRID;\n", N, A);
	buf_puts(b, "\tif (tcx_g[0] < 0 || tcx_g[1] < 0 || tcx_g[2] < 0 || tcx_g[0] > TCX_GRID_MAX_X ||\n"
		    "\t    tcx_g[1] > TCX_GRID_MAX_YZ || tcx_g[2] > TCX_GRID_MAX_YZ)\n\t\treturn TRITONC_ERROR_INVALID_GRID;\n");
	buf_puts(b, "\tif (tcx_g[0] == 0 || tcx_g[1] == 0 || tcx_g[2] == 0) /* no programs: nothing to run, as Triton */\n"
		    "\t\treturn TRITONC_SUCCESS;\n");
	buf_printf(b, "\treturn %s__launch(tcx_v, %s, tcx_g%s);\n}\n\n", N, sn, A);

	buf_printf(b, "/* The variants, most specialized first: the first that accepts the arguments runs. */\n"
		      "static const int %s__order[%d] = {", N, k->nv);
	for (int i = 0; i < k->nv; i++)
		buf_printf(b, "%s%d", i ? ", " : "", k->order[i]);
	buf_puts(b, "};\n\n");
	buf_printf(b, "int %s(void *%s%s)\n{\n\tfor (int tcx_i = 0; tcx_i < %d; tcx_i++)\n", N, sn, P, k->nv);
	buf_printf(b, "\t\tif (%s__accepts(%s__order[tcx_i]%s))\n\t\t\treturn %s__run(%s__order[tcx_i], %s%s);\n", N, N, A,
		   N, N, sn, A);
	buf_puts(b, "\treturn TRITONC_ERROR_NO_VARIANT;\n}\n\n");
	buf_printf(b, "int %s_variant(int tcx_variant, void *%s%s)\n{\n", N, sn, P);
	buf_printf(b, "\tif (tcx_variant < 0 || tcx_variant >= %d)\n\t\treturn TRITONC_ERROR_INVALID_VALUE;\n", k->nv);
	buf_printf(b, "\tif (!%s__accepts(tcx_variant%s))\n\t\treturn TRITONC_ERROR_NO_VARIANT;\n", N, A);
	buf_printf(b, "\treturn %s__run(tcx_variant, %s%s);\n}\n\n", N, sn, A);
	buf_printf(b, "int %s_variant_count(void)\n{\n\treturn %d;\n}\n\n", N, k->nv);
	buf_printf(b, "const char *%s_variant_name(int variant)\n{\n\tstatic const char *const names[%d] = {\n", N, k->nv);
	for (int i = 0; i < k->nv; i++) {
		buf_puts(b, "\t\t\"");
		for (const char *c = k->v[i].describe; *c; c++)
			buf_printf(b, *c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
		buf_puts(b, "\",\n");
	}
	buf_printf(b, "\t};\n\treturn variant >= 0 && variant < %d ? names[variant] : 0;\n}\n", k->nv);
	buf_free(&params);
	buf_free(&args);
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

char *export_rename(Arena *a, const char *source, int variant, const char *fn)
{
	Buf b = {0};
	for (const char *s = source; *s; s++) {
		bool start = s == source || !ident_char(s[-1]);
		if (start && (!strncmp(s, "tc_", 3) || !strncmp(s, "TC_", 3))) {
			buf_printf(&b, "%s%d_", s[0] == 't' ? "tc" : "TC", variant);
			s += 2;
			continue;
		}
		buf_putc(&b, *s);
	}
	/* the C target's launcher and assertion text become the file's own */
	char launch[300], assertion[64];
	snprintf(launch, sizeof launch, "\nvoid %s_launch(", fn);
	snprintf(assertion, sizeof assertion, "\nchar tc%d_assertion[", variant);
	Buf out = {0};
	for (const char *s = buf_str(&b); *s; s++) {
		if (!strncmp(s, launch, strlen(launch)) || !strncmp(s, assertion, strlen(assertion)))
			buf_puts(&out, "\nstatic ");
		else
			buf_putc(&out, *s);
	}
	buf_free(&b);
	char *r = arena_strdup(a, buf_str(&out));
	buf_free(&out);
	return r;
}

void export_write_bytes(Buf *b, const unsigned char *data, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf_printf(b, "%s0x%02x,%s", i % 16 ? " " : "\t", data[i], i % 16 == 15 || i + 1 == len ? "\n" : "");
}

bool export_write_file(const char *dir, const char *name, const Buf *b, FILE *errors)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (file_write_atomic(path, b->data ? b->data : "", b->len) == 0)
		return true;
	fprintf(errors, "tritonc: error: cannot write '%s': %s\n", path, strerror(errno));
	return false;
}

int export_write_files(const ExKernel *k, const char *dir, Buf *h, Buf *c, Buf *device, const char *ext, FILE *errors)
{
	bool ok = true;
	Buf *bufs[3] = {h, c, device};
	const char *exts[3] = {"h", "c", ext};
	for (int i = 0; i < 3; i++) {
		if (!bufs[i])
			continue;
		if (ok) {
			char name[300];
			snprintf(name, sizeof name, "%s.%s", k->name, exts[i]);
			ok = export_write_file(dir, name, bufs[i], errors);
		}
		buf_free(bufs[i]);
	}
	return ok ? 0 : 1;
}
