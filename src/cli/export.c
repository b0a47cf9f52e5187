/* export.c: `tritonc export`, parsed here and done by src/export. */
#include "base/base.h"
#include "export/export.h"

#include <stdlib.h>
#include <string.h>

int cmd_export(int argc, char **argv);

static bool int_option(const char *text, int lo, int hi, int *out)
{
	char *end;
	long v = strtol(text, &end, 10);
	if (end == text || *end || v < lo || v > hi)
		return false;
	*out = (int)v;
	return true;
}

int cmd_export(int argc, char **argv)
{
	ExportRequest r = {0};
	const char **defines = base_calloc((size_t)argc + 1, sizeof *defines);
	int status = 2;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		bool more = i + 1 < argc;
		if (!strcmp(a, "-k") && more)
			r.kernel = argv[++i];
		else if (!strcmp(a, "-s") && more)
			r.signature = argv[++i];
		else if (!strcmp(a, "-D") && more)
			defines[r.ndefines++] = argv[++i];
		else if (!strncmp(a, "-D", 2) && a[2])
			defines[r.ndefines++] = a + 2;
		else if (!strcmp(a, "--num-warps") && more) {
			if (!int_option(argv[++i], 1, 32, &r.num_warps) || !is_pow2(r.num_warps)) {
				fputs("tritonc: error: --num-warps must be a power of two from 1 to 32\n", stderr);
				goto done;
			}
		} else if (!strcmp(a, "--num-stages") && more) {
			if (!int_option(argv[++i], 1, 8, &r.num_stages)) {
				fputs("tritonc: error: --num-stages must be from 1 to 8\n", stderr);
				goto done;
			}
		} else if (!strcmp(a, "--target") && more)
			r.targets = argv[++i];
		else if (!strcmp(a, "--grid") && more)
			r.grid = argv[++i];
		else if (!strcmp(a, "-o") && more)
			r.out_dir = argv[++i];
		else if (a[0] != '-' && !r.file)
			r.file = a;
		else {
			fprintf(stderr, "tritonc: error: unknown or incomplete option '%s'\n", a);
			goto done;
		}
	}
	if (!r.file) {
		fputs("tritonc: error: no input file (see tritonc --help)\n", stderr);
		goto done;
	}
	r.defines = defines;
	status = export_run(&r, stderr);
done:
	free(defines);
	return status;
}
