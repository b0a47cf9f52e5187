/* check.h: what the export tests share: random inputs, comparisons, and
 * "PASS ..." and "FAIL ..." lines (the suite counts them). */
#ifndef EXPORT_CHECK_H
#define EXPORT_CHECK_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures;
static uint64_t rng_state;

static inline void rng_seed(void)
{
	const char *s = getenv("EXPORT_SEED");
	rng_state = s ? strtoull(s, NULL, 10) : (uint64_t)time(NULL);
	printf("seed %llu (EXPORT_SEED=%llu repeats it)\n", (unsigned long long)rng_state,
	       (unsigned long long)rng_state);
	rng_state = rng_state * 2862933555777941757ull + 3037000493ull;
}

/* uniform in [-1, 1) */
static inline float rng_float(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (float)((double)(rng_state >> 11) / 9007199254740992.0 * 2 - 1);
}

#define CHECK(cond, ...)                                   \
	do {                                               \
		printf("%s ", (cond) ? "PASS" : "FAIL");   \
		printf(__VA_ARGS__);                       \
		putchar('\n');                             \
		failures += !(cond);                       \
	} while (0)

/* The largest |got - want| / max(|want|, rms(want)); infinite for a NaN or a missing value. */
static inline double max_error(const float *got, const double *want, size_t n)
{
	double ss = 0, worst = 0;
	for (size_t i = 0; i < n; i++)
		ss += want[i] * want[i];
	double rms = n ? sqrt(ss / (double)n) : 0;
	for (size_t i = 0; i < n; i++) {
		double scale = fabs(want[i]) > rms ? fabs(want[i]) : rms;
		double e = fabs((double)got[i] - want[i]) / (scale > 0 ? scale : 1);
		if (!(e <= worst))   /* NaN never passes */
			worst = isnan(e) ? INFINITY : e;
	}
	return worst;
}

#endif
