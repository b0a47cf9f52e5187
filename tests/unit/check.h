/* check.h: what every unit-test program shares: one "PASS name" or
 * "FAIL name: why" line per check (tests/run.sh counts them), and the
 * golden inputs' formula (tests/triton_values/inputs.md). */
#ifndef TC_TEST_CHECK_H
#define TC_TEST_CHECK_H

#include "runtime/run.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* ---- the C compiles of the programs that run kernels on the CPU ----
 *
 * One cache folder for the whole run (removed at exit), so a kernel whose C
 * is the same as an earlier one's (same text, same flags: the runtime's
 * cache key) is built once; and the C at -O1 unless $TRITONC_CFLAGS says
 * otherwise (TRITONC_CFLAGS=-O2 checks the runtime's own level): the
 * kernels are small, the compiles are most of these programs' time. */
static char test_cache_path[256];

static inline void test_cache_remove(void)
{
	DIR *d = opendir(test_cache_path);
	if (d) {
		char path[512];
		for (struct dirent *e; (e = readdir(d));) {
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
				snprintf(path, sizeof path, "%s/%s", test_cache_path, e->d_name);
				unlink(path);
			}
		}
		closedir(d);
	}
	rmdir(test_cache_path);
}

/* The run's cache folder ("" when none could be made: each compile then gets
 * a private one, as before). */
static inline const char *test_cache_dir(void)
{
	static bool tried;
	if (!tried) {
		tried = true;
		setenv("TRITONC_CFLAGS", "-O1", 0);
		const char *tmp = getenv("TMPDIR");
		snprintf(test_cache_path, sizeof test_cache_path, "%s/tc-test-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
		if (mkdtemp(test_cache_path))
			atexit(test_cache_remove);
		else
			test_cache_path[0] = '\0';
	}
	return test_cache_path;
}

#endif
