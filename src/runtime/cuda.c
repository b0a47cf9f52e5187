/* cuda.c: the CUDA runtime (cuda.h).
 *
 * The driver (libcuda) and NVRTC are opened with dlopen and their entry
 * points kept in two tables of function pointers, CudaDriver and Nvrtc,
 * declared here from the documented C signatures so that no CUDA header is
 * needed to build. Where the driver has a _v2 entry point (64-bit sizes, the
 * one cuda.h maps the plain name to), that one is used.
 *
 *   libraries  dlopen, symbol tables, error messages
 *   open       cuInit, device 0's primary context, its sm_XX
 *   compile    NVRTC to a cubin, with a disk cache keyed by an FNV-1a hash
 *   memory     cuMemAlloc and cuMemcpy wrappers
 *   launch     cuLaunchKernel, synchronized; timing with one event pair per launch
 *
 * cuda_open's runtime runs everything on the legacy default stream of
 * device 0's primary context, made current at each entry point;
 * cuda_current's runtimes use the context that was current when they were
 * made, and cuda_launch_async the caller's stream. Depends on libc, libdl
 * and pthreads (cuda_current's list is shared by threads). */
#include "runtime/cuda.h"
#include "base/base.h"

#include <dlfcn.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* ---- the driver's and NVRTC's types, as their C APIs declare them ---- */

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUevent_st *CUevent;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;
typedef struct NvrtcProgram_st *nvrtcProgram;
typedef int nvrtcResult;

enum {
	CUDA_SUCCESS = 0,
	NVRTC_SUCCESS = 0,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
	CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
	CU_EVENT_DEFAULT = 0,
	CU_EVENT_DISABLE_TIMING = 2,
	CUDA_ERROR_NOT_READY = 600,
};

/* Dynamic shared memory a kernel may use before it must opt in. */
#define DEFAULT_SHARED_LIMIT (48 * 1024)

typedef struct CudaDriver {
	void *lib;
	CUresult (*cuInit)(unsigned flags);
	CUresult (*cuGetErrorString)(CUresult result, const char **text);
	CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
	CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device);
	CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context, CUdevice device);
	CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device);
	CUresult (*cuCtxSetCurrent)(CUcontext context);
	CUresult (*cuCtxSynchronize)(void);
	CUresult (*cuCtxGetCurrent)(CUcontext *context);
	CUresult (*cuCtxGetDevice)(CUdevice *device);
	CUresult (*cuMemAlloc)(CUdeviceptr *dptr, size_t bytes);
	CUresult (*cuMemFree)(CUdeviceptr dptr);
	CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
	CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);
	CUresult (*cuMemsetD8)(CUdeviceptr dst, unsigned char value, size_t count);
	CUresult (*cuModuleLoadData)(CUmodule *module, const void *image);
	CUresult (*cuModuleUnload)(CUmodule module);
	CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module, const char *name);
	CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value);
	CUresult (*cuFuncGetAttribute)(int *value, int attribute, CUfunction function);
	CUresult (*cuLaunchKernel)(CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
	                           unsigned block_x, unsigned block_y, unsigned block_z,
	                           unsigned shared_bytes, CUstream stream, void **params, void **extra);
	CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
	CUresult (*cuEventDestroy)(CUevent event);
	CUresult (*cuEventRecord)(CUevent event, CUstream stream);
	CUresult (*cuEventSynchronize)(CUevent event);
	CUresult (*cuEventQuery)(CUevent event);
	CUresult (*cuEventElapsedTime)(float *ms, CUevent start, CUevent end);
	/* CUDA 12 on; NULL where the driver lacks it (then kernels with tensor maps do not launch) */
	CUresult (*cuTensorMapEncodeTiled)(void *map, int dtype, unsigned rank, void *address, const uint64_t *dims,
	                                   const uint64_t *strides, const unsigned *box, const unsigned *element_strides,
	                                   int interleave, int swizzle, int l2_promotion, int oob_fill);
} CudaDriver;

typedef struct Nvrtc {
	void *lib;
	nvrtcResult (*nvrtcVersion)(int *major, int *minor);
	const char *(*nvrtcGetErrorString)(nvrtcResult result);
	nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram *program, const char *source, const char *name,
	                                  int header_count, const char *const *headers,
	                                  const char *const *include_names);
	nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram program, int option_count, const char *const *options);
	nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram program, size_t *size);
	nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram program, char *log);
	nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram program, size_t *size);
	nvrtcResult (*nvrtcGetPTX)(nvrtcProgram program, char *ptx);
	nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram program, size_t *size);
	nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram program, char *cubin);
	nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram *program);
} Nvrtc;

struct CudaRuntime {
	CudaDriver drv;
	Nvrtc rtc;
	CUdevice device;
	CUcontext context;             /* device 0's primary context; NULL until retained */
	bool borrowed;                 /* context is the caller's (cuda_current): not released */
	CudaRuntime *next;             /* cuda_current's list, one runtime per context */
	char arch[32];                 /* "sm_90" */
	int nvrtc_major, nvrtc_minor;
	CUdeviceptr flush_buffer;      /* cuda_time's L2 scratch; 0 until first needed */
	size_t flush_buffer_bytes;
};

/* A tensor map the code asks for (a `// tritonc:tmap` line of the CUDA
 * printer, src/emit/cuda.c): encoded at each launch from the arguments it
 * names and passed after the kernel's nargs arguments. */
typedef struct TensorMapSpec {
	int nargs, base, shape0, shape1, stride, elem_bytes, bf16, box_rows, box_cols, swizzle;
	int shape0_bytes, shape1_bytes, stride_bytes;   /* the widths of those arguments: 4 or 8 */
} TensorMapSpec;

struct CudaKernel {
	CudaRuntime *rt;
	TensorMapSpec *tmaps;
	int ntmaps;
	CUmodule module;
	CUfunction function;
	int shared_limit;              /* dynamic shared memory the function allows now */
	bool from_cache;
	CudaImages images;             /* what NVRTC made (the cubin and, when kept, the PTX) */
};

/* ---- libraries ---- */

static void set_error(char *err, size_t errlen, const char *fmt, ...) TC_PRINTF(3, 4);

static void set_error(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || errlen == 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* true when `result` is success; otherwise "call failed: <driver's text>" in err. */
static bool cu_ok(const CudaDriver *drv, CUresult result, const char *call, char *err, size_t errlen)
{
	if (result == CUDA_SUCCESS)
		return true;
	const char *text = NULL;
	if (!drv->cuGetErrorString || drv->cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
		text = "unknown error";
	set_error(err, errlen, "%s failed: %s (CUresult %d)", call, text, result);
	return false;
}

static bool rtc_ok(const Nvrtc *rtc, nvrtcResult result, const char *call, char *err, size_t errlen)
{
	if (result == NVRTC_SUCCESS)
		return true;
	const char *text = rtc->nvrtcGetErrorString ? rtc->nvrtcGetErrorString(result) : NULL;
	set_error(err, errlen, "%s failed: %s (nvrtcResult %d)", call, text ? text : "unknown error", result);
	return false;
}

/* dlopens the first name that loads, trying each folder of `folders` in turn
 * ("" is the loader's own search path). NULL and a message in err when none does. */
static void *open_library(const char *what, const char *const *names, const char *const *folders,
                          char *err, size_t errlen)
{
	Buf path = {0};
	Buf last_error = {0};
	void *lib = NULL;
	for (int f = 0; folders[f] && !lib; f++) {
		for (int n = 0; names[n] && !lib; n++) {
			path.len = 0;
			if (folders[f][0])
				buf_printf(&path, "%s/%s", folders[f], names[n]);
			else
				buf_puts(&path, names[n]);
			lib = dlopen(path.data, RTLD_NOW | RTLD_LOCAL);
			if (!lib) {
				const char *why = dlerror();
				last_error.len = 0;
				buf_puts(&last_error, why ? why : "not found");
			}
		}
	}
	if (!lib) {
		Buf tried = {0};
		for (int n = 0; names[n]; n++)
			buf_printf(&tried, "%s%s", n ? ", " : "", names[n]);
		for (int f = 1; folders[f]; f++)
			buf_printf(&tried, "%s%s", f == 1 ? " on the library path and in " : ", ", folders[f]);
		set_error(err, errlen, "cannot load %s (tried %s): %s", what, buf_str(&tried), buf_str(&last_error));
		buf_free(&tried);
	}
	buf_free(&path);
	buf_free(&last_error);
	return lib;
}

_Static_assert(sizeof(void (*)(void)) == sizeof(void *), "function pointers must fit in void *");

/* Stores in *slot, a function pointer, the first of `names` (NULL-terminated)
 * that `lib` exports; when none is, adds the first name to `missing`. */
static void bind_symbol(void *lib, void *slot, const char *const *names, Buf *missing)
{
	for (int i = 0; names[i]; i++) {
		void *symbol = dlsym(lib, names[i]);
		if (symbol) {
			memcpy(slot, &symbol, sizeof symbol);
			return;
		}
	}
	buf_printf(missing, "%s%s", missing->len ? ", " : "", names[0]);
}

#define BIND(lib, slot, missing, ...) \
	bind_symbol(lib, slot, (const char *const[]){__VA_ARGS__, NULL}, missing)

static bool load_driver(CudaDriver *drv, char *err, size_t errlen)
{
	static const char *const names[] = {"libcuda.so.1", "libcuda.so", NULL};
	static const char *const folders[] = {"", NULL};
	drv->lib = open_library("the CUDA driver", names, folders, err, errlen);
	if (!drv->lib)
		return false;
	void *lib = drv->lib;
	Buf missing = {0};
	BIND(lib, &drv->cuInit, &missing, "cuInit");
	BIND(lib, &drv->cuGetErrorString, &missing, "cuGetErrorString");
	BIND(lib, &drv->cuDeviceGet, &missing, "cuDeviceGet");
	BIND(lib, &drv->cuDeviceGetAttribute, &missing, "cuDeviceGetAttribute");
	BIND(lib, &drv->cuDevicePrimaryCtxRetain, &missing, "cuDevicePrimaryCtxRetain");
	BIND(lib, &drv->cuDevicePrimaryCtxRelease, &missing, "cuDevicePrimaryCtxRelease_v2",
	     "cuDevicePrimaryCtxRelease");
	BIND(lib, &drv->cuCtxSetCurrent, &missing, "cuCtxSetCurrent");
	BIND(lib, &drv->cuCtxSynchronize, &missing, "cuCtxSynchronize");
	BIND(lib, &drv->cuCtxGetCurrent, &missing, "cuCtxGetCurrent");
	BIND(lib, &drv->cuCtxGetDevice, &missing, "cuCtxGetDevice");
	BIND(lib, &drv->cuMemAlloc, &missing, "cuMemAlloc_v2");
	BIND(lib, &drv->cuMemFree, &missing, "cuMemFree_v2");
	BIND(lib, &drv->cuMemcpyHtoD, &missing, "cuMemcpyHtoD_v2");
	BIND(lib, &drv->cuMemcpyDtoH, &missing, "cuMemcpyDtoH_v2");
	BIND(lib, &drv->cuMemsetD8, &missing, "cuMemsetD8_v2");
	BIND(lib, &drv->cuModuleLoadData, &missing, "cuModuleLoadData");
	BIND(lib, &drv->cuModuleUnload, &missing, "cuModuleUnload");
	BIND(lib, &drv->cuModuleGetFunction, &missing, "cuModuleGetFunction");
	BIND(lib, &drv->cuFuncSetAttribute, &missing, "cuFuncSetAttribute");
	BIND(lib, &drv->cuFuncGetAttribute, &missing, "cuFuncGetAttribute");
	BIND(lib, &drv->cuLaunchKernel, &missing, "cuLaunchKernel");
	BIND(lib, &drv->cuEventCreate, &missing, "cuEventCreate");
	BIND(lib, &drv->cuEventDestroy, &missing, "cuEventDestroy_v2", "cuEventDestroy");
	BIND(lib, &drv->cuEventRecord, &missing, "cuEventRecord");
	BIND(lib, &drv->cuEventSynchronize, &missing, "cuEventSynchronize");
	BIND(lib, &drv->cuEventQuery, &missing, "cuEventQuery");
	BIND(lib, &drv->cuEventElapsedTime, &missing, "cuEventElapsedTime_v2", "cuEventElapsedTime");
	void *encode = dlsym(lib, "cuTensorMapEncodeTiled");
	memcpy(&drv->cuTensorMapEncodeTiled, &encode, sizeof encode);
	bool ok = missing.len == 0;
	if (!ok)
		set_error(err, errlen, "the CUDA driver (libcuda) is too old: it lacks %s", missing.data);
	buf_free(&missing);
	return ok;
}

static bool load_nvrtc(Nvrtc *rtc, char *err, size_t errlen)
{
	static const char *const names[] = {
		"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", NULL,
	};
	Buf cuda_home_lib = {0};
	const char *cuda_home = getenv("CUDA_HOME");
	if (cuda_home && cuda_home[0])
		buf_printf(&cuda_home_lib, "%s/lib64", cuda_home);
	const char *folders[] = {"", "/usr/local/cuda/lib64", NULL, NULL};
	if (cuda_home_lib.len && strcmp(cuda_home_lib.data, folders[1]) != 0) {
		folders[2] = folders[1];
		folders[1] = cuda_home_lib.data;
	}
	rtc->lib = open_library("NVRTC (libnvrtc)", names, folders, err, errlen);
	buf_free(&cuda_home_lib);
	if (!rtc->lib)
		return false;
	void *lib = rtc->lib;
	Buf missing = {0};
	BIND(lib, &rtc->nvrtcVersion, &missing, "nvrtcVersion");
	BIND(lib, &rtc->nvrtcGetErrorString, &missing, "nvrtcGetErrorString");
	BIND(lib, &rtc->nvrtcCreateProgram, &missing, "nvrtcCreateProgram");
	BIND(lib, &rtc->nvrtcCompileProgram, &missing, "nvrtcCompileProgram");
	BIND(lib, &rtc->nvrtcGetProgramLogSize, &missing, "nvrtcGetProgramLogSize");
	BIND(lib, &rtc->nvrtcGetProgramLog, &missing, "nvrtcGetProgramLog");
	BIND(lib, &rtc->nvrtcGetPTXSize, &missing, "nvrtcGetPTXSize");
	BIND(lib, &rtc->nvrtcGetPTX, &missing, "nvrtcGetPTX");
	BIND(lib, &rtc->nvrtcGetCUBINSize, &missing, "nvrtcGetCUBINSize");
	BIND(lib, &rtc->nvrtcGetCUBIN, &missing, "nvrtcGetCUBIN");
	BIND(lib, &rtc->nvrtcDestroyProgram, &missing, "nvrtcDestroyProgram");
	bool ok = missing.len == 0;
	if (!ok)
		set_error(err, errlen, "NVRTC (libnvrtc) is too old (11.2 or later is needed): it lacks %s",
		          missing.data);
	buf_free(&missing);
	return ok;
}

/* ---- open ---- */

static bool make_current(CudaRuntime *rt, char *err, size_t errlen)
{
	return cu_ok(&rt->drv, rt->drv.cuCtxSetCurrent(rt->context), "cuCtxSetCurrent", err, errlen);
}

static bool init_device(CudaRuntime *rt, char *err, size_t errlen)
{
	const CudaDriver *drv = &rt->drv;
	CUcontext context = NULL;
	int major = 0, minor = 0;
	if (!cu_ok(drv, drv->cuInit(0), "cuInit", err, errlen) ||
	    !cu_ok(drv, drv->cuDeviceGet(&rt->device, 0), "cuDeviceGet", err, errlen) ||
	    !cu_ok(drv, drv->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, rt->device),
	           "cuDeviceGetAttribute", err, errlen) ||
	    !cu_ok(drv, drv->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, rt->device),
	           "cuDeviceGetAttribute", err, errlen) ||
	    !cu_ok(drv, drv->cuDevicePrimaryCtxRetain(&context, rt->device), "cuDevicePrimaryCtxRetain", err, errlen))
		return false;
	rt->context = context;
	snprintf(rt->arch, sizeof rt->arch, "sm_%d%d", major, minor);
	return make_current(rt, err, errlen) &&
	       rtc_ok(&rt->rtc, rt->rtc.nvrtcVersion(&rt->nvrtc_major, &rt->nvrtc_minor), "nvrtcVersion", err, errlen);
}

CudaRuntime *cuda_open(char *err, size_t errlen)
{
	set_error(err, errlen, "%s", "");
	CudaRuntime *rt = base_calloc(1, sizeof *rt);
	if (!load_driver(&rt->drv, err, errlen) || !load_nvrtc(&rt->rtc, err, errlen) ||
	    !init_device(rt, err, errlen)) {
		cuda_close(rt);
		return NULL;
	}
	return rt;
}

void cuda_close(CudaRuntime *rt)
{
	if (!rt)
		return;
	if (rt->context) {
		make_current(rt, NULL, 0);
		if (rt->flush_buffer)
			rt->drv.cuMemFree(rt->flush_buffer);
		if (!rt->borrowed)
			rt->drv.cuDevicePrimaryCtxRelease(rt->device);
	}
	/* the driver's libraries stay loaded (a later open finds them so):
	 * libcuda keeps threads of its own, and NVRTC carries its own C++
	 * runtime, whose allocations an unload would leave behind */
	free(rt);
}

const char *cuda_arch(CudaRuntime *rt)
{
	return rt ? rt->arch : "";
}

/* cuda_current's runtimes, newest first, and the lock that guards the list. */
static CudaRuntime *current_runtimes;
static pthread_mutex_t current_lock = PTHREAD_MUTEX_INITIALIZER;

/* A runtime for `context` (current on this thread), sharing `base`'s libraries. */
static CudaRuntime *runtime_for_context(const CudaRuntime *base, CUcontext context, char *err, size_t errlen)
{
	CudaRuntime *rt = base_calloc(1, sizeof *rt);
	rt->drv = base->drv;
	rt->rtc = base->rtc;
	rt->drv.lib = rt->rtc.lib = NULL;   /* the base runtime keeps the libraries open */
	rt->context = context;
	rt->borrowed = true;
	rt->nvrtc_major = base->nvrtc_major;
	rt->nvrtc_minor = base->nvrtc_minor;
	int major = 0, minor = 0;
	const CudaDriver *drv = &rt->drv;
	if (!cu_ok(drv, drv->cuCtxGetDevice(&rt->device), "cuCtxGetDevice", err, errlen) ||
	    !cu_ok(drv, drv->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, rt->device),
	           "cuDeviceGetAttribute", err, errlen) ||
	    !cu_ok(drv, drv->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, rt->device),
	           "cuDeviceGetAttribute", err, errlen)) {
		free(rt);
		return NULL;
	}
	snprintf(rt->arch, sizeof rt->arch, "sm_%d%d", major, minor);
	return rt;
}

/* cuda_open, leaving the thread's current context (if any) current. */
static CudaRuntime *open_keeping_current(char *err, size_t errlen)
{
	CudaRuntime *rt = base_calloc(1, sizeof *rt);
	CUcontext saved = NULL;
	bool ok = load_driver(&rt->drv, err, errlen) && load_nvrtc(&rt->rtc, err, errlen) &&
	          cu_ok(&rt->drv, rt->drv.cuInit(0), "cuInit", err, errlen) &&
	          cu_ok(&rt->drv, rt->drv.cuCtxGetCurrent(&saved), "cuCtxGetCurrent", err, errlen) &&
	          init_device(rt, err, errlen);
	if (!ok) {
		cuda_close(rt);
		return NULL;
	}
	if (saved)
		(void)rt->drv.cuCtxSetCurrent(saved);
	return rt;
}

CudaRuntime *cuda_current(char *err, size_t errlen)
{
	static CudaRuntime *base;   /* device 0's, opened once: the libraries and a context when none is current */
	set_error(err, errlen, "%s", "");
	pthread_mutex_lock(&current_lock);
	CudaRuntime *rt = NULL;
	if (!base)
		base = open_keeping_current(err, errlen);
	CUcontext context = NULL;
	if (base && cu_ok(&base->drv, base->drv.cuCtxGetCurrent(&context), "cuCtxGetCurrent", err, errlen)) {
		if (!context) {   /* none current on this thread: device 0's primary context */
			context = base->context;
			(void)make_current(base, NULL, 0);
		}
		for (rt = current_runtimes; rt && rt->context != context; rt = rt->next)
			;
		if (!rt && (rt = runtime_for_context(base, context, err, errlen)) != NULL) {
			rt->next = current_runtimes;
			current_runtimes = rt;
		}
	}
	pthread_mutex_unlock(&current_lock);
	return rt;
}

/* ---- compile ---- */

/* The cache folder to use: `requested`, else the default; NULL for none. Caller frees. */
static char *cache_folder(const char *requested)
{
	if (requested)
		return requested[0] ? base_strdup(requested) : NULL;
	const char *env = getenv("TRITONC_CACHE");
	if (env && env[0])
		return base_strdup(env);
	Buf folder = {0};
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	if (xdg && xdg[0])
		buf_printf(&folder, "%s/tritonc", xdg);
	else if (home && home[0])
		buf_printf(&folder, "%s/.cache/tritonc", home);
	else
		return NULL;
	return buf_detach(&folder);
}

/* mkdir -p: true when `path` is a folder afterwards. */
static bool make_folders(const char *path)
{
	char *prefix = base_strdup(path);
	for (char *slash = strchr(prefix + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		(void)mkdir(prefix, 0755);
		*slash = '/';
	}
	(void)mkdir(prefix, 0755);
	struct stat st;
	bool is_folder = stat(prefix, &st) == 0 && S_ISDIR(st.st_mode);
	free(prefix);
	return is_folder;
}

/* Everything the cubin depends on: the source, the options, NVRTC's version and the arch. */
static uint64_t cubin_key(const CudaRuntime *rt, const char *source, const char *const *opts, int nopts)
{
	uint64_t h = base_hash_fnv1a(source, strlen(source) + 1, HASH_SEED);
	for (int i = 0; i < nopts; i++)
		h = base_hash_fnv1a(opts[i], strlen(opts[i]) + 1, h);
	char compiler[96];
	int n = snprintf(compiler, sizeof compiler, "nvrtc %d.%d %s", rt->nvrtc_major, rt->nvrtc_minor, rt->arch);
	return base_hash_fnv1a(compiler, (size_t)n, h);
}

/* Where the cubin of this compile lives in the cache; NULL when there is no
 * usable cache folder. Caller frees. */
static char *cubin_cache_path(const CudaRuntime *rt, const char *source, const char *const *opts, int nopts,
                              const char *requested_folder)
{
	char *folder = cache_folder(requested_folder);
	if (!folder || !make_folders(folder)) {
		free(folder);
		return NULL;
	}
	Buf path = {0};
	buf_printf(&path, "%s/%016" PRIx64 ".cubin", folder, cubin_key(rt, source, opts, nopts));
	free(folder);
	return buf_detach(&path);
}

/* The cache's PTX file beside `cubin_path` (KEY.cubin -> KEY.ptx). Caller frees. */
static char *ptx_path_of(const char *cubin_path)
{
	size_t n = strlen(cubin_path);
	char *p = base_malloc(n + 1);
	memcpy(p, cubin_path, n + 1);
	if (n > 6 && !strcmp(p + n - 6, ".cubin"))
		memcpy(p + n - 6, ".ptx", 5);
	return p;
}

/* Loads the cached cubin at `path`, keeping it (and the PTX beside it, when
 * there) in *images; false when there is none or the driver refuses it. */
static bool load_cached_module(CudaRuntime *rt, const char *path, CUmodule *module, CudaImages *images)
{
	size_t len = 0;
	char *cubin = path ? file_read(path, &len) : NULL;
	bool is_elf = cubin && len > 4 && memcmp(cubin, "\177ELF", 4) == 0;
	CUmodule loaded = NULL;
	bool ok = is_elf && rt->drv.cuModuleLoadData(&loaded, cubin) == CUDA_SUCCESS;
	if (!ok) {
		free(cubin);
		return false;
	}
	*module = loaded;
	images->cubin = cubin;
	images->cubin_len = len;
	char *ptx_path = ptx_path_of(path);
	images->ptx = file_read(ptx_path, &images->ptx_len);
	free(ptx_path);
	return true;
}

/* The program's log, without its trailing newlines, into err; the result's
 * name when the log is empty. */
static void report_compile_error(const Nvrtc *rtc, nvrtcProgram program, nvrtcResult result,
                                 char *err, size_t errlen)
{
	size_t size = 0;
	char *log = NULL;
	if (rtc->nvrtcGetProgramLogSize(program, &size) == NVRTC_SUCCESS && size > 1) {
		log = base_malloc(size);
		if (rtc->nvrtcGetProgramLog(program, log) == NVRTC_SUCCESS) {
			log[size - 1] = '\0';
			size_t len = strlen(log);
			while (len > 0 && (log[len - 1] == '\n' || log[len - 1] == '\r'))
				log[--len] = '\0';
		} else {
			log[0] = '\0';
		}
	}
	if (log && log[0])
		set_error(err, errlen, "%s", log);
	else
		rtc_ok(rtc, result, "nvrtcCompileProgram", err, errlen);
	free(log);
}

/* One of NVRTC's outputs (the PTX or the cubin) into *data, NUL-terminated
 * (*len leaves the NUL out). */
static bool fetch_output(const Nvrtc *rtc, nvrtcProgram program, bool ptx, char **data, size_t *len,
                         char *err, size_t errlen)
{
	size_t size = 0;
	const char *what = ptx ? "nvrtcGetPTX" : "nvrtcGetCUBIN";
	if (!rtc_ok(rtc, (ptx ? rtc->nvrtcGetPTXSize : rtc->nvrtcGetCUBINSize)(program, &size),
	            ptx ? "nvrtcGetPTXSize" : "nvrtcGetCUBINSize", err, errlen))
		return false;
	if (size == 0) {
		set_error(err, errlen, "%s: NVRTC made none (is -arch a real sm_XX?)", what);
		return false;
	}
	char *out = base_malloc(size + 1);
	if (!rtc_ok(rtc, (ptx ? rtc->nvrtcGetPTX : rtc->nvrtcGetCUBIN)(program, out), what, err, errlen)) {
		free(out);
		return false;
	}
	out[size] = '\0';
	if (ptx)
		size = strlen(out);   /* NVRTC counts the PTX's NUL */
	*data = out;
	*len = size;
	return true;
}

/* Compiles `source` with NVRTC into *images (PTX and cubin; free with
 * cuda_images_free), or false with the log in err. */
static bool nvrtc_compile(const Nvrtc *rtc, const char *source, const char *const *opts, int nopts,
                          CudaImages *images, char *err, size_t errlen)
{
	*images = (CudaImages){0};
	nvrtcProgram program = NULL;
	if (!rtc_ok(rtc, rtc->nvrtcCreateProgram(&program, source, "kernel.cu", 0, NULL, NULL),
	            "nvrtcCreateProgram", err, errlen))
		return false;
	bool ok = false;
	nvrtcResult result = rtc->nvrtcCompileProgram(program, nopts, opts);
	if (result == NVRTC_SUCCESS)
		ok = fetch_output(rtc, program, false, &images->cubin, &images->cubin_len, err, errlen) &&
		     fetch_output(rtc, program, true, &images->ptx, &images->ptx_len, err, errlen);
	else
		report_compile_error(rtc, program, result, err, errlen);
	rtc->nvrtcDestroyProgram(&program);
	if (!ok)
		cuda_images_free(images);
	return ok;
}

void cuda_images_free(CudaImages *images)
{
	free(images->ptx);
	free(images->cubin);
	*images = (CudaImages){0};
}

/* Compiles, stores the cubin and the PTX in the cache (when `cache_path`; a
 * failed write is no error) and loads the cubin, keeping both in *images. */
static bool compile_and_load(CudaRuntime *rt, const char *source, const char *const *opts, int nopts,
                             const char *cache_path, CUmodule *module, CudaImages *images, char *err,
                             size_t errlen)
{
	if (!nvrtc_compile(&rt->rtc, source, opts, nopts, images, err, errlen))
		return false;
	if (cache_path) {
		char *ptx_path = ptx_path_of(cache_path);
		(void)file_write_atomic(ptx_path, images->ptx, images->ptx_len);   /* first: a cubin finds its PTX */
		(void)file_write_atomic(cache_path, images->cubin, images->cubin_len);
		free(ptx_path);
	}
	CUmodule loaded = NULL;
	bool ok = cu_ok(&rt->drv, rt->drv.cuModuleLoadData(&loaded, images->cubin), "cuModuleLoadData", err, errlen);
	if (ok)
		*module = loaded;
	return ok;
}

bool cuda_nvrtc_images(const char *source, const char *arch, CudaImages *images, char *err, size_t errlen)
{
	set_error(err, errlen, "%s", "");
	*images = (CudaImages){0};
	Nvrtc rtc = {0};
	if (!source || !arch || !load_nvrtc(&rtc, err, errlen)) {
		if (!source || !arch)
			set_error(err, errlen, "cuda_nvrtc_images: no source or arch");
		return false;   /* NVRTC stays loaded, as in cuda_close */
	}
	char arch_opt[64];
	snprintf(arch_opt, sizeof arch_opt, "-arch=%s", arch);
	const char *opts[] = {arch_opt, "-std=c++17", "-default-device"};
	return nvrtc_compile(&rtc, source, opts, 3, images, err, errlen);
}

/* The tensor maps the code takes after its arguments, from its
 * `// tritonc:tmap` lines; false for a line it cannot read (the kernel
 * would be launched with too few parameters). */
static bool parse_tensor_maps(CudaKernel *k, const char *source)
{
	static const char tag[] = "// tritonc:tmap ";
	for (const char *p = strstr(source, tag); p; p = strstr(p + 1, tag)) {
		TensorMapSpec m;
		if (sscanf(p + sizeof tag - 1, "%d %d %d %d %d %d %d %d %d %d %d %d %d", &m.nargs, &m.base, &m.shape0, &m.shape1,
			   &m.stride, &m.elem_bytes, &m.bf16, &m.box_rows, &m.box_cols, &m.swizzle, &m.shape0_bytes,
			   &m.shape1_bytes, &m.stride_bytes) != 13)
			return false;
		int idx[3] = {m.base, m.shape0, m.shape1}, w[3] = {m.shape0_bytes, m.shape1_bytes, m.stride_bytes};
		bool sane = m.stride >= 0 && m.stride < m.nargs;
		for (int i = 0; i < 3; i++)
			sane = sane && idx[i] >= 0 && idx[i] < m.nargs && (w[i] == 4 || w[i] == 8);
		if (!sane)
			return false;
		k->tmaps = base_realloc(k->tmaps, sizeof *k->tmaps * (size_t)(k->ntmaps + 1));
		k->tmaps[k->ntmaps++] = m;
	}
	return true;
}

CudaKernel *cuda_compile(CudaRuntime *rt, const char *source, const char *name,
                         const char *const *extra_opts, const char *cache_dir,
                         char *err, size_t errlen)
{
	set_error(err, errlen, "%s", "");
	if (!rt || !source || !name) {
		set_error(err, errlen, "cuda_compile: no runtime, source or kernel name");
		return NULL;
	}
	if (!make_current(rt, err, errlen))
		return NULL;

	char arch_opt[64];
	snprintf(arch_opt, sizeof arch_opt, "-arch=%s", rt->arch);
	int extra_count = 0;
	while (extra_opts && extra_opts[extra_count]) {
		if (!strncmp(extra_opts[extra_count], "-arch=", 6))   /* the caller's arch instead */
			snprintf(arch_opt, sizeof arch_opt, "%s", extra_opts[extra_count]);
		extra_count++;
	}
	int nopts = 3;
	const char **opts = base_malloc(sizeof *opts * (size_t)(nopts + extra_count));
	opts[0] = arch_opt;
	opts[1] = "-std=c++17";
	opts[2] = "-default-device";
	for (int i = 0; i < extra_count; i++)
		if (strncmp(extra_opts[i], "-arch=", 6))
			opts[nopts++] = extra_opts[i];

	char *cache_path = cubin_cache_path(rt, source, opts, nopts, cache_dir);
	CudaKernel *k = base_calloc(1, sizeof *k);
	k->rt = rt;
	k->shared_limit = DEFAULT_SHARED_LIMIT;
	k->from_cache = load_cached_module(rt, cache_path, &k->module, &k->images);
	bool ok = k->from_cache ||
	          compile_and_load(rt, source, opts, nopts, cache_path, &k->module, &k->images, err, errlen);
	if (ok) {
		char call[256];
		snprintf(call, sizeof call, "cuModuleGetFunction(\"%.200s\")", name);
		ok = cu_ok(&rt->drv, rt->drv.cuModuleGetFunction(&k->function, k->module, name), call, err, errlen);
	}
	free(cache_path);
	free(opts);
	if (ok && !parse_tensor_maps(k, source)) {
		set_error(err, errlen, "cuda_compile: kernel '%s' has a tensor map line (// tritonc:tmap) that does not "
		          "name its arguments", name);
		ok = false;
	}
	if (!ok) {
		cuda_kernel_free(k);
		return NULL;
	}
	return k;
}

bool cuda_kernel_from_cache(const CudaKernel *k)
{
	return k && k->from_cache;
}

const CudaImages *cuda_kernel_images(const CudaKernel *k)
{
	return k ? &k->images : NULL;
}

void cuda_kernel_resources(const CudaKernel *k, int *regs, int *local_bytes)
{
	*regs = *local_bytes = 0;
	if (!k)
		return;
	/* CU_FUNC_ATTRIBUTE_NUM_REGS and CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES */
	(void)k->rt->drv.cuFuncGetAttribute(regs, 4, k->function);
	(void)k->rt->drv.cuFuncGetAttribute(local_bytes, 3, k->function);
}

void cuda_kernel_free(CudaKernel *k)
{
	if (!k)
		return;
	if (k->module && make_current(k->rt, NULL, 0))
		k->rt->drv.cuModuleUnload(k->module);
	cuda_images_free(&k->images);
	free(k->tmaps);
	free(k);
}

/* ---- memory ---- */

int cuda_alloc(CudaRuntime *rt, size_t bytes, uint64_t *dptr, char *err, size_t errlen)
{
	set_error(err, errlen, "%s", "");
	if (!rt || !dptr) {
		set_error(err, errlen, "cuda_alloc: no runtime or no place for the address");
		return -1;
	}
	*dptr = 0;
	CUdeviceptr p = 0;
	if (!make_current(rt, err, errlen) ||
	    !cu_ok(&rt->drv, rt->drv.cuMemAlloc(&p, bytes ? bytes : 1), "cuMemAlloc", err, errlen))
		return -1;
	*dptr = p;
	return 0;
}

void cuda_free(CudaRuntime *rt, uint64_t dptr)
{
	if (rt && dptr && make_current(rt, NULL, 0))
		rt->drv.cuMemFree(dptr);
}

int cuda_upload(CudaRuntime *rt, uint64_t dst, const void *src, size_t bytes, char *err, size_t errlen)
{
	set_error(err, errlen, "%s", "");
	if (bytes == 0)
		return 0;
	if (!rt || !src) {
		set_error(err, errlen, "cuda_upload: no runtime or no source");
		return -1;
	}
	bool ok = make_current(rt, err, errlen) &&
	          cu_ok(&rt->drv, rt->drv.cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD", err, errlen);
	return ok ? 0 : -1;
}

int cuda_download(CudaRuntime *rt, void *dst, uint64_t src, size_t bytes, char *err, size_t errlen)
{
	set_error(err, errlen, "%s", "");
	if (bytes == 0)
		return 0;
	if (!rt || !dst) {
		set_error(err, errlen, "cuda_download: no runtime or no destination");
		return -1;
	}
	bool ok = make_current(rt, err, errlen) &&
	          cu_ok(&rt->drv, rt->drv.cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH", err, errlen);
	return ok ? 0 : -1;
}

/* ---- launch ---- */

static bool valid_launch(const char *who, const CudaKernel *k, const int grid[3], int threads, int shared_bytes,
                         char *err, size_t errlen)
{
	if (!k || !grid) {
		set_error(err, errlen, "%s: no kernel or no grid", who);
		return false;
	}
	if (grid[0] <= 0 || grid[1] <= 0 || grid[2] <= 0 || threads <= 0 || shared_bytes < 0) {
		set_error(err, errlen, "%s: bad launch shape: grid %d x %d x %d, %d threads, %d shared bytes", who,
		          grid[0], grid[1], grid[2], threads, shared_bytes);
		return false;
	}
	return true;
}

/* Queues one launch, first raising the function's dynamic shared memory
 * limit when `shared_bytes` is over it. */
/* ---- tensor maps (the bulk tensor copy engine) ---- */

/* The storage of one launch's parameters with tensor maps: in place for
 * most kernels, from the heap for more maps or arguments than that. */
enum { MAPS_HERE = 8, ARGS_HERE = 120 };
typedef uint64_t TensorMap[16];
typedef struct TensorMapArgs {
	_Alignas(64) TensorMap maps_here[MAPS_HERE];
	void *args_here[ARGS_HERE + MAPS_HERE];
	TensorMap *maps;
	void **args;
	void *heap;
} TensorMapArgs;

static void tensor_map_args_free(TensorMapArgs *tm)
{
	free(tm->heap);
	tm->heap = NULL;
}

/* An integer argument of 4 or 8 bytes, widened. */
static int64_t int_arg(const void *p, int bytes)
{
	if (bytes == 4) {
		int32_t v;
		memcpy(&v, p, sizeof v);
		return v;
	}
	int64_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

/* The kernel's arguments followed by its tensor maps, each encoded with
 * cuTensorMapEncodeTiled from the arguments it names (a 2-D view of
 * 16-bit elements: extents, the row stride in bytes, the box, the
 * swizzle; zeros outside the view). Encoded at every launch, in the
 * caller's storage: cuLaunchKernel copies the parameters, and launches
 * from several threads share nothing. NULL with a message on failure. */
static void **with_tensor_maps(CudaKernel *k, void **args, TensorMapArgs *tm, char *err, size_t errlen)
{
	const CudaDriver *drv = &k->rt->drv;
	int nargs = k->tmaps[0].nargs;
	tm->heap = NULL;
	tm->maps = tm->maps_here;
	tm->args = tm->args_here;
	if (k->ntmaps > MAPS_HERE || nargs > ARGS_HERE) {
		size_t map_bytes = sizeof(TensorMap) * (size_t)k->ntmaps;
		size_t bytes = map_bytes + sizeof(void *) * (size_t)(nargs + k->ntmaps);
		tm->heap = aligned_alloc(64, (bytes + 63) / 64 * 64);
		if (!tm->heap) {
			set_error(err, errlen, "out of memory");
			return NULL;
		}
		tm->maps = tm->heap;
		tm->args = (void **)((char *)tm->heap + map_bytes);
	}
	if (!drv->cuTensorMapEncodeTiled) {
		set_error(err, errlen, "the CUDA driver (libcuda) is too old for the bulk tensor copies: it lacks "
		          "cuTensorMapEncodeTiled");
		return NULL;
	}
	memcpy(tm->args, args, sizeof *args * (size_t)nargs);
	for (int i = 0; i < k->ntmaps; i++) {
		const TensorMapSpec *m = &k->tmaps[i];
		uint64_t base, dims[2], strides[1];
		memcpy(&base, args[m->base], sizeof base);
		int64_t rows = int_arg(args[m->shape0], m->shape0_bytes), cols = int_arg(args[m->shape1], m->shape1_bytes);
		int64_t stride = int_arg(args[m->stride], m->stride_bytes);
		dims[0] = (uint64_t)(cols > 0 ? cols : 1);
		dims[1] = (uint64_t)(rows > 0 ? rows : 1);
		strides[0] = (uint64_t)stride * (uint64_t)m->elem_bytes;
		unsigned box[2] = {(unsigned)m->box_cols, (unsigned)m->box_rows}, ones[2] = {1, 1};
		int swizzle = m->swizzle == 128 ? 3 : m->swizzle == 64 ? 2 : m->swizzle == 32 ? 1 : 0;
		/* fp16 6, bf16 9; no interleave; L2 promotion 256 bytes; zeros outside the view */
		CUresult r = drv->cuTensorMapEncodeTiled(tm->maps[i], m->bf16 ? 9 : 6, 2, (void *)(uintptr_t)base, dims, strides,
		                                         box, ones, 0, swizzle, 3, 0);
		if (!cu_ok(drv, r, "cuTensorMapEncodeTiled", err, errlen)) {
			size_t n = err ? strlen(err) : 0;
			if (err && n < errlen)
				snprintf(err + n, errlen - n, " (a view of %lld x %lld at 0x%llx, rows %lld elements apart, box %d x %d;"
				         " a descriptor's base must be 16-byte aligned and its row stride a multiple of 16 bytes)",
				         (long long)rows, (long long)cols, (unsigned long long)base, (long long)stride, m->box_rows,
				         m->box_cols);
			return NULL;
		}
		tm->args[nargs + i] = tm->maps[i];
	}
	return tm->args;
}

static bool launch_async(CudaKernel *k, const int grid[3], int threads, int shared_bytes, void **args,
                         char *err, size_t errlen)
{
	const CudaDriver *drv = &k->rt->drv;
	if (shared_bytes > k->shared_limit) {
		if (!cu_ok(drv, drv->cuFuncSetAttribute(k->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
		                                        shared_bytes),
		           "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", err, errlen))
			return false;
		k->shared_limit = shared_bytes;
	}
	TensorMapArgs tm;
	tm.heap = NULL;
	if (k->ntmaps && !(args = with_tensor_maps(k, args, &tm, err, errlen))) {
		tensor_map_args_free(&tm);
		return false;
	}
	CUresult result = drv->cuLaunchKernel(k->function, (unsigned)grid[0], (unsigned)grid[1], (unsigned)grid[2],
	                                      (unsigned)threads, 1, 1, (unsigned)shared_bytes, NULL, args, NULL);
	tensor_map_args_free(&tm);
	return cu_ok(drv, result, "cuLaunchKernel", err, errlen);
}

static double clock_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Waits for the work queued so far on the default stream, polling an event
 * recorded behind it, at most `timeout_s` seconds: CUDA_TIMED_OUT past it
 * (cuCtxSynchronize would wait for a kernel that never ends forever). */
static int wait_launch(const CudaDriver *drv, double timeout_s, char *err, size_t errlen)
{
	CUevent ev = NULL;
	if (!cu_ok(drv, drv->cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING), "cuEventCreate", err, errlen))
		return -1;
	if (!cu_ok(drv, drv->cuEventRecord(ev, NULL), "cuEventRecord (after the launch)", err, errlen)) {
		drv->cuEventDestroy(ev);
		return -1;
	}
	double end = clock_seconds() + timeout_s;
	CUresult r;
	struct timespec nap = {0, 200000};   /* 0.2 ms: short next to a launch's own overhead */
	while ((r = drv->cuEventQuery(ev)) == CUDA_ERROR_NOT_READY) {
		if (clock_seconds() > end) {   /* the event stays: the device still works towards it */
			set_error(err, errlen, "did not finish within %g s", timeout_s);
			return CUDA_TIMED_OUT;
		}
		nanosleep(&nap, NULL);
	}
	drv->cuEventDestroy(ev);
	return cu_ok(drv, r, "cuEventQuery (after the launch)", err, errlen) &&
	       cu_ok(drv, drv->cuCtxSynchronize(), "cuCtxSynchronize (after the launch)", err, errlen) ? 0 : -1;
}

int cuda_launch(CudaKernel *k, const int grid[3], int threads, int shared_bytes, void **args,
                char *err, size_t errlen)
{
	return cuda_launch_timed(k, grid, threads, shared_bytes, args, 0, err, errlen);
}

int cuda_launch_timed(CudaKernel *k, const int grid[3], int threads, int shared_bytes, void **args,
                      double timeout_s, char *err, size_t errlen)
{
	set_error(err, errlen, "%s", "");
	if (!valid_launch("cuda_launch", k, grid, threads, shared_bytes, err, errlen))
		return -1;
	const CudaDriver *drv = &k->rt->drv;
	if (!make_current(k->rt, err, errlen) || !launch_async(k, grid, threads, shared_bytes, args, err, errlen))
		return -1;
	if (timeout_s > 0)
		return wait_launch(drv, timeout_s, err, errlen);
	return cu_ok(drv, drv->cuCtxSynchronize(), "cuCtxSynchronize (after the launch)", err, errlen) ? 0 : -1;
}

int cuda_launch_async(CudaKernel *k, const int grid[3], int threads, int shared_bytes, void *stream, void **args,
                      char *err, size_t errlen)
{
	if (!valid_launch("cuda_launch_async", k, grid, threads, shared_bytes, err, errlen))
		return -1;
	const CudaDriver *drv = &k->rt->drv;
	if (shared_bytes > k->shared_limit) {
		if (!cu_ok(drv, drv->cuFuncSetAttribute(k->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
		                                        shared_bytes),
		           "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", err, errlen))
			return -1;
		k->shared_limit = shared_bytes;
	}
	TensorMapArgs tm;
	tm.heap = NULL;
	if (k->ntmaps && !(args = with_tensor_maps(k, args, &tm, err, errlen))) {
		tensor_map_args_free(&tm);
		return -1;
	}
	CUresult result = drv->cuLaunchKernel(k->function, (unsigned)grid[0], (unsigned)grid[1], (unsigned)grid[2],
	                                      (unsigned)threads, 1, 1, (unsigned)shared_bytes, (CUstream)stream, args,
	                                      NULL);
	if (result != CUDA_SUCCESS && make_current(k->rt, NULL, 0))   /* another context was current: retry in ours */
		result = drv->cuLaunchKernel(k->function, (unsigned)grid[0], (unsigned)grid[1], (unsigned)grid[2],
		                             (unsigned)threads, 1, 1, (unsigned)shared_bytes, (CUstream)stream, args, NULL);
	tensor_map_args_free(&tm);
	return cu_ok(drv, result, "cuLaunchKernel", err, errlen) ? 0 : -1;
}

/* Makes the runtime's L2 scratch buffer at least `bytes` long. */
static bool reserve_flush_buffer(CudaRuntime *rt, size_t bytes, char *err, size_t errlen)
{
	if (rt->flush_buffer_bytes >= bytes)
		return true;
	if (rt->flush_buffer)
		rt->drv.cuMemFree(rt->flush_buffer);
	rt->flush_buffer = 0;
	rt->flush_buffer_bytes = 0;
	CUdeviceptr p = 0;
	if (!cu_ok(&rt->drv, rt->drv.cuMemAlloc(&p, bytes), "cuMemAlloc (L2 flush buffer)", err, errlen))
		return false;
	rt->flush_buffer = p;
	rt->flush_buffer_bytes = bytes;
	return true;
}

static bool create_events(const CudaDriver *drv, CUevent *events, int count, char *err, size_t errlen)
{
	for (int i = 0; i < count; i++)
		if (!cu_ok(drv, drv->cuEventCreate(&events[i], CU_EVENT_DEFAULT), "cuEventCreate", err, errlen))
			return false;
	return true;
}

static void destroy_events(const CudaDriver *drv, CUevent *events, int count)
{
	for (int i = 0; i < count; i++)
		if (events[i])
			drv->cuEventDestroy(events[i]);
}

/* Queues the timed launches: launch i between starts[i] and ends[i], each
 * after an L2 flush when flush_bytes > 0. */
static bool queue_timed_launches(CudaKernel *k, const int grid[3], int threads, int shared_bytes, void **args,
                                 int reps, size_t flush_bytes, CUevent *starts, CUevent *ends,
                                 char *err, size_t errlen)
{
	CudaRuntime *rt = k->rt;
	const CudaDriver *drv = &rt->drv;
	for (int i = 0; i < reps; i++) {
		if (flush_bytes > 0 &&
		    !cu_ok(drv, drv->cuMemsetD8(rt->flush_buffer, 0, flush_bytes), "cuMemsetD8 (L2 flush)", err, errlen))
			return false;
		if (!cu_ok(drv, drv->cuEventRecord(starts[i], NULL), "cuEventRecord", err, errlen) ||
		    !launch_async(k, grid, threads, shared_bytes, args, err, errlen) ||
		    !cu_ok(drv, drv->cuEventRecord(ends[i], NULL), "cuEventRecord", err, errlen))
			return false;
	}
	return true;
}

/* Waits for the last launch and reads every launch's time. */
static bool read_times(const CudaDriver *drv, CUevent *starts, CUevent *ends, int reps, float *ms,
                       char *err, size_t errlen)
{
	if (!cu_ok(drv, drv->cuEventSynchronize(ends[reps - 1]), "cuEventSynchronize (after the timed launches)",
	           err, errlen))
		return false;
	for (int i = 0; i < reps; i++)
		if (!cu_ok(drv, drv->cuEventElapsedTime(&ms[i], starts[i], ends[i]), "cuEventElapsedTime", err, errlen))
			return false;
	return true;
}

int cuda_time(CudaKernel *k, const int grid[3], int threads, int shared_bytes, void **args,
              int warmup, int reps, size_t flush_bytes, float *ms, char *err, size_t errlen)
{
	set_error(err, errlen, "%s", "");
	if (!valid_launch("cuda_time", k, grid, threads, shared_bytes, err, errlen))
		return -1;
	if (warmup < 0 || reps < 1 || !ms) {
		set_error(err, errlen, "cuda_time: needs warmup >= 0, reps >= 1 and a place for the times");
		return -1;
	}
	CudaRuntime *rt = k->rt;
	if (!make_current(rt, err, errlen))
		return -1;
	if (flush_bytes > 0 && !reserve_flush_buffer(rt, flush_bytes, err, errlen))
		return -1;

	CUevent *starts = base_calloc((size_t)reps, sizeof *starts);
	CUevent *ends = base_calloc((size_t)reps, sizeof *ends);
	bool ok = create_events(&rt->drv, starts, reps, err, errlen) && create_events(&rt->drv, ends, reps, err, errlen);
	for (int i = 0; ok && i < warmup; i++)
		ok = launch_async(k, grid, threads, shared_bytes, args, err, errlen);
	ok = ok && queue_timed_launches(k, grid, threads, shared_bytes, args, reps, flush_bytes, starts, ends, err, errlen);
	ok = ok && read_times(&rt->drv, starts, ends, reps, ms, err, errlen);
	destroy_events(&rt->drv, starts, reps);
	destroy_events(&rt->drv, ends, reps);
	free(starts);
	free(ends);
	return ok ? 0 : -1;
}
