/* ---- the HIP runtime (copied into NAME.c by tritonc export) ----
 *
 * libamdhip64 is opened with dlopen on first use (TRITONC_HIP_LIBRARY names
 * it, "libamdhip64.so" unless defined); built with -DTRITONC_HIP_LINKED the
 * program links it (-lamdhip64) instead. Only documented C entry points are
 * used, declared here, so no HIP header is needed.
 *
 * A variant's module is loaded on a device the first time it runs there:
 * the first embedded code object the runtime accepts for the device (each
 * is built for one gfx architecture and warp width, so no other loads);
 * for a target exported without hipcc, its HIP source compiled with hiprtc
 * (libhiprtc, opened the same way) for that architecture. Each kernel keeps
 * a list of the devices it was loaded on, behind one mutex. */
#include <pthread.h>
#ifndef TRITONC_HIP_LINKED
#include <dlfcn.h>
#endif

#ifndef TRITONC_HIP_LIBRARY
#define TRITONC_HIP_LIBRARY "libamdhip64.so"
#endif
#ifndef TRITONC_HIPRTC_LIBRARY
#define TRITONC_HIPRTC_LIBRARY "libhiprtc.so"
#endif
#define TCX_GRID_MAX_X INT64_C(2147483647)
#define TCX_GRID_MAX_YZ INT64_C(65535)
#define TCX_HIP_ERROR_NO_BINARY_FOR_GPU 209

typedef int tcx_hipError;
typedef void *tcx_hipModule;
typedef void *tcx_hipFunction;

#define TCX_HIP_FUNCTIONS(X)                                                                            \
	X(hipInit, "hipInit", (unsigned))                                                               \
	X(hipGetDevice, "hipGetDevice", (int *))                                                        \
	X(hipSetDevice, "hipSetDevice", (int))                                                          \
	X(hipModuleLoadData, "hipModuleLoadData", (tcx_hipModule *, const void *))                      \
	X(hipModuleUnload, "hipModuleUnload", (tcx_hipModule))                                          \
	X(hipModuleGetFunction, "hipModuleGetFunction", (tcx_hipFunction *, tcx_hipModule, const char *)) \
	X(hipModuleLaunchKernel, "hipModuleLaunchKernel",                                               \
	  (tcx_hipFunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, \
	   void **, void **))

#define TCX_HIPRTC_FUNCTIONS(X)                                                                         \
	X(hiprtcCreateProgram, "hiprtcCreateProgram",                                                   \
	  (void **, const char *, const char *, int, const char *const *, const char *const *))         \
	X(hiprtcCompileProgram, "hiprtcCompileProgram", (void *, int, const char *const *))             \
	X(hiprtcGetCodeSize, "hiprtcGetCodeSize", (void *, size_t *))                                   \
	X(hiprtcGetCode, "hiprtcGetCode", (void *, char *))                                             \
	X(hiprtcDestroyProgram, "hiprtcDestroyProgram", (void **))

#define TCX_FIELD(name, symbol, params) int (*name) params;
static struct {
	TCX_HIP_FUNCTIONS(TCX_FIELD)
	TCX_HIPRTC_FUNCTIONS(TCX_FIELD)
	int status;      /* TRITONC_SUCCESS once loaded */
	int rtc_status;  /* hiprtc: TRITONC_SUCCESS once loaded */
} tcx_hip;
static pthread_once_t tcx_hip_once = PTHREAD_ONCE_INIT, tcx_hiprtc_once = PTHREAD_ONCE_INIT;

#ifdef TRITONC_HIP_LINKED
#define TCX_DECLARE(name, symbol, params) extern int name params;
TCX_HIP_FUNCTIONS(TCX_DECLARE)
TCX_HIPRTC_FUNCTIONS(TCX_DECLARE)
#define TCX_BIND(name, symbol, params) tcx_hip.name = name;
#else
#define TCX_BIND(name, symbol, params)                                   \
	{                                                                \
		void *p = dlsym(lib, symbol);                            \
		if (!p)                                                  \
			return;                                          \
		memcpy(&tcx_hip.name, &p, sizeof p);                     \
	}
#endif

static void tcx_hip_load(void)
{
	tcx_hip.status = TRITONC_ERROR_NO_DRIVER;
#ifndef TRITONC_HIP_LINKED
	void *lib = dlopen(TRITONC_HIP_LIBRARY, RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return;
#endif
	TCX_HIP_FUNCTIONS(TCX_BIND)
	if (tcx_hip.hipInit(0) == 0)
		tcx_hip.status = TRITONC_SUCCESS;
}

static void tcx_hiprtc_load(void)
{
	tcx_hip.rtc_status = TRITONC_ERROR_NO_DRIVER;
#ifndef TRITONC_HIP_LINKED
	void *lib = dlopen(TRITONC_HIPRTC_LIBRARY, RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return;
#endif
	TCX_HIPRTC_FUNCTIONS(TCX_BIND)
	tcx_hip.rtc_status = TRITONC_SUCCESS;
}

/* One compiled form of a variant for one architecture. */
typedef struct tcx_image {
	const char *arch;        /* "gfx90a" */
	int source;              /* HIP C for hiprtc, else a code object */
	const unsigned char *data;
	int threads;             /* a block: the arch's warp width times the warps */
	int shared;              /* dynamic shared memory */
} tcx_image;

typedef struct tcx_variant {
	const char *function;
	const tcx_image *images;
	int nimages;
} tcx_variant;

typedef struct tcx_loaded {
	tcx_hipModule module;
	tcx_hipFunction function;
	int threads, shared;
} tcx_loaded;

typedef struct tcx_device {
	int device;
	struct tcx_device *next;
	tcx_loaded variant[];
} tcx_device;

typedef struct tcx_kernel {
	const tcx_variant *variants;
	int nvariants;
	pthread_mutex_t lock;
	tcx_device *devices;
} tcx_kernel;

/* HIP C to a code object for `arch` with hiprtc; malloc'd, or NULL. */
static char *tcx_hiprtc(const tcx_image *im)
{
	pthread_once(&tcx_hiprtc_once, tcx_hiprtc_load);
	if (tcx_hip.rtc_status != TRITONC_SUCCESS)
		return NULL;
	void *prog = NULL;
	char opt[64];
	snprintf(opt, sizeof opt, "--gpu-architecture=%s", im->arch);
	const char *opts[] = {opt, "-O3"};
	char *code = NULL;
	size_t n = 0;
	if (tcx_hip.hiprtcCreateProgram(&prog, (const char *)im->data, "kernel.hip", 0, NULL, NULL) != 0)
		return NULL;
	if (tcx_hip.hiprtcCompileProgram(prog, 2, opts) == 0 && tcx_hip.hiprtcGetCodeSize(prog, &n) == 0 &&
	    (code = (char *)malloc(n ? n : 1)) && tcx_hip.hiprtcGetCode(prog, code) != 0) {
		free(code);
		code = NULL;
	}
	tcx_hip.hiprtcDestroyProgram(&prog);
	return code;
}

/* Loads variant v on the current device; *l gets it. */
static int tcx_load(const tcx_variant *v, tcx_loaded *l)
{
	int rc = TRITONC_ERROR_NO_BINARY;
	for (int pass = 0; pass < 2; pass++) { /* code objects first, then sources */
		for (int i = 0; i < v->nimages; i++) {
			const tcx_image *im = &v->images[i];
			if (im->source != pass)
				continue;
			char *compiled = pass ? tcx_hiprtc(im) : NULL;
			if (pass && !compiled)
				continue;
			tcx_hipModule m = 0;
			int r = tcx_hip.hipModuleLoadData(&m, pass ? (const void *)compiled : (const void *)im->data);
			free(compiled);
			if (r != 0) {
				if (r != TCX_HIP_ERROR_NO_BINARY_FOR_GPU && rc == TRITONC_ERROR_NO_BINARY)
					rc = TRITONC_ERROR_LOAD;
				continue;
			}
			tcx_hipFunction f = 0;
			if (tcx_hip.hipModuleGetFunction(&f, m, v->function) != 0) {
				tcx_hip.hipModuleUnload(m);
				return TRITONC_ERROR_LOAD;
			}
			*l = (tcx_loaded){m, f, im->threads, im->shared};
			return TRITONC_SUCCESS;
		}
	}
	return rc;
}

static int tcx_find(tcx_kernel *k, int v, tcx_loaded *out)
{
	pthread_once(&tcx_hip_once, tcx_hip_load);
	if (tcx_hip.status != TRITONC_SUCCESS)
		return tcx_hip.status;
	int dev = -1;
	if (tcx_hip.hipGetDevice(&dev) != 0 || dev < 0)
		return TRITONC_ERROR_NO_CONTEXT;
	int rc = TRITONC_SUCCESS;
	pthread_mutex_lock(&k->lock);
	tcx_device *d = k->devices;
	while (d && d->device != dev)
		d = d->next;
	if (!d) {
		d = (tcx_device *)calloc(1, sizeof *d + sizeof d->variant[0] * (size_t)k->nvariants);
		if (!d) {
			pthread_mutex_unlock(&k->lock);
			return TRITONC_ERROR_OUT_OF_RESOURCES;
		}
		d->device = dev;
		d->next = k->devices;
		k->devices = d;
	}
	if (!d->variant[v].function)
		rc = tcx_load(&k->variants[v], &d->variant[v]);
	*out = d->variant[v];
	pthread_mutex_unlock(&k->lock);
	return rc;
}

static int tcx_hip_launch(tcx_kernel *k, int v, void *stream, const int64_t g[3], void **args)
{
	tcx_loaded l;
	int rc = tcx_find(k, v, &l);
	if (rc != TRITONC_SUCCESS)
		return rc;
	if (tcx_hip.hipModuleLaunchKernel(l.function, (unsigned)g[0], (unsigned)g[1], (unsigned)g[2], (unsigned)l.threads,
					  1, 1, (unsigned)l.shared, stream, args, 0) != 0)
		return TRITONC_ERROR_LAUNCH;
	return TRITONC_SUCCESS;
}

static int tcx_hip_unload(tcx_kernel *k)
{
	if (tcx_hip.status != TRITONC_SUCCESS)
		return TRITONC_SUCCESS;
	int rc = TRITONC_SUCCESS, current = -1;
	tcx_hip.hipGetDevice(&current);
	pthread_mutex_lock(&k->lock);
	while (k->devices) {
		tcx_device *d = k->devices;
		k->devices = d->next;
		tcx_hip.hipSetDevice(d->device);
		for (int v = 0; v < k->nvariants; v++)
			if (d->variant[v].module && tcx_hip.hipModuleUnload(d->variant[v].module) != 0)
				rc = TRITONC_ERROR_LOAD;
		free(d);
	}
	pthread_mutex_unlock(&k->lock);
	if (current >= 0)
		tcx_hip.hipSetDevice(current);
	return rc;
}
