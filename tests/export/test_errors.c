/* Every error code the CPU launchers can return, from three kernels linked
 * into one program (each defines tritonc_error_string, weakly). row_stats's
 * grid is n_rows * n_cols / n_cols, so n_cols = 0 divides by zero; scale has
 * only its aligned variant (tests/export/suite.sh). */
#include "check.h"
#include "checked_gather.h"
#include "row_stats.h"
#include "scale.h"

int main(void)
{
	rng_seed();
	float x[64 * 8], s[9], m[9];
	for (int i = 0; i < 64 * 8; i++)
		x[i] = rng_float();
	tritonc_cpu_stream bad = {-1};
	int rc;

	rc = row_stats(NULL, NULL, s, m, 8, 64);
	CHECK(rc == TRITONC_ERROR_INVALID_VALUE, "a null buffer: TRITONC_ERROR_INVALID_VALUE (rc %d)", rc);
	rc = row_stats(&bad, x, s, m, 8, 64);
	CHECK(rc == TRITONC_ERROR_INVALID_VALUE, "a CPU stream of -1 threads: TRITONC_ERROR_INVALID_VALUE (rc %d)", rc);
	rc = row_stats(NULL, x, s, m, -3, 64);
	CHECK(rc == TRITONC_ERROR_INVALID_GRID, "a negative grid: TRITONC_ERROR_INVALID_GRID (rc %d)", rc);
	s[0] = 5.0f;
	rc = row_stats(NULL, x, s, m, 0, 64);
	CHECK(rc == 0 && s[0] == 5.0f, "an empty grid runs nothing and succeeds (rc %d)", rc);
	rc = row_stats(NULL, x, s, m, 8, 0);
	CHECK(rc == TRITONC_ERROR_INVALID_GRID, "a grid expression dividing by zero: TRITONC_ERROR_INVALID_GRID (rc %d)", rc);
	rc = row_stats(NULL, x, s, m, 8, 64);
	CHECK(rc == 0, "the same with a nonzero divisor runs (rc %d)", rc);
	rc = row_stats_variant(1, NULL, x, s, m, 8, 64);
	CHECK(rc == TRITONC_ERROR_INVALID_VALUE, "variant index 1 of 1: TRITONC_ERROR_INVALID_VALUE (rc %d)", rc);
	rc = row_stats_variant(-1, NULL, x, s, m, 8, 64);
	CHECK(rc == TRITONC_ERROR_INVALID_VALUE, "variant index -1: TRITONC_ERROR_INVALID_VALUE (rc %d)", rc);
	CHECK(row_stats_variant_name(1) == NULL && row_stats_variant_name(0) != NULL, "variant names in range only");

	static float y[80] __attribute__((aligned(64))), xa[80] __attribute__((aligned(64)));
	int32_t tag = 0;
	rc = scale(NULL, xa + 1, y, &tag, 64, 1);
	CHECK(rc == TRITONC_ERROR_NO_VARIANT, "an unaligned buffer, only an aligned variant: TRITONC_ERROR_NO_VARIANT (rc %d)", rc);
	rc = scale(NULL, xa, y, &tag, 64, 1);
	CHECK(rc == 0 && tag == 1, "aligned, it runs (rc %d)", rc);

	int32_t idx[200];
	float src[16], out[200];
	for (int i = 0; i < 200; i++)
		idx[i] = i % 16;
	for (int i = 0; i < 16; i++)
		src[i] = rng_float();
	idx[150] = 20;
	rc = checked_gather(NULL, idx, src, out, 200);
	CHECK(rc == TRITONC_ERROR_ASSERT, "a failed device_assert: TRITONC_ERROR_ASSERT (rc %d)", rc);
	idx[150] = 6;
	rc = checked_gather(NULL, idx, src, out, 200);
	int right = 1;
	for (int i = 0; i < 200; i++)
		right &= out[i] == src[idx[i]];
	CHECK(rc == 0 && right, "the next launch succeeds (rc %d)", rc);

	int distinct = 1;
	for (int i = 0; i <= TRITONC_ERROR_ASSERT; i++)
		for (int j = 0; j < i; j++)
			distinct &= strcmp(tritonc_error_string(i), tritonc_error_string(j)) != 0;
	CHECK(distinct && !strcmp(tritonc_error_string(0), "success") &&
	      !strcmp(tritonc_error_string(99), "unknown error code") &&
	      strstr(tritonc_error_string(TRITONC_ERROR_NO_VARIANT), "variant"),
	      "tritonc_error_string: a distinct text for each code, one for unknown codes");
	CHECK(checked_gather_unload() == 0 && row_stats_unload() == 0, "unload on the CPU: nothing to do");
	return failures != 0;
}
