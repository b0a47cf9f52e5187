/* c.c: the C printer. The block's threads run in lockstep: per-thread
 * registers are arrays over the threads, every per-thread statement is a
 * loop over them, a shuffle reads another thread's element and a barrier
 * is free, because each statement finishes for all threads before the
 * next begins. Triton's control flow is uniform within a program, so this
 * is exact. TC_RUN_W is the warp width simulated: lanes, warps and shuffle
 * partners follow it, while the layout constants in the code are those the
 * code was lowered for. Running at another width shows what a hard-coded
 * warp width does on real hardware. */
#include "emit/prelude.h"
#include "emit/printer.h"

static const char c_types[] =
	"#include <math.h>\n"
	"#include <stdbool.h>\n"
	"#include <stdint.h>\n"
	"#include <string.h>\n"
	"typedef int8_t tc_i8;\n"
	"typedef int16_t tc_i16;\n"
	"typedef int32_t tc_i32;\n"
	"typedef int64_t tc_i64;\n"
	"typedef uint8_t tc_u8;\n"
	"typedef uint16_t tc_u16;\n"
	"typedef uint32_t tc_u32;\n"
	"typedef uint64_t tc_u64;\n"
	"#define TC_DEVICE static inline\n"
	"#define TC_INF INFINITY\n"
	"#define TC_NAN NAN\n"
	"TC_DEVICE float tc_f32_from_bits(tc_u32 b) { float f; memcpy(&f, &b, 4); return f; }\n"
	"TC_DEVICE tc_u32 tc_f32_bits(float x) { tc_u32 b; memcpy(&b, &x, 4); return b; }\n"
	"TC_DEVICE float tc_rsqrtf(float x) { return 1.0f / sqrtf(x); }\n";

static void c_head(Buf *b, const SKernel *k)
{
	buf_puts(b, c_types);
	buf_puts(b, prelude_common);
	buf_printf(b, "#define TC_THREADS %d\n#ifndef TC_RUN_W\n#define TC_RUN_W %d\n#endif\n", k->threads, k->warp_size);
	buf_puts(b, "/* the thread of t's warp whose lane differs from t's by `mask` (t itself if none) */\n"
		    "TC_DEVICE int tc_partner(int t, int mask)\n"
		    "{\n"
		    "\tint lane = t % TC_RUN_W, other = t - lane + (lane ^ mask);\n"
		    "\treturn (lane ^ mask) < TC_RUN_W && other < TC_THREADS ? other : t;\n"
		    "}\n");
	buf_printf(b, "\nstatic void %s_program(", k->name);
	emit_params(b, k);
	buf_printf(b, "%sconst int tc_pid[3], const int tc_nprog[3])\n{\n", k->tile->nargs ? ", " : "");
}

static void c_tail(Buf *b, const SKernel *k)
{
	buf_puts(b, "}\n\n");
	buf_printf(b, "void %s_launch(void **args, const int grid[3], long first, long count)\n{\n", k->name);
	buf_puts(b, "\tfor (long p = first; p < first + count; p++) {\n"
		    "\t\tint pid[3] = {(int)(p % grid[0]), (int)(p / grid[0] % grid[1]),\n"
		    "\t\t\t       (int)(p / ((long)grid[0] * grid[1]))};\n");
	buf_printf(b, "\t\t%s_program(", k->name);
	Arena scratch = {0};
	for (int i = 0; i < k->tile->nargs; i++)
		buf_printf(b, "*(%s *)args[%d], ", emit_param_type(k, i, &scratch), i);
	arena_free(&scratch);
	buf_puts(b, "pid, grid);\n\t}\n}\n");
}

static void c_leaf(Buf *b, const SKernel *k, const SExpr *e)
{
	switch (e->kind) {
	case SE_LANE: buf_puts(b, "(t % TC_RUN_W)"); return;
	case SE_WARP: buf_puts(b, "(t / TC_RUN_W)"); return;
	case SE_THREAD: buf_puts(b, "t"); return;
	case SE_PROGRAM_ID: buf_printf(b, "tc_pid[%d]", e->aux); return;
	case SE_NUM_PROGRAMS: buf_printf(b, "tc_nprog[%d]", e->aux); return;
	default: return;
	}
}

static void c_shuffle(Buf *b, const SKernel *k, const SStmt *s, const char *idx)
{
	buf_printf(b, "%s[t]%s = %s[tc_partner(t, %d)]%s;\n", s->shuffled->name, idx, s->src->name, s->lane_xor, idx);
}

static void c_barrier(Buf *b)
{
	buf_puts(b, "/* barrier: every statement already ends with all threads */\n");
}

const Printer c_printer = {
	.lockstep = true,
	.head = c_head,
	.tail = c_tail,
	.leaf = c_leaf,
	.shuffle = c_shuffle,
	.barrier = c_barrier,
	.load_words = NULL,
	.store_words = NULL,
	.shared_qualifier = "",
};
