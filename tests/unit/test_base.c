/* test_base.c: the base library: buffers, arenas, diagnostics, atomic writes. */
#include "base/base.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>


static void test_buf(void)
{
	Buf b = {0};
	for (int i = 0; i < 1000; i++)
		buf_printf(&b, "%d,", i);
	CHECK("buf grows", b.len == strlen(b.data) && strncmp(b.data, "0,1,2,", 6) == 0);
	CHECK("buf tail", strcmp(b.data + b.len - 4, "999,") == 0);
	buf_free(&b);
	CHECK("buf empty str", strcmp(buf_str(&b), "") == 0);
}

static void test_arena(void)
{
	Arena a = {0};
	char *big = arena_alloc(&a, 200000);
	big[199999] = 1;
	char *s = arena_printf(&a, "%s-%d", "x", 42);
	CHECK("arena printf", strcmp(s, "x-42") == 0);
	CHECK("arena aligned", ((uintptr_t)arena_alloc(&a, 3) & 15) == 0);
	arena_free(&a);

	/* runs lie one after another; a recycled arena's memory is reused, cleared */
	ArenaRun run = {0};
	char *r1 = arena_run_alloc(&a, &run, 40), *r2 = arena_run_alloc(&a, &run, 40);
	CHECK("arena run in order", r2 == r1 + 40);
	Arena scratch = {0};
	unsigned char *old = arena_alloc(&scratch, 3 << 20);
	memset(old, 0xab, 3 << 20);
	arena_recycle(&a, &scratch);
	CHECK("recycled arena empty", !scratch.head && !scratch.spare);
	unsigned char *reused = arena_alloc(&a, 1 << 20);
	bool zero = true;
	for (size_t i = 0; i < (1 << 20); i++)
		zero &= reused[i] == 0;
	CHECK("recycled memory reused", reused == old);
	CHECK("recycled memory cleared", zero);
	unsigned char *more = arena_alloc(&a, 100);
	CHECK("recycled memory cleared after", more == old + (1 << 20) && more[0] == 0 && more[99] == 0);
	arena_free(&a);
	arena_free(&scratch);
}

static void test_diag(void)
{
	const char *text = "def k(x):\n    y = tl.sume(x)\n";
	Source src = {.name = "k.py", .text = text, .len = strlen(text)};
	Diag d = {0};
	size_t off = (size_t)(strstr(text, "tl.sume") - text);
	diag_at(&d, DIAG_ERROR, &src, off, "unknown function '%s'", "tl.sume");
	CHECK("diag location", strncmp(d.text.data, "k.py:2:9: error: unknown function 'tl.sume'\n", 44) == 0);
	CHECK("diag caret", strstr(d.text.data, "|         ^\n") != NULL);
	CHECK("diag counts", d.errors == 1);
	buf_free(&d.text);

	Source embedded = {.name = "mod.py", .text = text, .len = strlen(text), .line_base = 40};
	Diag d2 = {0};
	diag_at(&d2, DIAG_ERROR, &embedded, off, "x");
	CHECK("diag line base", strncmp(d2.text.data, "mod.py:42:9:", 12) == 0);
	buf_free(&d2.text);

	jmp_buf jb;
	Diag d3 = {.jump = &jb};
	volatile int reached = 0;
	if (setjmp(jb) == 0) {
		diag_fatal(&d3, &src, 0, "stop");
		reached = 1;
	}
	CHECK("diag fatal jumps", reached == 0 && d3.errors == 1);
	buf_free(&d3.text);
}

static void test_files(void)
{
	char dir[] = "/tmp/tcbaseXXXXXX";
	CHECK("mkdtemp", mkdtemp(dir) != NULL);
	char path[64];
	snprintf(path, sizeof path, "%s/out.txt", dir);
	CHECK("atomic write", file_write_atomic(path, "hello", 5) == 0);
	size_t n = 0;
	char *back = file_read(path, &n);
	CHECK("read back", back && n == 5 && memcmp(back, "hello", 5) == 0);
	free(back);
	char bad[96];
	snprintf(bad, sizeof bad, "%s/missing/out.txt", dir);
	CHECK("atomic write fails cleanly", file_write_atomic(bad, "x", 1) != 0 && !file_exists(bad));
	CHECK("read dir fails", file_read(dir, NULL) == NULL);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	test_buf();
	test_arena();
	test_diag();
	test_files();
	CHECK("ilog2", base_ilog2(1) == 0 && base_ilog2(64) == 6 && base_ilog2(65) == 6);
	return failures ? 1 : 0;
}
