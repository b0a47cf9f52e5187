/* kernel.c: tritonc_load and tritonc_launch (include/tritonc.h), compiled
 * code loaded on the CPU (cpu.h) or into the caller's CUDA context (cuda.h)
 * and launched on the caller's buffers. */
#include "tritonc.h"

#include "base/base.h"
#include "gpu/target.h"
#include "runtime/cpu.h"
#include "runtime/cuda.h"

#include <stdlib.h>
#include <string.h>

#define ERROR_BYTES 1024

struct tritonc_kernel {
	bool cuda;
	CpuKernel *cpu;
	CudaKernel *gpu;
	char *assertion;      /* C: the code's tc_assertion buffer, or NULL */
	int threads;
	int shared_bytes;
	int cpu_threads;
	bool cached;
	char error[ERROR_BYTES];
};

static void give_diagnostics(char **diagnostics, const char *text)
{
	if (diagnostics)
		*diagnostics = base_strdup(text);
}

tritonc_kernel *tritonc_load(const char *code, const tritonc_load_options *options, char **diagnostics)
{
	tritonc_load_options o = options ? *options : (tritonc_load_options){0};
	char err[ERROR_BYTES] = "";
	Target target;
	if (diagnostics)
		*diagnostics = NULL;
	if (!code || !o.name || !o.name[0]) {
		give_diagnostics(diagnostics, "tritonc_load needs the code and the kernel's name");
		return NULL;
	}
	if (!target_parse(o.target ? o.target : "c", &target, err, sizeof err)) {
		give_diagnostics(diagnostics, err);
		return NULL;
	}
	if (target.kind != TARGET_C && target.kind != TARGET_CUDA) {
		give_diagnostics(diagnostics, "tritonc_load runs C and CUDA code (target c[:wave64] or cuda:sm_NN)");
		return NULL;
	}
	if (o.threads < 0 || o.shared_bytes < 0 || o.run_width < 0 || o.cpu_threads < 0) {
		give_diagnostics(diagnostics, "tritonc_load: threads, shared_bytes, run_width and cpu_threads must not be negative");
		return NULL;
	}
	tritonc_kernel *k = base_calloc(1, sizeof *k);
	k->threads = o.threads ? o.threads : 128;
	k->shared_bytes = o.shared_bytes;
	k->cpu_threads = o.cpu_threads;
	if (target.kind == TARGET_C) {
		char width[32];
		snprintf(width, sizeof width, "-DTC_RUN_W=%d", o.run_width ? o.run_width : target.warp_size);
		const char *flags[] = {width, NULL};
		k->cpu = cpu_compile(code, o.name, flags, o.cache_dir, err, sizeof err);
		if (k->cpu) {
			k->assertion = cpu_kernel_symbol(k->cpu, "tc_assertion");
			k->cached = cpu_kernel_from_cache(k->cpu);
		}
	} else {
		k->cuda = true;
		CudaRuntime *rt = cuda_current(err, sizeof err);
		char arch[48];
		const char *opts[2] = {NULL, NULL};
		/* an architecture's own features (sm_90a: wgmma) when the device is that architecture */
		if (rt && snprintf(arch, sizeof arch, "%sa", cuda_arch(rt)) > 0 && !strcmp(target.arch, arch)) {
			snprintf(arch, sizeof arch, "-arch=%s", target.arch);
			opts[0] = arch;
		}
		k->gpu = rt ? cuda_compile(rt, code, o.name, opts, o.cache_dir, err, sizeof err) : NULL;
		k->cached = cuda_kernel_from_cache(k->gpu);
	}
	if (!k->cpu && !k->gpu) {
		give_diagnostics(diagnostics, err[0] ? err : "tritonc_load failed");
		tritonc_unload(k);
		return NULL;
	}
	return k;
}

int tritonc_launch(tritonc_kernel *k, const int grid[3], void *stream, void **args)
{
	if (!k)
		return -1;
	k->error[0] = '\0';
	if (!grid) {
		snprintf(k->error, sizeof k->error, "tritonc_launch: no grid");
		return -1;
	}
	for (int axis = 0; axis < 3; axis++) {
		if (grid[axis] < 0) {
			snprintf(k->error, sizeof k->error, "grid axis %d is negative (%d)", axis, grid[axis]);
			return -1;
		}
		if (grid[axis] == 0)
			return 0;
	}
	if (k->cuda)
		return cuda_launch_async(k->gpu, grid, k->threads, k->shared_bytes, stream, args, k->error,
		                         sizeof k->error);
	if (k->assertion)
		k->assertion[0] = '\0';
	if (cpu_run(k->cpu, args, grid, k->cpu_threads, k->error, sizeof k->error) != 0)
		return -1;
	if (k->assertion && k->assertion[0]) {
		snprintf(k->error, sizeof k->error, "%s", k->assertion);
		return -1;
	}
	return 0;
}

const char *tritonc_kernel_error(const tritonc_kernel *k)
{
	return k ? k->error : "no kernel";
}

const void *tritonc_kernel_asm(const tritonc_kernel *k, const char *what, size_t *size)
{
	const CudaImages *images = k && what ? cuda_kernel_images(k->gpu) : NULL;
	const char *data = NULL;
	size_t len = 0;
	if (images && !strcmp(what, "ptx")) {
		data = images->ptx;
		len = images->ptx_len;
	} else if (images && !strcmp(what, "cubin")) {
		data = images->cubin;
		len = images->cubin_len;
	}
	if (size)
		*size = data ? len : 0;
	return data;
}

int tritonc_kernel_cached(const tritonc_kernel *k)
{
	return k && k->cached;
}

void tritonc_kernel_resources(const tritonc_kernel *k, int *registers, int *local_bytes)
{
	int r = 0, l = 0;
	if (k && k->gpu)
		cuda_kernel_resources(k->gpu, &r, &l);
	if (registers)
		*registers = r;
	if (local_bytes)
		*local_bytes = l;
}

void tritonc_unload(tritonc_kernel *k)
{
	if (!k)
		return;
	cpu_kernel_free(k->cpu);
	cuda_kernel_free(k->gpu);
	free(k);
}
