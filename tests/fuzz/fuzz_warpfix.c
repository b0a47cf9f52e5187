/* fuzz_warpfix.c: libFuzzer target for `warpcheck --fix`: checks the
 * input, applies every fix, writes the fixed text and checks it again; the
 * fixed text must still be read and checked (no crash, no failure to
 * tokenize what the first pass took). */
#include "warpcheck/warpcheck.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_stack.h"

static bool put(const char *path, const void *data, size_t size)
{
	FILE *fp = fopen(path, "wb");
	if (!fp)
		return false;
	bool ok = fwrite(data, 1, size, fp) == size;
	return fclose(fp) == 0 && ok;
}

static int fuzz_one(const uint8_t *data, size_t size)
{
	char path[64], fixed_path[64];
	snprintf(path, sizeof path, "/tmp/wcfix-%d.cu", (int)getpid());
	snprintf(fixed_path, sizeof fixed_path, "/tmp/wcfix-%d-fixed.cu", (int)getpid());
	if (!put(path, data, size))
		return 0;
	Diag d = {0};
	WcFile f;
	if (wc_check_file(&f, &d, path)) {
		size_t len;
		int applied = 0;
		char *fixed = wc_apply_fixes(&f, &len, &applied);
		if (fixed && applied && put(fixed_path, fixed, len)) {
			Diag d2 = {0};
			WcFile g;
			if (!wc_check_file(&g, &d2, fixed_path)) {
				fprintf(stderr, "the fixed text no longer checks: %s\n", buf_str(&d2.text));
				abort();
			}
			/* a second round of fixes applies too */
			size_t len2;
			int applied2 = 0;
			free(wc_apply_fixes(&g, &len2, &applied2));
			wc_file_free(&g);
			buf_free(&d2.text);
		}
		free(fixed);
	}
	wc_file_free(&f);
	buf_free(&d.text);
	unlink(path);
	unlink(fixed_path);
	return 0;
}
