/* cuda.c: the CUDA C printer (NVRTC or nvcc, sm_80 and newer).
 *
 * Wide loads and stores are inline PTX: v2/v4 accesses of 32-bit words,
 * and for eviction_policy a fractional L2 cache policy (createpolicy) with
 * the matching L1 eviction priority, as Triton does on NVIDIA. */
#include "emit/prelude.h"
#include "emit/printer.h"

#include <stdio.h>

static const char cuda_types[] =
	"#ifndef __CUDACC_RTC__\n"
	"#include <cstdio> /* printf of device_assert; NVRTC has it built in */\n"
	"#endif\n"
	"typedef signed char tc_i8;\n"
	"typedef short tc_i16;\n"
	"typedef int tc_i32;\n"
	"typedef long long tc_i64;\n"
	"typedef unsigned char tc_u8;\n"
	"typedef unsigned short tc_u16;\n"
	"typedef unsigned int tc_u32;\n"
	"typedef unsigned long long tc_u64;\n"
	"#define TC_DEVICE __device__ __forceinline__\n"
	"#define TC_INF __int_as_float(0x7f800000)\n"
	"#define TC_NAN __int_as_float(0x7fc00000)\n"
	"/* A failed device_assert, out of line: the kernel keeps no stack for\n"
	"   printf's arguments and no code for them on its own path. */\n"
	"__device__ __noinline__ void tc_assert_fail(const char *kernel, int line, const char *msg)\n"
	"{\n"
	"\tprintf(\"%s:%d: program (%d, %d, %d) thread %d: device assertion failed: %s\\n\", kernel, line,\n"
	"\t       (int)blockIdx.x, (int)blockIdx.y, (int)blockIdx.z, (int)threadIdx.x, msg);\n"
	"\t__trap();\n"
	"}\n"
	"TC_DEVICE float tc_f32_from_bits(tc_u32 b) { return __uint_as_float(b); }\n"
	"TC_DEVICE tc_u32 tc_f32_bits(float x) { return __float_as_uint(x); }\n"
	"TC_DEVICE float tc_rsqrtf(float x) { return rsqrtf(x); }\n"
	"TC_DEVICE float tc_exp2_fast(float x) { float y; asm(\"ex2.approx.ftz.f32 %0, %1;\" : \"=f\"(y) : \"f\"(x)); return y; }\n"
	"TC_DEVICE float tc_erfinvf(float x) { return erfinvf(x); }\n"
	"TC_DEVICE double tc_erfinvd(double x) { return erfinv(x); }\n"
	"/* fp32 division as Triton spells it on NVIDIA: full-range, within 2 ulp */\n"
	"TC_DEVICE float tc_fdiv(float x, float y) { float q; asm volatile(\"div.full.f32 %0, %1, %2;\" : \"=f\"(q) : \"f\"(x), \"f\"(y)); return q; }\n"
	"/* both arms computed, then one chosen (selp), as Triton does: a division\n"
	"   under ?: would be a branch around it */\n"
	"TC_DEVICE float tc_select_f32(bool c, float a, float b) { return c ? a : b; }\n"
	"/* fp16 and bf16 conversions are single instructions from sm_80 on */\n"
	"#define TC_HALF_CONVERSIONS 1\n"
	"TC_DEVICE float tc_bf16_to_f32(tc_u16 h) { return __uint_as_float((tc_u32)h << 16); }\n"
	"TC_DEVICE tc_u16 tc_f32_to_bf16(float x) { tc_u16 h; asm(\"cvt.rn.bf16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(x)); return h; }\n"
	"TC_DEVICE float tc_f16_to_f32(tc_u16 h) { float f; asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h)); return f; }\n"
	"TC_DEVICE tc_u16 tc_f32_to_f16(float x) { tc_u16 h; asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(x)); return h; }\n"
	"TC_DEVICE tc_u32 tc_pack_bf16x2(float lo, float hi)\n"
	"{\n"
	"\ttc_u32 w;\n"
	"\tasm(\"cvt.rn.bf16x2.f32 %0, %1, %2;\" : \"=r\"(w) : \"f\"(hi), \"f\"(lo));\n"
	"\treturn w;\n"
	"}\n"
	"TC_DEVICE tc_u32 tc_pack_f16x2(float lo, float hi)\n"
	"{\n"
	"\ttc_u32 w;\n"
	"\tasm(\"cvt.rn.f16x2.f32 %0, %1, %2;\" : \"=r\"(w) : \"f\"(hi), \"f\"(lo));\n"
	"\treturn w;\n"
	"}\n"
	"TC_DEVICE tc_u32 tc_umulhi(tc_u32 a, tc_u32 b) { return __umulhi(a, b); }\n";

/* The PTX operand list "{%0, %1, %2, %3}" of n words starting at `first`. */
static void word_operands(Buf *b, int n, int first)
{
	if (n > 1)
		buf_putc(b, '{');
	for (int i = 0; i < n; i++)
		buf_printf(b, "%s%%%d", i ? ", " : "", first + i);
	if (n > 1)
		buf_putc(b, '}');
}

static const char *vector_suffix(int words)
{
	return words == 4 ? ".v4" : words == 2 ? ".v2" : "";
}

/* The words of one vector access, as a type that may alias any other (a
 * buffer of fp16 elements read 16 bytes at a time is no other object). */
static const char cuda_vectors[] =
	"struct __attribute__((__may_alias__)) __align__(4) tc_w1 { tc_u32 x; };\n"
	"struct __attribute__((__may_alias__)) __align__(8) tc_w2 { tc_u32 x, y; };\n"
	"struct __attribute__((__may_alias__)) __align__(16) tc_w4 { tc_u32 x, y, z, w; };\n";

/* tc_ldN[_evict_first|_evict_last](w, p): N words from global memory.
 * The _if form loads only where `pred` holds and leaves w (the masked
 * load's `other`, set by the caller) as it is elsewhere. Without an
 * eviction policy, a plain C++ access of N words: ptxas makes the branch
 * around it one predicated instruction, and the C++ compiler may schedule
 * it among the others (an `asm volatile` it may not move, and on the H200
 * tutorial 05's layer norm took 0.0638 ms with those, 0.0563 with plain
 * loads). With a policy, the PTX instruction that names it. */
static void load_function(Buf *b, int words, EvictionPolicy ev, bool pred)
{
	static const char *const names[] = {"", "_evict_first", "_evict_last"};
	static const char *const levels[] = {"", "evict_first", "evict_last"};
	static const char *const fields[] = {"x", "y", "z", "w"};
	if (ev == EVICT_NORMAL) {
		buf_printf(b, "TC_DEVICE void tc_ld%d%s(tc_u32 *w, const void *p%s)\n{\n\t", words, pred ? "_if" : "",
			   pred ? ", bool pred" : "");
		buf_printf(b, "%stc_w%d v = *(const tc_w%d *)p;", pred ? "if (pred) {\n\t\t" : "", words, words);
		for (int i = 0; i < words; i++)
			buf_printf(b, "%sw[%d] = v.%s;", i == 0 && pred ? "\n\t\t" : " ", i, fields[i]);
		buf_puts(b, pred ? "\n\t}\n}\n" : "\n}\n");
		return;
	}
	buf_printf(b, "TC_DEVICE void tc_ld%d%s%s(tc_u32 *w, const void *p%s)\n{\n\tasm volatile(\"", words, names[ev],
		   pred ? "_if" : "", pred ? ", bool pred" : "");
	bool block = ev != EVICT_NORMAL || pred;
	if (block)
		buf_puts(b, "{\\n\\t");
	if (pred)
		buf_printf(b, ".reg .pred p;\\n\\tsetp.ne.b32 p, %%%d, 0;\\n\\t", words + 1);
	if (ev != EVICT_NORMAL)
		buf_printf(b, ".reg .b64 pol;\\n\\tcreatepolicy.fractional.L2::%s.b64 pol, 1.0;\\n\\t", levels[ev]);
	buf_puts(b, pred ? "@p " : "");
	if (ev != EVICT_NORMAL)
		buf_printf(b, "ld.global.L1::%s.L2::cache_hint%s.b32 ", levels[ev], vector_suffix(words));
	else
		buf_printf(b, "ld.global%s.b32 ", vector_suffix(words));
	word_operands(b, words, 0);
	buf_printf(b, ", [%%%d]%s;", words, ev != EVICT_NORMAL ? ", pol" : "");
	buf_puts(b, block ? "\\n\\t}\"\n\t\t     : " : "\"\n\t\t     : ");
	for (int i = 0; i < words; i++)
		buf_printf(b, "%s\"%sr\"(w[%d])", i ? ", " : "", pred ? "+" : "=", i);
	buf_printf(b, " : \"l\"(p)%s);\n}\n", pred ? ", \"r\"((int)pred)" : "");
}

static void store_function(Buf *b, int words)
{
	buf_printf(b, "TC_DEVICE void tc_st%d(void *p, const tc_u32 *w)\n{\n\tasm volatile(\"st.global%s.b32 [%%0], ",
		   words, vector_suffix(words));
	word_operands(b, words, 1);
	buf_puts(b, ";\" :: \"l\"(p)");
	for (int i = 0; i < words; i++)
		buf_printf(b, ", \"r\"(w[%d])", i);
	buf_puts(b, " : \"memory\");\n}\n");
}

/* tc_ldmatrix_xN[_trans](d, p): N 8x8 matrices of 16-bit elements from
 * shared memory, each lane giving one row's address. */
static void ldmatrix_function(Buf *b, int nmat, bool trans)
{
	buf_printf(b, "TC_DEVICE void tc_ldmatrix_x%d%s(tc_u32 *d, const tc_u16 *p)\n{\n", nmat, trans ? "_trans" : "");
	buf_printf(b, "\tasm volatile(\"ldmatrix.sync.aligned.m8n8.x%d%s.shared.b16 ", nmat, trans ? ".trans" : "");
	word_operands(b, nmat, 0);
	buf_printf(b, ", [%%%d];\"\n\t\t     : ", nmat);
	for (int i = 0; i < nmat; i++)
		buf_printf(b, "%s\"=r\"(d[%d])", i ? ", " : "", i);
	buf_puts(b, " : \"r\"((tc_u32)__cvta_generic_to_shared(p)));\n}\n");
}

/* tc_mma_m16n8k16_{f16,bf16}(c0, c1, c2, c3, a, b): c += a b, one warp's
 * mma.sync with fp32 accumulators. */
static void mma_function(Buf *b, const char *dt)
{
	buf_printf(b, "TC_DEVICE void tc_mma_m16n8k16_%s(float &c0, float &c1, float &c2, float &c3, const tc_u32 *a, const tc_u32 *b)\n"
		      "{\n\tasm(\"mma.sync.aligned.m16n8k16.row.col.f32.%s.%s.f32 {%%0, %%1, %%2, %%3}, {%%4, %%5, %%6, %%7}, "
		      "{%%8, %%9}, {%%0, %%1, %%2, %%3};\"\n"
		      "\t    : \"+f\"(c0), \"+f\"(c1), \"+f\"(c2), \"+f\"(c3)\n"
		      "\t    : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"r\"(b[0]), \"r\"(b[1]));\n}\n",
		   dt, dt, dt);
}

/* tc_mma_m16n8k8_tf32(c0, c1, c2, c3, a, b): c += a b with fp32 registers
 * of which the unit reads the tf32 bits (the low 13 bits of the mantissa
 * are not read), 4 of A and 2 of B; tc_mma_m16n8k32_s8: int8 operands, 16
 * of A and 8 of B, packed four to a word (the lower k in the lower byte),
 * int32 accumulators. */
static const char cuda_mma_tf32[] =
	"TC_DEVICE void tc_mma_m16n8k8_tf32(float &c0, float &c1, float &c2, float &c3, const float *a, const float *b)\n"
	"{\n\tasm(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
	"{%0, %1, %2, %3};\"\n"
	"\t    : \"+f\"(c0), \"+f\"(c1), \"+f\"(c2), \"+f\"(c3)\n"
	"\t    : \"r\"(__float_as_uint(a[0])), \"r\"(__float_as_uint(a[1])), \"r\"(__float_as_uint(a[2])), "
	"\"r\"(__float_as_uint(a[3])),\n"
	"\t      \"r\"(__float_as_uint(b[0])), \"r\"(__float_as_uint(b[1])));\n}\n";
static const char cuda_mma_s8[] =
	"TC_DEVICE tc_u32 tc_pack_s8x4(const tc_i8 *p)\n"
	"{\n\treturn (tc_u32)(tc_u8)p[0] | (tc_u32)(tc_u8)p[1] << 8 | (tc_u32)(tc_u8)p[2] << 16 | (tc_u32)(tc_u8)p[3] << 24;\n}\n"
	"TC_DEVICE void tc_mma_m16n8k32_s8(tc_i32 &c0, tc_i32 &c1, tc_i32 &c2, tc_i32 &c3, const tc_i8 *a, const tc_i8 *b)\n"
	"{\n\tasm(\"mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
	"{%0, %1, %2, %3};\"\n"
	"\t    : \"+r\"(c0), \"+r\"(c1), \"+r\"(c2), \"+r\"(c3)\n"
	"\t    : \"r\"(tc_pack_s8x4(a)), \"r\"(tc_pack_s8x4(a + 4)), \"r\"(tc_pack_s8x4(a + 8)), \"r\"(tc_pack_s8x4(a + 12)),\n"
	"\t      \"r\"(tc_pack_s8x4(b)), \"r\"(tc_pack_s8x4(b + 4)));\n}\n";

/* tc_wgmma_m64nNk16_{f16,bf16}_AB(a, b, d0 .. dN/2-1): d += A B, one
 * warpgroup's wgmma with fp32 accumulators, A and B read from shared
 * memory through the descriptors a and b (A and B MN-major if 1). */
static void wgmma_function(Buf *b, int n, DType operand, bool ta, bool tb)
{
	const char *dt = operand == DT_BF16 ? "bf16" : "f16";
	int regs = n / 2;
	buf_printf(b, "TC_DEVICE void tc_wgmma_m64n%dk16_%s_%d%d(tc_u64 a, tc_u64 b", n, dt, ta, tb);
	for (int i = 0; i < regs; i++)
		buf_printf(b, ", float &d%d", i);
	buf_printf(b, ")\n{\n\tasm volatile(\"{\\n\\t.reg .pred p;\\n\\tsetp.ne.b32 p, %%%d, 0;\\n\\t"
		      "wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {",
		   regs + 2, n, dt, dt);
	for (int i = 0; i < regs; i++)
		buf_printf(b, "%s%%%d", i ? ", " : "", i);
	buf_printf(b, "}, %%%d, %%%d, p, 1, 1, %d, %d;\\n\\t}\"\n\t\t     : ", regs, regs + 1, ta, tb);
	for (int i = 0; i < regs; i++)
		buf_printf(b, "%s\"+f\"(d%d)", i ? ", " : "", i);
	buf_puts(b, "\n\t\t     : \"l\"(a), \"l\"(b), \"r\"(1));\n}\n");
}

/* tc_wgmma_m64nNk16_{f16,bf16}_rB(a0, a1, a2, a3, b, d0 .. dN/2-1): the
 * same with A from registers, the four words of the thread's fragment (no
 * transpose bit for A). */
static void wgmma_regs_function(Buf *b, int n, DType operand, bool tb)
{
	const char *dt = operand == DT_BF16 ? "bf16" : "f16";
	int regs = n / 2;
	buf_printf(b, "TC_DEVICE void tc_wgmma_m64n%dk16_%s_r%d(tc_u32 a0, tc_u32 a1, tc_u32 a2, tc_u32 a3, tc_u64 b", n, dt, tb);
	for (int i = 0; i < regs; i++)
		buf_printf(b, ", float &d%d", i);
	buf_printf(b, ")\n{\n\tasm volatile(\"{\\n\\t.reg .pred p;\\n\\tsetp.ne.b32 p, %%%d, 0;\\n\\t"
		      "wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {",
		   regs + 5, n, dt, dt);
	for (int i = 0; i < regs; i++)
		buf_printf(b, "%s%%%d", i ? ", " : "", i);
	buf_printf(b, "}, {%%%d, %%%d, %%%d, %%%d}, %%%d, p, 1, 1, %d;\\n\\t}\"\n\t\t     : ", regs, regs + 1, regs + 2,
		   regs + 3, regs + 4, tb);
	for (int i = 0; i < regs; i++)
		buf_printf(b, "%s\"+f\"(d%d)", i ? ", " : "", i);
	buf_puts(b, "\n\t\t     : \"r\"(a0), \"r\"(a1), \"r\"(a2), \"r\"(a3), \"l\"(b), \"r\"(1));\n}\n");
}

/* The descriptor's address field: bits 4-17 of the shared address. */
static const char cuda_wgmma[] =
	"TC_DEVICE tc_u64 tc_wgmma_desc(tc_u32 p, tc_u64 fields)\n"
	"{\n"
	"\treturn fields | ((tc_u64)p >> 4 & 0x3fff);\n"
	"}\n"
	"/* The descriptor of the array's byte `at` (a multiple of 16): the array's,\n"
	" * made once, plus at / 16; shared addresses are below 2^18, so the sum\n"
	" * stays in the 14-bit field. */\n"
	"#define tc_wgmma_desc_at(base, fields, at) (tc_wgmma_desc(base, fields) + (tc_u64)((tc_u32)(at) >> 4))\n"
	"/* ... and of the array's 16-byte unit `at` */\n"
	"#define tc_wgmma_desc_u(base, fields, at) (tc_wgmma_desc(base, fields) + (tc_u64)(tc_u32)(at))\n"
	"TC_DEVICE void tc_fence_operand(float &r) { asm volatile(\"\" : \"+f\"(r) :: \"memory\"); }\n"
	"#define tc_wgmma_fence() asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\")\n"
	"#define tc_wgmma_commit() asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\")\n"
	"#define tc_wgmma_wait(n) asm volatile(\"wgmma.wait_group.sync.aligned %0;\" :: \"n\"(n) : \"memory\")\n";

/* One wgmma function for each shape, type and operand order the kernel
 * uses, A from shared memory or from registers. */
static void wgmma_functions(Buf *b, const SKernel *k)
{
	buf_puts(b, cuda_wgmma);
	bool regs = false;
	for (const SStmt *s = k->first; s; s = s->next) {
		if (s->kind != SS_MMA || s->mop != WGMMA_M64K16)
			continue;
		bool seen = false;
		for (const SStmt *t = k->first; t != s && !seen; t = t->next)
			seen = t->kind == SS_MMA && t->mop == WGMMA_M64K16 && t->n == s->n && t->operand == s->operand &&
			       !t->smem[0] == !s->smem[0] && t->desc[0].trans == s->desc[0].trans &&
			       t->desc[1].trans == s->desc[1].trans;
		if (!seen && !s->smem[0] && !regs)
			buf_puts(b, "TC_DEVICE void tc_fence_operand(tc_u32 &r) { asm volatile(\"\" : \"+r\"(r) :: \"memory\"); }\n");
		regs |= !s->smem[0];
		if (!seen && s->smem[0])
			wgmma_function(b, s->n, s->operand, s->desc[0].trans, s->desc[1].trans);
		else if (!seen)
			wgmma_regs_function(b, s->n, s->operand, s->desc[1].trans);
	}
}

/* cp.async: 16 bytes bypass L1 (.cg), 4 and 8 go through it (.ca); a
 * source size of 0 fills the destination with zeros. */
/* A value the copies or wgmma descriptors of a loop read (a copy's place,
 * the shared window's address), held in a register: nvcc moves neither an
 * asm volatile nor its result's computation into the loop. */
static const char cuda_kept[] =
	"TC_DEVICE tc_i32 tc_kept_i32(tc_i32 x) { tc_i32 y; asm volatile(\"mov.b32 %0, %1;\" : \"=r\"(y) : \"r\"(x)); return y; }\n";

static const char cuda_copies[] =
	"TC_DEVICE void tc_copy_async16(tc_u32 dst, const void *src, bool fill)\n"
	"{\n"
	"\tasm volatile(\"cp.async.cg.shared.global [%0], [%1], 16, %2;\" :: \"r\"(dst), "
	"\"l\"(src), \"r\"(fill ? 16 : 0) : \"memory\");\n"
	"}\n"
	"TC_DEVICE void tc_copy_async8(tc_u32 dst, const void *src, bool fill)\n"
	"{\n"
	"\tasm volatile(\"cp.async.ca.shared.global [%0], [%1], 8, %2;\" :: \"r\"(dst), "
	"\"l\"(src), \"r\"(fill ? 8 : 0) : \"memory\");\n"
	"}\n"
	"TC_DEVICE void tc_copy_async4(tc_u32 dst, const void *src, bool fill)\n"
	"{\n"
	"\tasm volatile(\"cp.async.ca.shared.global [%0], [%1], 4, %2;\" :: \"r\"(dst), "
	"\"l\"(src), \"r\"(fill ? 4 : 0) : \"memory\");\n"
	"}\n"
	"#define tc_copy_commit() asm volatile(\"cp.async.commit_group;\" ::: \"memory\")\n"
	"#define tc_copy_wait(n) asm volatile(\"cp.async.wait_group %0;\" :: \"n\"(n) : \"memory\")\n";

/* A copy whose source size is run-time: the first n bytes, zeros after. */
static const char cuda_copy_n[] =
	"TC_DEVICE void tc_copy_async16n(tc_u32 dst, const void *src, int n)\n"
	"{\n"
	"\tasm volatile(\"cp.async.cg.shared.global [%0], [%1], 16, %2;\" :: \"r\"(dst), "
	"\"l\"(src), \"r\"(n) : \"memory\");\n"
	"}\n"
	"TC_DEVICE void tc_copy_async8n(tc_u32 dst, const void *src, int n)\n"
	"{\n"
	"\tasm volatile(\"cp.async.ca.shared.global [%0], [%1], 8, %2;\" :: \"r\"(dst), "
	"\"l\"(src), \"r\"(n) : \"memory\");\n"
	"}\n"
	"TC_DEVICE void tc_copy_async4n(tc_u32 dst, const void *src, int n)\n"
	"{\n"
	"\tasm volatile(\"cp.async.ca.shared.global [%0], [%1], 4, %2;\" :: \"r\"(dst), "
	"\"l\"(src), \"r\"(n) : \"memory\");\n"
	"}\n";


/* The bulk tensor copy engine (sm_90a): a tensor map parameter as the
 * driver's CUtensorMap (128 bytes, 64-byte aligned), mbarriers in shared
 * memory, and the 2-D tiled copy completing on one of them. */
static const char cuda_tma[] =
	"struct __align__(64) tc_tmap_t { tc_u64 q[16]; };\n"
	"TC_DEVICE void tc_mbar_init(tc_u64 *bar, int count)\n"
	"{\n"
	"\tasm volatile(\"mbarrier.init.shared::cta.b64 [%0], %1;\" :: \"r\"((tc_u32)__cvta_generic_to_shared(bar)), "
	"\"r\"(count) : \"memory\");\n"
	"}\n"
	"TC_DEVICE void tc_mbar_init_fence(void)\n"
	"{\n"
	"\tasm volatile(\"fence.mbarrier_init.release.cluster;\" ::: \"memory\");\n"
	"}\n"
	"TC_DEVICE void tc_mbar_expect_tx(tc_u64 *bar, int bytes)\n"
	"{\n"
	"\tasm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\" :: "
	"\"r\"((tc_u32)__cvta_generic_to_shared(bar)), \"r\"(bytes) : \"memory\");\n"
	"}\n"
	"TC_DEVICE void tc_mbar_wait(tc_u64 *bar, int parity)\n"
	"{\n"
	"\ttc_u32 at = (tc_u32)__cvta_generic_to_shared(bar), done;\n"
	"\tdo\n"
	"\t\tasm volatile(\"{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }\" "
	": \"=r\"(done) : \"r\"(at), \"r\"(parity) : \"memory\");\n"
	"\twhile (!done);\n"
	"}\n"
	"TC_DEVICE void tc_tma_load_2d(void *dst, const tc_tmap_t *map, int c0, int c1, tc_u64 *bar)\n"
	"{\n"
	"\tasm volatile(\"cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
	"[%4];\" :: \"r\"((tc_u32)__cvta_generic_to_shared(dst)), \"l\"((tc_u64)map), \"r\"(c0), \"r\"(c1), "
	"\"r\"((tc_u32)__cvta_generic_to_shared(bar)) : \"memory\");\n"
	"}\n";

static bool uses_copy_n(const SKernel *k)
{
	for (const SStmt *s = k->first; s; s = s->next)
		if (s->kind == SS_COPY_ASYNC && s->other)
			return true;
	return false;
}

static void cuda_copy_async(Buf *b, int bytes, const char *dst, const char *ptr, const char *mask)
{
	buf_printf(b, "tc_copy_async%d(%s, %s, %s);\n", bytes, dst, ptr, mask ? mask : "true");
}

static void cuda_copy_async_n(Buf *b, int bytes, const char *dst, const char *ptr, const char *mask, const char *count,
			      int elem)
{
	buf_printf(b, "tc_copy_async%dn(%s, %s, %s ? (int)(%s) * %d : 0);\n", bytes, dst, ptr, mask, count, elem);
}

static void cuda_copy_commit(Buf *b)
{
	buf_puts(b, "tc_copy_commit();\n");
}

static void cuda_copy_wait(Buf *b, int pending)
{
	buf_printf(b, "tc_copy_wait(%d);\n", pending);
}

static void cuda_head(Buf *b, const SKernel *k)
{
	buf_puts(b, cuda_types);
	buf_puts(b, emit_prelude_common);
	buf_puts(b, cuda_vectors);
	if (k->tile->uses_fp8)
		buf_puts(b, emit_prelude_fp8);
	for (int words = 1; words <= 4; words *= 2) {
		for (int ev = EVICT_NORMAL; ev <= EVICT_LAST; ev++) {
			load_function(b, words, (EvictionPolicy)ev, false);
			load_function(b, words, (EvictionPolicy)ev, true);
		}
		store_function(b, words);
	}
	if (simt_uses(k, SS_COPY_ASYNC) || simt_uses_mma(k, WGMMA_M64K16))
		buf_puts(b, cuda_kept);   /* as emit.c's E.window */
	if (simt_uses(k, SS_COPY_ASYNC))
		buf_puts(b, cuda_copies);
	if (emit_uses_runtime_shift(k))
		buf_puts(b, emit_prelude_shifts);
	if (uses_copy_n(k))
		buf_puts(b, cuda_copy_n);
	if (simt_uses(k, SS_MMA)) {
		for (int nmat = 1; nmat <= 4; nmat *= 2)
			for (int trans = 0; trans < 2; trans++)
				ldmatrix_function(b, nmat, trans);
		mma_function(b, "f16");
		mma_function(b, "bf16");
		if (simt_uses_mma(k, MMA_M16N8K8_TF32))
			buf_puts(b, cuda_mma_tf32);
		if (simt_uses_mma(k, MMA_M16N8K32_S8))
			buf_puts(b, cuda_mma_s8);
	}
	if (simt_uses(k, SS_MMA_FENCE))
		wgmma_functions(b, k);
	if (k->ntmaps)
		buf_puts(b, cuda_tma);
	/* what the runtime encodes and passes after the arguments (src/runtime/cuda.c):
	 * the argument numbers, then the view, then the widths of the extents'
	 * and the stride's arguments (bytes) */
	for (int i = 0; i < k->ntmaps; i++) {
		const STensorMap *m = &k->tmaps[i];
		TValue *const *a = k->tile->args;
		buf_printf(b, "// tritonc:tmap %d %d %d %d %d %d %d %d %d %d %d %d %d\n", k->tile->nargs, m->base, m->shape[0],
			   m->shape[1], m->stride, dtype_bytes(m->elem), m->elem == DT_BF16, m->box_rows, m->box_cols, m->swizzle,
			   dtype_bytes(a[m->shape[0]]->type.dtype), dtype_bytes(a[m->shape[1]]->type.dtype),
			   dtype_bytes(a[m->stride]->type.dtype));
	}
	if (k->min_blocks)
		buf_printf(b, "\nextern \"C\" __global__ void __launch_bounds__(%d, %d)\n%s(", k->threads, k->min_blocks, k->name);
	else
		buf_printf(b, "\nextern \"C\" __global__ void __launch_bounds__(%d)\n%s(", k->threads, k->name);
	emit_params(b, k);
	for (int i = 0; i < k->ntmaps; i++)
		buf_printf(b, "%sconst __grid_constant__ tc_tmap_t tc_tmap%d", k->tile->nargs || i ? ", " : "", i);
	buf_puts(b, ")\n{\n");
}

static void cuda_tail(Buf *b, const SKernel *k)
{
	buf_puts(b, "}\n");
}

static void cuda_shuffle(Buf *b, const SKernel *k, const SStmt *s, const char *idx)
{
	/* all 32 lanes take part: the lowering shuffles whole warps */
	static const char *const fn[] = {[SHUFFLE_XOR] = "xor", [SHUFFLE_UP] = "up", [SHUFFLE_DOWN] = "down"};
	const char *cast = s->src->dtype == DT_I1 ? "(int)" : "";
	buf_printf(b, "%s%s = __shfl_%s_sync(0xffffffffu, %s%s%s, %d);\n", s->shuffled->name, idx, fn[s->shuffle], cast,
		   s->src->name, idx, s->shuffle == SHUFFLE_XOR ? s->lane_xor : s->lane_delta);
}

static void cuda_barrier(Buf *b)
{
	buf_puts(b, "__syncthreads();\n");
}

static void cuda_load_words(Buf *b, int words, EvictionPolicy ev, const char *ptr, const char *guard)
{
	static const char *const names[] = {"", "_evict_first", "_evict_last"};
	if (guard)
		buf_printf(b, "tc_ld%d%s_if(w, %s, %s);\n", words, names[ev], ptr, guard);
	else
		buf_printf(b, "tc_ld%d%s(w, %s);\n", words, names[ev], ptr);
}

static void cuda_store_words(Buf *b, int words, const char *ptr)
{
	buf_printf(b, "tc_st%d(%s, w);\n", words, ptr);
}

/* One atomic step as Triton spells it in PTX (sm_70 on):
 * atom.<sem>.<scope>.global.<op>.<type>, an asm that the compiler neither
 * moves across other memory accesses nor out of a loop. */
static void cuda_atomic(Buf *b, const SStmt *s, const char *dst, const char *ptr, const char *value, const char *expected)
{
	static const char *const ops[] = {
		[ATOM_ADD] = "add", [ATOM_XCHG] = "exch", [ATOM_MAX] = "max", [ATOM_MIN] = "min",
		[ATOM_AND] = "and", [ATOM_OR] = "or", [ATOM_XOR] = "xor", [ATOM_CAS] = "cas",
	};
	DType dt = s->value->dtype;
	bool wide = dtype_bytes(dt) == 8, fl = dtype_is_float(dt);
	char type[8];
	if (s->atomic == ATOM_ADD)
		snprintf(type, sizeof type, "%c%d", fl ? 'f' : 'u', wide ? 64 : 32);
	else if (s->atomic == ATOM_MAX || s->atomic == ATOM_MIN)
		snprintf(type, sizeof type, "%c%d", dtype_is_signed(dt) ? 's' : 'u', wide ? 64 : 32);
	else
		snprintf(type, sizeof type, "b%d", wide ? 64 : 32);
	const char *reg = fl ? (wide ? "d" : "f") : wide ? "l" : "r";
	char atom[64];
	snprintf(atom, sizeof atom, "atom.%s.%s.global.%s.%s", simt_sem_name(s->sem), simt_scope_name(s->scope),
		 ops[s->atomic], type);
	if (dst)
		buf_printf(b, "asm volatile(\"%s %%0, [%%1], %%2%s;\" : \"=%s\"(%s) : \"l\"(%s), ", atom,
			   s->atomic == ATOM_CAS ? ", %3" : "", reg, dst, ptr);
	else   /* the old value in a register of the asm's own */
		buf_printf(b, "asm volatile(\"{ .reg .b%d tc_old; %s tc_old, [%%0], %%1%s; }\" : : \"l\"(%s), ",
			   wide ? 64 : 32, atom, s->atomic == ATOM_CAS ? ", %2" : "", ptr);
	if (s->atomic == ATOM_CAS)
		buf_printf(b, "\"%s\"(%s), ", reg, expected);
	buf_printf(b, "\"%s\"(%s) : \"memory\");\n", reg, value);
}

static void cuda_assert_fail(Buf *b, const SKernel *k, const char *message, int line)
{
	buf_printf(b, "tc_assert_fail(\"%s\", %d, %s);\n", k->name, line, message);
}

/* In a kernel with wgmma, the thread's warp is taken from lane 0 so that
 * nvcc knows it is the same for the whole warp: what depends on it alone
 * (the warpgroup's operand offsets and descriptors) is then computed once
 * a warp, in uniform registers. The kernel computes it first, with every
 * thread there. */
static void cuda_leaf(Buf *b, const SKernel *k, const SExpr *e)
{
	if (e->kind == SE_WARP && simt_uses_mma(k, WGMMA_M64K16)) {
		buf_printf(b, "__shfl_sync(0xffffffffu, (tc_i32)(threadIdx.x / %d), 0)", k->warp_size);
		return;
	}
	emit_gpu_leaf(b, k, e);
}

const Printer emit_cuda_printer = {
	.assert_fail = cuda_assert_fail,
	.atomic = cuda_atomic,
	.lockstep = false,
	.head = cuda_head,
	.tail = cuda_tail,
	.leaf = cuda_leaf,
	.shuffle = cuda_shuffle,
	.barrier = cuda_barrier,
	.load_words = cuda_load_words,
	.store_words = cuda_store_words,
	.copy_async = cuda_copy_async,
	.copy_async_n = cuda_copy_async_n,
	.copy_commit = cuda_copy_commit,
	.copy_wait = cuda_copy_wait,
	.fdiv = "tc_fdiv",
	.select_f32 = "tc_select_f32",
	.shared_qualifier = "__shared__ ",
	.align16 = "__align__(16) ",
};
