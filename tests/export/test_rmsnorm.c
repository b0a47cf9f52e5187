/* The seed RMSNorm exported for the CPU, run on this program's buffers
 * (aligned and not, several thread counts) against a reference computed
 * here in double. */
#include "check.h"
#include "triton_per_fused_mul_pow_rsqrt_0.h"

#define RN 4096

static void reference(const float *x, const float *w, double *out, int rows)
{
	for (int r = 0; r < rows; r++) {
		double ss = 0;
		for (int c = 0; c < RN; c++)
			ss += (double)x[r * RN + c] * x[r * RN + c];
		double rstd = 1 / sqrt(ss / RN + 1e-6);
		for (int c = 0; c < RN; c++)
			out[r * RN + c] = x[r * RN + c] * rstd * w[c];
	}
}

static void run(int rows, int offset, const tritonc_cpu_stream *stream, const char *how)
{
	size_t n = (size_t)rows * RN;
	float *xb = aligned_alloc(64, (n + 64) * sizeof(float));
	float *wb = aligned_alloc(64, (RN + 64) * sizeof(float));
	float *ob = aligned_alloc(64, (n + 64 + 8) * sizeof(float));
	double *want = malloc(n * sizeof(double));
	float *x = xb + offset, *w = wb + offset, *out = ob + offset;
	for (size_t i = 0; i < n; i++)
		x[i] = rng_float();
	for (int i = 0; i < RN; i++)
		w[i] = rng_float();
	for (size_t i = 0; i < n + 8; i++)
		out[i] = 12345.0f;   /* the 8 past the end must stay */
	reference(x, w, want, rows);
	int rc = triton_per_fused_mul_pow_rsqrt_0(stream ? (void *)stream : NULL, x, w, out, rows, RN);
	double err = max_error(out, want, n);
	int kept = 1;
	for (size_t i = n; i < n + 8; i++)
		kept &= out[i] == 12345.0f;
	CHECK(rc == 0 && err < 1e-5 && kept, "rmsnorm %d rows, buffers %s16-byte aligned, %s: rc %d, max error %.3g%s", rows,
	      offset ? "not " : "", how, rc, err, kept ? "" : ", wrote past the end");
	free(xb);
	free(wb);
	free(ob);
	free(want);
}

int main(void)
{
	rng_seed();
	tritonc_cpu_stream one = {1}, three = {3};
	CHECK(triton_per_fused_mul_pow_rsqrt_0_variant_count() == 2, "two variants (%d)",
	      triton_per_fused_mul_pow_rsqrt_0_variant_count());
	run(37, 0, NULL, "every core");
	run(37, 1, NULL, "every core");
	run(64, 0, &one, "one thread");
	run(5, 3, &three, "three threads");
	run(1, 0, &three, "three threads, one program");
	return failures != 0;
}
