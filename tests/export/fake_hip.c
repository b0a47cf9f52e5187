/* fake_hip.c: a stand-in for the HIP runtime and hiprtc on machines
 * without an AMD GPU, for the export tests: the entry points the exported
 * HIP launchers call. A code object loads only on a device of the
 * architecture it names (an offload bundle names its targets as
 * "...--gfx90a"); hiprtc "compiles" source into a small object naming the
 * architecture it was asked for. What it is asked is kept for
 * test_hip_fake.c to read through fake_hip_state(). The devices:
 *   FAKE_HIP_DEVICE   the current device, a number (-1: none)
 *   FAKE_HIP_ARCH<N>  device N's architecture, e.g. gfx90a */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct FakeState {
	int inits, loads, unloads, launches, compiles;
	char image[64];        /* the last image loaded: "code object gfx90a" or "hiprtc gfx1030" */
	char compiled_for[64]; /* the last hiprtc --gpu-architecture */
	char function[128];
	unsigned grid[3], block[3], shared;
	void *stream;
} FakeState;

static FakeState state;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int set_device = -1;   /* hipSetDevice's, else FAKE_HIP_DEVICE */

typedef struct Module {
	char arch[32];
	const char *text;      /* where to look for function names */
	size_t len;
	char name[128];
} Module;

FakeState *fake_hip_state(void);
FakeState *fake_hip_state(void)
{
	return &state;
}

static int current(void)
{
	if (set_device >= 0)
		return set_device;
	const char *v = getenv("FAKE_HIP_DEVICE");
	return v && *v ? atoi(v) : -1;
}

static const char *arch_of(int dev)
{
	char name[32];
	snprintf(name, sizeof name, "FAKE_HIP_ARCH%d", dev);
	const char *a = getenv(name);
	return a ? a : "gfx90a";
}

int hipInit(unsigned flags);
int hipInit(unsigned flags)
{
	(void)flags;
	state.inits++;
	return 0;
}

int hipGetDevice(int *dev);
int hipGetDevice(int *dev)
{
	*dev = current();
	return *dev >= 0 ? 0 : 100;   /* hipErrorNoDevice */
}

int hipSetDevice(int dev);
int hipSetDevice(int dev)
{
	set_device = dev;
	return 0;
}

int hipModuleLoadData(void **module, const void *image);
int hipModuleLoadData(void **module, const void *image)
{
	const char *want = arch_of(current()), *kind;
	char tag[40];
	const char *p = image;
	size_t len;
	if (!strncmp(p, "FAKEOBJ ", 8)) {   /* from the fake hiprtc */
		kind = "hiprtc";
		len = strlen(p);
		if (strncmp(p + 8, want, strlen(want)) || p[8 + strlen(want)] != ' ')
			return 209;
	} else {
		/* an offload bundle: its magic, the number of entries, then each
		 * entry's offset, size, and target triple ("...--gfx90a") */
		kind = "code object";
		if (memcmp(p, "__CLANG_OFFLOAD_BUNDLE__", 24))
			return 200;   /* hipErrorInvalidImage */
		uint64_t n, end = 32, off, size, tlen;
		memcpy(&n, p + 24, 8);
		const char *e = p + 32;
		for (uint64_t i = 0; i < n && i < 16; i++) {
			memcpy(&off, e, 8);
			memcpy(&size, e + 8, 8);
			memcpy(&tlen, e + 16, 8);
			e += 24 + tlen;
			end = off + size > end ? off + size : end;
		}
		len = (size_t)end;
		snprintf(tag, sizeof tag, "--%s", want);
		const char *hit = memmem(p, (size_t)(e - p), tag, strlen(tag));
		if (!hit || (hit[strlen(tag)] >= '0' && hit[strlen(tag)] <= '9') ||
		    (hit[strlen(tag)] >= 'a' && hit[strlen(tag)] <= 'z'))
			return 209;   /* hipErrorNoBinaryForGpu */
	}
	Module *m = calloc(1, sizeof *m);
	snprintf(m->arch, sizeof m->arch, "%s", want);
	m->text = p;
	m->len = len;
	*module = m;
	pthread_mutex_lock(&lock);
	state.loads++;
	snprintf(state.image, sizeof state.image, "%s %s", kind, want);
	pthread_mutex_unlock(&lock);
	return 0;
}

int hipModuleUnload(void *module);
int hipModuleUnload(void *module)
{
	free(module);
	pthread_mutex_lock(&lock);
	state.unloads++;
	pthread_mutex_unlock(&lock);
	return 0;
}

int hipModuleGetFunction(void **fn, void *module, const char *name);
int hipModuleGetFunction(void **fn, void *module, const char *name)
{
	Module *m = module;
	if (!memmem(m->text, m->len, name, strlen(name)))
		return 500;   /* hipErrorNotFound */
	snprintf(m->name, sizeof m->name, "%s", name);
	*fn = m;
	return 0;
}

int hipModuleLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
			  unsigned shared, void *stream, void **params, void **extra);
int hipModuleLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
			  unsigned shared, void *stream, void **params, void **extra)
{
	(void)params;
	(void)extra;
	pthread_mutex_lock(&lock);
	state.launches++;
	snprintf(state.function, sizeof state.function, "%s", ((Module *)fn)->name);
	state.grid[0] = gx, state.grid[1] = gy, state.grid[2] = gz;
	state.block[0] = bx, state.block[1] = by, state.block[2] = bz;
	state.shared = shared;
	state.stream = stream;
	pthread_mutex_unlock(&lock);
	return 0;
}

/* ---- hiprtc ---- */

typedef struct Program {
	char *source;
	char *code;
} Program;

int hiprtcCreateProgram(void **prog, const char *src, const char *name, int n, const char *const *h,
			const char *const *i);
int hiprtcCreateProgram(void **prog, const char *src, const char *name, int n, const char *const *h,
			const char *const *i)
{
	(void)name, (void)n, (void)h, (void)i;
	Program *p = calloc(1, sizeof *p);
	p->source = strdup(src);
	*prog = p;
	return 0;
}

int hiprtcCompileProgram(void *prog, int n, const char *const *opts);
int hiprtcCompileProgram(void *prog, int n, const char *const *opts)
{
	Program *p = prog;
	const char *arch = NULL;
	for (int i = 0; i < n; i++)
		if (!strncmp(opts[i], "--gpu-architecture=", 19))
			arch = opts[i] + 19;
	if (!arch || !strstr(p->source, "__global__"))
		return 6;   /* HIPRTC_ERROR_COMPILATION */
	size_t len = strlen(p->source) + 64;
	p->code = malloc(len);
	snprintf(p->code, len, "FAKEOBJ %s %s", arch, p->source);
	pthread_mutex_lock(&lock);
	state.compiles++;
	snprintf(state.compiled_for, sizeof state.compiled_for, "%s", arch);
	pthread_mutex_unlock(&lock);
	return 0;
}

int hiprtcGetCodeSize(void *prog, size_t *n);
int hiprtcGetCodeSize(void *prog, size_t *n)
{
	*n = strlen(((Program *)prog)->code) + 1;
	return 0;
}

int hiprtcGetCode(void *prog, char *code);
int hiprtcGetCode(void *prog, char *code)
{
	strcpy(code, ((Program *)prog)->code);
	return 0;
}

int hiprtcDestroyProgram(void **prog);
int hiprtcDestroyProgram(void **prog)
{
	Program *p = *prog;
	free(p->source);
	free(p->code);
	free(p);
	*prog = NULL;
	return 0;
}
