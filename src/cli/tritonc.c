/* tritonc: the command line. Each subcommand parses its options and runs
 * the pipeline through the driver (src/driver/driver.c), which chains the
 * stages for every caller. */
#include "base/base.h"
#include "driver/driver.h"
#include "runtime/cpu.h"
#include "runtime/cuda.h"
#include "runtime/run.h"
#include "ir/heuristics.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
	"usage: tritonc COMMAND [options]\n"
	"\n"
	"Compiles kernels written in the Triton language (@triton.jit functions and\n"
	"TorchInductor output modules).\n"
	"\n"
	"commands:\n"
	"  list FILE.py              the kernels in FILE, their parameters, signatures and configs\n"
	"  compile FILE.py [options] compile a kernel to CUDA C, HIP C or C\n"
	"      -k NAME               the kernel (default: the only one in FILE)\n"
	"      -s SIG                types of the non-constexpr parameters: '*fp32,*fp32,i32';\n"
	"                            i32:16 says the value is a multiple of 16\n"
	"                            (Inductor kernels carry their own)\n"
	"      -D NAME=VALUE         a constexpr value (repeatable)\n"
	"      --num-warps N         warps per program (default 4)\n"
	"      --target T            cuda:sm_NN (default cuda:sm_90; cuda:sm_90a: tl.dot by wgmma),\n"
	"                            hip:gfx90a|gfx940|gfx942|gfx908|gfx1030|gfx1100, c (c:wave64 for\n"
	"                            64-lane layouts and gfx90a's MFMA, c:wgmma models wgmma, c:wave32-64k\n"
	"                            and c:wave64-64k with AMD's 64 KiB of shared memory a block, c:cdna3\n"
	"                            the same with gfx94x's MFMA), interp\n"
	"      --dump STAGE[,STAGE]  print a stage's text instead of the code: kernels, ast,\n"
	"                            tir (after specialization), passes (the tile IR after\n"
	"                            its passes, with axis info), plan, simt, code\n"
	"      -o FILE               write the output to FILE instead of standard output\n"
	"  run FILE.py [options]     compile a kernel, run it on generated inputs and report\n"
	"      (-k, -s, -D, --num-warps as for compile)\n"
	"      --target T            c (default; c:wave64 runs 64-lane layouts) or cuda[:sm_NN]\n"
	"                            (cuda alone: the device's architecture, sm_90a on sm_90)\n"
	"      --arg NAME=VALUE      a scalar argument's value, or a buffer's element count\n"
	"      --arg NAME=V1,V2,...  a buffer holding these values (one: 'V,'); an item @BUF is\n"
	"                            the address of buffer BUF as the run has it (a table of\n"
	"                            pointers in an int64 buffer; the interpreter gets its own)\n"
	"      --buffer NAME=TYPE:COUNT  a buffer no argument names (fp16:4096), for @NAME items;\n"
	"                            filled and checked as the arguments' are\n"
	"                            (default: the product of the *numel arguments)\n"
	"      --grid X[,Y[,Z]]      programs (default: cdiv(xnumel, XBLOCK), and y; for a split\n"
	"                            scan cdiv(r0_numel, R0_BLOCK),xnumel)\n"
	"      --check               compare every buffer with the tile-IR interpreter\n"
	"      --bench               time 20 launches and report GB/s\n"
	"      --run-width W         C only: simulate warps of W lanes (32 or 64) whatever\n"
	"                            the code was lowered for\n"
	"      --threads N           C only: worker threads (default: every core)\n"
	"      --timeout SECONDS     stop with an error when the kernel (or the interpreter for\n"
	"                            --check) has not finished in this time (default 60; 0: none)\n"
	"      --int-range N         integer inputs are drawn from [0, N) (default 16)\n"
	"      --save DIR            write each buffer to DIR/NAME.in and DIR/NAME.out\n"
	"  export FILE.py [options]  ahead-of-time kernels for C and C++ programs (docs/export.md)\n"
	"      -k NAME               the kernel (required)\n"
	"      (-s, -D, --num-warps, --num-stages as for compile)\n"
	"      --target T[,T...]     c[:wave64], cuda:sm_NN (several: cubins for each, PTX for newer),\n"
	"                            hip:gfxNNN (several: a code object for each)\n"
	"      --grid 'E[,E[,E]]'    programs, from the arguments and constexprs: cdiv(M, BLOCK_M), ...\n"
	"                            (default: Inductor's cdiv(xnumel, XBLOCK), ...)\n"
	"      -o DIR                NAME.h and the sources for each target (one subfolder a kind\n"
	"                            when several); exporting into DIR again adds a variant\n"
	"  --help                    this text\n"
	"  --version                 the version\n";

int cmd_export(int argc, char **argv);   /* export.c */

typedef struct Loaded {
	Arena arena;
	Source src;
	Diag diag;
	char *text;
	Driver driver;
} Loaded;

/* Writes an output file (never replacing a device, FIFO or the input);
 * false after saying why. */
static bool write_output(const char *path, const void *data, size_t len, const char *input)
{
	char why[300];
	if (file_write_safe(path, data, len, input, why, sizeof why) == 0)
		return true;
	fprintf(stderr, "tritonc: error: cannot write '%s': %s\n", path, why);
	return false;
}

/* Reads FILE and readies the driver for it; false after reporting why. */
static bool load(Loaded *l, const char *path)
{
	memset(l, 0, sizeof *l);
	l->diag.out = stderr;
	l->diag.prog = "tritonc";
	size_t len;
	l->text = file_read(path, &len);
	if (!l->text) {
		fprintf(stderr, "tritonc: error: cannot read '%s': %s\n", path, file_strerror(errno));
		return false;
	}
	l->src = (Source){.name = path, .text = l->text, .len = len};
	l->driver = (Driver){.arena = &l->arena, .diag = &l->diag, .src = &l->src};
	return true;
}

static void unload(Loaded *l)
{
	driver_free(&l->driver);
	free(l->text);
	buf_free(&l->diag.text);
	arena_free(&l->arena);
}

static int cmd_list(int argc, char **argv)
{
	if (argc != 1) {
		fputs("usage: tritonc list FILE.py\n", stderr);
		return 2;
	}
	Loaded l;
	int status = 1;
	if (load(&l, argv[0])) {
		l.driver.opt = (DriverOptions){.keep = 1u << STAGE_KERNELS, .last = STAGE_KERNELS};
		if (driver_compile(&l.driver)) {
			fputs(buf_str(&l.driver.text[STAGE_KERNELS]), stdout);
			status = 0;
		}
	}
	unload(&l);
	return status;
}

/* What compile and run are told on the command line. */
typedef struct Options {
	const char *file, *kernel, *out, *dump, *target_spec;
	const char *signature;    /* as given, hints included */
	const char **defines;
	int ndefines;
	int num_warps;            /* 0: not given */
	int num_stages;
	unsigned dumps;           /* --dump: 1u << STAGE_X */
	/* run */
	const char **args;        /* "NAME=VALUE" */
	int nargs;
	int grid[3];
	bool check;
	int bench;                /* timed launches; 0: none */
	int run_width;
	int threads;
	const char *threads_text; /* --threads as given, checked by check_run_args */
	const char *timeout_text; /* --timeout as given, checked by check_run_args */
	double timeout;           /* seconds a kernel may run; 0: no limit */
	const char *save;         /* a directory for every buffer, before and after */
	int64_t int_range;
	const char **buffers;     /* --buffer "NAME=TYPE:COUNT": buffers no argument names */
	int nbuffers;
} Options;

static bool parse_grid(const char *s, int grid[3])
{
	grid[0] = grid[1] = grid[2] = 1;
	for (int i = 0; i < 3; i++) {
		char *end;
		long v = strtol(s, &end, 10);
		if (end == s || v < 1 || v > 0x7fffffff)
			return false;
		grid[i] = (int)v;
		if (!*end)
			return true;
		if (*end != ',')
			return false;
		s = end + 1;
	}
	return false;
}

/* A kernel that never finishes (a loop whose condition stays true) must
 * not hang the tool: a minute is far more than any test or example takes. */
#define DEFAULT_TIMEOUT_S 60

/* --timeout's seconds: a number from 0 (no limit) to a year; false after
 * saying why. */
static bool parse_timeout(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || errno || !(v >= 0 && v <= 365 * 86400.0)) {
		fprintf(stderr, "tritonc: error: --timeout takes seconds from 0 (no limit) to 31536000, not '%s'\n", s);
		return false;
	}
	*out = v;
	return true;
}

/* The process ends at once when a kernel did not finish in time: its
 * threads (or the device) still run it, and nothing they use may be freed
 * or waited for. */
TC_NORETURN static void timed_out(const char *msg)
{
	fprintf(stderr, "tritonc: error: %s\n", msg);
	fflush(stdout);
	fflush(stderr);
	_exit(1);
}

/* Parses the options of compile (run: false) or run; false after saying why. */
static bool parse_options(int argc, char **argv, Options *o, bool run)
{
	memset(o, 0, sizeof *o);
	o->target_spec = run ? "c" : "cuda:sm_90";
	o->int_range = 16;
	o->timeout = DEFAULT_TIMEOUT_S;
	o->defines = base_calloc((size_t)argc + 1, sizeof *o->defines);
	o->args = base_calloc((size_t)argc + 1, sizeof *o->args);
	o->buffers = base_calloc((size_t)argc + 1, sizeof *o->buffers);
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		bool more = i + 1 < argc;
		if (!strcmp(a, "-k") && more)
			o->kernel = argv[++i];
		else if (!strcmp(a, "-s") && more)
			o->signature = argv[++i];
		else if (!strcmp(a, "-D") && more)
			o->defines[o->ndefines++] = argv[++i];
		else if (!strncmp(a, "-D", 2) && a[2])
			o->defines[o->ndefines++] = a + 2;
		else if (!strcmp(a, "--num-warps") && more) {
			o->num_warps = atoi(argv[++i]);
			if (o->num_warps < 1)   /* 0 would mean "not given" */
				o->num_warps = -1;
		}
		else if (!strcmp(a, "--num-stages") && more)
			o->num_stages = atoi(argv[++i]);
		else if (!strcmp(a, "--target") && more)
			o->target_spec = argv[++i];
		else if (!strcmp(a, "--dump") && more && !run)
			o->dump = argv[++i];
		else if (!strcmp(a, "-o") && more && !run)
			o->out = argv[++i];
		else if (!strcmp(a, "--arg") && more && run)
			o->args[o->nargs++] = argv[++i];
		else if (!strcmp(a, "--buffer") && more && run)
			o->buffers[o->nbuffers++] = argv[++i];
		else if (!strcmp(a, "--grid") && more && run) {
			if (!parse_grid(argv[++i], o->grid)) {
				fprintf(stderr, "tritonc: error: --grid takes X[,Y[,Z]] of positive integers, not '%s'\n", argv[i]);
				return false;
			}
		} else if (!strcmp(a, "--check") && run)
			o->check = true;
		else if (!strcmp(a, "--bench") && run)
			o->bench = 20;
		else if (!strcmp(a, "--run-width") && more && run)
			o->run_width = atoi(argv[++i]);
		else if (!strcmp(a, "--threads") && more && run)
			o->threads_text = argv[++i];
		else if (!strcmp(a, "--timeout") && more && run)
			o->timeout_text = argv[++i];
		else if (!strcmp(a, "--save") && more && run)
			o->save = argv[++i];
		else if (!strcmp(a, "--int-range") && more && run)
			o->int_range = atoll(argv[++i]);
		else if (a[0] != '-' && !o->file)
			o->file = a;
		else {
			fprintf(stderr, "tritonc: error: unknown or incomplete option '%s'\n", a);
			return false;
		}
	}
	if (!o->file) {
		fprintf(stderr, "tritonc: error: no input file (see tritonc --help)\n");
		return false;
	}
	if (o->num_warps && (o->num_warps < 1 || o->num_warps > 32 || !is_pow2(o->num_warps))) {
		fputs("tritonc: error: --num-warps must be a power of two from 1 to 32\n", stderr);
		return false;
	}
	if (o->num_stages < 0 || o->num_stages > 8) {
		fputs("tritonc: error: --num-stages must be from 1 to 8\n", stderr);
		return false;
	}
	if (o->run_width && o->run_width != 32 && o->run_width != 64) {
		fputs("tritonc: error: --run-width must be 32 or 64\n", stderr);
		return false;
	}
	char err[200];
	if (o->dump && !driver_parse_dump(o->dump, &o->dumps, err, sizeof err)) {
		fprintf(stderr, "tritonc: error: %s\n", err);
		return false;
	}
	return true;
}

static void free_options(Options *o)
{
	free(o->defines);
	free(o->args);
	free(o->buffers);
}

/* The driver's options for what the command line asked. */
static DriverOptions driver_options(const Options *o, const Target *target)
{
	DriverOptions d = {.kernel = o->kernel, .signature = o->signature, .defines = o->defines,
			   .ndefines = o->ndefines, .num_warps = o->num_warps, .num_stages = o->num_stages,
			   .target = *target, .keep = o->dumps ? o->dumps : 1u << STAGE_CODE};
	for (int s = 0; s < STAGE_COUNT; s++)
		if (d.keep & (1u << s))
			d.last = (Stage)s;
	return d;
}

static int cmd_compile(int argc, char **argv)
{
	Options o;
	Target target;
	char err[200];
	int status = 2;
	if (!parse_options(argc, argv, &o, false))
		goto done;
	if (!target_parse(o.target_spec, &target, err, sizeof err)) {
		fprintf(stderr, "tritonc: error: %s\n", err);
		goto done;
	}
	Loaded l;
	status = 1;
	if (load(&l, o.file)) {
		l.driver.opt = driver_options(&o, &target);
		l.driver.opt.drop_trees = true;   /* only the texts are read */
		if (driver_compile(&l.driver)) {
			Buf b = {0};
			driver_dump_text(&l.driver, l.driver.opt.keep, &b);
			if (!o.out) {
				fputs(buf_str(&b), stdout);
				status = 0;
			} else if (write_output(o.out, buf_str(&b), b.len, o.file)) {
				status = 0;
			}
			buf_free(&b);
		}
	}
	unload(&l);
done:
	free_options(&o);
	return status;
}

/* ---- run ---- */

/* The value of "--arg NAME=VALUE" for `name`, or NULL. */
static const char *arg_value(const Options *o, const char *name)
{
	size_t n = strlen(name);
	for (int i = 0; i < o->nargs; i++)
		if (!strncmp(o->args[i], name, n) && o->args[i][n] == '=')
			return o->args[i] + n + 1;
	return NULL;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);
	return n >= m && !strcmp(s + n - m, tail);
}

/* The value of constexpr `name` given with -D or chosen as a default, or 0. */
static int64_t define_value(const Driver *d, const char *name)
{
	size_t n = strlen(name);
	for (int i = 0; i < d->ndefines; i++)
		if (!strncmp(d->defines[i], name, n) && d->defines[i][n] == '=')
			return atoll(d->defines[i] + n + 1);
	return 0;
}

/* A whole decimal (or 0x) integer, or for a float a number; false for
 * anything else, trailing text or a value past 64 bits. */
static bool parse_value(const char *text, bool is_float, int64_t *i, double *f)
{
	char *end;
	errno = 0;
	if (is_float) {
		*f = strtod(text, &end);
		*i = (int64_t)0;
		return *text && !*end && errno != ERANGE;
	}
	long long v = strtoll(text, &end, 0);
	*i = v;
	*f = (double)v;
	return *text && !*end && errno != ERANGE;
}

/* ---- buffers given element by element, tables of addresses ----
 *
 * `--arg NAME=V1,V2,...` fills buffer NAME with those values (its element
 * count is theirs; one value: "V,"); an item "@BUF" is the address of
 * buffer BUF as the run has it (another argument's, or one made by
 * `--buffer BUF=TYPE:COUNT`, which no argument names), for tables of
 * pointers in int64 buffers (tutorial 08's grouped GEMM). */

static bool is_list(const char *v)
{
	return strchr(v, ',') || v[0] == '@';
}

/* The items of a list ("5," has one). */
static int list_len(const char *v)
{
	int n = 1;
	for (const char *p = v; *p; p++)
		n += *p == ',' && p[1];
	return n;
}

/* Item i of a list, copied into buf. */
static const char *list_item(const char *v, int i, char *buf, size_t cap)
{
	for (; i > 0 && v; i--)
		v = strchr(v, ',') ? strchr(v, ',') + 1 : NULL;
	size_t n = v ? strcspn(v, ",") : 0;
	if (n >= cap)
		n = cap - 1;
	memcpy(buf, v ? v : "", n);
	buf[n] = 0;
	return buf;
}

/* The buffer that "@NAME" names: a pointer argument's index, or the
 * argument count plus the --buffer's; -1 if none. */
static int buffer_named(const Options *o, const TKernel *tk, const char *name)
{
	for (int i = 0; i < tk->nargs; i++)
		if (tk->args[i]->type.dtype == DT_PTR && !strcmp(tk->args[i]->name, name))
			return i;
	size_t n = strlen(name);
	for (int j = 0; j < o->nbuffers; j++)
		if (!strncmp(o->buffers[j], name, n) && o->buffers[j][n] == '=')
			return tk->nargs + j;
	return -1;
}

/* A --buffer's type and element count; false when it is not NAME=TYPE:COUNT. */
static bool buffer_spec(const char *spec, DType *dt, long long *count)
{
	const char *eq = strchr(spec, '='), *colon = eq ? strchr(eq, ':') : NULL;
	if (!eq || eq == spec || !colon)
		return false;
	char type[32];
	size_t n = (size_t)(colon - eq - 1);
	if (n == 0 || n >= sizeof type)
		return false;
	memcpy(type, eq + 1, n);
	type[n] = 0;
	char *end;
	*count = strtoll(colon + 1, &end, 10);
	return dtype_parse(type, dt) && *dt != DT_PTR && colon[1] && !*end && *count >= 1;
}

/* Checks a --arg list for buffer `a`; false after saying what is wrong. */
static bool check_list(const Options *o, const TKernel *tk, const TValue *a, const char *v)
{
	char item[256];
	for (int k = 0; k < list_len(v); k++) {
		list_item(v, k, item, sizeof item);
		int64_t i;
		double f;
		if (item[0] == '@') {
			if (a->type.elem != DT_I64 && a->type.elem != DT_U64) {
				fprintf(stderr, "tritonc: error: --arg %s: addresses (%s) go in a buffer of int64, not of %s\n",
					a->name, item, dtype_name(a->type.elem));
				return false;
			}
			if (buffer_named(o, tk, item + 1) < 0) {
				fprintf(stderr, "tritonc: error: --arg %s: '%s' names no buffer (a pointer argument, or one "
						"given with --buffer %s=TYPE:COUNT)\n", a->name, item, item + 1);
				return false;
			}
		} else if (!parse_value(item, dtype_is_float(a->type.elem), &i, &f)) {
			fprintf(stderr, "tritonc: error: --arg %s: item %d, '%s', is not a number or @BUFFER\n", a->name,
				k + 1, item);
			return false;
		}
	}
	return true;
}

/* Every --buffer: NAME=TYPE:COUNT, the name no argument's nor another's. */
static bool check_buffers(const Options *o, const TKernel *tk)
{
	for (int j = 0; j < o->nbuffers; j++) {
		DType dt;
		long long count;
		const char *spec = o->buffers[j], *eq = strchr(spec, '=');
		if (!buffer_spec(spec, &dt, &count)) {
			fprintf(stderr, "tritonc: error: --buffer takes NAME=TYPE:COUNT (fp16:4096), not '%s'\n", spec);
			return false;
		}
		char name[256];
		snprintf(name, sizeof name, "%.*s", (int)(eq - spec), spec);
		for (int i = 0; i < tk->nargs; i++)
			if (!strcmp(tk->args[i]->name, name)) {
				fprintf(stderr, "tritonc: error: --buffer %s: the kernel has an argument of that name\n", name);
				return false;
			}
		if (buffer_named(o, tk, name) != tk->nargs + j) {
			fprintf(stderr, "tritonc: error: --buffer %s is given twice\n", name);
			return false;
		}
	}
	return true;
}

/* Element i of a buffer of dt set to a value given as text (checked). */
static void put_value(void *buf, DType dt, size_t i, const char *text)
{
	int64_t v;
	double f;
	(void)parse_value(text, dtype_is_float(dt), &v, &f);
	switch (dt) {
	case DT_F32: ((float *)buf)[i] = (float)f; break;
	case DT_F64: ((double *)buf)[i] = f; break;
	case DT_F16: ((uint16_t *)buf)[i] = dtype_fp16_from_float((float)f); break;
	case DT_BF16: ((uint16_t *)buf)[i] = dtype_bf16_from_float((float)f); break;
	case DT_I1: case DT_I8: case DT_U8: ((int8_t *)buf)[i] = (int8_t)v; break;
	case DT_I16: case DT_U16: ((int16_t *)buf)[i] = (int16_t)v; break;
	case DT_I32: case DT_U32: ((int32_t *)buf)[i] = (int32_t)v; break;
	case DT_I64: case DT_U64: ((int64_t *)buf)[i] = v; break;
	default: ((uint8_t *)buf)[i] = (uint8_t)v; break;   /* fp8: the code */
	}
}

/* --threads and every --arg: a count of at least 1, NAME=VALUE naming a
 * parameter of the kernel; false after saying what is wrong. */
static bool check_run_args(Options *o, const TKernel *tk)
{
	if (o->threads_text) {
		int64_t t;
		double f;
		if (!parse_value(o->threads_text, false, &t, &f) || t < 1 || t > 1024) {
			fprintf(stderr, "tritonc: error: --threads takes a count from 1 to 1024, not '%s'\n", o->threads_text);
			return false;
		}
		o->threads = (int)t;
	}
	if (o->timeout_text && !parse_timeout(o->timeout_text, &o->timeout))
		return false;
	for (int i = 0; i < o->nargs; i++) {
		const char *eq = strchr(o->args[i], '=');
		if (!eq || eq == o->args[i]) {
			fprintf(stderr, "tritonc: error: --arg takes NAME=VALUE, not '%s'\n", o->args[i]);
			return false;
		}
		size_t len = (size_t)(eq - o->args[i]);
		const TValue *a = NULL;
		for (int j = 0; j < tk->nargs && !a; j++)
			if (strlen(tk->args[j]->name) == len && !strncmp(tk->args[j]->name, o->args[i], len))
				a = tk->args[j];
		if (!a) {
			fprintf(stderr, "tritonc: error: --arg %.*s: kernel '%s' has no such argument (its arguments:", (int)len,
				o->args[i], tk->name);
			for (int j = 0; j < tk->nargs; j++)
				fprintf(stderr, " %s", tk->args[j]->name);
			fputs(")\n", stderr);
			return false;
		}
		if (a->type.dtype == DT_PTR && is_list(eq + 1)) {
			if (!check_list(o, tk, a, eq + 1))
				return false;
			continue;
		}
		int64_t v;
		double f;
		bool fl = a->type.dtype != DT_PTR && dtype_is_float(a->type.dtype);
		if (!parse_value(eq + 1, fl, &v, &f)) {
			fprintf(stderr, "tritonc: error: --arg %s: '%s' is not %s\n", a->name, eq + 1,
				a->type.dtype == DT_PTR ? "an element count" : fl ? "a number" : "an integer that fits in 64 bits");
			return false;
		}
		if (a->type.dtype == DT_PTR && v < 1) {
			fprintf(stderr, "tritonc: error: --arg %s: a buffer needs at least one element, not %s\n", a->name, eq + 1);
			return false;
		}
		int bits = a->type.dtype == DT_PTR || fl ? 64 : dtype_bytes(a->type.dtype) * 8;
		bool is_signed = a->type.dtype == DT_PTR || fl || dtype_is_signed(a->type.dtype);
		if (bits < 64 && a->type.dtype != DT_I1 &&
		    (is_signed ? v < -((int64_t)1 << (bits - 1)) || v >= ((int64_t)1 << (bits - 1)) : v < 0 || v >= ((int64_t)1 << bits))) {
			fprintf(stderr, "tritonc: error: --arg %s: %s does not fit in its type\n", a->name, eq + 1);
			return false;
		}
	}
	return check_buffers(o, tk);
}

/* The buffers (each held about four times: host, inputs, the run's guarded
 * copy, the interpreter's) fit in this machine's memory; false after
 * saying how much they need. */
static bool buffers_fit(const TKernel *tk, const RunArg *args)
{
	double need = 0;
	for (int i = 0; i < tk->nargs; i++)
		if (tk->args[i]->type.dtype == DT_PTR)
			need += 4.0 * (double)args[i].bytes;
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	double have = pages > 0 && size > 0 ? (double)pages * (double)size : 0;
	if (have > 0 && need > have) {
		fprintf(stderr, "tritonc: error: out of memory: the buffers need about %.3g GB (host, inputs, the run's copy "
				"and the interpreter's), more than this machine's %.3g GB; give smaller counts with --arg\n",
			need / 1e9, have / 1e9);
		return false;
	}
	return true;
}

/* Scalars from --arg; buffer sizes from --arg NAME=COUNT or, by default,
 * the product of the *numel scalars (Inductor's convention) and for a
 * split scan's workspace a slot for each program; the grid from --grid or
 * Inductor's grid type: cdiv(xnumel, XBLOCK) (and y), or for a
 * SplitScanGrid cdiv(r0_numel, R0_BLOCK) by xnumel. False after saying
 * what is missing. */
static bool bind_args(const Options *o, const Driver *dr, const Kernel *k, const TKernel *tk, RunArg *args,
		      size_t *counts, int grid[3])
{
	int64_t numel = 1;
	bool any_numel = false;
	for (int i = 0; i < tk->nargs; i++) {
		const TValue *a = tk->args[i];
		if (a->type.dtype == DT_PTR)
			continue;
		const char *v = arg_value(o, a->name);
		if (!v) {
			fprintf(stderr, "tritonc: error: give the value of '%s' with --arg %s=VALUE\n", a->name, a->name);
			return false;
		}
		(void)parse_value(v, dtype_is_float(a->type.dtype), &args[i].i, &args[i].f);   /* checked before */
		if (ends_with(a->name, "numel")) {
			numel *= args[i].i > 0 ? args[i].i : 1;
			any_numel = true;
		}
	}
	memcpy(grid, o->grid, sizeof o->grid);
	if (!grid[0]) {
		grid[0] = grid[1] = grid[2] = 1;
		static const char *const axes[][2] = {{"xnumel", "XBLOCK"}, {"ynumel", "YBLOCK"}};
		static const char *const split_scan[][2] = {{"r0_numel", "R0_BLOCK"}, {"xnumel", NULL}};
		bool split = inductor_split_scan_grid(k), found = false;
		for (int d = 0; d < 2; d++) {
			const char *n = arg_value(o, (split ? split_scan : axes)[d][0]);
			const char *b = (split ? split_scan : axes)[d][1];
			int64_t block = b ? define_value(dr, b) : 1;
			if (n && block > 0) {
				int64_t count = atoll(n), programs_d = count / block + (count % block != 0);
				if (programs_d > 0x7fffffff) {
					fprintf(stderr, "tritonc: error: the grid along axis %d, cdiv(%s, %s) = %lld, is more than "
							"2**31 - 1 programs\n", d, (split ? split_scan : axes)[d][0], b ? b : "1",
						(long long)programs_d);
					return false;
				}
				grid[d] = (int)(programs_d > 0 ? programs_d : 1);
				found = true;
			}
		}
		if (!found) {
			fputs("tritonc: error: give the grid with --grid X[,Y[,Z]]\n", stderr);
			return false;
		}
	}
	/* each axis is at most 2**31 - 1; the product of three may not fit */
	int64_t programs = 1;
	for (int d = 0; d < 3; d++) {
		if (grid[d] > 0 && programs > INT64_MAX / grid[d]) {
			fprintf(stderr, "tritonc: error: the grid %d x %d x %d has too many programs\n", grid[0], grid[1],
				grid[2]);
			return false;
		}
		programs *= grid[d];
	}
	for (int i = 0; i < tk->nargs; i++) {
		const TValue *a = tk->args[i];
		if (a->type.dtype != DT_PTR)
			continue;
		const char *v = arg_value(o, a->name);
		int esize = dtype_bytes(a->type.elem);
		long long n = v ? (is_list(v) ? list_len(v) : atoll(v)) : any_numel ? numel : 0;
		if (!v && inductor_workspace(k, a->name))
			n = (programs * INDUCTOR_WORKSPACE_BYTES_PER_PROGRAM + esize - 1) / esize;
		if (n <= 0) {
			fprintf(stderr, "tritonc: error: give the element count of '%s' with --arg %s=COUNT\n", a->name,
				a->name);
			return false;
		}
		if ((unsigned long long)n > SIZE_MAX / 4 / (unsigned long long)esize) {
			fprintf(stderr, "tritonc: error: out of memory: buffer '%s' of %lld elements is too large\n", a->name, n);
			return false;
		}
		counts[i] = (size_t)n;
		args[i].bytes = counts[i] * (size_t)esize;
	}
	return buffers_fit(tk, args);
}

static double now_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Runs the interpreter on copies of the inputs and compares every buffer
 * (a split scan's workspace excepted: its partial sums are rounded in the
 * order each side adds). Large grids: a sample of programs, and only the
 * elements they changed; for a split scan, whose programs wait for those
 * before them along axis 0, whole rows of programs. */
static bool check_against_interpreter(const Kernel *k, TKernel *tk, RunArg *args, void **inputs,
				      const size_t *counts, const int grid[3], const RunOptions *ro)
{
	int n = tk->nargs;
	TArgValue *targs = base_calloc((size_t)n + 1, sizeof *targs);
	void **ref = base_calloc((size_t)(n + ro->nextra) + 1, sizeof *ref);
	for (int j = 0; j < ro->nextra; j++) {   /* the --buffer ones, guarded likewise */
		char gerr[256];
		if (!(ref[n + j] = cpu_buffer_alloc(args[n + j].bytes, args[n + j].esize, args[n + j].name, gerr, sizeof gerr))) {
			fprintf(stderr, "tritonc: error: %s\n", gerr);
			exit(1);
		}
		memcpy(ref[n + j], inputs[n + j], args[n + j].bytes);
	}
	for (int i = 0; i < n; i++) {
		if (tk->args[i]->type.dtype == DT_PTR) {
			/* guarded as the run's buffers are: a read before the start
			 * that the run did not catch stays in mapped bytes, never
			 * this process's heap */
			char gerr[256];
			ref[i] = cpu_buffer_alloc(args[i].bytes, (size_t)dtype_bytes(tk->args[i]->type.elem),
						  tk->args[i]->name, gerr, sizeof gerr);
			if (!ref[i]) {
				fprintf(stderr, "tritonc: error: %s\n", gerr);
				exit(1);
			}
			memcpy(ref[i], inputs[i], args[i].bytes);
			targs[i].ptr = ref[i];
		} else {
			targs[i].i = args[i].i;
			targs[i].f = args[i].f;
		}
	}
	run_apply_fixups(ro->fixups, ro->nfixups, ref, ref);   /* the tables of addresses: the interpreter's copies */
	int64_t programs = (int64_t)grid[0] * grid[1] * grid[2];
	bool sampled = programs > 2048;
	char err[256] = "";
	int rc = 0;
	double start = now_seconds(), limit = ro->timeout_s;
	if (!sampled)
		rc = tir_interpret_timed(tk, targs, grid, 0, programs, limit, err, sizeof err);
	for (int s = 0; sampled && rc == 0 && s < 64; s++) {
		int64_t first = s < 32 ? s : programs - 64 + s;   /* the first 32 and the last 32 */
		/* the time limit is for all the samples together */
		double left = limit > 0 ? fmax(limit - (now_seconds() - start), 1e-3) : 0;
		if (s == 32 && inductor_split_scan_grid(k)) {    /* from the start of a row */
			int64_t row = (programs - 32) / grid[0] * grid[0];
			rc = tir_interpret_timed(tk, targs, grid, row, programs - row, left, err, sizeof err);
			break;
		}
		rc = tir_interpret_timed(tk, targs, grid, first, 1, left, err, sizeof err);
	}
	bool ok = rc == 0;
	if (rc == TIR_TIMED_OUT) {
		snprintf(err, sizeof err, "kernel '%s' did not finish within %g s in the interpreter (for --check)",
			 tk->name, limit);
		timed_out(err);
	}
	if (rc)
		fprintf(stderr, "tritonc: error: the interpreter failed: %s\n", err);
	run_apply_fixups(ro->fixups, ro->nfixups, ref, NULL);
	for (int i = 0; ok && i < n + ro->nextra; i++) {
		const TValue *a = i < n ? tk->args[i] : NULL;
		if (a && a->type.dtype != DT_PTR)
			continue;
		const char *name = a ? a->name : args[i].name;
		if (a && inductor_workspace(k, a->name)) {
			printf("check %s: the split scan's workspace, not compared\n", a->name);
			continue;
		}
		DType dt = a ? a->type.elem : (DType)args[i].i;   /* an extra buffer's dtype is kept in .i */
		size_t esize = (size_t)dtype_bytes(dt), compared = 0, bad = 0, first_bad = 0;
		double worst = 0, sum_sq = 0;
		/* the elements to compare: those the interpreter wrote when sampled, else all */
		bool *take = base_calloc(counts[i] + 1, sizeof *take);
		for (size_t e = 0; e < counts[i]; e++) {
			size_t off = e * esize;
			take[e] = !sampled || memcmp((char *)ref[i] + off, (char *)inputs[i] + off, esize);
			double w = run_element(ref[i], dt, e);
			if (take[e] && isfinite(w))
				sum_sq += w * w;
			compared += take[e];
		}
		/* errors relative to max(|want|, rms of what is compared), as run_compare does */
		double rms = compared ? sqrt(sum_sq / (double)compared) : 0, tol = run_tolerance(dt);
		for (size_t e = 0; e < counts[i]; e++) {
			if (!take[e])
				continue;
			double g = run_element(args[i].host, dt, e), w = run_element(ref[i], dt, e);
			double err1 = run_element_error(g, w, rms);
			if (err1 > tol && !bad++)
				first_bad = e;
			worst = err1 > worst ? err1 : worst;
		}
		free(take);
		printf("check %s: %zu elements compared with the interpreter%s, max error %.3g (tolerance %g): %s\n",
		       name, compared, sampled ? " (a sample of the programs)" : "", worst, run_tolerance(dt), bad ? "FAIL" : "ok");
		if (bad) {
			printf("  first wrong element: %zu\n", first_bad);
			ok = false;
		}
	}
	for (int i = 0; i < n + ro->nextra; i++)
		cpu_buffer_free(ref[i]);
	free(ref);
	free(targs);
	return ok;
}

/* DIR/NAME.in and DIR/NAME.out: each buffer's raw bytes before and after the run. */
static bool save_buffers(const char *dir, const TKernel *tk, const RunArg *args, void **inputs)
{
	for (int i = 0; i < tk->nargs; i++) {
		if (tk->args[i]->type.dtype != DT_PTR)
			continue;
		for (int after = 0; after < 2; after++) {
			char path[4096];
			snprintf(path, sizeof path, "%s/%s.%s", dir, tk->args[i]->name, after ? "out" : "in");
			const void *data = after ? args[i].host : inputs[i];
			if (!write_output(path, data, args[i].bytes, NULL))
				return false;
		}
	}
	return true;
}

/* What a run binds to the kernel's arguments, made once it is specialized. */
typedef struct Run {
	Options *o;              /* check_run_args sets --threads */
	const Driver *driver;
	int n, grid[3];
	RunArg *args;            /* the arguments', then the --buffer ones (nextra) */
	size_t *counts;
	void **inputs;           /* each buffer before the run */
	int nextra;
	RunFixup *fixups;        /* the @BUF items of --arg lists */
	int nfixups;
} Run;

/* The --buffer ones (after the arguments in r->args, their dtype in .i),
 * filled as an argument of their number would be, and the --arg lists'
 * values and tables of addresses (0 outside the run, r->fixups). */
static bool bind_extra(Run *r, const TKernel *tk)
{
	int n = tk->nargs;
	r->nextra = r->o->nbuffers;
	for (int j = 0; j < r->nextra; j++) {
		RunArg *e = &r->args[n + j];
		DType dt;
		long long count;
		(void)buffer_spec(r->o->buffers[j], &dt, &count);   /* checked before */
		const char *eq = strchr(r->o->buffers[j], '=');
		e->name = arena_printf(tk->arena, "%.*s", (int)(eq - r->o->buffers[j]), r->o->buffers[j]);
		e->esize = (size_t)dtype_bytes(dt);
		e->i = dt;
		if ((unsigned long long)count > SIZE_MAX / 4 / e->esize) {
			fprintf(stderr, "tritonc: error: out of memory: buffer '%s' of %lld elements is too large\n", e->name, count);
			return false;
		}
		r->counts[n + j] = (size_t)count;
		e->bytes = (size_t)count * e->esize;
		e->host = malloc(e->bytes);
		r->inputs[n + j] = malloc(e->bytes);
		if (!e->host || !r->inputs[n + j]) {
			fprintf(stderr, "tritonc: error: out of memory: cannot allocate %zu bytes for buffer '%s'\n", e->bytes, e->name);
			return false;
		}
		run_fill(r->inputs[n + j], dt, r->counts[n + j], n + j, r->o->int_range);
		memcpy(e->host, r->inputs[n + j], e->bytes);
	}
	return true;
}

/* The values of the --arg lists in the inputs, their @BUF items noted. */
static void fill_lists(Run *r, const TKernel *tk)
{
	char item[256];
	for (int i = 0; i < tk->nargs; i++) {
		const TValue *a = tk->args[i];
		const char *v = a->type.dtype == DT_PTR ? arg_value(r->o, a->name) : NULL;
		if (!v || !is_list(v))
			continue;
		for (int e = 0; e < list_len(v); e++) {
			list_item(v, e, item, sizeof item);
			if (item[0] != '@') {
				put_value(r->inputs[i], a->type.elem, (size_t)e, item);
				continue;
			}
			((int64_t *)r->inputs[i])[e] = 0;
			r->fixups = realloc(r->fixups, sizeof *r->fixups * (size_t)(r->nfixups + 1));
			if (!r->fixups) {
				fputs("tritonc: error: out of memory\n", stderr);
				exit(1);
			}
			r->fixups[r->nfixups++] = (RunFixup){.table = i, .elem = (size_t)e, .target = buffer_named(r->o, tk, item + 1)};
		}
		memcpy(r->args[i].host, r->inputs[i], r->args[i].bytes);
	}
}

/* The driver's bind step for a run: the arguments' values and buffers,
 * filled with generated inputs; what divides each argument from its value,
 * as Triton specializes integers divisible by 16 (the buffers are 16-byte
 * aligned). */
static bool run_bind(void *ctx, const Kernel *k, const TKernel *tk, int64_t *div)
{
	Run *r = ctx;
	int n = r->n = tk->nargs, all = n + r->o->nbuffers;
	r->args = base_calloc((size_t)all + 1, sizeof *r->args);
	r->counts = base_calloc((size_t)all + 1, sizeof *r->counts);
	r->inputs = base_calloc((size_t)all + 1, sizeof *r->inputs);
	if (!check_run_args(r->o, tk) || !bind_args(r->o, r->driver, k, tk, r->args, r->counts, r->grid))
		return false;
	if (!bind_extra(r, tk))
		return false;
	for (int i = 0; i < n; i++) {
		const TValue *a = tk->args[i];
		div[i] = a->type.dtype == DT_PTR ? 16 : r->args[i].i % 16 == 0 ? 16 : 1;
		if (a->type.dtype != DT_PTR)
			continue;
		r->args[i].host = malloc(r->args[i].bytes);
		r->inputs[i] = calloc(r->args[i].bytes, 1);
		if (!r->args[i].host || !r->inputs[i]) {
			fprintf(stderr, "tritonc: error: out of memory: cannot allocate %zu bytes for buffer '%s'\n",
				r->args[i].bytes, a->name);
			return false;
		}
		if (!inductor_workspace(k, a->name))   /* a workspace starts zeroed, as the module's call() has it */
			run_fill(r->inputs[i], a->type.elem, r->counts[i], i, r->o->int_range);
		memcpy(r->args[i].host, r->inputs[i], r->args[i].bytes);
	}
	fill_lists(r, tk);
	return true;
}

static int cmd_run(int argc, char **argv)
{
	Options o;
	Target target;
	char err[4096];
	int status = 2;
	CudaRuntime *rt = NULL;   /* opened once: for the architecture, then the run */
	Run r = {.o = &o};
	if (!parse_options(argc, argv, &o, true))
		goto done;
	char device_spec[48];
	if (!strcmp(o.target_spec, "cuda")) {   /* the device's own architecture, wgmma on sm_90 */
		rt = cuda_open(err, sizeof err);
		if (rt) {
			const char *arch = cuda_arch(rt);
			snprintf(device_spec, sizeof device_spec, "cuda:%s%s", arch, strcmp(arch, "sm_90") ? "" : "a");
			o.target_spec = device_spec;
		}
	}
	if (!target_parse(o.target_spec, &target, err, sizeof err)) {
		fprintf(stderr, "tritonc: error: %s\n", err);
		goto done;
	}
	if (target.kind == TARGET_HIP || target.kind == TARGET_INTERP) {
		fprintf(stderr, "tritonc: error: run takes --target c[:wave32|wave64] or cuda[:sm_NN]; the HIP lowering "
				"runs on the CPU as --target c:wave64 (or c:wave32 for RDNA)\n");
		goto done;
	}
	/* On the CPU every access is checked against its buffer (named with
	 * its line when outside); --bench times the code as compiled, with the
	 * guard pages alone. */
	target.checked = target.kind == TARGET_C && !o.bench;
	Loaded l;
	status = 1;
	if (!load(&l, o.file))
		goto unload;
	Driver *d = &l.driver;
	d->opt = driver_options(&o, &target);
	d->opt.bind = run_bind;
	d->opt.ctx = &r;
	r.driver = d;
	if (!driver_compile(d))
		goto unload;
	const Kernel *k = d->kernel;
	TKernel *tk = d->tir;
	SKernel *sk = d->simt;
	int n = r.n, *grid = r.grid;
	RunArg *args = r.args;
	RunOptions ro = {
		.device = target.kind == TARGET_CUDA ? DEVICE_CUDA : DEVICE_CPU,
		.cpu_threads = o.threads,
		.run_width = o.run_width,
		.bench_reps = o.bench,
		.bench_warmup = o.bench ? 5 : 0,
		.cuda = rt,
		.extra = r.args ? r.args + n : NULL,
		.nextra = r.nextra,
		.fixups = r.fixups,
		.nfixups = r.nfixups,
		.timeout_s = o.timeout,
	};
	memcpy(ro.grid, grid, sizeof ro.grid);
	RunResult res;
	int rc = run_kernel(sk, buf_str(&d->text[STAGE_CODE]), args, &ro, &res, err, sizeof err);
	if (rc == RUN_TIMED_OUT)
		timed_out(err);
	if (rc != 0) {
		fprintf(stderr, "tritonc: error: %s\n", err);
	} else {
		printf("ran %s on %s: grid %d,%d,%d, %d threads a block%s\n", sk->name, target.spec, grid[0], grid[1],
		       grid[2], sk->threads, res.from_cache ? " (cached)" : "");
		status = 0;
		if (o.check && !check_against_interpreter(k, tk, args, r.inputs, r.counts, grid, &ro))
			status = 1;
		if (o.save && !save_buffers(o.save, tk, args, r.inputs))
			status = 1;
		if (o.bench) {
			double bytes = 0;
			for (int i = 0; i < n; i++)
				bytes += (double)args[i].bytes;
			printf("bench: median %.4f ms, min %.4f ms over %d launches; %.1f GB/s counting every buffer once "
			       "(%.1f MB)\n",
			       res.ms_median, res.ms_min, o.bench, bytes / (res.ms_median * 1e-3) / 1e9, bytes / 1e6);
		}
	}
unload:
	unload(&l);
done:
	for (int i = 0; i < r.n + r.nextra; i++) {
		free(r.args[i].host);
		free(r.inputs[i]);
	}
	free(r.fixups);
	free(r.args);
	free(r.counts);
	free(r.inputs);
	if (rt)
		cuda_close(rt);
	free_options(&o);
	return status;
}

static int tritonc_main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		puts("tritonc 0.1");
		return 0;
	}
	if (!strcmp(argv[1], "list"))
		return cmd_list(argc - 2, argv + 2);
	if (!strcmp(argv[1], "compile"))
		return cmd_compile(argc - 2, argv + 2);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2);
	if (!strcmp(argv[1], "export"))
		return cmd_export(argc - 2, argv + 2);
	fprintf(stderr, "tritonc: error: unknown command '%s' (try 'tritonc --help')\n", argv[1]);
	return 2;
}

typedef struct MainArgs {
	int argc;
	char **argv;
} MainArgs;

static int main_on_stack(void *p)
{
	MainArgs *m = p;
	return tritonc_main(m->argc, m->argv);
}

/* The work runs on a big stack: deep expressions never overflow it. */
int main(int argc, char **argv)
{
	MainArgs m = {argc, argv};
	return base_run_on_big_stack(main_on_stack, &m);
}
