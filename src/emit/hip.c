/* hip.c: the HIP C printer (hipcc, AMD CDNA with 64-lane wavefronts and
 * RDNA with 32). HIP has no `_sync` shuffles in the versions we target:
 * __shfl_xor takes the width instead, the lowering's W. Eviction hints
 * have no portable spelling here and become comments. */
#include "emit/prelude.h"
#include "emit/printer.h"

static const char hip_types[] =
	"#include <hip/hip_runtime.h>\n"
	"typedef signed char tc_i8;\n"
	"typedef short tc_i16;\n"
	"typedef int tc_i32;\n"
	"typedef long long tc_i64;\n"
	"typedef unsigned char tc_u8;\n"
	"typedef unsigned short tc_u16;\n"
	"typedef unsigned int tc_u32;\n"
	"typedef unsigned long long tc_u64;\n"
	"#define TC_DEVICE __device__ inline\n"
	"#define TC_INF __builtin_huge_valf()\n"
	"#define TC_NAN __builtin_nanf(\"\")\n"
	"/* A failed device_assert, out of line: no code for printf's arguments\n"
	"   on the kernel's own path. */\n"
	"__device__ __noinline__ void tc_assert_fail(const char *kernel, int line, const char *msg)\n"
	"{\n"
	"\tprintf(\"%s:%d: program (%d, %d, %d) thread %d: device assertion failed: %s\\n\", kernel, line,\n"
	"\t       (int)blockIdx.x, (int)blockIdx.y, (int)blockIdx.z, (int)threadIdx.x, msg);\n"
	"\t__builtin_trap();\n"
	"}\n"
	"TC_DEVICE float tc_f32_from_bits(tc_u32 b) { return __uint_as_float(b); }\n"
	"TC_DEVICE tc_u32 tc_f32_bits(float x) { return __float_as_uint(x); }\n"
	"TC_DEVICE float tc_rsqrtf(float x) { return rsqrtf(x); }\n"
	"TC_DEVICE float tc_exp2_fast(float x) { return exp2f(x); }\n"
	"TC_DEVICE float tc_erfinvf(float x) { return erfinvf(x); }\n"
	"TC_DEVICE double tc_erfinvd(double x) { return erfinv(x); }\n"
	"TC_DEVICE void tc_ld1(tc_u32 *w, const void *p) { w[0] = *(const tc_u32 *)p; }\n"
	"TC_DEVICE void tc_ld2(tc_u32 *w, const void *p) { uint2 v = *(const uint2 *)p; w[0] = v.x; w[1] = v.y; }\n"
	"TC_DEVICE void tc_ld4(tc_u32 *w, const void *p)\n"
	"{\n"
	"\tuint4 v = *(const uint4 *)p;\n"
	"\tw[0] = v.x; w[1] = v.y; w[2] = v.z; w[3] = v.w;\n"
	"}\n"
	"TC_DEVICE void tc_st1(void *p, const tc_u32 *w) { *(tc_u32 *)p = w[0]; }\n"
	"TC_DEVICE void tc_st2(void *p, const tc_u32 *w) { *(uint2 *)p = make_uint2(w[0], w[1]); }\n"
	"TC_DEVICE void tc_st4(void *p, const tc_u32 *w) { *(uint4 *)p = make_uint4(w[0], w[1], w[2], w[3]); }\n"
	"TC_DEVICE tc_u32 tc_umulhi(tc_u32 a, tc_u32 b) { return __umulhi(a, b); }\n";

/* tc_mfma_16x16x16_{f16,bf16}(c0, c1, c2, c3, a, b): c += a b, one
 * wavefront's MFMA; a and b are two words (four 16-bit elements) a lane. */
static const char hip_float4[] = "typedef float tc_float4 __attribute__((ext_vector_type(4)));\n";
static const char hip_matrix[] =
	"typedef _Float16 tc_half4 __attribute__((ext_vector_type(4)));\n"
	"typedef short tc_short4 __attribute__((ext_vector_type(4)));\n"
	"typedef float tc_float4 __attribute__((ext_vector_type(4)));\n"
	"typedef tc_u32 tc_u32x2 __attribute__((ext_vector_type(2)));\n"
	"TC_DEVICE void tc_mfma_16x16x16_f16(float &c0, float &c1, float &c2, float &c3, const tc_u32 *a, const tc_u32 *b)\n"
	"{\n"
	"\ttc_u32x2 va = {a[0], a[1]}, vb = {b[0], b[1]};\n"
	"\ttc_float4 c = {c0, c1, c2, c3};\n"
	"\tc = __builtin_amdgcn_mfma_f32_16x16x16f16(__builtin_bit_cast(tc_half4, va), __builtin_bit_cast(tc_half4, vb), c, 0, 0, 0);\n"
	"\tc0 = c[0]; c1 = c[1]; c2 = c[2]; c3 = c[3];\n"
	"}\n"
	"TC_DEVICE void tc_mfma_16x16x16_bf16(float &c0, float &c1, float &c2, float &c3, const tc_u32 *a, const tc_u32 *b)\n"
	"{\n"
	"\ttc_u32x2 va = {a[0], a[1]}, vb = {b[0], b[1]};\n"
	"\ttc_float4 c = {c0, c1, c2, c3};\n"
	"\tc = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(__builtin_bit_cast(tc_short4, va), __builtin_bit_cast(tc_short4, vb), c, 0, 0, 0);\n"
	"\tc0 = c[0]; c1 = c[1]; c2 = c[2]; c3 = c[3];\n"
	"}\n";

/* fp32 and int8 MFMA, c += a b: tc_mfma_16x16x4_f32, one fp32 of A and one
 * of B a lane; tc_mfma_16x16x8_xf32 (gfx94x), two, read as tf32;
 * tc_mfma_16x16x16_i8 (gfx908, gfx90a), four int8 a lane packed into a
 * word, the lower k in the lower byte, int32 accumulators;
 * tc_mfma_16x16x32_i8 (gfx94x), eight in a 64-bit word. */
static const char hip_mfma_f32[] =
	"TC_DEVICE void tc_mfma_16x16x4_f32(float &c0, float &c1, float &c2, float &c3, const float *a, const float *b)\n"
	"{\n"
	"\ttc_float4 c = {c0, c1, c2, c3};\n"
	"\tc = __builtin_amdgcn_mfma_f32_16x16x4f32(a[0], b[0], c, 0, 0, 0);\n"
	"\tc0 = c[0]; c1 = c[1]; c2 = c[2]; c3 = c[3];\n"
	"}\n";
static const char hip_mfma_xf32[] =
	"typedef float tc_float2 __attribute__((ext_vector_type(2)));\n"
	"TC_DEVICE void tc_mfma_16x16x8_xf32(float &c0, float &c1, float &c2, float &c3, const float *a, const float *b)\n"
	"{\n"
	"\ttc_float2 va = {a[0], a[1]}, vb = {b[0], b[1]};\n"
	"\ttc_float4 c = {c0, c1, c2, c3};\n"
	"\tc = __builtin_amdgcn_mfma_f32_16x16x8_xf32(va, vb, c, 0, 0, 0);\n"
	"\tc0 = c[0]; c1 = c[1]; c2 = c[2]; c3 = c[3];\n"
	"}\n";
static const char hip_mfma_i8[] =
	"typedef int tc_int4 __attribute__((ext_vector_type(4)));\n"
	"TC_DEVICE tc_u32 tc_pack_s8x4(const tc_i8 *p)\n"
	"{\n\treturn (tc_u32)(tc_u8)p[0] | (tc_u32)(tc_u8)p[1] << 8 | (tc_u32)(tc_u8)p[2] << 16 | (tc_u32)(tc_u8)p[3] << 24;\n}\n";
static const char hip_mfma_i8_k16[] =
	"TC_DEVICE void tc_mfma_16x16x16_i8(tc_i32 &c0, tc_i32 &c1, tc_i32 &c2, tc_i32 &c3, const tc_i8 *a, const tc_i8 *b)\n"
	"{\n"
	"\ttc_int4 c = {c0, c1, c2, c3};\n"
	"\tc = __builtin_amdgcn_mfma_i32_16x16x16i8((int)tc_pack_s8x4(a), (int)tc_pack_s8x4(b), c, 0, 0, 0);\n"
	"\tc0 = c[0]; c1 = c[1]; c2 = c[2]; c3 = c[3];\n"
	"}\n";
static const char hip_mfma_i8_k32[] =
	"TC_DEVICE long tc_pack_s8x8(const tc_i8 *p)\n"
	"{\n\treturn (long)((tc_u64)tc_pack_s8x4(p) | (tc_u64)tc_pack_s8x4(p + 4) << 32);\n}\n"
	"TC_DEVICE void tc_mfma_16x16x32_i8(tc_i32 &c0, tc_i32 &c1, tc_i32 &c2, tc_i32 &c3, const tc_i8 *a, const tc_i8 *b)\n"
	"{\n"
	"\ttc_int4 c = {c0, c1, c2, c3};\n"
	"\tc = __builtin_amdgcn_mfma_i32_16x16x32_i8(tc_pack_s8x8(a), tc_pack_s8x8(b), c, 0, 0, 0);\n"
	"\tc0 = c[0]; c1 = c[1]; c2 = c[2]; c3 = c[3];\n"
	"}\n";

static void hip_head(Buf *b, const SKernel *k)
{
	buf_puts(b, hip_types);
	buf_puts(b, emit_prelude_common);
	if (k->tile->uses_fp8)
		buf_puts(b, emit_prelude_fp8);
	if (simt_uses_mma(k, MFMA_16X16X16))
		buf_puts(b, hip_matrix);
	else if (simt_uses(k, SS_MMA))
		buf_puts(b, hip_float4);
	if (simt_uses_mma(k, MFMA_16X16X4_F32))
		buf_puts(b, hip_mfma_f32);
	if (simt_uses_mma(k, MFMA_16X16X8_XF32))
		buf_puts(b, hip_mfma_xf32);
	if (simt_uses_mma(k, MFMA_16X16X16_I8) || simt_uses_mma(k, MFMA_16X16X32_I8))
		buf_puts(b, hip_mfma_i8);
	if (simt_uses_mma(k, MFMA_16X16X16_I8))
		buf_puts(b, hip_mfma_i8_k16);
	if (simt_uses_mma(k, MFMA_16X16X32_I8))
		buf_puts(b, hip_mfma_i8_k32);
	if (emit_uses_runtime_shift(k))
		buf_puts(b, emit_prelude_shifts);
	buf_printf(b, "\nextern \"C\" __global__ void __launch_bounds__(%d)\n%s(", k->threads, k->name);
	emit_params(b, k);
	buf_puts(b, ")\n{\n");
}

static void hip_tail(Buf *b, const SKernel *k)
{
	buf_puts(b, "}\n");
}

static void hip_shuffle(Buf *b, const SKernel *k, const SStmt *s, const char *idx)
{
	static const char *const fn[] = {[SHUFFLE_XOR] = "xor", [SHUFFLE_UP] = "up", [SHUFFLE_DOWN] = "down"};
	const char *cast = s->src->dtype == DT_I1 ? "(int)" : "";
	buf_printf(b, "%s%s = __shfl_%s(%s%s%s, %d, %d);\n", s->shuffled->name, idx, fn[s->shuffle], cast, s->src->name,
		   idx, s->shuffle == SHUFFLE_XOR ? s->lane_xor : s->lane_delta, k->warp_size);
}

static void hip_barrier(Buf *b)
{
	buf_puts(b, "__syncthreads();\n");
}

static void hip_load_words(Buf *b, int words, EvictionPolicy ev, const char *ptr, const char *guard)
{
	if (guard)
		buf_printf(b, "if (%s) ", guard);
	buf_printf(b, "tc_ld%d(w, %s);%s\n", words, ptr,
		   ev == EVICT_LAST ? " /* evict_last: no cache-policy hint on this target */"
		   : ev == EVICT_FIRST ? " /* evict_first: no cache-policy hint on this target */" : "");
}

static void hip_store_words(Buf *b, int words, const char *ptr)
{
	buf_printf(b, "tc_st%d(%s, w);\n", words, ptr);
}

/* One atomic step as clang's HIP builtins spell it, with the order and
 * the scope (agent: the whole GPU) said; the compiler neither moves it
 * across other memory accesses nor out of a loop. */
static void hip_atomic(Buf *b, const SStmt *s, const char *dst, const char *ptr, const char *value, const char *expected)
{
	static const char *const orders[] = {
		[SEM_ACQ_REL] = "__ATOMIC_ACQ_REL", [SEM_RELAXED] = "__ATOMIC_RELAXED",
		[SEM_ACQUIRE] = "__ATOMIC_ACQUIRE", [SEM_RELEASE] = "__ATOMIC_RELEASE",
	};
	static const char *const scopes[] = {
		[SCOPE_GPU] = "__HIP_MEMORY_SCOPE_AGENT", [SCOPE_CTA] = "__HIP_MEMORY_SCOPE_WORKGROUP",
		[SCOPE_SYS] = "__HIP_MEMORY_SCOPE_SYSTEM",
	};
	const char *order = orders[s->sem], *scope = scopes[s->scope];
	if (s->atomic == ATOM_CAS) {
		bool acquire = s->sem == SEM_ACQUIRE || s->sem == SEM_ACQ_REL;
		buf_printf(b, "{ %s tc_old = %s; __hip_atomic_compare_exchange_strong(%s, &tc_old, %s, %s, %s, %s);%s%s%s }\n",
			   simt_reg_ctype(s->value->dtype), expected, ptr, value, order,
			   acquire ? "__ATOMIC_ACQUIRE" : "__ATOMIC_RELAXED", scope, dst ? " " : "", dst ? dst : "",
			   dst ? " = tc_old;" : "");
		return;
	}
	const char *fn = s->atomic == ATOM_XCHG ? "exchange" : "fetch_";
	buf_printf(b, "%s%s__hip_atomic_%s%s(%s, %s, %s, %s);\n", dst ? dst : "(void)", dst ? " = " : "", fn,
		   s->atomic == ATOM_XCHG ? "" : simt_atomic_name(s->atomic), ptr, value, order, scope);
}

static void hip_assert_fail(Buf *b, const SKernel *k, const char *message, int line)
{
	buf_printf(b, "tc_assert_fail(\"%s\", %d, %s);\n", k->name, line, message);
}

const Printer emit_hip_printer = {
	.assert_fail = hip_assert_fail,
	.atomic = hip_atomic,
	.lockstep = false,
	.head = hip_head,
	.tail = hip_tail,
	.leaf = emit_gpu_leaf,
	.shuffle = hip_shuffle,
	.barrier = hip_barrier,
	.load_words = hip_load_words,
	.store_words = hip_store_words,
	.shared_qualifier = "__shared__ ",
	.align16 = "__attribute__((aligned(16))) ",
};
