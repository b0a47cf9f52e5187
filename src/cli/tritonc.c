/* tritonc: the command-line driver. Each subcommand is one function that
 * calls the pipeline's stages in order. */
#include "base/base.h"

#include <string.h>

static const char usage[] =
	"usage: tritonc COMMAND [options]\n"
	"\n"
	"Compiles kernels written in the Triton language (@triton.jit functions and\n"
	"TorchInductor output modules) to CUDA C, HIP C and C.\n"
	"\n"
	"commands:\n"
	"  list FILE.py        the kernels in FILE, their signatures and configs\n"
	"  --help              this text\n"
	"  --version           the version\n";

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
	fprintf(stderr, "tritonc: error: unknown command '%s' (try 'tritonc --help')\n", argv[1]);
	return 2;
}
