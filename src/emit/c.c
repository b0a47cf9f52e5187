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
	"#include <stdio.h>\n"
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
	"TC_DEVICE float tc_rsqrtf(float x) { return 1.0f / sqrtf(x); }\n"
	"TC_DEVICE float tc_exp2_fast(float x) { return exp2f(x); }\n"
	"TC_DEVICE tc_u32 tc_umulhi(tc_u32 a, tc_u32 b) { return (tc_u32)(((tc_u64)a * b) >> 32); }\n";

/* What the CPU's C lacks or does otherwise. Integer // and % where C traps
 * or leaves the result undefined, as an H200 computes them under Triton
 * 3.6, so that lanes masked off with `other=0` compute without a fault:
 * x // 0 is all ones, x % 0 is x, INT_MIN // -1 is INT_MIN and INT_MIN % -1
 * is 0 (int8 and int16 go through the 32-bit ones, uint8 through the
 * unsigned). Shifts (emit_prelude_shifts) follow. */
static const char c_math[] =
	"TC_DEVICE tc_i32 tc_div_i32(tc_i32 x, tc_i32 y) { return y == 0 ? -1 : y == -1 ? (tc_i32)(0u - (tc_u32)x) : x / y; }\n"
	"TC_DEVICE tc_i32 tc_mod_i32(tc_i32 x, tc_i32 y) { return y == 0 ? x : y == -1 ? 0 : x % y; }\n"
	"TC_DEVICE tc_i64 tc_div_i64(tc_i64 x, tc_i64 y) { return y == 0 ? -1 : y == -1 ? (tc_i64)(0u - (tc_u64)x) : x / y; }\n"
	"TC_DEVICE tc_i64 tc_mod_i64(tc_i64 x, tc_i64 y) { return y == 0 ? x : y == -1 ? 0 : x % y; }\n"
	"TC_DEVICE tc_u32 tc_div_u32(tc_u32 x, tc_u32 y) { return y == 0 ? ~0u : x / y; }\n"
	"TC_DEVICE tc_u32 tc_mod_u32(tc_u32 x, tc_u32 y) { return y == 0 ? x : x % y; }\n"
	"TC_DEVICE tc_u64 tc_div_u64(tc_u64 x, tc_u64 y) { return y == 0 ? ~(tc_u64)0 : x / y; }\n"
	"TC_DEVICE tc_u64 tc_mod_u64(tc_u64 x, tc_u64 y) { return y == 0 ? x : x % y; }\n";

/* The inverse error function, which libm does not have, as the tile
 * interpreter computes it. */
static const char c_erfinv[] =
	"/* erfinv, which libm lacks: Giles' approximation (GPU Computing Gems,\n"
	"   2011), then two Newton steps in double */\n"
	"TC_DEVICE double tc_erfinvd(double x)\n"
	"{\n"
	"\tif (x != x || fabs(x) > 1)\n"
	"\t\treturn TC_NAN;\n"
	"\tif (fabs(x) == 1)\n"
	"\t\treturn copysign(TC_INF, x);\n"
	"\tdouble w = -log((1 - x) * (1 + x)), p;\n"
	"\tif (w < 5) {\n"
	"\t\tw -= 2.5;\n"
	"\t\tp = 2.81022636e-08;\n"
	"\t\tp = 3.43273939e-07 + p * w;\n"
	"\t\tp = -3.5233877e-06 + p * w;\n"
	"\t\tp = -4.39150654e-06 + p * w;\n"
	"\t\tp = 0.00021858087 + p * w;\n"
	"\t\tp = -0.00125372503 + p * w;\n"
	"\t\tp = -0.00417768164 + p * w;\n"
	"\t\tp = 0.246640727 + p * w;\n"
	"\t\tp = 1.50140941 + p * w;\n"
	"\t} else {\n"
	"\t\tw = sqrt(w) - 3;\n"
	"\t\tp = -0.000200214257;\n"
	"\t\tp = 0.000100950558 + p * w;\n"
	"\t\tp = 0.00134934322 + p * w;\n"
	"\t\tp = -0.00367342844 + p * w;\n"
	"\t\tp = 0.00573950773 + p * w;\n"
	"\t\tp = -0.0076224613 + p * w;\n"
	"\t\tp = 0.00943887047 + p * w;\n"
	"\t\tp = 1.00167406 + p * w;\n"
	"\t\tp = 2.83297682 + p * w;\n"
	"\t}\n"
	"\tdouble y = p * x;\n"
	"\tfor (int i = 0; i < 2; i++)\n"
	"\t\ty -= (erf(y) - x) / (1.1283791670955126 * exp(-y * y));\n"
	"\treturn y;\n"
	"}\n"
	"TC_DEVICE float tc_erfinvf(float x) { return (float)tc_erfinvd(x); }\n";

/* Matrix instructions for the CPU: a whole warp's instruction from the
 * registers of all its lanes, distributed as the hardware distributes them
 * (simt.h), so that running the code here tests the lowering's fragment
 * layouts. Registers of thread t sit at base[t * per_thread + index]. */
static const char c_matrix[] =
	"TC_DEVICE float tc_half_bits(int bf16, tc_u32 w, int high)\n"
	"{\n"
	"\ttc_u16 h = (tc_u16)(w >> (high ? 16 : 0));\n"
	"\treturn bf16 ? tc_bf16_to_f32(h) : tc_f16_to_f32(h);\n"
	"}\n"
	"/* ldmatrix: lane 8j + r gives the row r of matrix j; thread t receives\n"
	"   (row t / 4, columns 2 (t % 4) + 0, 1) of matrix j in word j, or\n"
	"   (rows 2 (t % 4) + 0, 1, column t / 4) transposed. */\n"
	"static void tc_ldmatrix(tc_u32 *d, int dn, int di, const tc_u16 *s, const tc_i32 *addr, int an, int ai, int w0,\n"
	"\t\t\tint nmat, int trans)\n"
	"{\n"
	"\tfor (int t = 0; t < 32; t++)\n"
	"\t\tfor (int j = 0; j < nmat; j++) {\n"
	"\t\t\ttc_u32 w = 0;\n"
	"\t\t\tfor (int h = 0; h < 2; h++) {\n"
	"\t\t\t\tint row = trans ? 2 * (t % 4) + h : t / 4, col = trans ? t / 4 : 2 * (t % 4) + h;\n"
	"\t\t\t\tw |= (tc_u32)s[addr[(w0 + 8 * j + row) * an + ai] + col] << 16 * h;\n"
	"\t\t\t}\n"
	"\t\t\td[(w0 + t) * dn + di + j] = w;\n"
	"\t\t}\n"
	"}\n"
	"/* mma.sync m16n8k16, 32 lanes: g = lane / 4, q = lane % 4 */\n"
	"static void tc_mma_m16n8k16(int bf16, const tc_u32 *a, int an, int ai, const tc_u32 *b, int bn, int bi, float *c,\n"
	"\t\t\t    int cn, const int ci[4], int w0)\n"
	"{\n"
	"\tfloat A[16][16], B[16][8], D[16][8];\n"
	"\tfor (int l = 0; l < 32; l++) {\n"
	"\t\tint g = l / 4, q = l % 4;\n"
	"\t\tfor (int h = 0; h < 8; h++)\n"
	"\t\t\tA[g + 8 * (h / 2 % 2)][2 * q + h % 2 + 8 * (h / 4)] = tc_half_bits(bf16, a[(w0 + l) * an + ai + h / 2], h % 2);\n"
	"\t\tfor (int h = 0; h < 4; h++)\n"
	"\t\t\tB[2 * q + h % 2 + 8 * (h / 2)][g] = tc_half_bits(bf16, b[(w0 + l) * bn + bi + h / 2], h % 2);\n"
	"\t\tfor (int i = 0; i < 4; i++)\n"
	"\t\t\tD[g + 8 * (i / 2)][2 * q + i % 2] = c[(w0 + l) * cn + ci[i]];\n"
	"\t}\n"
	"\tfor (int m = 0; m < 16; m++)\n"
	"\t\tfor (int n = 0; n < 8; n++)\n"
	"\t\t\tfor (int k = 0; k < 16; k++)\n"
	"\t\t\t\tD[m][n] += A[m][k] * B[k][n];\n"
	"\tfor (int l = 0; l < 32; l++)\n"
	"\t\tfor (int i = 0; i < 4; i++)\n"
	"\t\t\tc[(w0 + l) * cn + ci[i]] = D[l / 4 + 8 * (i / 2)][2 * (l % 4) + i % 2];\n"
	"}\n"
	"/* MFMA 16x16x16, 64 lanes: r = lane % 16, q = lane / 16 */\n"
	"static void tc_mfma_16x16x16(int bf16, const tc_u32 *a, int an, int ai, const tc_u32 *b, int bn, int bi, float *c,\n"
	"\t\t\t     int cn, const int ci[4], int w0)\n"
	"{\n"
	"\tfloat A[16][16], B[16][16], D[16][16];\n"
	"\tfor (int l = 0; l < 64; l++) {\n"
	"\t\tint r = l % 16, q = l / 16;\n"
	"\t\tfor (int h = 0; h < 4; h++) {\n"
	"\t\t\tA[r][4 * q + h] = tc_half_bits(bf16, a[(w0 + l) * an + ai + h / 2], h % 2);\n"
	"\t\t\tB[4 * q + h][r] = tc_half_bits(bf16, b[(w0 + l) * bn + bi + h / 2], h % 2);\n"
	"\t\t\tD[4 * q + h][r] = c[(w0 + l) * cn + ci[h]];\n"
	"\t\t}\n"
	"\t}\n"
	"\tfor (int m = 0; m < 16; m++)\n"
	"\t\tfor (int n = 0; n < 16; n++)\n"
	"\t\t\tfor (int k = 0; k < 16; k++)\n"
	"\t\t\t\tD[m][n] += A[m][k] * B[k][n];\n"
	"\tfor (int l = 0; l < 64; l++)\n"
	"\t\tfor (int i = 0; i < 4; i++)\n"
	"\t\t\tc[(w0 + l) * cn + ci[i]] = D[4 * (l / 16) + i][l % 16];\n"
	"}\n";

/* wgmma m64nNk16 for the warpgroup of threads w0 .. w0 + 127: each operand
 * element read from shared memory where the descriptor (start byte, lbo,
 * sbo, swizzle, MN-major) puts it, as the hardware reads it; thread
 * w0 + 32 w + 4 g + c holds (16 w + g + 8 h, 8 j + 2 c + e) at register
 * ci[h] + 2 j + e. */
/* mma.sync m16n8k8 with tf32 operands: each fp32 register read as tf32
 * (the low 13 bits of its mantissa dropped, as tc_tf32, the FMA path's
 * rounding); m16n8k32 with int8 operands, int32 accumulators that wrap.
 * Registers of lane l: A word h at a[.. + h] (one tf32, or four int8, the
 * lower k first), B likewise (simt.h, MMA_M16N8K8_TF32). */
static const char c_matrix_plain[] =
	"static void tc_mma_m16n8k8_tf32(const float *a, int an, int ai, const float *b, int bn, int bi, float *c, int cn,\n"
	"\t\t\t\tconst int ci[4], int w0)\n"
	"{\n"
	"\tfloat A[16][8], B[8][8], D[16][8];\n"
	"\tfor (int l = 0; l < 32; l++) {\n"
	"\t\tint g = l / 4, q = l % 4;\n"
	"\t\tfor (int h = 0; h < 4; h++)\n"
	"\t\t\tA[g + 8 * (h % 2)][q + 4 * (h / 2)] = tc_tf32(a[(w0 + l) * an + ai + h]);\n"
	"\t\tfor (int h = 0; h < 2; h++)\n"
	"\t\t\tB[q + 4 * h][g] = tc_tf32(b[(w0 + l) * bn + bi + h]);\n"
	"\t\tfor (int i = 0; i < 4; i++)\n"
	"\t\t\tD[g + 8 * (i / 2)][2 * q + i % 2] = c[(w0 + l) * cn + ci[i]];\n"
	"\t}\n"
	"\tfor (int m = 0; m < 16; m++)\n"
	"\t\tfor (int n = 0; n < 8; n++)\n"
	"\t\t\tfor (int k = 0; k < 8; k++)\n"
	"\t\t\t\tD[m][n] += A[m][k] * B[k][n];\n"
	"\tfor (int l = 0; l < 32; l++)\n"
	"\t\tfor (int i = 0; i < 4; i++)\n"
	"\t\t\tc[(w0 + l) * cn + ci[i]] = D[l / 4 + 8 * (i / 2)][2 * (l % 4) + i % 2];\n"
	"}\n"
	"static void tc_mma_m16n8k32_s8(const tc_i8 *a, int an, int ai, const tc_i8 *b, int bn, int bi, tc_i32 *c, int cn,\n"
	"\t\t\t       const int ci[4], int w0)\n"
	"{\n"
	"\ttc_i32 A[16][32], B[32][8];\n"
	"\ttc_u32 D[16][8];\n"
	"\tfor (int l = 0; l < 32; l++) {\n"
	"\t\tint g = l / 4, q = l % 4;\n"
	"\t\tfor (int h = 0; h < 16; h++)\n"
	"\t\t\tA[g + 8 * (h / 4 % 2)][4 * q + h % 4 + 16 * (h / 8)] = a[(w0 + l) * an + ai + h];\n"
	"\t\tfor (int h = 0; h < 8; h++)\n"
	"\t\t\tB[4 * q + h % 4 + 16 * (h / 4)][g] = b[(w0 + l) * bn + bi + h];\n"
	"\t\tfor (int i = 0; i < 4; i++)\n"
	"\t\t\tD[g + 8 * (i / 2)][2 * q + i % 2] = (tc_u32)c[(w0 + l) * cn + ci[i]];\n"
	"\t}\n"
	"\tfor (int m = 0; m < 16; m++)\n"
	"\t\tfor (int n = 0; n < 8; n++)\n"
	"\t\t\tfor (int k = 0; k < 32; k++)\n"
	"\t\t\t\tD[m][n] += (tc_u32)(A[m][k] * B[k][n]);\n"
	"\tfor (int l = 0; l < 32; l++)\n"
	"\t\tfor (int i = 0; i < 4; i++)\n"
	"\t\t\tc[(w0 + l) * cn + ci[i]] = (tc_i32)D[l / 4 + 8 * (i / 2)][2 * (l % 4) + i % 2];\n"
	"}\n";

/* MFMA with fp32 and int8 operands, 64 lanes (r = lane % 16, q = lane /
 * 16): lane l holds kb = K / 4 consecutive k of A's row r and of B's
 * column r, from k = kb q (register ai + e: k = kb q + e); the
 * accumulators as 16x16x16's. xf32 reads its fp32 registers as tf32
 * (tc_tf32); int8 accumulates in int32 that wraps. One function a dtype,
 * the instructions' helpers call it with their kb. */
static const char c_mfma_f32[] =
	"static void tc_mfma_f32(int kb, int xf32, const float *a, int an, int ai, const float *b, int bn, int bi, float *c,\n"
	"\t\t\tint cn, const int ci[4], int w0)\n"
	"{\n"
	"\tfloat A[16][8], B[8][16], D[16][16];\n"
	"\tfor (int l = 0; l < 64; l++) {\n"
	"\t\tint r = l % 16, q = l / 16;\n"
	"\t\tfor (int e = 0; e < kb; e++) {\n"
	"\t\t\tfloat x = a[(w0 + l) * an + ai + e], y = b[(w0 + l) * bn + bi + e];\n"
	"\t\t\tA[r][kb * q + e] = xf32 ? tc_tf32(x) : x;\n"
	"\t\t\tB[kb * q + e][r] = xf32 ? tc_tf32(y) : y;\n"
	"\t\t}\n"
	"\t\tfor (int i = 0; i < 4; i++)\n"
	"\t\t\tD[4 * q + i][r] = c[(w0 + l) * cn + ci[i]];\n"
	"\t}\n"
	"\tfor (int m = 0; m < 16; m++)\n"
	"\t\tfor (int n = 0; n < 16; n++)\n"
	"\t\t\tfor (int k = 0; k < 4 * kb; k++)\n"
	"\t\t\t\tD[m][n] += A[m][k] * B[k][n];\n"
	"\tfor (int l = 0; l < 64; l++)\n"
	"\t\tfor (int i = 0; i < 4; i++)\n"
	"\t\t\tc[(w0 + l) * cn + ci[i]] = D[4 * (l / 16) + i][l % 16];\n"
	"}\n";
static const char c_mfma_x4[] =
	"static void tc_mfma_16x16x4_f32(const float *a, int an, int ai, const float *b, int bn, int bi, float *c, int cn,\n"
	"\t\t\t\tconst int ci[4], int w0)\n"
	"{\n\ttc_mfma_f32(1, 0, a, an, ai, b, bn, bi, c, cn, ci, w0);\n}\n";
static const char c_mfma_xf32[] =
	"static void tc_mfma_16x16x8_xf32(const float *a, int an, int ai, const float *b, int bn, int bi, float *c, int cn,\n"
	"\t\t\t\t const int ci[4], int w0)\n"
	"{\n\ttc_mfma_f32(2, 1, a, an, ai, b, bn, bi, c, cn, ci, w0);\n}\n";
static const char c_mfma_i8[] =
	"static void tc_mfma_i8(int kb, const tc_i8 *a, int an, int ai, const tc_i8 *b, int bn, int bi, tc_i32 *c, int cn,\n"
	"\t\t       const int ci[4], int w0)\n"
	"{\n"
	"\ttc_i32 A[16][32], B[32][16];\n"
	"\ttc_u32 D[16][16];\n"
	"\tfor (int l = 0; l < 64; l++) {\n"
	"\t\tint r = l % 16, q = l / 16;\n"
	"\t\tfor (int e = 0; e < kb; e++) {\n"
	"\t\t\tA[r][kb * q + e] = a[(w0 + l) * an + ai + e];\n"
	"\t\t\tB[kb * q + e][r] = b[(w0 + l) * bn + bi + e];\n"
	"\t\t}\n"
	"\t\tfor (int i = 0; i < 4; i++)\n"
	"\t\t\tD[4 * q + i][r] = (tc_u32)c[(w0 + l) * cn + ci[i]];\n"
	"\t}\n"
	"\tfor (int m = 0; m < 16; m++)\n"
	"\t\tfor (int n = 0; n < 16; n++)\n"
	"\t\t\tfor (int k = 0; k < 4 * kb; k++)\n"
	"\t\t\t\tD[m][n] += (tc_u32)(A[m][k] * B[k][n]);\n"
	"\tfor (int l = 0; l < 64; l++)\n"
	"\t\tfor (int i = 0; i < 4; i++)\n"
	"\t\t\tc[(w0 + l) * cn + ci[i]] = (tc_i32)D[4 * (l / 16) + i][l % 16];\n"
	"}\n";
static const char c_mfma_i8_k16[] =
	"static void tc_mfma_16x16x16_i8(const tc_i8 *a, int an, int ai, const tc_i8 *b, int bn, int bi, tc_i32 *c, int cn,\n"
	"\t\t\t\tconst int ci[4], int w0)\n"
	"{\n\ttc_mfma_i8(4, a, an, ai, b, bn, bi, c, cn, ci, w0);\n}\n";
static const char c_mfma_i8_k32[] =
	"static void tc_mfma_16x16x32_i8(const tc_i8 *a, int an, int ai, const tc_i8 *b, int bn, int bi, tc_i32 *c, int cn,\n"
	"\t\t\t\tconst int ci[4], int w0)\n"
	"{\n\ttc_mfma_i8(8, a, an, ai, b, bn, bi, c, cn, ci, w0);\n}\n";

static const char c_wgmma[] =
	"static float tc_wgmma_elem(int bf16, const tc_u16 *s, int start, const int d[4], int mn, int k)\n"
	"{\n"
	"\tint lbo = d[0], sbo = d[1], swizzle = d[2], at;\n"
	"\tif (d[3])   /* MN-major: rows of 64 mn, 8 of them sbo apart, blocks of 64 mn lbo apart */\n"
	"\t\tat = start + mn / 64 * lbo + k / 8 * sbo + k % 8 * 128 + mn % 64 * 2;\n"
	"\telse        /* K-major: rows of `swizzle` bytes, 8 of them sbo apart */\n"
	"\t\tat = start + mn / 8 * sbo + mn % 8 * swizzle + k * 2;\n"
	"\tat ^= (at >> 7 & (swizzle / 16 - 1)) << 4;   /* the 16-byte chunk xor the row */\n"
	"\treturn bf16 ? tc_bf16_to_f32(s[at / 2]) : tc_f16_to_f32(s[at / 2]);\n"
	"}\n"
	"static void tc_wgmma_now(int bf16, int n, const tc_u16 *sa, int a0, const int da[4], const tc_u16 *sb, int b0,\n"
	"\t\t\t const int db[4], float *c, int cn, int c0, int c1, int w0)\n"
	"{\n"
	"\tfor (int m = 0; m < 64; m++)\n"
	"\t\tfor (int j = 0; j < n; j++) {\n"
	"\t\t\tint t = w0 + 32 * (m / 16) + 4 * (m % 8) + j % 8 / 2;\n"
	"\t\t\tfloat *d = &c[t * cn + (m / 8 % 2 ? c1 : c0) + 2 * (j / 8) + j % 2];\n"
	"\t\t\tfor (int k = 0; k < 16; k++)\n"
	"\t\t\t\t*d += tc_wgmma_elem(bf16, sa, a0, da, m, k) * tc_wgmma_elem(bf16, sb, b0, db, j, k);\n"
	"\t\t}\n"
	"}\n";

/* wgmma m64nNk16 with A from registers: thread w0 + 32 w + 4 g + c holds
 * in its words ai .. ai + 3 the elements (16 w + g + 8 h, 2 c + e + 8 q)
 * of A at word ai + h + 2 q, half e (mma.sync's A fragment, per warp); B
 * and the accumulators as tc_wgmma. */
static const char c_wgmma_ra[] =
	"#define TC_WGMMA_RA 1\n"
	"static void tc_wgmma_ra_now(int bf16, int n, const tc_u32 *a, int an, int ai, const tc_u16 *sb, int b0,\n"
	"\t\t\t    const int db[4], float *c, int cn, int c0, int c1, int w0)\n"
	"{\n"
	"\tfloat A[64][16];\n"
	"\tfor (int m = 0; m < 64; m++)\n"
	"\t\tfor (int k = 0; k < 16; k++) {\n"
	"\t\t\tint t = w0 + 32 * (m / 16) + 4 * (m % 8) + k % 8 / 2;\n"
	"\t\t\tA[m][k] = tc_half_bits(bf16, a[t * an + ai + m / 8 % 2 + 2 * (k / 8)], k % 2);\n"
	"\t\t}\n"
	"\tfor (int m = 0; m < 64; m++)\n"
	"\t\tfor (int j = 0; j < n; j++) {\n"
	"\t\t\tint t = w0 + 32 * (m / 16) + 4 * (m % 8) + j % 8 / 2;\n"
	"\t\t\tfloat *d = &c[t * cn + (m / 8 % 2 ? c1 : c0) + 2 * (j / 8) + j % 2];\n"
	"\t\t\tfor (int k = 0; k < 16; k++)\n"
	"\t\t\t\t*d += A[m][k] * tc_wgmma_elem(bf16, sb, b0, db, j, k);\n"
	"\t\t}\n"
	"}\n";

/* wgmma is asynchronous, and so is the model: an instruction records what
 * it reads when issued (its descriptors' start addresses, where its A
 * registers are) and computes nothing; commit closes a group and wait n
 * runs every group but the newest n, in order, reading the operands'
 * shared memory and registers then. So a result read before its wait is
 * the accumulator as it was, and an operand overwritten before the wait
 * is read overwritten: the CPU tests check that every wait is where it
 * must be (a program's groups are all in lockstep: one queue). */
static const char c_wgmma_queue[] =
	"typedef struct {\n"
	"\tint bf16, n, a0, an, ai, b0, cn, c0, c1, w0, da[4], db[4];\n"
	"\tconst tc_u16 *sa, *sb;\n"
	"\tconst tc_u32 *ra;\n"
	"\tfloat *c;\n"
	"} tc_wgmma_op;\n"
	"static _Thread_local tc_wgmma_op tc_wgmma_ops[512];\n"
	"static _Thread_local int tc_wgmma_nops, tc_wgmma_ngroups, tc_wgmma_ends[64];\n"
	"static tc_wgmma_op *tc_wgmma_push(void)\n"
	"{\n"
	"\tif (tc_wgmma_nops == 512) {\n"
	"\t\tfprintf(stderr, \"tc_wgmma: more than 512 instructions in flight\\n\");\n"
	"\t\t__builtin_trap();\n"
	"\t}\n"
	"\treturn &tc_wgmma_ops[tc_wgmma_nops++];\n"
	"}\n"
	"static void tc_wgmma(int bf16, int n, const tc_u16 *sa, const tc_i32 *a, int an, int ai, const int da[4],\n"
	"\t\t     const tc_u16 *sb, const tc_i32 *b, int bn, int bi, const int db[4], float *c, int cn, int c0, int c1,\n"
	"\t\t     int w0)\n"
	"{\n"
	"\ttc_wgmma_op *o = tc_wgmma_push();\n"
	"\t*o = (tc_wgmma_op){.bf16 = bf16, .n = n, .a0 = 2 * a[w0 * an + ai], .b0 = 2 * b[w0 * bn + bi], .cn = cn, .c0 = c0,\n"
	"\t\t\t     .c1 = c1, .w0 = w0, .sa = sa, .sb = sb, .c = c};\n"
	"\tmemcpy(o->da, da, sizeof o->da);\n"
	"\tmemcpy(o->db, db, sizeof o->db);\n"
	"}\n"
	"#ifdef TC_WGMMA_RA\n"
	"static void tc_wgmma_ra(int bf16, int n, const tc_u32 *a, int an, int ai, const tc_u16 *sb, const tc_i32 *b, int bn,\n"
	"\t\t\tint bi, const int db[4], float *c, int cn, int c0, int c1, int w0)\n"
	"{\n"
	"\ttc_wgmma_op *o = tc_wgmma_push();\n"
	"\t*o = (tc_wgmma_op){.bf16 = bf16, .n = n, .an = an, .ai = ai, .b0 = 2 * b[w0 * bn + bi], .cn = cn, .c0 = c0,\n"
	"\t\t\t     .c1 = c1, .w0 = w0, .sb = sb, .ra = a, .c = c};\n"
	"\tmemcpy(o->db, db, sizeof o->db);\n"
	"}\n"
	"#endif\n"
	"static void tc_wgmma_commit_model(void)\n"
	"{\n"
	"\tif (tc_wgmma_ngroups == 64) {\n"
	"\t\tfprintf(stderr, \"tc_wgmma: more than 64 groups in flight\\n\");\n"
	"\t\t__builtin_trap();\n"
	"\t}\n"
	"\ttc_wgmma_ends[tc_wgmma_ngroups++] = tc_wgmma_nops;\n"
	"}\n"
	"static void tc_wgmma_wait_model(int pending)\n"
	"{\n"
	"\tif (tc_wgmma_ngroups <= pending)\n"
	"\t\treturn;\n"
	"\tint done = tc_wgmma_ngroups - pending, end = tc_wgmma_ends[done - 1];\n"
	"\tfor (int i = 0; i < end; i++) {\n"
	"\t\tconst tc_wgmma_op *o = &tc_wgmma_ops[i];\n"
	"#ifdef TC_WGMMA_RA\n"
	"\t\tif (o->ra) {\n"
	"\t\t\ttc_wgmma_ra_now(o->bf16, o->n, o->ra, o->an, o->ai, o->sb, o->b0, o->db, o->c, o->cn, o->c0, o->c1, o->w0);\n"
	"\t\t\tcontinue;\n"
	"\t\t}\n"
	"#endif\n"
	"\t\ttc_wgmma_now(o->bf16, o->n, o->sa, o->a0, o->da, o->sb, o->b0, o->db, o->c, o->cn, o->c0, o->c1, o->w0);\n"
	"\t}\n"
	"\tmemmove(tc_wgmma_ops, tc_wgmma_ops + end, sizeof *tc_wgmma_ops * (size_t)(tc_wgmma_nops - end));\n"
	"\ttc_wgmma_nops -= end;\n"
	"\tfor (int g = done; g < tc_wgmma_ngroups; g++)\n"
	"\t\ttc_wgmma_ends[g - done] = tc_wgmma_ends[g] - end;\n"
	"\ttc_wgmma_ngroups = pending;\n"
	"}\n";

/* Whether some wgmma reads its A from registers. */
static bool uses_wgmma_regs(const SKernel *k)
{
	if (!simt_uses(k, SS_MMA))
		return false;
	for (const SStmt *s = k->first; s; s = s->next)
		if (s->kind == SS_MMA && s->mop == WGMMA_M64K16 && !s->smem[0])
			return true;
	return false;
}

/* Whether some shuffle reads the lane a distance up or down. */
static bool uses_shifts(const SKernel *k)
{
	if (!simt_uses(k, SS_SHUFFLE))
		return false;
	for (const SStmt *s = k->first; s; s = s->next)
		if (s->kind == SS_SHUFFLE && s->shuffle != SHUFFLE_XOR)
			return true;
	return false;
}

/* tc_atomic_max_i32 ... tc_atomic_min_u64: compare-and-swap loops, as the
 * builtins have no maximum. */
static void c_extremum_functions(Buf *b)
{
	static const char *const types[] = {"tc_i32", "tc_u32", "tc_i64", "tc_u64"};
	for (int i = 0; i < 4; i++)
		for (int max = 0; max < 2; max++)
			buf_printf(b,
				   "TC_DEVICE %s tc_atomic_%s_%s(%s *p, %s v)\n"
				   "{\n"
				   "\t%s old = __atomic_load_n(p, __ATOMIC_RELAXED);\n"
				   "\twhile (v %s old && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_ACQ_REL, "
				   "__ATOMIC_RELAXED))\n"
				   "\t\t;\n"
				   "\treturn old;\n"
				   "}\n",
				   types[i], max ? "max" : "min", types[i] + 3, types[i], types[i], types[i], max ? ">" : "<");
}

/* A checked kernel (tritonc run): each load, store and atomic passes its
 * address through TC_CHECKED, which lets it by when its bytes lie in one
 * of the run's buffers (the runtime points tc_extents at each buffer's
 * first and end address) and else calls tc_bad_access, which stops the
 * run and names the access. A masked-off lane checks nothing: its address
 * is never computed into an access. */
static void c_checked_accesses(Buf *b, const SKernel *k)
{
	(void)k;
	buf_puts(b, "__UINTPTR_TYPE__ *tc_extents;\n"
		    "int tc_nextents;\n"
		    "void (*tc_bad_access)(const void *p, long bytes, int line, int write);\n"
		    "static inline const void *tc_check(const void *p, long bytes, int line, int write)\n"
		    "{\n"
		    "\t__UINTPTR_TYPE__ a = (__UINTPTR_TYPE__)p;\n"
		    "\tfor (int i = 0; i < tc_nextents; i++)\n"
		    "\t\tif (a >= tc_extents[2 * i] && a <= tc_extents[2 * i + 1] && tc_extents[2 * i + 1] - a >= (__UINTPTR_TYPE__)bytes)\n"
		    "\t\t\treturn p;\n"
		    "\tif (tc_bad_access)\n"
		    "\t\ttc_bad_access(p, bytes, line, write);\n"
		    "\t__builtin_trap();\n"
		    "}\n"
		    "#define TC_CHECKED(p, bytes, line, write) ((__typeof__(p))tc_check((const void *)(p), bytes, line, write))\n");
}


/* The model of the bulk tensor copy engine (c:wgmma; SS_MBAR_*, SS_TMA_LOAD):
 * an mbarrier is a u64 of its phase's parity (bit 63), the arrivals it
 * expects a phase (bits 48..62), those still to come (bits 32..47) and the
 * transaction bytes still to come (the low 32 bits, signed: a copy may
 * complete before the arrival that expects it). A phase completes when
 * neither arrivals nor bytes are left. A copy lands at once, box row by
 * box row, each 16-byte chunk where the hardware's swizzle puts it (the
 * chunk number xor-ed with the address bits 7.. of its row: 128-byte
 * rows chunk ^ row % 8, 64-byte rows ^ row / 2 % 4, 32-byte ^ row / 4 % 2,
 * from a destination aligned to 8 rows), zeros where the element is
 * outside the view; its bytes then complete on the mbarrier. A wait for a
 * phase that has not completed would never return on the GPU: here it
 * fails the program. */
static const char c_tma[] =
	"static void tc_tma_fail(const char *msg)\n"
	"{\n"
	"\tif (!tc_assertion[0])\n"
	"\t\tsnprintf(tc_assertion, sizeof tc_assertion, \"bulk tensor copy model: %s\", msg);\n"
	"}\n"
	"static void tc_mbar_init(tc_u64 *bar, int count)\n"
	"{\n"
	"\t*bar = (tc_u64)count << 48 | (tc_u64)count << 32;\n"
	"}\n"
	"static void tc_mbar_init_fence(void) {}\n"
	"static void tc_mbar_step(tc_u64 *bar, int arrivals, int bytes)\n"
	"{\n"
	"\ttc_u64 b = *bar;\n"
	"\tint pending = (int)(b >> 32 & 0xffff), count = (int)(b >> 48 & 0x7fff), phase = (int)(b >> 63);\n"
	"\ttc_i32 tx = (tc_i32)(tc_u32)b;\n"
	"\tif (arrivals > pending) {\n"
	"\t\ttc_tma_fail(\"an arrival on an mbarrier that expects none\");\n"
	"\t\treturn;\n"
	"\t}\n"
	"\tpending -= arrivals;\n"
	"\ttx += bytes;\n"
	"\tif (!pending && !tx) {\n"
	"\t\tphase ^= 1;\n"
	"\t\tpending = count;\n"
	"\t}\n"
	"\t*bar = (tc_u64)phase << 63 | (tc_u64)count << 48 | (tc_u64)pending << 32 | (tc_u32)tx;\n"
	"}\n"
	"static void tc_mbar_expect_tx(tc_u64 *bar, int bytes)\n"
	"{\n"
	"\ttc_mbar_step(bar, 1, bytes);\n"
	"}\n"
	"static void tc_mbar_wait(const tc_u64 *bar, int parity)\n"
	"{\n"
	"\tif ((int)(*bar >> 63) == (parity & 1))\n"
	"\t\ttc_tma_fail(\"a wait for an mbarrier phase that has not completed (it would never return)\");\n"
	"}\n"
	"static void tc_tma_load_model(void *dst, const void *base, tc_i64 rows, tc_i64 cols, tc_i64 stride, int box_rows,\n"
	"\t\t\t      int box_cols, int swizzle, int elem, int c0, int c1, tc_u64 *bar)\n"
	"{\n"
	"\tunsigned char *d = dst;\n"
	"\tconst unsigned char *g = base;\n"
	"\tint row_bytes = box_cols * elem, phases = swizzle / 16;\n"
	"\tif (row_bytes > swizzle || row_bytes % 16) {\n"
	"\t\ttc_tma_fail(\"a box row that the swizzle does not hold\");\n"
	"\t\treturn;\n"
	"\t}\n"
	"\tfor (int r = 0; r < box_rows; r++)\n"
	"\t\tfor (int e = 0; e < box_cols; e++) {\n"
	"\t\t\tlong at = (long)r * row_bytes + (long)e * elem;\n"
	"\t\t\tat ^= (at >> 7 & (phases - 1)) << 4;\n"
	"\t\t\ttc_i64 gr = (tc_i64)c1 + r, gc = (tc_i64)c0 + e;\n"
	"\t\t\tif (gr >= 0 && gr < rows && gc >= 0 && gc < cols)\n"
	"\t\t\t\tmemcpy(d + at, g + (gr * stride + gc) * elem, (size_t)elem);\n"
	"\t\t\telse\n"
	"\t\t\t\tmemset(d + at, 0, (size_t)elem);\n"
	"\t\t}\n"
	"\ttc_mbar_step(bar, 0, -box_rows * row_bytes);\n"
	"}\n";

static void c_head(Buf *b, const SKernel *k)
{
	buf_puts(b, c_types);
	buf_puts(b, c_math);
	buf_puts(b, emit_prelude_shifts);
	buf_puts(b, c_erfinv);
	buf_puts(b, emit_prelude_common);
	if (k->tile->uses_fp8)
		buf_puts(b, emit_prelude_fp8);
	if (simt_uses(k, SS_MMA))
		buf_puts(b, c_matrix);
	if (simt_uses_mma(k, MMA_M16N8K8_TF32) || simt_uses_mma(k, MMA_M16N8K32_S8))
		buf_puts(b, c_matrix_plain);
	if (simt_uses_mma(k, MFMA_16X16X4_F32) || simt_uses_mma(k, MFMA_16X16X8_XF32))
		buf_puts(b, c_mfma_f32);
	if (simt_uses_mma(k, MFMA_16X16X4_F32))
		buf_puts(b, c_mfma_x4);
	if (simt_uses_mma(k, MFMA_16X16X8_XF32))
		buf_puts(b, c_mfma_xf32);
	if (simt_uses_mma(k, MFMA_16X16X16_I8) || simt_uses_mma(k, MFMA_16X16X32_I8))
		buf_puts(b, c_mfma_i8);
	if (simt_uses_mma(k, MFMA_16X16X16_I8))
		buf_puts(b, c_mfma_i8_k16);
	if (simt_uses_mma(k, MFMA_16X16X32_I8))
		buf_puts(b, c_mfma_i8_k32);
	if (simt_uses(k, SS_MMA_FENCE))
		buf_puts(b, c_wgmma);
	if (uses_wgmma_regs(k))
		buf_puts(b, c_wgmma_ra);
	if (simt_uses(k, SS_MMA_FENCE))
		buf_puts(b, c_wgmma_queue);
	buf_printf(b, "#define TC_THREADS %d\n#ifndef TC_RUN_W\n#define TC_RUN_W %d\n#endif\n", k->threads, k->warp_size);
	if (k->target.checked)
		c_checked_accesses(b, k);
	buf_puts(b, "/* A failed device_assert: the first message, for the runtime to report. */\n"
		    "char tc_assertion[512];\n"
		    "static void tc_assert_failed(const int pid[3], int line, const char *msg)\n"
		    "{\n"
		    "\tif (!tc_assertion[0])\n"
		    "\t\tsnprintf(tc_assertion, sizeof tc_assertion, \"line %d: program (%d, %d, %d): device assertion failed: %s\",\n"
		    "\t\t\t line, pid[0], pid[1], pid[2], msg);\n"
		    "}\n"
		    "/* Atomics: programs run on several CPU threads at once. */\n"
		    "TC_DEVICE float tc_atomic_add_f32(float *p, float v)\n"
		    "{\n"
		    "\ttc_u32 old = __atomic_load_n((tc_u32 *)p, __ATOMIC_RELAXED), new_;\n"
		    "\tdo\n"
		    "\t\tnew_ = tc_f32_bits(tc_f32_from_bits(old) + v);\n"
		    "\twhile (!__atomic_compare_exchange_n((tc_u32 *)p, &old, new_, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));\n"
		    "\treturn tc_f32_from_bits(old);\n"
		    "}\n"
		    "TC_DEVICE double tc_atomic_add_f64(double *p, double v)\n"
		    "{\n"
		    "\ttc_u64 old = __atomic_load_n((tc_u64 *)p, __ATOMIC_RELAXED), new_;\n"
		    "\tdouble d;\n"
		    "\tdo {\n"
		    "\t\tmemcpy(&d, &old, 8);\n"
		    "\t\td += v;\n"
		    "\t\tmemcpy(&new_, &d, 8);\n"
		    "\t} while (!__atomic_compare_exchange_n((tc_u64 *)p, &old, new_, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));\n"
		    "\tmemcpy(&d, &old, 8);\n"
		    "\treturn d;\n"
		    "}\n");
	if (k->ntmaps)
		buf_puts(b, c_tma);
	if (emit_uses_atomic(k, ATOM_MAX) || emit_uses_atomic(k, ATOM_MIN))
		c_extremum_functions(b);
	buf_puts(b, "/* the thread of t's warp whose lane differs from t's by `mask` (t itself if none) */\n"
		    "TC_DEVICE int tc_partner(int t, int mask)\n"
		    "{\n"
		    "\tint lane = t % TC_RUN_W, other = t - lane + (lane ^ mask);\n"
		    "\treturn (lane ^ mask) < TC_RUN_W && other < TC_THREADS ? other : t;\n"
		    "}\n");
	if (uses_shifts(k))
		buf_puts(b, "/* the thread `delta` lanes after t in its warp (before it if delta < 0), t itself if none */\n"
			    "TC_DEVICE int tc_shifted(int t, int delta)\n"
			    "{\n"
			    "\tint lane = t % TC_RUN_W + delta;\n"
			    "\treturn lane >= 0 && lane < TC_RUN_W && t + delta < TC_THREADS ? t + delta : t;\n"
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
	if (s->shuffle == SHUFFLE_XOR)
		buf_printf(b, "%s[t]%s = %s[tc_partner(t, %d)]%s;\n", s->shuffled->name, idx, s->src->name, s->lane_xor, idx);
	else
		buf_printf(b, "%s[t]%s = %s[tc_shifted(t, %d)]%s;\n", s->shuffled->name, idx, s->src->name,
			   s->shuffle == SHUFFLE_UP ? -s->lane_delta : s->lane_delta, idx);
}

static void c_barrier(Buf *b)
{
	buf_puts(b, "/* barrier: every statement already ends with all threads */\n");
}

static void c_assert_fail(Buf *b, const SKernel *k, const char *message, int line)
{
	/* the program stops there, as a trap stops it on a GPU */
	buf_printf(b, "tc_assert_failed(tc_pid, %d, %s);\n", line, message);
	buf_puts(b, "\t\t\t\treturn;\n");
}

static const char *c_order(MemSem sem)
{
	static const char *const names[] = {
		[SEM_ACQ_REL] = "__ATOMIC_ACQ_REL", [SEM_RELAXED] = "__ATOMIC_RELAXED",
		[SEM_ACQUIRE] = "__ATOMIC_ACQUIRE", [SEM_RELEASE] = "__ATOMIC_RELEASE",
	};
	return names[sem];
}

/* Atomics as the compiler's __atomic builtins: memory is read and written
 * where the program says, never cached in a register (a spin-wait reads
 * it again each time), in the order `sem` asks. */
static void c_atomic(Buf *b, const SStmt *s, const char *dst, const char *ptr, const char *value, const char *expected)
{
	DType dt = s->value->dtype;
	const char *order = c_order(s->sem), *type = simt_reg_ctype(dt);
	if (s->atomic == ATOM_XCHG || s->atomic == ATOM_CAS) {   /* the generic forms: floats too */
		buf_printf(b, "{ %s tc_old = %s, tc_new = %s; ", type, s->atomic == ATOM_CAS ? expected : "0", value);
		if (s->atomic == ATOM_CAS)
			buf_printf(b, "__atomic_compare_exchange(%s, &tc_old, &tc_new, false, %s, %s); ", ptr, order,
				   s->sem == SEM_ACQUIRE || s->sem == SEM_ACQ_REL ? "__ATOMIC_ACQUIRE" : "__ATOMIC_RELAXED");
		else
			buf_printf(b, "__atomic_exchange(%s, &tc_new, &tc_old, %s); ", ptr, order);
		if (dst)
			buf_printf(b, "%s = tc_old; ", dst);
		buf_puts(b, "}\n");
		return;
	}
	buf_printf(b, "%s%s", dst ? dst : "(void)", dst ? " = " : "");
	if (s->atomic == ATOM_ADD && dtype_is_float(dt))
		buf_printf(b, "tc_atomic_add_%s(%s, %s);\n", dt == DT_F32 ? "f32" : "f64", ptr, value);
	else if (s->atomic == ATOM_MAX || s->atomic == ATOM_MIN)
		buf_printf(b, "tc_atomic_%s_%s(%s, %s);\n", simt_atomic_name(s->atomic), type + 3, ptr, value);
	else
		buf_printf(b, "__atomic_fetch_%s(%s, %s, %s);\n", simt_atomic_name(s->atomic), ptr, value, order);
}

const Printer emit_c_printer = {
	.assert_fail = c_assert_fail,
	.atomic = c_atomic,
	.lockstep = true,
	.safe_int_div = true,
	.head = c_head,
	.tail = c_tail,
	.leaf = c_leaf,
	.shuffle = c_shuffle,
	.barrier = c_barrier,
	.load_words = NULL,
	.store_words = NULL,
	.shared_qualifier = "",
	.align16 = "_Alignas(16) ",
};
