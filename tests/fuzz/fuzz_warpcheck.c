/* fuzz_warpcheck.c: libFuzzer target for warpcheck: tokenizer,
 * preprocessor regions, rules, reports and fixes on arbitrary bytes.
 * Each input goes through a temporary file, as real input does. */
#include "warpcheck/warpcheck.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_stack.h"

static int fuzz_one(const uint8_t *data, size_t size)
{
	char path[64];
	snprintf(path, sizeof path, "/tmp/wcfuzz-%d.cu", (int)getpid());
	FILE *fp = fopen(path, "wb");
	if (!fp)
		return 0;
	fwrite(data, 1, size, fp);
	fclose(fp);
	Diag d = {0};
	WcFile f;
	if (wc_check_file(&f, &d, path)) {
		Buf b = {0};
		bool first = true;
		wc_report_json_file(&b, &f, &first);
		first = true;
		wc_report_sarif_file(&b, &f, &first);
		buf_free(&b);
		FILE *null = fopen("/dev/null", "w");
		if (null) {
			wc_report_text(null, &f);
			size_t len;
			int applied;
			char *fixed = wc_apply_fixes(&f, &len, &applied);
			if (fixed)
				wc_unified_diff(null, path, f.src.text, f.src.len, fixed, len);
			free(fixed);
			fclose(null);
		}
	}
	wc_file_free(&f);
	buf_free(&d.text);
	return 0;
}
