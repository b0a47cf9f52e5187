/* A kernel whose parameters are named a, s, g, v, i, grid, stream and
 * variant, like the generated launchers' own variables: exported for the
 * CPU, it must still compute a = s * v + g + i + grid + stream + variant. */
#include "check.h"
#include "clash.h"

int main(void)
{
	rng_seed();
	enum { N = 1000 };
	static float a[N + 1], s[N], g[N];
	for (int k = 0; k < N; k++) {
		s[k] = rng_float();
		g[k] = rng_float();
	}
	a[N] = 42.0f;
	int v = 3, i = 5, grid = 7, stream = 11, variant = 13;
	int rc = clash(NULL, a, s, g, v, i, grid, stream, variant, N);
	int right = a[N] == 42.0f;
	for (int k = 0; k < N; k++)
		right &= a[k] == s[k] * (float)v + g[k] + (float)(i + grid + stream + variant) ||
			 fabsf(a[k] - (s[k] * v + g[k] + i + grid + stream + variant)) < 1e-5f;
	CHECK(rc == 0 && right, "parameters named like the launcher's variables (rc %d)", rc);
	rc = clash_variant(0, NULL, a, s, g, v, i, grid, stream, variant, N);
	CHECK(rc == 0, "and through clash_variant (rc %d)", rc);
	return failures != 0;
}
