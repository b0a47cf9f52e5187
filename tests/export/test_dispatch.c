/* Four variants of one kernel in one launcher: the most specialized that
 * the arguments allow runs (each variant writes its TAG), and any can be
 * chosen by index. The variants (suite.sh exports them in this order):
 *   0  *fp32,*fp32,*i32,i32,i32              TAG=0 BLOCK=64   (no assumption)
 *   1  *fp32:16,*fp32:16,*i32,i32:16 stride=1 TAG=1 BLOCK=64   (4 assumptions)
 *   2  *fp32,*fp32,*i32,i32 stride=1          TAG=2 BLOCK=64   (1)
 *   3  *fp32,*fp32,*i32,i32,i32              TAG=3 BLOCK=128  (none; by index only) */
#include "check.h"
#include "scale.h"

static float *xb, *yb;

/* Runs variant `variant` (-1: the dispatch) on n elements with `stride`,
 * buffers `offset` floats past 64-byte boundaries; the tag, or -1 on a bad result. */
static int run(int variant, int n, int stride, int offset, int *rc)
{
	float *x = xb + offset, *y = yb + offset;
	for (int i = 0; i < n * stride; i++)
		x[i] = rng_float();
	for (int i = 0; i < n + 4; i++)
		y[i] = -99.0f;
	int32_t tag = -1;
	*rc = variant < 0 ? scale(NULL, x, y, &tag, n, stride) : scale_variant(variant, NULL, x, y, &tag, n, stride);
	for (int i = 0; i < n; i++)
		if (y[i] != 2 * x[i * stride])
			return -1;
	for (int i = n; i < n + 4; i++)
		if (y[i] != -99.0f)
			return -1;
	return tag;
}

int main(void)
{
	rng_seed();
	xb = aligned_alloc(64, 4096 * sizeof(float));
	yb = aligned_alloc(64, 4096 * sizeof(float));
	int rc, tag;
	CHECK(scale_variant_count() == 4, "4 variants (%d)", scale_variant_count());
	tag = run(-1, 640, 1, 0, &rc);
	CHECK(rc == 0 && tag == 1, "aligned, n %% 16 == 0, stride 1: variant 1 (ran %d, rc %d)", tag, rc);
	tag = run(-1, 100, 1, 0, &rc);
	CHECK(rc == 0 && tag == 2, "n = 100 (not a multiple of 16), stride 1: variant 2 (ran %d, rc %d)", tag, rc);
	tag = run(-1, 640, 1, 1, &rc);
	CHECK(rc == 0 && tag == 2, "pointers 4 bytes past alignment, stride 1: variant 2 (ran %d, rc %d)", tag, rc);
	tag = run(-1, 640, 3, 0, &rc);
	CHECK(rc == 0 && tag == 0, "stride 3: variant 0 (ran %d, rc %d)", tag, rc);
	tag = run(-1, 37, 2, 1, &rc);
	CHECK(rc == 0 && tag == 0, "unaligned, n = 37, stride 2: variant 0 (ran %d, rc %d)", tag, rc);
	tag = run(3, 1000, 2, 0, &rc);
	CHECK(rc == 0 && tag == 3, "variant 3 by index (ran %d, rc %d)", tag, rc);
	tag = run(0, 640, 1, 0, &rc);
	CHECK(rc == 0 && tag == 0, "variant 0 by index where 1 would be picked (ran %d, rc %d)", tag, rc);
	run(1, 100, 1, 0, &rc);
	CHECK(rc == TRITONC_ERROR_NO_VARIANT, "variant 1 by index with n = 100: TRITONC_ERROR_NO_VARIANT (rc %d)", rc);
	run(1, 640, 1, 2, &rc);
	CHECK(rc == TRITONC_ERROR_NO_VARIANT, "variant 1 by index with unaligned pointers: TRITONC_ERROR_NO_VARIANT (rc %d)", rc);
	run(2, 64, 2, 0, &rc);
	CHECK(rc == TRITONC_ERROR_NO_VARIANT, "variant 2 by index with stride 2: TRITONC_ERROR_NO_VARIANT (rc %d)", rc);
	const char *name = scale_variant_name(1);
	CHECK(name && strstr(name, "stride=1") && strstr(name, "TAG=1"), "variant 1's name: %s", name ? name : "NULL");
	free(xb);
	free(yb);
	return failures != 0;
}
