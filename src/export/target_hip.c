/* target_hip.c: the hip target: NAME.h; NAME.c, plain C over the HIP
 * runtime with each variant embedded as a code object for each named gfx
 * architecture (made now by hipcc --genco) or, where no hipcc is found, as
 * HIP source that hiprtc compiles on the device at first use; NAME.hip,
 * the first target's kernels as readable HIP C with a launcher over the
 * HIP runtime, for projects that build with hipcc.
 *
 * The block of each architecture is its own warp width times the warps:
 * 64 lanes on gfx9 (CDNA), 32 on gfx10 and later (RDNA). */
#include "export/internal.h"

#include "gpu/simt.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char rt_hip[] =
#include "export/rt_hip.inc"
	;

/* hipcc: $TRITONC_HIPCC ("none": use hiprtc at run time), else the first on $PATH. NULL: none. */
static const char *find_hipcc(void)
{
	const char *env = getenv("TRITONC_HIPCC");
	if (env && env[0])
		return strcmp(env, "none") ? env : NULL;
	const char *path = getenv("PATH");
	static char found[4096];
	for (const char *p = path; p && *p;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		snprintf(found, sizeof found, "%.*s/hipcc", (int)n, p);
		if (n && access(found, X_OK) == 0)
			return found;
		p = colon ? colon + 1 : NULL;
	}
	return NULL;
}

/* Runs argv (no shell) with its output in `log`; its exit status, or -1. */
static int run(char *const argv[], const char *log)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return -1;
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A code object of `source` for `arch`, through hipcc --genco; malloc'd or NULL after saying why. */
static unsigned char *genco(const char *hipcc, const char *source, const char *arch, size_t *len, FILE *errors)
{
	char dir[] = "/tmp/tritonc-export-XXXXXX";
	if (!mkdtemp(dir)) {
		fprintf(errors, "tritonc: error: cannot make a temporary folder: %s\n", strerror(errno));
		return NULL;
	}
	char src[300], out[300], log[300], offload[64];
	snprintf(src, sizeof src, "%s/kernel.hip", dir);
	snprintf(out, sizeof out, "%s/kernel.hsaco", dir);
	snprintf(log, sizeof log, "%s/log", dir);
	snprintf(offload, sizeof offload, "--offload-arch=%s", arch);
	unsigned char *code = NULL;
	if (file_write_atomic(src, source, strlen(source)) == 0) {
		char *argv[] = {(char *)hipcc, "--genco", offload, "-O3", "-x", "hip", src, "-o", out, NULL};
		int rc = run(argv, log);
		code = rc == 0 ? (unsigned char *)file_read(out, len) : NULL;
		if (!code) {
			size_t n;
			char *text = file_read(log, &n);
			fprintf(errors, "tritonc: error: %s --genco for %s failed (%s):\n%s", hipcc, arch,
				rc < 0 ? "could not run it" : "see its messages", text ? text : "");
			free(text);
		}
	}
	unlink(src);
	unlink(out);
	unlink(log);
	rmdir(dir);
	return code;
}

static bool write_c(Buf *c, const ExKernel *k, const int *ts, int nts, FILE *errors)
{
	const char *hipcc = find_hipcc();
	buf_printf(c, "/* %s.c: the kernel %s for AMD GPUs (%d variant%s; %s for", k->name, k->name, k->nv,
		   k->nv > 1 ? "s" : "", hipcc ? "code objects" : "HIP source for hiprtc");
	for (int j = 0; j < nts; j++)
		buf_printf(c, " %s", k->targets[ts[j]].arch);
	buf_printf(c, "), exported by tritonc.\n * Plain C over the HIP runtime, opened with dlopen: cc -std=c11 -O2 -c %s.c, "
		      "and link\n * with -pthread -ldl (or build with -DTRITONC_HIP_LINKED and link -lamdhip64%s). */\n",
		   k->name, hipcc ? "" : " -lhiprtc");
	buf_puts(c, "#ifndef _POSIX_C_SOURCE\n#define _POSIX_C_SOURCE 200809L\n#endif\n");
	buf_printf(c, "#include \"%s.h\"\n\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n", k->name);
	buf_puts(c, rt_hip);
	buf_puts(c, "\n#if defined(__GNUC__) || defined(__clang__)\n#define TCX_ALIGNED __attribute__((aligned(64)))\n"
		    "#else\n#define TCX_ALIGNED\n#endif\n\n");
	for (int i = 0; i < k->nv; i++) {
		const ExVariant *v = &k->v[i];
		buf_printf(c, "/* ==== variant %d: %s ==== */\n", i, v->describe);
		Buf images = {0};
		for (int j = 0; j < nts; j++) {
			const ExCode *code = &v->code[ts[j]];
			const char *arch = code->target.arch;
			size_t len = strlen(code->source);
			unsigned char *bin = hipcc ? genco(hipcc, code->source, arch, &len, errors) : NULL;
			if (hipcc && !bin) {
				buf_free(&images);
				return false;
			}
			buf_printf(c, "static const unsigned char TCX_ALIGNED %s_%s[%zu] = {\n", v->fn, arch, len + 1);
			if (bin) {
				export_write_bytes(c, bin, len);
				buf_puts(c, "\t0\n");
			} else {
				export_write_bytes(c, (const unsigned char *)code->source, len + 1);
			}
			buf_puts(c, "};\n");
			free(bin);
			buf_printf(&images, "\t{\"%s\", %d, %s_%s, %d, %d},\n", arch, !hipcc, v->fn, arch, code->threads,
				   code->dynamic_bytes);
		}
		buf_printf(c, "static const tcx_image %s_images[%d] = {\n%s};\n\n", v->fn, nts, buf_str(&images));
		buf_free(&images);
	}
	buf_printf(c, "static const tcx_variant %s__variants[%d] = {\n", k->name, k->nv);
	for (int i = 0; i < k->nv; i++)
		buf_printf(c, "\t{\"%s\", %s_images, %d},\n", k->v[i].fn, k->v[i].fn, nts);
	buf_printf(c, "};\nstatic tcx_kernel %s__kernel = {%s__variants, %d, PTHREAD_MUTEX_INITIALIZER, 0};\n\n", k->name,
		   k->name, k->nv);
	Buf params = {0};
	export_write_params(&params, k);
	buf_printf(c, "static int %s__launch(int tcx_v, void *tcx_stream, const int64_t tcx_g[3]%s)\n{\n", k->name, buf_str(&params));
	export_write_unused(c, k);
	buf_puts(c, "\tswitch (tcx_v) {\n");
	for (int i = 0; i < k->nv; i++) {
		buf_printf(c, "\tcase %d: {\n\t\tvoid *tcx_args[] = {", i);
		export_write_args(c, k, i, false);
		buf_printf(c, "};\n\t\treturn tcx_hip_launch(&%s__kernel, %d, tcx_stream, tcx_g, tcx_args);\n\t}\n", k->name, i);
	}
	buf_puts(c, "\tdefault:\n\t\treturn TRITONC_ERROR_INVALID_VALUE;\n\t}\n}\n\n");
	buf_free(&params);
	export_write_dispatch(c, k);
	buf_printf(c, "\nint %s_unload(void)\n{\n\treturn tcx_hip_unload(&%s__kernel);\n}\n\n", k->name, k->name);
	export_write_errors(c);
	return true;
}

/* NAME.hip: the first hip target's kernels and a launcher over the HIP
 * runtime, which refuses a device of another warp width. */
static void write_hip(Buf *c, const ExKernel *k, int t)
{
	const Target *tg = &k->targets[t];
	buf_printf(c, "// %s.hip: the kernel %s as HIP C (lowered for %s: %d-lane wavefronts), with\n"
		      "// the launcher of %s.h over the HIP runtime, for hipcc builds instead of %s.c:\n"
		      "//     hipcc -c --offload-arch=%s %s.hip\n"
		      "// (any architecture of the same wavefront width; on another the launcher\n"
		      "// returns TRITONC_ERROR_NO_BINARY).\n", k->name, k->name, tg->arch, tg->warp_size, k->name, k->name,
		   tg->arch, k->name);
	buf_printf(c, "#include \"%s.h\"\n\n#include <hip/hip_runtime.h>\n#include <stdint.h>\n\n", k->name);
	for (int i = 0; i < k->nv; i++) {
		buf_printf(c, "// ==== variant %d: %s ====\n", i, k->v[i].describe);
		buf_puts(c, k->v[i].code[t].source);
		buf_putc(c, '\n');
	}
	buf_puts(c, "#define TCX_GRID_MAX_X INT64_C(2147483647)\n#define TCX_GRID_MAX_YZ INT64_C(65535)\n\n");
	Buf params = {0};
	export_write_params(&params, k);
	buf_printf(c, "static int %s__launch(int tcx_v, void *tcx_stream, const int64_t tcx_g[3]%s)\n{\n", k->name, buf_str(&params));
	export_write_unused(c, k);
	buf_printf(c, "\tint tcx_dev = 0, tcx_width = 0;\n"
		      "\tif (hipGetDevice(&tcx_dev) != hipSuccess ||\n"
		      "\t    hipDeviceGetAttribute(&tcx_width, hipDeviceAttributeWarpSize, tcx_dev) != hipSuccess)\n"
		      "\t\treturn TRITONC_ERROR_NO_CONTEXT;\n"
		      "\tif (tcx_width != %d)\n\t\treturn TRITONC_ERROR_NO_BINARY;\n", tg->warp_size);
	buf_puts(c, "\tdim3 tcx_grid((unsigned)tcx_g[0], (unsigned)tcx_g[1], (unsigned)tcx_g[2]);\n"
		    "\thipStream_t tcx_hip_stream = (hipStream_t)tcx_stream;\n\tswitch (tcx_v) {\n");
	for (int i = 0; i < k->nv; i++) {
		const ExCode *code = &k->v[i].code[t];
		buf_printf(c, "\tcase %d:\n\t\t%s<<<tcx_grid, %d, %d, tcx_hip_stream>>>(", i, k->v[i].fn, code->threads, code->dynamic_bytes);
		export_write_args(c, k, i, true);
		buf_puts(c, ");\n\t\tbreak;\n");
	}
	buf_puts(c, "\tdefault:\n\t\treturn TRITONC_ERROR_INVALID_VALUE;\n\t}\n"
		    "\treturn hipGetLastError() == hipSuccess ? TRITONC_SUCCESS : TRITONC_ERROR_LAUNCH;\n}\n\n");
	buf_free(&params);
	export_write_dispatch(c, k);
	buf_printf(c, "\nint %s_unload(void)\n{\n\treturn TRITONC_SUCCESS; /* the HIP runtime owns the modules */\n}\n\n",
		   k->name);
	export_write_errors(c);
}

int export_target_hip(const ExKernel *k, const int *ts, int nts, const char *dir, FILE *errors)
{
	Buf h = {0}, c = {0}, hip = {0};
	if (!write_c(&c, k, ts, nts, errors)) {
		buf_free(&c);
		return 1;
	}
	export_write_header(&h, k, TARGET_HIP);
	write_hip(&hip, k, ts[0]);
	return export_write_files(k, dir, &h, &c, &hip, "hip", errors);
}
