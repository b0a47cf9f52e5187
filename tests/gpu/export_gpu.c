/* The exported CUDA launchers of the seed RMSNorm and GEMM on a GPU, from a
 * C program that owns its buffers (cuMemAlloc) and streams, in two contexts
 * of device 0 (its primary context and one it creates), checked against
 * Triton's outputs (tests/gpu/export_triton.py), then the launch overhead.
 *
 *   export_gpu inputs DIR   random inputs into DIR
 *   export_gpu check DIR    run and compare with the .out files of DIR
 *   export_gpu bench        host time of a launch through the exported launcher
 *
 * Its own driver calls are declared here (no CUDA header) and linked with -lcuda. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gemm_triton.h"
#include "triton_per_fused_mul_pow_rsqrt_0.h"

typedef int CUresult;
typedef void *CUcontext;
typedef void *CUstream;
typedef unsigned long long CUdeviceptr;
CUresult cuInit(unsigned flags);
CUresult cuDeviceGet(int *dev, int ordinal);
CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, int dev);
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuCtxSynchronize(void);
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes);
CUresult cuMemFree_v2(CUdeviceptr p);
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes);
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes);
CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char v, size_t n);
CUresult cuStreamCreate(CUstream *s, unsigned flags);
CUresult cuStreamSynchronize(CUstream s);

#define RMS triton_per_fused_mul_pow_rsqrt_0
enum { ROWS = 4099, RN = 4096 };
/* the GEMM shapes: multiples of 16 (the specialized variant) and not (the general one) */
static const int shapes[2][3] = {{528, 1040, 512}, {500, 260, 200}};
static int failures;

#define CHECK(cond, ...)                                  \
	do {                                              \
		printf("%s ", (cond) ? "PASS" : "FAIL"); \
		printf(__VA_ARGS__);                      \
		putchar('\n');                            \
		failures += !(cond);                      \
	} while (0)

#define CU(call)                                                                  \
	do {                                                                      \
		CUresult r_ = (call);                                             \
		if (r_) {                                                         \
			printf("FAIL gpu export: %s returned %d\n", #call, r_); \
			exit(1);                                                  \
		}                                                                 \
	} while (0)

static void *read_file(const char *dir, const char *name, size_t bytes)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	void *p = malloc(bytes);
	if (!f || fread(p, 1, bytes, f) != bytes) {
		printf("FAIL gpu export: cannot read %s\n", path);
		exit(1);
	}
	fclose(f);
	return p;
}

static void write_file(const char *dir, const char *name, const void *p, size_t bytes)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, bytes, f) != bytes) {
		printf("FAIL gpu export: cannot write %s\n", path);
		exit(1);
	}
	fclose(f);
}

static uint64_t rng = 88172645463325252ull;
static float uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (float)((double)(rng >> 11) / 9007199254740992.0 * 2 - 1);
}

static uint16_t to_half(float x)   /* round to nearest even; |x| <= 1 */
{
	uint32_t u;
	memcpy(&u, &x, 4);
	uint32_t sign = (u >> 16) & 0x8000u, e = (u >> 23) & 0xff, m = u & 0x7fffffu;
	if (e < 113)
		return (uint16_t)sign;   /* below fp16's normal range: zero (inputs are uniform in [-1, 1)) */
	uint32_t h = ((e - 112) << 10) | (m >> 13), rest = m & 0x1fffu;
	h += rest > 0x1000u || (rest == 0x1000u && (h & 1));
	return (uint16_t)(sign | h);
}

static float from_half(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	float v = e ? ldexpf((float)(m | 0x400), e - 25) : ldexpf((float)m, -24);
	return h & 0x8000 ? -v : v;
}

static void inputs(const char *dir)
{
	rng ^= (uint64_t)time(NULL);
	size_t nx = (size_t)ROWS * RN;
	float *x = malloc(nx * 4), *w = malloc(RN * 4);
	for (size_t i = 0; i < nx; i++)
		x[i] = uniform();
	for (int i = 0; i < RN; i++)
		w[i] = uniform();
	write_file(dir, "x.bin", x, nx * 4);
	write_file(dir, "w.bin", w, RN * 4);
	for (int s = 0; s < 2; s++) {
		int M = shapes[s][0], N = shapes[s][1], K = shapes[s][2];
		uint16_t *a = malloc((size_t)M * K * 2), *b = malloc((size_t)K * N * 2);
		for (int i = 0; i < M * K; i++)
			a[i] = to_half(uniform());
		for (int i = 0; i < K * N; i++)
			b[i] = to_half(uniform());
		char name[32];
		snprintf(name, sizeof name, "a%d.bin", s);
		write_file(dir, name, a, (size_t)M * K * 2);
		snprintf(name, sizeof name, "b%d.bin", s);
		write_file(dir, name, b, (size_t)K * N * 2);
		free(a);
		free(b);
	}
	free(x);
	free(w);
}

/* max |got - want| / max(|want|, rms(want)); infinite on a NaN */
static double error(const float *got, const float *want, size_t n)
{
	double ss = 0, worst = 0;
	for (size_t i = 0; i < n; i++)
		ss += (double)want[i] * want[i];
	double rms = sqrt(ss / (double)n);
	for (size_t i = 0; i < n; i++) {
		double scale = fabs(want[i]) > rms ? fabs(want[i]) : rms;
		double e = fabs((double)got[i] - want[i]) / scale;
		if (!(e <= worst))
			worst = isnan(e) ? INFINITY : e;
	}
	return worst;
}

static double now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

typedef struct Run {
	CUdeviceptr x, w, y, a[2], b[2], c[2];
	CUstream s1, s2;
} Run;

/* In the current context: buffers, two streams, RMSNorm on one and the GEMMs on both. */
static void start(Run *r, const char *dir, const char *ctx)
{
	size_t nx = (size_t)ROWS * RN * 4;
	void *x = read_file(dir, "x.bin", nx), *w = read_file(dir, "w.bin", RN * 4);
	CU(cuMemAlloc_v2(&r->x, nx));
	CU(cuMemAlloc_v2(&r->w, RN * 4));
	CU(cuMemAlloc_v2(&r->y, nx));
	CU(cuMemcpyHtoD_v2(r->x, x, nx));
	CU(cuMemcpyHtoD_v2(r->w, w, RN * 4));
	CU(cuMemsetD8_v2(r->y, 0xff, nx));   /* NaNs: a program that does not run fails the check */
	CU(cuStreamCreate(&r->s1, 1));
	CU(cuStreamCreate(&r->s2, 1));
	for (int s = 0; s < 2; s++) {
		int M = shapes[s][0], N = shapes[s][1], K = shapes[s][2];
		char name[32];
		snprintf(name, sizeof name, "a%d.bin", s);
		void *a = read_file(dir, name, (size_t)M * K * 2);
		snprintf(name, sizeof name, "b%d.bin", s);
		void *b = read_file(dir, name, (size_t)K * N * 2);
		CU(cuMemAlloc_v2(&r->a[s], (size_t)M * K * 2));
		CU(cuMemAlloc_v2(&r->b[s], (size_t)K * N * 2));
		CU(cuMemAlloc_v2(&r->c[s], (size_t)M * N * 2));
		CU(cuMemcpyHtoD_v2(r->a[s], a, (size_t)M * K * 2));
		CU(cuMemcpyHtoD_v2(r->b[s], b, (size_t)K * N * 2));
		CU(cuMemsetD8_v2(r->c[s], 0xff, (size_t)M * N * 2));
		free(a);
		free(b);
	}
	double t0 = now_us();
	int rc = RMS(r->s1, (float *)(uintptr_t)r->x, (float *)(uintptr_t)r->w, (float *)(uintptr_t)r->y, ROWS, RN);
	printf("bench first launch of rmsnorm in the %s (loads its cubin): %.0f us\n", ctx, now_us() - t0);
	CHECK(rc == 0, "gpu export: %s: rmsnorm launched on stream 1 (%s)", ctx, tritonc_error_string(rc));
	for (int s = 0; s < 2; s++) {
		int M = shapes[s][0], N = shapes[s][1], K = shapes[s][2];
		rc = gemm_triton(s ? r->s1 : r->s2, (uint16_t *)(uintptr_t)r->a[s], (uint16_t *)(uintptr_t)r->b[s],
				 (uint16_t *)(uintptr_t)r->c[s], M, N, K, K, 1, N, 1, N, 1);
		CHECK(rc == 0, "gpu export: %s: gemm %dx%dx%d launched on stream %d (%s)", ctx, M, N, K, s ? 1 : 2,
		      tritonc_error_string(rc));
	}
	free(x);
	free(w);
}

static void finish(Run *r, const char *dir, const char *ctx)
{
	CU(cuStreamSynchronize(r->s1));
	CU(cuStreamSynchronize(r->s2));
	size_t n = (size_t)ROWS * RN;
	float *y = malloc(n * 4), *want = read_file(dir, "rmsnorm.out", n * 4);
	CU(cuMemcpyDtoH_v2(y, r->y, n * 4));
	double e = error(y, want, n);
	CHECK(e < 1e-5, "gpu export: %s: rmsnorm %dx%d fp32 matches Triton (max error %.3g)", ctx, ROWS, RN, e);
	free(y);
	free(want);
	for (int s = 0; s < 2; s++) {
		int M = shapes[s][0], N = shapes[s][1];
		size_t m = (size_t)M * N;
		uint16_t *c = malloc(m * 2);
		float *got = malloc(m * 4);
		char name[32];
		snprintf(name, sizeof name, "c%d.out", s);
		float *ref = read_file(dir, name, m * 4);   /* Triton's fp16 outputs, widened to fp32 */
		CU(cuMemcpyDtoH_v2(c, r->c[s], m * 2));
		for (size_t i = 0; i < m; i++)
			got[i] = from_half(c[i]);
		e = error(got, ref, m);
		CHECK(e < 1e-2, "gpu export: %s: gemm %dx%dx%d fp16 matches Triton (max error %.3g)", ctx, M, N, shapes[s][2], e);
		free(c);
		free(got);
		free(ref);
	}
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "inputs")) {
		inputs(argv[2]);
		return 0;
	}
	CU(cuInit(0));
	int dev;
	CU(cuDeviceGet(&dev, 0));
	CUcontext primary, created = NULL;
	CU(cuDevicePrimaryCtxRetain(&primary, dev));
	if (argc == 3 && !strcmp(argv[1], "check")) {
		CUresult (*create)(CUcontext *, unsigned, int) = NULL;
		void *p = dlsym(RTLD_DEFAULT, "cuCtxCreate_v2");
		memcpy(&create, &p, sizeof p);
		CHECK(create && create(&created, 0, dev) == 0, "gpu export: a second context on device 0");
		if (!created)
			return 1;
		Run a, b;
		CU(cuCtxSetCurrent(primary));
		start(&a, argv[2], "primary context");
		CU(cuCtxSetCurrent(created));
		start(&b, argv[2], "second context");
		CU(cuCtxSetCurrent(primary));
		finish(&a, argv[2], "primary context");
		CU(cuCtxSetCurrent(created));
		finish(&b, argv[2], "second context");
		CHECK(triton_per_fused_mul_pow_rsqrt_0_unload() == 0 && gemm_triton_unload() == 0,
		      "gpu export: unload from both contexts");
		return failures != 0;
	}
	if (argc == 2 && !strcmp(argv[1], "bench")) {   /* one program of 128 threads a launch */
		CU(cuCtxSetCurrent(primary));
		CUdeviceptr x, y;
		CU(cuMemAlloc_v2(&x, RN * 4 * 2));
		CU(cuMemAlloc_v2(&y, RN * 4 * 2));
		CU(cuMemsetD8_v2(x, 0, RN * 8));
		CUstream s;
		CU(cuStreamCreate(&s, 1));
		float *px = (float *)(uintptr_t)x, *py = (float *)(uintptr_t)y;
		for (int i = 0; i < 1000; i++)
			RMS(s, px, px, py, 2, RN);
		CU(cuStreamSynchronize(s));
		/* batches of 200, short of the launch queue's depth, so the host's time is the
		 * launcher's and the driver's, not waiting for the GPU; the median batch */
		enum { REPS = 20000, BATCH = 200 };
		double per[REPS / BATCH];
		int bad = 0;
		for (int b = 0; b < REPS / BATCH; b++) {
			double t0 = now_us();
			for (int i = 0; i < BATCH; i++)
				bad |= RMS(s, px, px, py, 2, RN);
			per[b] = (now_us() - t0) / BATCH;
			CU(cuStreamSynchronize(s));
		}
		for (int i = 1; i < REPS / BATCH; i++)   /* insertion sort for the median */
			for (int j = i; j > 0 && per[j - 1] > per[j]; j--) {
				double t = per[j];
				per[j] = per[j - 1];
				per[j - 1] = t;
			}
		printf("bench launch exported NAME.c (libcuda): %.2f us a launch (median of %d batches of %d, host time)\n",
		       per[REPS / BATCH / 2], REPS / BATCH, BATCH);
		CHECK(!bad, "gpu export: %d timed launches succeed", REPS);
		return failures != 0;
	}
	fputs("usage: export_gpu inputs DIR | check DIR | bench\n", stderr);
	return 2;
}
