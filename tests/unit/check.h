/* check.h: what every unit-test program shares: one "PASS name" or
 * "FAIL name: why" line per check (tests/run.sh counts them), and the
 * golden inputs' formula (tests/triton_values/inputs.md). */
#ifndef TC_TEST_CHECK_H
#define TC_TEST_CHECK_H

#include "runtime/run.h"

#include <stdint.h>
#include <stdio.h>

static int failures;

#define CHECK(name, cond)                                                          \
	do {                                                                       \
		if (cond)                                                          \
			printf("PASS %s\n", name);                                 \
		else {                                                             \
			printf("FAIL %s: %s (line %d)\n", name, #cond, __LINE__);  \
			failures++;                                                \
		}                                                                  \
	} while (0)

/* Element i of argument number `arg`: exact in fp32, in [-1, 1). */
static inline float hash_input(uint32_t i, uint32_t arg)
{
	return (float)(run_hash(i, arg) >> 8) * (1.0f / 8388608.0f) - 1.0f;
}

#endif
