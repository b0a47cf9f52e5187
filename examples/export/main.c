/* A C program with two ahead-of-time Triton kernels: the seed RMSNorm
 * (examples/rmsnorm.py) and GEMM (tests/corpus/gemm.py), exported for the
 * CPU by `tritonc export` (see Makefile and CMakeLists.txt). Runs each on
 * its own buffers, checks them against a reference computed here, and
 * names the tritonc it was built with (libtritonc). */
#include "gemm_triton.h"
#include "triton_per_fused_mul_pow_rsqrt_0.h"
#include "tritonc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float uniform(unsigned *s)
{
	*s = *s * 1664525u + 1013904223u;
	return (float)(*s >> 8) / 8388608.0f - 1.0f;
}

/* fp16 bits of x (round to nearest even; finite values in range) and back */
static uint16_t to_half(float x)
{
	uint32_t u;
	memcpy(&u, &x, 4);
	uint32_t sign = (u >> 16) & 0x8000u, e = (u >> 23) & 0xff, m = u & 0x7fffffu;
	if (e < 103)
		return (uint16_t)sign;
	if (e < 113) { /* subnormal */
		m |= 0x800000u;
		int shift = (int)(126 - e);
		uint32_t h = m >> shift, rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
		h += rest > half || (rest == half && (h & 1));
		return (uint16_t)(sign | h);
	}
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

static int rmsnorm(unsigned *seed)
{
	enum { ROWS = 37, N = 4096 };
	float *x = malloc(sizeof(float) * ROWS * N), *w = malloc(sizeof(float) * N), *y = malloc(sizeof(float) * ROWS * N);
	for (int i = 0; i < ROWS * N; i++)
		x[i] = uniform(seed);
	for (int i = 0; i < N; i++)
		w[i] = uniform(seed);
	int rc = triton_per_fused_mul_pow_rsqrt_0(NULL, x, w, y, ROWS, N);
	double worst = 0;
	for (int r = 0; r < ROWS; r++) {
		double ss = 0;
		for (int c = 0; c < N; c++)
			ss += (double)x[r * N + c] * x[r * N + c];
		double rstd = 1 / sqrt(ss / N + 1e-6);
		for (int c = 0; c < N; c++) {
			double want = x[r * N + c] * rstd * w[c], err = fabs(y[r * N + c] - want) / (fabs(want) > 1 ? fabs(want) : 1);
			worst = err > worst || err != err ? err : worst;
		}
	}
	printf("rmsnorm %dx%d: %s, max error %.2g\n", ROWS, N, rc ? tritonc_error_string(rc) : "ran", worst);
	free(x);
	free(w);
	free(y);
	return rc == 0 && worst < 1e-5;
}

static int gemm(unsigned *seed, int M, int N, int K)
{
	uint16_t *a = malloc(2 * (size_t)M * K), *b = malloc(2 * (size_t)K * N), *c = malloc(2 * (size_t)M * N);
	for (int i = 0; i < M * K; i++)
		a[i] = to_half(uniform(seed));
	for (int i = 0; i < K * N; i++)
		b[i] = to_half(uniform(seed));
	int rc = gemm_triton(NULL, a, b, c, M, N, K, K, 1, N, 1, N, 1);
	double worst = 0;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			double want = 0;
			for (int k = 0; k < K; k++)
				want += (double)from_half(a[i * K + k]) * from_half(b[k * N + j]);
			double err = fabs(from_half(c[i * N + j]) - want) / (fabs(want) > 1 ? fabs(want) : 1);
			worst = err > worst || err != err ? err : worst;
		}
	printf("gemm %dx%dx%d: %s, max error %.2g\n", M, N, K, rc ? tritonc_error_string(rc) : "ran", worst);
	free(a);
	free(b);
	free(c);
	return rc == 0 && worst < 1e-2;
}

int main(void)
{
	unsigned seed = 2026;
	printf("kernels exported by tritonc %s: rmsnorm in %d variants, gemm in %d\n", tritonc_version(),
	       triton_per_fused_mul_pow_rsqrt_0_variant_count(), gemm_triton_variant_count());
	int ok = rmsnorm(&seed);
	ok &= gemm(&seed, 96, 80, 64);   /* multiples of 16: the specialized variant */
	ok &= gemm(&seed, 70, 50, 40);   /* not: the general one */
	puts(ok ? "all results match the reference" : "WRONG RESULTS");
	return ok ? 0 : 1;
}
