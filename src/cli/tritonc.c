/* tritonc: the command-line driver. Each subcommand is one function that
 * calls the pipeline's stages in order. */
#include "base/base.h"
#include "gpu/target.h"
#include "ir/specialize.h"
#include "triton/triton.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: tritonc COMMAND [options]\n"
	"\n"
	"Compiles kernels written in the Triton language (@triton.jit functions and\n"
	"TorchInductor output modules).\n"
	"\n"
	"commands:\n"
	"  list FILE.py              the kernels in FILE, their parameters, signatures and configs\n"
	"  compile FILE.py [options] specialize a kernel and print or write the result\n"
	"      -k NAME               the kernel (default: the only one in FILE)\n"
	"      -s SIG                types of the non-constexpr parameters: '*fp32,*fp32,i32'\n"
	"                            (Inductor kernels carry their own)\n"
	"      -D NAME=VALUE         a constexpr value (repeatable)\n"
	"      --num-warps N         warps per program (default 4)\n"
	"      --target T            interp (cuda:sm_NN, hip:gfxNNN and c are not implemented yet)\n"
	"      --dump tir            print the tile IR\n"
	"      -o FILE               write the output to FILE instead of standard output\n"
	"  --help                    this text\n"
	"  --version                 the version\n";

typedef struct Loaded {
	Arena arena;
	Source src;
	Diag diag;
	KernelList kernels;
	char *text;
} Loaded;

/* Reads FILE and finds its kernels; false after reporting why. */
static bool load(Loaded *l, const char *path)
{
	memset(l, 0, sizeof *l);
	l->diag.out = stderr;
	size_t len;
	l->text = file_read(path, &len);
	if (!l->text) {
		fprintf(stderr, "tritonc: error: cannot read '%s': %s\n", path, strerror(errno));
		return false;
	}
	l->src = (Source){.name = path, .text = l->text, .len = len};
	return discover_kernels(&l->arena, &l->diag, &l->src, &l->kernels) >= 0;
}

static void unload(Loaded *l)
{
	free(l->text);
	buf_free(&l->diag.text);
	arena_free(&l->arena);
}

static void print_dict(const Node *dict)
{
	for (int i = 0; dict && i < dict->items.len; i++) {
		const Node *k = dict->items.items[i], *v = dict->values.items[i];
		if (k && k->kind == ND_STR)
			printf("%s%s=", i ? ", " : "", k->str);
		if (v->kind == ND_INT)
			printf("%lld", (long long)v->ival);
		else if (v->kind == ND_STR)
			printf("%s", v->str);
		else
			printf("...");
	}
}

static int cmd_list(int argc, char **argv)
{
	if (argc != 1) {
		fputs("usage: tritonc list FILE.py\n", stderr);
		return 2;
	}
	Loaded l;
	if (!load(&l, argv[0])) {
		unload(&l);
		return 1;
	}
	for (int i = 0; i < l.kernels.len; i++) {
		const Kernel *k = l.kernels.items[i];
		int line, col;
		source_linecol(k->src, k->func->offset, &line, &col);
		printf("%s  (%s:%d, %s)\n", k->name, argv[0], line, discover_decor_name(k->decor));
		for (int p = 0; p < k->func->params.len; p++) {
			const Node *param = k->func->params.items[p];
			const char *ty = discover_sig_type(k, param->name);
			bool cx = param->lhs && param->lhs->kind == ND_ATTR && !strcmp(param->lhs->name, "constexpr");
			printf("    %-12s %s\n", param->name, ty ? ty : cx ? "constexpr" : "?");
		}
		if (k->size_hints) {
			printf("    size_hints: ");
			print_dict(k->size_hints);
			putchar('\n');
		}
	}
	if (l.kernels.len == 0)
		printf("no kernels in %s\n", argv[0]);
	unload(&l);
	return 0;
}

static const Kernel *pick_kernel(Loaded *l, const char *name)
{
	for (int i = 0; i < l->kernels.len; i++)
		if (!name || !strcmp(l->kernels.items[i]->name, name))
			if (name || l->kernels.len == 1)
				return l->kernels.items[i];
	if (name)
		fprintf(stderr, "tritonc: error: no kernel '%s' in %s\n", name, l->src.name);
	else
		fprintf(stderr, "tritonc: error: %s has %d kernels; choose one with -k\n", l->src.name, l->kernels.len);
	return NULL;
}

static int cmd_compile(int argc, char **argv)
{
	const char *file = NULL, *kname = NULL, *out = NULL, *dump = NULL, *target_spec = "interp";
	SpecOptions opt = {.num_warps = 4};
	const char **defines = xcalloc((size_t)argc + 1, sizeof *defines);
	opt.defines = defines;
	int status = 2;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		bool more = i + 1 < argc;
		if (!strcmp(a, "-k") && more)
			kname = argv[++i];
		else if (!strcmp(a, "-s") && more)
			opt.signature = argv[++i];
		else if (!strcmp(a, "-D") && more)
			defines[opt.ndefines++] = argv[++i];
		else if (!strncmp(a, "-D", 2) && a[2])
			defines[opt.ndefines++] = a + 2;
		else if (!strcmp(a, "--num-warps") && more)
			opt.num_warps = atoi(argv[++i]);
		else if (!strcmp(a, "--target") && more)
			target_spec = argv[++i];
		else if (!strcmp(a, "--dump") && more)
			dump = argv[++i];
		else if (!strcmp(a, "-o") && more)
			out = argv[++i];
		else if (a[0] != '-' && !file)
			file = a;
		else {
			fprintf(stderr, "tritonc: error: unknown or incomplete option '%s'\n", a);
			goto done;
		}
	}
	if (!file) {
		fputs("usage: tritonc compile FILE.py [-k NAME] [-s SIG] [-D NAME=VALUE] [--dump tir] [-o FILE]\n", stderr);
		goto done;
	}
	if (opt.num_warps < 1 || opt.num_warps > 32 || !is_pow2(opt.num_warps)) {
		fputs("tritonc: error: --num-warps must be a power of two from 1 to 32\n", stderr);
		goto done;
	}
	Target target;
	char err[200];
	if (!target_parse(target_spec, &target, err, sizeof err)) {
		fprintf(stderr, "tritonc: error: %s\n", err);
		goto done;
	}
	if (target.kind != TARGET_INTERP) {
		fprintf(stderr, "tritonc: error: code generation for '%s' is not implemented yet\n", target_spec);
		goto done;
	}
	if (dump && strcmp(dump, "tir")) {
		fprintf(stderr, "tritonc: error: unknown --dump stage '%s' (expected tir)\n", dump);
		goto done;
	}
	Loaded l;
	status = 1;
	if (load(&l, file)) {
		const Kernel *k = pick_kernel(&l, kname);
		TKernel *tk = k ? specialize(&l.arena, &l.diag, k, &opt) : NULL;
		if (tk) {
			Buf b = {0};
			tir_dump(&b, tk);
			if (!out) {
				fputs(buf_str(&b), stdout);
				status = 0;
			} else if (file_write_atomic(out, buf_str(&b), b.len) == 0) {
				status = 0;
			} else {
				fprintf(stderr, "tritonc: error: cannot write '%s': %s\n", out, strerror(errno));
			}
			buf_free(&b);
		}
	}
	unload(&l);
done:
	free(defines);
	return status;
}

int main(int argc, char **argv)
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
	fprintf(stderr, "tritonc: error: unknown command '%s' (try 'tritonc --help')\n", argv[1]);
	return 2;
}
