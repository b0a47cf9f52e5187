/* nvrtc.c: CUDA C to cubins and PTX at export time, through NVRTC opened
 * with dlopen (no GPU is needed, and tritonc builds without CUDA). Without
 * NVRTC a cuda export fails and says so: the embedded cubins are what make
 * the exported library need nothing but libcuda at run time, and PTX alone
 * (through nvcc) would put a JIT compile in every program's first launch. */
#include "export/internal.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef struct NvrtcProgram_st *nvrtcProgram;
typedef int nvrtcResult;

static struct {
	void *lib;
	const char *(*GetErrorString)(nvrtcResult);
	nvrtcResult (*CreateProgram)(nvrtcProgram *, const char *, const char *, int, const char *const *,
				     const char *const *);
	nvrtcResult (*CompileProgram)(nvrtcProgram, int, const char *const *);
	nvrtcResult (*GetProgramLogSize)(nvrtcProgram, size_t *);
	nvrtcResult (*GetProgramLog)(nvrtcProgram, char *);
	nvrtcResult (*GetCUBINSize)(nvrtcProgram, size_t *);
	nvrtcResult (*GetCUBIN)(nvrtcProgram, char *);
	nvrtcResult (*GetPTXSize)(nvrtcProgram, size_t *);
	nvrtcResult (*GetPTX)(nvrtcProgram, char *);
	nvrtcResult (*DestroyProgram)(nvrtcProgram *);
	char why[600];
} rtc;

static void *sym(const char *name, bool *ok)
{
	void *p = dlsym(rtc.lib, name);
	*ok = *ok && p;
	return p;
}

#define BIND(field, name) memcpy(&rtc.field, &(void *){sym(name, &ok)}, sizeof(void *))

/* Opens NVRTC once: $CUDA_HOME/lib64, the loader's path, /usr/local/cuda/lib64. */
static bool open_nvrtc(void)
{
	if (rtc.lib)
		return true;
	if (rtc.why[0])
		return false;
	static const char *const names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"};
	const char *home = getenv("CUDA_HOME");
	const char *folders[] = {home && home[0] ? home : NULL, "", "/usr/local/cuda"};
	char path[4096];
	const char *last = "not found";
	for (int f = 0; f < 3 && !rtc.lib; f++)
		for (int n = 0; n < 4 && !rtc.lib && folders[f]; n++) {
			if (folders[f][0])
				snprintf(path, sizeof path, "%s/lib64/%s", folders[f], names[n]);
			else
				snprintf(path, sizeof path, "%s", names[n]);
			rtc.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
			if (!rtc.lib && dlerror())
				last = "not found or not loadable";
		}
	if (!rtc.lib) {
		snprintf(rtc.why, sizeof rtc.why,
			 "a cuda export compiles cubins with NVRTC, and libnvrtc cannot be loaded (%s; tried "
			 "$CUDA_HOME/lib64, the library path and /usr/local/cuda/lib64): install the CUDA toolkit "
			 "or set CUDA_HOME", last);
		return false;
	}
	bool ok = true;
	BIND(GetErrorString, "nvrtcGetErrorString");
	BIND(CreateProgram, "nvrtcCreateProgram");
	BIND(CompileProgram, "nvrtcCompileProgram");
	BIND(GetProgramLogSize, "nvrtcGetProgramLogSize");
	BIND(GetProgramLog, "nvrtcGetProgramLog");
	BIND(GetCUBINSize, "nvrtcGetCUBINSize");
	BIND(GetCUBIN, "nvrtcGetCUBIN");
	BIND(GetPTXSize, "nvrtcGetPTXSize");
	BIND(GetPTX, "nvrtcGetPTX");
	BIND(DestroyProgram, "nvrtcDestroyProgram");
	if (!ok) {
		snprintf(rtc.why, sizeof rtc.why, "libnvrtc is too old (11.2 or later is needed for cubins)");
		dlclose(rtc.lib);
		rtc.lib = NULL;
	}
	return ok;
}

unsigned char *export_nvrtc(const char *source, const char *arch, bool ptx, size_t *len, char *err, size_t errlen)
{
	if (!open_nvrtc()) {
		snprintf(err, errlen, "%s", rtc.why);
		return NULL;
	}
	char archopt[64];
	int sm = atoi(arch + 3);
	bool specific = arch[strlen(arch) - 1] == 'a';
	if (ptx)
		snprintf(archopt, sizeof archopt, "-arch=compute_%d%s", sm, specific ? "a" : "");
	else
		snprintf(archopt, sizeof archopt, "-arch=%s", arch);
	const char *opts[] = {archopt, "-std=c++17", "-default-device"};
	nvrtcProgram prog = NULL;
	nvrtcResult r = rtc.CreateProgram(&prog, source, "kernel.cu", 0, NULL, NULL);
	if (r) {
		snprintf(err, errlen, "nvrtcCreateProgram failed: %s", rtc.GetErrorString(r));
		return NULL;
	}
	unsigned char *out = NULL;
	r = rtc.CompileProgram(prog, 3, opts);
	if (r) {
		size_t n = 0;
		rtc.GetProgramLogSize(prog, &n);
		char *log = calloc(n + 1, 1);
		if (log)
			rtc.GetProgramLog(prog, log);
		snprintf(err, errlen, "NVRTC could not compile the kernel for %s (%s):\n%s", arch, rtc.GetErrorString(r),
			 log ? log : "");
		free(log);
	} else if (!(r = ptx ? rtc.GetPTXSize(prog, len) : rtc.GetCUBINSize(prog, len))) {
		out = base_malloc(*len + 1);
		r = ptx ? rtc.GetPTX(prog, (char *)out) : rtc.GetCUBIN(prog, (char *)out);
		out[*len] = 0;
		if (r) {
			free(out);
			out = NULL;
		}
	}
	if (r && !out && !err[0])
		snprintf(err, errlen, "NVRTC: %s", rtc.GetErrorString(r));
	rtc.DestroyProgram(&prog);
	return out;
}
