/* The exported HIP launcher against fake_hip.c, a stand-in HIP runtime
 * and hiprtc (no AMD GPU here): each device gets the code object of its
 * own architecture and the block of its wavefront width (256 threads for
 * 4 warps on gfx90a, 128 on gfx1030), once; a device of no exported
 * architecture and no device at all are error codes. Built with -DHIPRTC
 * for an export without hipcc: the source compiled by hiprtc for the
 * device's architecture. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>

#include "check.h"
#include "triton_per_fused_mul_pow_rsqrt_0.h"

#define RMS triton_per_fused_mul_pow_rsqrt_0

typedef struct FakeState {
	int inits, loads, unloads, launches, compiles;
	char image[64];
	char compiled_for[64];
	char function[128];
	unsigned grid[3], block[3], shared;
	void *stream;
} FakeState;

#ifdef HIPRTC
#define KIND "hiprtc"
#else
#define KIND "code object"
#endif

int main(void)
{
	rng_seed();
	void *lib = dlopen(FAKE_HIP, RTLD_NOW);
	FakeState *(*state)(void) = lib ? (FakeState * (*)(void)) dlsym(lib, "fake_hip_state") : NULL;
	if (!state) {
		CHECK(0, "cannot open the stand-in runtime %s", FAKE_HIP);
		return 1;
	}
	FakeState *fake = state();
	float *x = (float *)(uintptr_t)0x7000100;
	int rows = 1 + (int)((rng_float() + 1) * 500), rc;
	setenv("FAKE_HIP_ARCH0", "gfx90a", 1);
	setenv("FAKE_HIP_ARCH1", "gfx1030", 1);
	setenv("FAKE_HIP_ARCH2", "gfx942", 1);

	setenv("FAKE_HIP_DEVICE", "-1", 1);
	rc = RMS(NULL, x, x, x, rows, 4096);
	CHECK(rc == TRITONC_ERROR_NO_CONTEXT, "no device: TRITONC_ERROR_NO_CONTEXT (rc %d)", rc);

	setenv("FAKE_HIP_DEVICE", "0", 1);
	void *stream = (void *)(uintptr_t)0x5150;
	rc = RMS(stream, x, x, x, rows, 4096);
	CHECK(rc == 0 && !strcmp(fake->image, KIND " gfx90a") && fake->block[0] == 256 &&
	      fake->grid[0] == (unsigned)(rows + 1) / 2 && fake->stream == stream &&
	      !strcmp(fake->function, "triton_per_fused_mul_pow_rsqrt_0__v0"),
	      "gfx90a: its %s, 4 warps of 64 lanes, grid %u for %d rows (rc %d, %s, block %u)", KIND, fake->grid[0], rows,
	      rc, fake->image, fake->block[0]);
#ifdef HIPRTC
	CHECK(!strcmp(fake->compiled_for, "gfx90a"), "hiprtc compiled for gfx90a (%s)", fake->compiled_for);
#endif
	setenv("FAKE_HIP_DEVICE", "1", 1);
	rc = RMS(stream, x, x, x, rows, 4096);
	CHECK(rc == 0 && !strcmp(fake->image, KIND " gfx1030") && fake->block[0] == 128,
	      "gfx1030: its %s, 4 warps of 32 lanes (rc %d, %s, block %u)", KIND, rc, fake->image, fake->block[0]);
#ifdef HIPRTC
	CHECK(!strcmp(fake->compiled_for, "gfx1030"), "hiprtc compiled for gfx1030 (%s)", fake->compiled_for);
#endif
	int loads = fake->loads;
	setenv("FAKE_HIP_DEVICE", "0", 1);
	rc = RMS(stream, x, x, x, rows, 4096);
	CHECK(rc == 0 && fake->loads == loads && fake->block[0] == 256, "back on gfx90a: nothing loaded again (rc %d)", rc);
	setenv("FAKE_HIP_DEVICE", "2", 1);
	rc = RMS(stream, x, x, x, rows, 4096);
	CHECK(rc == TRITONC_ERROR_NO_BINARY, "gfx942, not exported: TRITONC_ERROR_NO_BINARY (rc %d)", rc);
	setenv("FAKE_HIP_DEVICE", "0", 1);
	rc = RMS(stream, x, x, x, -rows - 2, 4096);
	CHECK(rc == TRITONC_ERROR_INVALID_GRID, "a negative xnumel: TRITONC_ERROR_INVALID_GRID (rc %d)", rc);
	rc = triton_per_fused_mul_pow_rsqrt_0_unload();
	CHECK(rc == 0 && fake->unloads == fake->loads, "unload: every module on every device (%d of %d)", fake->unloads,
	      fake->loads);
	CHECK(fake->inits == 1, "the runtime is initialized once (%d)", fake->inits);
	return failures != 0;
}
