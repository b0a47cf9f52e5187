/* fake_cuda.c: a stand-in for libcuda on machines without a GPU, for the
 * export tests: it implements the driver entry points the exported
 * launchers call, loads a cubin only on a device of its architecture (or a
 * later minor version) and PTX on one at least as new, as the driver does,
 * and records what it was asked, for test_cuda_fake.c to read through
 * fake_cuda_state(). The device is set with environment variables:
 *   FAKE_CUDA_CONTEXT   the current context, a number (0: none)
 *   FAKE_CUDA_SM        the context's device, e.g. 90 (default)
 *   FAKE_CUDA_MAX_SHARED  the dynamic shared memory a function may opt into
 *   FAKE_CUDA_FAIL_LAUNCH  when set, cuLaunchKernel fails
 *   FAKE_CUDA_PARAM_SIZES  "8,8,4": bytes of each kernel parameter to record */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct FakeState {
	int inits, loads, unloads, launches, pushes;
	char image[64];            /* the last image loaded: "cubin sm_90" or "ptx sm_90" */
	char function[128];        /* the last function launched */
	unsigned grid[3], block[3], shared;
	void *stream;
	int shared_attribute;      /* the last cuFuncSetAttribute value */
	unsigned char params[16][8];
	int nparams;
} FakeState;

static FakeState state;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct Module {
	const unsigned char *image;
	char name[128];
} Module;

FakeState *fake_cuda_state(void);
FakeState *fake_cuda_state(void)
{
	return &state;
}

static int env_int(const char *name, int fallback)
{
	const char *v = getenv(name);
	return v && *v ? atoi(v) : fallback;
}

int cuInit(unsigned flags);
int cuInit(unsigned flags)
{
	(void)flags;
	pthread_mutex_lock(&lock);
	state.inits++;
	pthread_mutex_unlock(&lock);
	return 0;
}

int cuCtxGetCurrent(void **ctx);
int cuCtxGetCurrent(void **ctx)
{
	*ctx = (void *)(uintptr_t)env_int("FAKE_CUDA_CONTEXT", 0);
	return 0;
}

int cuCtxGetDevice(int *dev);
int cuCtxGetDevice(int *dev)
{
	*dev = 0;
	return env_int("FAKE_CUDA_CONTEXT", 0) ? 0 : 201;
}

int cuCtxPushCurrent_v2(void *ctx);
int cuCtxPushCurrent_v2(void *ctx)
{
	(void)ctx;
	pthread_mutex_lock(&lock);
	state.pushes++;
	pthread_mutex_unlock(&lock);
	return 0;
}

int cuCtxPopCurrent_v2(void **ctx);
int cuCtxPopCurrent_v2(void **ctx)
{
	*ctx = NULL;
	return 0;
}

int cuDeviceGetAttribute(int *v, int attribute, int dev);
int cuDeviceGetAttribute(int *v, int attribute, int dev)
{
	(void)dev;
	int sm = env_int("FAKE_CUDA_SM", 90);
	if (attribute == 75)
		*v = sm / 10;
	else if (attribute == 76)
		*v = sm % 10;
	else
		return 1;
	return 0;
}

/* The architecture of an image: a cubin's ELF flags, PTX's .target line. */
static int image_sm(const unsigned char *image, int *ptx)
{
	if (!memcmp(image, "\177ELF", 4)) {
		uint32_t flags;
		memcpy(&flags, image + 48, 4);
		*ptx = 0;
		return (int)((flags >> 8) & 0xff);
	}
	*ptx = 1;
	const char *t = strstr((const char *)image, ".target sm_");
	return t ? atoi(t + 11) : -1;
}

int cuModuleLoadData(void **module, const void *image);
int cuModuleLoadData(void **module, const void *image)
{
	int ptx, sm = image_sm(image, &ptx), dev = env_int("FAKE_CUDA_SM", 90);
	bool ok = ptx ? sm > 0 && sm <= dev : sm == dev || (sm / 10 == dev / 10 && sm <= dev);
	if (!ok)
		return 209;   /* CUDA_ERROR_NO_BINARY_FOR_GPU */
	Module *m = calloc(1, sizeof *m);
	m->image = image;
	*module = m;
	pthread_mutex_lock(&lock);
	state.loads++;
	snprintf(state.image, sizeof state.image, "%s sm_%d", ptx ? "ptx" : "cubin", sm);
	pthread_mutex_unlock(&lock);
	return 0;
}

int cuModuleUnload(void *module);
int cuModuleUnload(void *module)
{
	free(module);
	pthread_mutex_lock(&lock);
	state.unloads++;
	pthread_mutex_unlock(&lock);
	return 0;
}

int cuModuleGetFunction(void **fn, void *module, const char *name);
int cuModuleGetFunction(void **fn, void *module, const char *name)
{
	Module *m = module;
	/* the name must be in the image: a cubin's string table (the ELF file
	 * ends with its section headers), PTX's .entry line */
	int found;
	if (m->image[0] == 0x7f) {
		uint64_t shoff;
		uint16_t shentsize, shnum;
		memcpy(&shoff, m->image + 0x28, 8);
		memcpy(&shentsize, m->image + 0x3a, 2);
		memcpy(&shnum, m->image + 0x3c, 2);
		found = memmem(m->image, shoff + (uint64_t)shentsize * shnum, name, strlen(name) + 1) != NULL;
	} else {
		char entry[160];
		snprintf(entry, sizeof entry, ".entry %s(", name);
		found = strstr((const char *)m->image, entry) != NULL;
	}
	if (!found)
		return 500;   /* CUDA_ERROR_NOT_FOUND */
	snprintf(m->name, sizeof m->name, "%s", name);
	*fn = m;
	return 0;
}

int cuFuncSetAttribute(void *fn, int attribute, int value);
int cuFuncSetAttribute(void *fn, int attribute, int value)
{
	(void)fn;
	if (attribute != 8)
		return 1;
	pthread_mutex_lock(&lock);
	state.shared_attribute = value;
	pthread_mutex_unlock(&lock);
	return value > env_int("FAKE_CUDA_MAX_SHARED", 232448) ? 1 : 0;
}

int cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
		   unsigned shared, void *stream, void **params, void **extra);
int cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
		   unsigned shared, void *stream, void **params, void **extra)
{
	(void)extra;
	if (getenv("FAKE_CUDA_FAIL_LAUNCH"))
		return 719;   /* CUDA_ERROR_LAUNCH_FAILED */
	pthread_mutex_lock(&lock);
	state.launches++;
	snprintf(state.function, sizeof state.function, "%s", ((Module *)fn)->name);
	state.grid[0] = gx, state.grid[1] = gy, state.grid[2] = gz;
	state.block[0] = bx, state.block[1] = by, state.block[2] = bz;
	state.shared = shared;
	state.stream = stream;
	const char *sizes = getenv("FAKE_CUDA_PARAM_SIZES");
	state.nparams = 0;
	memset(state.params, 0, sizeof state.params);
	for (const char *s = sizes; s && *s && state.nparams < 16;) {
		int n = atoi(s);
		memcpy(state.params[state.nparams], params[state.nparams], (size_t)(n > 8 ? 8 : n));
		state.nparams++;
		s = strchr(s, ',');
		s = s ? s + 1 : NULL;
	}
	pthread_mutex_unlock(&lock);
	return 0;
}
