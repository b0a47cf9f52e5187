/* ---- the CUDA driver (copied into NAME.c by tritonc export) ----
 *
 * libcuda is opened with dlopen on first use (TRITONC_CUDA_LIBRARY names
 * it, "libcuda.so.1" unless defined); built with -DTRITONC_CUDA_LINKED the
 * program links it (-lcuda) instead. Only the driver's documented C entry
 * points are used, declared here, so no CUDA header is needed.
 *
 * A variant's module is loaded in a context the first time it runs there:
 * the cubin made for the device's architecture (an sm_90a one before
 * sm_90), else one for an earlier
 * minor version of its major one, else the PTX (compiled by the driver).
 * Each kernel keeps a list of the contexts it was loaded in, behind one
 * mutex; the launch itself runs outside it. */
#include <pthread.h>
#ifndef TRITONC_CUDA_LINKED
#include <dlfcn.h>
#endif

#ifndef TRITONC_CUDA_LIBRARY
#define TRITONC_CUDA_LIBRARY "libcuda.so.1"
#endif
#define TCX_GRID_MAX_X INT64_C(2147483647)
#define TCX_GRID_MAX_YZ INT64_C(65535)

typedef int tcx_CUresult;
typedef int tcx_CUdevice;
typedef void *tcx_CUcontext;
typedef void *tcx_CUmodule;
typedef void *tcx_CUfunction;

#define TCX_CU_ATTRIBUTE_CC_MAJOR 75
#define TCX_CU_ATTRIBUTE_CC_MINOR 76
#define TCX_CU_FUNC_MAX_DYNAMIC_SHARED 8
#define TCX_CU_ERROR_NO_BINARY_FOR_GPU 209

#define TCX_CUDA_FUNCTIONS(X)                                                                          \
	X(cuInit, "cuInit", (unsigned))                                                                \
	X(cuCtxGetCurrent, "cuCtxGetCurrent", (tcx_CUcontext *))                                       \
	X(cuCtxGetDevice, "cuCtxGetDevice", (tcx_CUdevice *))                                          \
	X(cuCtxPushCurrent, "cuCtxPushCurrent_v2", (tcx_CUcontext))                                    \
	X(cuCtxPopCurrent, "cuCtxPopCurrent_v2", (tcx_CUcontext *))                                    \
	X(cuDeviceGetAttribute, "cuDeviceGetAttribute", (int *, int, tcx_CUdevice))                    \
	X(cuModuleLoadData, "cuModuleLoadData", (tcx_CUmodule *, const void *))                        \
	X(cuModuleUnload, "cuModuleUnload", (tcx_CUmodule))                                            \
	X(cuModuleGetFunction, "cuModuleGetFunction", (tcx_CUfunction *, tcx_CUmodule, const char *))  \
	X(cuFuncSetAttribute, "cuFuncSetAttribute", (tcx_CUfunction, int, int))                        \
	X(cuLaunchKernel, "cuLaunchKernel",                                                            \
	  (tcx_CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, \
	   void **, void **))

#define TCX_FIELD(name, symbol, params) tcx_CUresult(*name) params;
static struct {
	TCX_CUDA_FUNCTIONS(TCX_FIELD)
	int status;   /* TRITONC_SUCCESS once loaded */
} tcx_cu;
static pthread_once_t tcx_cu_once = PTHREAD_ONCE_INIT;

#ifdef TRITONC_CUDA_LINKED
#define TCX_DECLARE(name, symbol, params) extern tcx_CUresult TCX_LINKED_##name params;
#define TCX_LINKED_cuInit cuInit
#define TCX_LINKED_cuCtxGetCurrent cuCtxGetCurrent
#define TCX_LINKED_cuCtxGetDevice cuCtxGetDevice
#define TCX_LINKED_cuCtxPushCurrent cuCtxPushCurrent_v2
#define TCX_LINKED_cuCtxPopCurrent cuCtxPopCurrent_v2
#define TCX_LINKED_cuDeviceGetAttribute cuDeviceGetAttribute
#define TCX_LINKED_cuModuleLoadData cuModuleLoadData
#define TCX_LINKED_cuModuleUnload cuModuleUnload
#define TCX_LINKED_cuModuleGetFunction cuModuleGetFunction
#define TCX_LINKED_cuFuncSetAttribute cuFuncSetAttribute
#define TCX_LINKED_cuLaunchKernel cuLaunchKernel
TCX_CUDA_FUNCTIONS(TCX_DECLARE)
#define TCX_BIND(name, symbol, params) tcx_cu.name = TCX_LINKED_##name;
#else
#define TCX_BIND(name, symbol, params)                                   \
	{                                                                \
		void *p = dlsym(lib, symbol);                            \
		if (!p)                                                  \
			return;                                          \
		memcpy(&tcx_cu.name, &p, sizeof p);                      \
	}
#endif

static void tcx_cu_load(void)
{
	tcx_cu.status = TRITONC_ERROR_NO_DRIVER;
#ifndef TRITONC_CUDA_LINKED
	void *lib = dlopen(TRITONC_CUDA_LIBRARY, RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return;
#endif
	TCX_CUDA_FUNCTIONS(TCX_BIND)
	if (tcx_cu.cuInit(0) == 0)
		tcx_cu.status = TRITONC_SUCCESS;
}

/* One compiled form of a variant. */
typedef struct tcx_image {
	int sm;                  /* 90 for sm_90 or compute_90 */
	int specific;            /* sm_90a: only on that architecture */
	int ptx;                 /* PTX text, else a cubin */
	const unsigned char *data;
	int threads;             /* a block */
	int shared;              /* dynamic shared memory */
} tcx_image;

typedef struct tcx_variant {
	const char *function;
	const tcx_image *images;
	int nimages;
} tcx_variant;

typedef struct tcx_loaded {
	tcx_CUmodule module;
	tcx_CUfunction function;
	int threads, shared;
} tcx_loaded;

typedef struct tcx_context {
	tcx_CUcontext context;
	struct tcx_context *next;
	tcx_loaded variant[];
} tcx_context;

typedef struct tcx_kernel {
	const tcx_variant *variants;
	int nvariants;
	pthread_mutex_t lock;
	tcx_context *contexts;
} tcx_kernel;

/* Loads variant v in the current context, whose device is sm; *l gets it. */
static int tcx_load(const tcx_variant *v, int sm, tcx_loaded *l)
{
	int best[3] = {-1, -1, -1}; /* the exact cubin, an earlier minor's, the newest usable PTX */
	for (int i = 0; i < v->nimages; i++) {
		const tcx_image *im = &v->images[i];
		if (!im->ptx && im->sm == sm && (best[0] < 0 || im->specific))   /* sm_90a before sm_90 */
			best[0] = i;
		else if (!im->ptx && !im->specific && im->sm / 10 == sm / 10 && im->sm < sm &&
			 (best[1] < 0 || v->images[best[1]].sm < im->sm))
			best[1] = i;
		else if (im->ptx && !im->specific && im->sm <= sm && (best[2] < 0 || v->images[best[2]].sm < im->sm))
			best[2] = i;
	}
	int rc = TRITONC_ERROR_NO_BINARY;
	for (int c = 0; c < 3; c++) {
		if (best[c] < 0)
			continue;
		const tcx_image *im = &v->images[best[c]];
		tcx_CUmodule m = 0;
		tcx_CUresult r = tcx_cu.cuModuleLoadData(&m, im->data);
		if (r != 0) {
			if (r != TCX_CU_ERROR_NO_BINARY_FOR_GPU)
				rc = TRITONC_ERROR_LOAD;
			continue;
		}
		tcx_CUfunction f = 0;
		if (tcx_cu.cuModuleGetFunction(&f, m, v->function) != 0) {
			tcx_cu.cuModuleUnload(m);
			return TRITONC_ERROR_LOAD;
		}
		if (im->shared > 48 * 1024 && tcx_cu.cuFuncSetAttribute(f, TCX_CU_FUNC_MAX_DYNAMIC_SHARED, im->shared) != 0) {
			tcx_cu.cuModuleUnload(m);
			return TRITONC_ERROR_SHARED_MEMORY;
		}
		*l = (tcx_loaded){m, f, im->threads, im->shared};
		return TRITONC_SUCCESS;
	}
	return rc;
}

/* Variant v as loaded in the current context, loading it the first time. */
static int tcx_find(tcx_kernel *k, int v, tcx_loaded *out)
{
	pthread_once(&tcx_cu_once, tcx_cu_load);
	if (tcx_cu.status != TRITONC_SUCCESS)
		return tcx_cu.status;
	tcx_CUcontext ctx = 0;
	if (tcx_cu.cuCtxGetCurrent(&ctx) != 0 || !ctx)
		return TRITONC_ERROR_NO_CONTEXT;
	int rc = TRITONC_SUCCESS;
	pthread_mutex_lock(&k->lock);
	tcx_context *c = k->contexts;
	while (c && c->context != ctx)
		c = c->next;
	if (!c) {
		c = (tcx_context *)calloc(1, sizeof *c + sizeof c->variant[0] * (size_t)k->nvariants);
		if (!c) {
			pthread_mutex_unlock(&k->lock);
			return TRITONC_ERROR_OUT_OF_RESOURCES;
		}
		c->context = ctx;
		c->next = k->contexts;
		k->contexts = c;
	}
	if (!c->variant[v].function) {
		tcx_CUdevice dev = 0;
		int major = 0, minor = 0;
		if (tcx_cu.cuCtxGetDevice(&dev) != 0 ||
		    tcx_cu.cuDeviceGetAttribute(&major, TCX_CU_ATTRIBUTE_CC_MAJOR, dev) != 0 ||
		    tcx_cu.cuDeviceGetAttribute(&minor, TCX_CU_ATTRIBUTE_CC_MINOR, dev) != 0)
			rc = TRITONC_ERROR_NO_CONTEXT;
		else
			rc = tcx_load(&k->variants[v], major * 10 + minor, &c->variant[v]);
	}
	*out = c->variant[v];
	pthread_mutex_unlock(&k->lock);
	return rc;
}

static int tcx_cuda_launch(tcx_kernel *k, int v, void *stream, const int64_t g[3], void **args)
{
	tcx_loaded l;
	int rc = tcx_find(k, v, &l);
	if (rc != TRITONC_SUCCESS)
		return rc;
	if (tcx_cu.cuLaunchKernel(l.function, (unsigned)g[0], (unsigned)g[1], (unsigned)g[2], (unsigned)l.threads, 1, 1,
				  (unsigned)l.shared, stream, args, 0) != 0)
		return TRITONC_ERROR_LAUNCH;
	return TRITONC_SUCCESS;
}

/* Unloads every module from every context (each made current for it). */
static int tcx_cuda_unload(tcx_kernel *k)
{
	if (tcx_cu.status != TRITONC_SUCCESS || !tcx_cu.cuModuleUnload)
		return TRITONC_SUCCESS;
	int rc = TRITONC_SUCCESS;
	pthread_mutex_lock(&k->lock);
	while (k->contexts) {
		tcx_context *c = k->contexts;
		k->contexts = c->next;
		int pushed = tcx_cu.cuCtxPushCurrent(c->context) == 0;
		for (int v = 0; v < k->nvariants; v++)
			if (c->variant[v].module && tcx_cu.cuModuleUnload(c->variant[v].module) != 0)
				rc = TRITONC_ERROR_LOAD;
		if (pushed) {
			tcx_CUcontext popped;
			tcx_cu.cuCtxPopCurrent(&popped);
		}
		free(c);
	}
	pthread_mutex_unlock(&k->lock);
	return rc;
}
