/* The exported CUDA launchers against fake_cuda.c, a stand-in driver that
 * records what it is asked (no GPU here; tests/gpu runs the same launchers
 * on one): the image chosen for each architecture, one module load per
 * context however many threads race to it, the grid, block, shared memory,
 * stream and arguments of the launch, the dispatch between variants, and
 * the error codes of the driver's side (no context, no binary, shared
 * memory refused, a failed launch, a bad grid). */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <pthread.h>

#include "check.h"
#include "gemm_triton.h"
#include "triton_per_fused_mul_pow_rsqrt_0.h"

#define RMS triton_per_fused_mul_pow_rsqrt_0

typedef struct FakeState {
	int inits, loads, unloads, launches, pushes;
	char image[64];
	char function[128];
	unsigned grid[3], block[3], shared;
	void *stream;
	int shared_attribute;
	unsigned char params[16][8];
	int nparams;
} FakeState;

static FakeState *fake;

static void context(int ctx, int sm)
{
	char v[16];
	snprintf(v, sizeof v, "%d", ctx);
	setenv("FAKE_CUDA_CONTEXT", v, 1);
	snprintf(v, sizeof v, "%d", sm);
	setenv("FAKE_CUDA_SM", v, 1);
}

static int64_t param(int i, int size)
{
	int64_t v = 0;
	memcpy(&v, fake->params[i], (size_t)size);
	return size == 4 ? (int64_t)(int32_t)v : v;
}

static float *const X = (float *)(uintptr_t)0x7000100, *const W = (float *)(uintptr_t)0x7000200,
		    *const O = (float *)(uintptr_t)0x7000300;

static void *race(void *arg)
{
	int *rc = arg;
	*rc = RMS(NULL, X, W, O, 64, 4096);
	return NULL;
}

int main(void)
{
	rng_seed();
	void *lib = dlopen(FAKE_CUDA, RTLD_NOW);
	FakeState *(*state)(void) = lib ? (FakeState * (*)(void)) dlsym(lib, "fake_cuda_state") : NULL;
	if (!state) {
		CHECK(0, "cannot open the stand-in driver %s", FAKE_CUDA);
		return 1;
	}
	fake = state();
	setenv("FAKE_CUDA_PARAM_SIZES", "8,8,8,4,4", 1);
	int rows = 1 + (int)((rng_float() + 1) * 500), rc;

	context(0, 90);
	rc = RMS(NULL, X, W, O, rows, 4096);
	CHECK(rc == TRITONC_ERROR_NO_CONTEXT, "no current context: TRITONC_ERROR_NO_CONTEXT (rc %d)", rc);

	context(1, 90);
	void *stream = (void *)(uintptr_t)0xabc0;
	rc = RMS(stream, X, W, O, rows, 4096);
	CHECK(rc == 0 && !strcmp(fake->image, "cubin sm_90") && !strcmp(fake->function, "triton_per_fused_mul_pow_rsqrt_0__v0"),
	      "sm_90: the aligned variant's sm_90 cubin (rc %d, %s, %s)", rc, fake->image, fake->function);
	CHECK(fake->grid[0] == (unsigned)(rows + 1) / 2 && fake->grid[1] == 1 && fake->grid[2] == 1 && fake->block[0] == 128 &&
	      fake->block[1] == 1 && fake->shared == 0 && fake->stream == stream,
	      "%d rows: grid %u,%u,%u (cdiv(xnumel, XBLOCK=2)), block %u, shared %u, the caller's stream", rows,
	      fake->grid[0], fake->grid[1], fake->grid[2], fake->block[0], fake->shared);
	CHECK(param(0, 8) == (int64_t)(uintptr_t)X && param(1, 8) == (int64_t)(uintptr_t)W &&
	      param(2, 8) == (int64_t)(uintptr_t)O && param(3, 4) == rows && param(4, 4) == 4096,
	      "the kernel gets the arguments in order");
	int loads = fake->loads;
	rc = RMS(stream, X, W, O, rows, 4096);
	CHECK(rc == 0 && fake->loads == loads && fake->launches == 2, "a second launch in the context loads nothing");

	context(2, 90);
	pthread_t t[8];
	int rcs[8];
	for (int i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, race, &rcs[i]);
	int all = 0;
	for (int i = 0; i < 8; i++) {
		pthread_join(t[i], NULL);
		all |= rcs[i];
	}
	CHECK(all == 0 && fake->loads == loads + 1, "8 threads launching at once in a new context: one load (%d)",
	      fake->loads - loads);

	context(3, 86);
	rc = RMS(NULL, X, W, O, rows, 4096);
	CHECK(rc == 0 && !strcmp(fake->image, "cubin sm_80"), "sm_86: the sm_80 cubin (rc %d, %s)", rc, fake->image);
	context(4, 100);
	rc = RMS(NULL, X, W, O, rows, 4096);
	CHECK(rc == 0 && !strcmp(fake->image, "ptx sm_90"), "sm_100: the PTX (rc %d, %s)", rc, fake->image);
	context(5, 75);
	rc = RMS(NULL, X, W, O, rows, 4096);
	CHECK(rc == TRITONC_ERROR_NO_BINARY, "sm_75: TRITONC_ERROR_NO_BINARY (rc %d)", rc);

	context(1, 90);
	rc = RMS(NULL, X + 1, W, O, rows, 4096);
	CHECK(rc == 0 && !strcmp(fake->function, "triton_per_fused_mul_pow_rsqrt_0__v1"),
	      "an unaligned buffer: the general variant (rc %d, %s)", rc, fake->function);
	rc = RMS(NULL, X, W, O, rows, 4090);
	CHECK(rc == 0 && !strcmp(fake->function, "triton_per_fused_mul_pow_rsqrt_0__v1"),
	      "rnumel 4090 (not a multiple of 16): the general variant (rc %d, %s)", rc, fake->function);
	rc = RMS(NULL, X, W, O, -rows - 2, 4096);
	CHECK(rc == TRITONC_ERROR_INVALID_GRID, "a negative xnumel: TRITONC_ERROR_INVALID_GRID (rc %d)", rc);
	int launches = fake->launches;
	rc = RMS(NULL, X, W, O, 0, 4096);
	CHECK(rc == 0 && fake->launches == launches, "xnumel 0: nothing launched (rc %d)", rc);
	setenv("FAKE_CUDA_FAIL_LAUNCH", "1", 1);
	rc = RMS(NULL, X, W, O, rows, 4096);
	CHECK(rc == TRITONC_ERROR_LAUNCH, "the driver fails the launch: TRITONC_ERROR_LAUNCH (rc %d)", rc);
	unsetenv("FAKE_CUDA_FAIL_LAUNCH");

	int unloads = fake->unloads;
	rc = triton_per_fused_mul_pow_rsqrt_0_unload();
	CHECK(rc == 0 && fake->unloads - unloads == fake->loads, "unload: every module loaded (%d of %d)",
	      fake->unloads - unloads, fake->loads);
	loads = fake->loads;
	rc = RMS(NULL, X, W, O, rows, 4096);
	CHECK(rc == 0 && fake->loads == loads + 1, "after unload the next launch loads again (rc %d)", rc);

	/* GEMM: dynamic shared memory past 48 KiB, a 2-D grid */
	setenv("FAKE_CUDA_PARAM_SIZES", "8,8,8,4,4,4,4,4,4", 1);
	context(6, 80);
	int M = 1008, N = 528, Kd = 256;
	rc = gemm_triton(NULL, (uint16_t *)X, (uint16_t *)W, (uint16_t *)O, M, N, Kd, Kd, 1, N, 1, N, 1);
	CHECK(rc == 0 && fake->grid[0] == 8 && fake->grid[1] == 5 && fake->block[0] == 128 && fake->shared > 48 * 1024 &&
	      fake->shared_attribute == (int)fake->shared && param(3, 4) == M && param(4, 4) == N && param(7, 4) == N,
	      "gemm %dx%d: grid %u,%u, block %u, %u bytes of dynamic shared memory asked for (attribute %d)", M, N,
	      fake->grid[0], fake->grid[1], fake->block[0], fake->shared, fake->shared_attribute);
	rc = gemm_triton(NULL, (uint16_t *)X, (uint16_t *)W, (uint16_t *)O, M, 65536 * 128 + 16, Kd, Kd, 1, N, 1, N, 1);
	CHECK(rc == TRITONC_ERROR_INVALID_GRID, "gemm with 65537 programs along y: TRITONC_ERROR_INVALID_GRID (rc %d)", rc);
	context(7, 80);
	setenv("FAKE_CUDA_MAX_SHARED", "49152", 1);
	rc = gemm_triton(NULL, (uint16_t *)X, (uint16_t *)W, (uint16_t *)O, M, N, Kd, Kd, 1, N, 1, N, 1);
	CHECK(rc == TRITONC_ERROR_SHARED_MEMORY, "a device with 48 KiB: TRITONC_ERROR_SHARED_MEMORY (rc %d)", rc);
	unsetenv("FAKE_CUDA_MAX_SHARED");
	rc = gemm_triton(NULL, (uint16_t *)X + 1, (uint16_t *)W, (uint16_t *)O, M, N, Kd, Kd, 1, N, 1, N, 1);
	CHECK(rc == TRITONC_ERROR_NO_VARIANT, "gemm on an unaligned buffer, only aligned variants: TRITONC_ERROR_NO_VARIANT (rc %d)", rc);
	CHECK(fake->inits == 2, "the driver is initialized once by each of the two kernels (%d)", fake->inits);
	return failures != 0;
}
