/* target_cuda.c: the cuda target: NAME.h; NAME.c, plain C over libcuda
 * with every variant embedded as cubins for the named architectures and
 * PTX for newer ones (made now, through NVRTC); NAME.cu, the same kernels
 * as readable CUDA C with a launcher over the CUDA runtime, for projects
 * that build with nvcc instead. */
#include "export/internal.h"

#include "gpu/simt.h"

#include <stdlib.h>
#include <string.h>

static const char rt_cuda[] =
#include "export/rt_cuda.inc"
	;

/* The highest architecture that is not an 'a' one: its PTX serves newer GPUs. */
static int ptx_target(const ExKernel *k, const int *ts, int nts)
{
	int best = -1, best_sm = 0;
	for (int j = 0; j < nts; j++) {
		const char *arch = k->targets[ts[j]].arch;
		int sm = atoi(arch + 3);
		if (arch[strlen(arch) - 1] != 'a' && sm > best_sm) {
			best = ts[j];
			best_sm = sm;
		}
	}
	return best;
}

static bool write_c(Buf *c, const ExKernel *k, const int *ts, int nts, FILE *errors)
{
	buf_printf(c, "/* %s.c: the kernel %s for NVIDIA GPUs (%d variant%s; cubins for", k->name, k->name, k->nv,
		   k->nv > 1 ? "s" : "");
	for (int j = 0; j < nts; j++)
		buf_printf(c, " %s", k->targets[ts[j]].arch);
	int pt = ptx_target(k, ts, nts);
	if (pt >= 0)
		buf_printf(c, ", PTX for compute_%d and later", atoi(k->targets[pt].arch + 3));
	buf_printf(c, "), exported by tritonc. Plain C\n * over the CUDA driver, opened with dlopen: cc -std=c11 -O2 -c %s.c, "
		      "and link\n * with -pthread -ldl (or build with -DTRITONC_CUDA_LINKED and link -lcuda). */\n",
		   k->name);
	buf_puts(c, "#ifndef _POSIX_C_SOURCE\n#define _POSIX_C_SOURCE 200809L\n#endif\n");
	buf_printf(c, "#include \"%s.h\"\n\n#include <stdlib.h>\n#include <string.h>\n\n", k->name);
	buf_puts(c, rt_cuda);
	buf_puts(c, "\n#if defined(__GNUC__) || defined(__clang__)\n#define TCX_ALIGNED __attribute__((aligned(64)))\n"
		    "#else\n#define TCX_ALIGNED\n#endif\n\n");
	for (int i = 0; i < k->nv; i++) {
		const ExVariant *v = &k->v[i];
		buf_printf(c, "/* ==== variant %d: %s ==== */\n", i, v->describe);
		Buf images = {0};
		int nimages = 0;
		for (int j = 0; j <= nts; j++) {
			int t = j < nts ? ts[j] : pt;
			if (t < 0)
				continue;
			bool ptx = j == nts;
			const ExCode *code = &v->code[t];
			const char *arch = code->target.arch;
			char err[8192] = "";
			size_t len = 0;
			unsigned char *bin = export_nvrtc(code->source, arch, ptx, &len, err, sizeof err);
			if (!bin) {
				fprintf(errors, "tritonc: error: %s\n", err);
				buf_free(&images);
				return false;
			}
			int sm = atoi(arch + 3);
			bool specific = arch[strlen(arch) - 1] == 'a';
			buf_printf(c, "static const unsigned char TCX_ALIGNED %s_%s%d%s[%zu] = {\n", v->fn, ptx ? "compute_" : "sm_",
				   sm, specific ? "a" : "", len + 1);
			export_write_bytes(c, bin, len + 1);   /* PTX with its NUL */
			buf_puts(c, "};\n");
			free(bin);
			buf_printf(&images, "\t{%d, %d, %d, %s_%s%d%s, %d, %d},\n", sm, specific, ptx, v->fn,
				   ptx ? "compute_" : "sm_", sm, specific ? "a" : "", code->threads, code->dynamic_bytes);
			nimages++;
		}
		buf_printf(c, "static const tcx_image %s_images[%d] = {\n%s};\n\n", v->fn, nimages, buf_str(&images));
		buf_free(&images);
	}
	buf_printf(c, "static const tcx_variant %s__variants[%d] = {\n", k->name, k->nv);
	for (int i = 0; i < k->nv; i++)
		buf_printf(c, "\t{\"%s\", %s_images, (int)(sizeof %s_images / sizeof %s_images[0])},\n", k->v[i].fn, k->v[i].fn,
			   k->v[i].fn, k->v[i].fn);
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
		buf_printf(c, "};\n\t\treturn tcx_cuda_launch(&%s__kernel, %d, tcx_stream, tcx_g, tcx_args);\n\t}\n", k->name, i);
	}
	buf_puts(c, "\tdefault:\n\t\treturn TRITONC_ERROR_INVALID_VALUE;\n\t}\n}\n\n");
	buf_free(&params);
	export_write_dispatch(c, k);
	buf_printf(c, "\nint %s_unload(void)\n{\n\treturn tcx_cuda_unload(&%s__kernel);\n}\n\n", k->name, k->name);
	export_write_errors(c);
	return true;
}

/* NAME.cu: the first cuda target's code and a launcher over the CUDA runtime. */
static void write_cu(Buf *c, const ExKernel *k, int t)
{
	buf_printf(c, "// %s.cu: the kernel %s as CUDA C (lowered for %s), with the launcher of\n"
		      "// %s.h over the CUDA runtime, for nvcc builds instead of %s.c:\n"
		      "//     nvcc -c -arch=%s %s.cu\n", k->name, k->name, k->targets[t].arch, k->name, k->name,
		   k->targets[t].arch, k->name);
	buf_printf(c, "#include \"%s.h\"\n\n#include <cuda_runtime.h>\n#include <stdint.h>\n\n", k->name);
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
	buf_puts(c, "\tdim3 tcx_grid((unsigned)tcx_g[0], (unsigned)tcx_g[1], (unsigned)tcx_g[2]);\n"
		    "\tcudaStream_t tcx_cu_stream = (cudaStream_t)tcx_stream;\n\tswitch (tcx_v) {\n");
	for (int i = 0; i < k->nv; i++) {
		const ExCode *code = &k->v[i].code[t];
		buf_printf(c, "\tcase %d:\n", i);
		if (code->dynamic_bytes > code->target.static_shared_bytes)   /* past the default a block must opt in */
			buf_printf(c, "\t\tif (cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, %d) != "
				      "cudaSuccess)\n\t\t\treturn TRITONC_ERROR_SHARED_MEMORY;\n", k->v[i].fn, code->dynamic_bytes);
		buf_printf(c, "\t\t%s<<<tcx_grid, %d, %d, tcx_cu_stream>>>(", k->v[i].fn, code->threads, code->dynamic_bytes);
		export_write_args(c, k, i, true);
		buf_puts(c, ");\n\t\tbreak;\n");
	}
	buf_puts(c, "\tdefault:\n\t\treturn TRITONC_ERROR_INVALID_VALUE;\n\t}\n"
		    "\tcudaError_t e = cudaGetLastError();\n"
		    "\treturn e == cudaSuccess ? TRITONC_SUCCESS : e == cudaErrorNoKernelImageForDevice ? TRITONC_ERROR_NO_BINARY\n"
		    "\t\t\t\t\t\t\t\t\t\t : TRITONC_ERROR_LAUNCH;\n}\n\n");
	buf_free(&params);
	export_write_dispatch(c, k);
	buf_printf(c, "\nint %s_unload(void)\n{\n\treturn TRITONC_SUCCESS; /* the CUDA runtime owns the modules */\n}\n\n",
		   k->name);
	export_write_errors(c);
}

int export_target_cuda(const ExKernel *k, const int *ts, int nts, const char *dir, FILE *errors)
{
	Buf h = {0}, c = {0}, cu = {0};
	if (!write_c(&c, k, ts, nts, errors)) {
		buf_free(&c);
		return 1;
	}
	export_write_header(&h, k, TARGET_CUDA);
	write_cu(&cu, k, ts[0]);
	return export_write_files(k, dir, &h, &c, &cu, "cu", errors);
}
