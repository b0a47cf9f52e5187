/* check.h: what every unit-test program shares: one "PASS name" or
 * "FAIL name: why" line per check (tests/run.sh counts them), and the
 * golden inputs' formula (tests/golden/inputs.md). */
#ifndef TC_TEST_CHECK_H
#define TC_TEST_CHECK_H

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
	uint32_t h = i * 0x9E3779B9u + (arg + 1) * 0x85EBCA6Bu;
	h ^= h >> 16;
	h *= 0x85EBCA6Bu;
	h ^= h >> 13;
	h *= 0xC2B2AE35u;
	h ^= h >> 16;
	return (float)(h >> 8) * (1.0f / 8388608.0f) - 1.0f;
}

#endif
