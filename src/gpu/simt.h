/* simt.h: the SIMT IR, what one thread of a program does.
 *
 * The lowering (lower.c) turns a tile-IR kernel into this form for one
 * target: every tile becomes a small register array per thread, every tile
 * op a loop nest over that array, and the parts of an op that cross threads
 * become explicit shuffles, shared-memory traffic and barriers. It is the
 * only stage that knows the warp width; the printers (src/emit) spell the
 * same statements as CUDA C, HIP C or lockstep C and decide nothing.
 *
 * Registers are of three kinds: per-thread arrays, uniform scalars (the
 * same in every thread of a program: arguments, program ids and what is
 * computed from them) and shared arrays (one per block). Statements carry a
 * loop nest of constant extents; their expressions index registers with the
 * loop variables, so a printer can unroll them or not. */
#ifndef TC_SIMT_H
#define TC_SIMT_H

#include "gpu/target.h"
#include "ir/tir.h"

#define SIMT_MAX_LOOPS (TC_MAX_RANK + 1)

/* SE_MATH's one function of the lowering's own: fp32 to tf32 precision,
 * the low 13 mantissa bits dropped (what the tensor cores read). */
#define MATH_TF32 100
/* and two 16-bit floats (fp16 or bf16 values in fp32 registers, a[0] and
 * a[1]) rounded into one u32 word, a[0] in the low half (wgmma's A
 * registers) */
#define MATH_PACK_F16X2 101
#define MATH_PACK_BF16X2 102
/* tl.exp2 of fp32 as Triton lowers it on NVIDIA: the special function
 * unit's approximation, subnormals flushed (ex2.approx.ftz.f32); libdevice's
 * exp2 stays MATH_EXP2. Elsewhere exp2f. */
#define MATH_EXP2_FAST 103

typedef enum {
	SR_THREAD,   /* count elements in every thread */
	SR_UNIFORM,  /* one value for the whole program */
	SR_SHARED,   /* count elements shared by the block */
} SRegKind;

typedef struct SReg {
	int id;
	const char *name;      /* unique in the kernel, from the Triton variable where there is one */
	SRegKind kind;
	DType dtype;           /* the value's dtype (fp16 and bf16 are held in fp32 registers) */
	DType elem;            /* pointee for DT_PTR */
	int count;             /* elements; 1 for scalars */
	bool packed;           /* SR_SHARED fp16/bf16: held as 16-bit patterns, 16-byte aligned (matrix operands; fp32 and
	                          int8 ones as they are) */
	bool local;            /* SR_SHARED: a dot's staged operand, written in full after a barrier (in a loop)
	                          and read before the next: it lives from that write to its last read */
	int align;             /* SR_SHARED: bytes its first element is aligned to, when more than 16 (wgmma operands) */
	int offset;            /* SR_SHARED: its first byte in the block's shared memory (simt_allocate) */
	bool read;             /* a frame's first coordinate (Lower.firsts) that some expression reads */
	bool kept;             /* SR_THREAD i32: computed once before a loop and held in a register there (CUDA: set
	                          through an asm, which the C++ compiler neither sinks into the loop nor recomputes) */
	int desc_shift;        /* SR_THREAD i32 > 0: a wgmma operand's start in its shared array, in elements, read
	                          only by wgmma descriptors; CUDA holds it in 16-byte units (the elements >>
	                          desc_shift), the C model in elements (emit.c, desc_units) */
} SReg;

typedef enum {
	SE_REF,          /* reg[index]; index NULL for scalars */
	SE_INT,          /* integer constant of `dtype` */
	SE_FLOAT,        /* float constant of `dtype` */
	SE_LOOP,         /* loop variable number `aux` of the enclosing statement */
	SE_LANE,         /* the thread's lane in its warp */
	SE_WARP,         /* the thread's warp in its block */
	SE_THREAD,       /* the thread's index in its block */
	SE_PROGRAM_ID,   /* aux: axis */
	SE_NUM_PROGRAMS, /* aux: axis */
	SE_ARG,          /* kernel argument number `aux` */
	SE_BINARY,       /* aux: TOp (TOP_ADD ... TOP_MINIMUM, TOP_PTR_ADD); dtype of the result */
	SE_UNARY,        /* aux: TOP_NEG or TOP_NOT */
	SE_CMP,          /* aux: CmpKind; a[0] and a[1] of dtype `from` */
	SE_SELECT,       /* a[0] ? a[1] : a[2] */
	SE_CAST,         /* a[0] from `from` to `dtype` */
	SE_MATH,         /* aux: MathFn, MATH_TF32 or MATH_PACK_*; a[0..arity-1] of dtype `from` (ldexp's a[1]: i32) */
	SE_LOGIC_AND,    /* a[0] && a[1] on booleans (guards) */
	SE_PHILOX,       /* TOP_PHILOX: word `ival` after `aux` rounds; key a[0] (u64), counter (a[1], a[2], 0, 0) */
	SE_BITCAST,      /* a[0]'s bits (of dtype `from`) as `dtype`, one width; a pointer: the same address,
	                    to elements of dtype `aux` */
	SE_ASM,          /* tl.inline_asm_elementwise's result `origin->aux2` (origin: the TOP_ASM value);
	                    the arguments: a[0], a chain of SE_ASM_ARG */
	SE_ASM_ARG,      /* in an SE_ASM's arguments: a[0] the value, a[1] the next one (or NULL) */
} SExprKind;

typedef struct SExpr SExpr;
struct SExpr {
	SExprKind kind;
	DType dtype;           /* of the result */
	DType from;            /* SE_CAST, SE_CMP, SE_MATH: of the operands */
	int aux;
	bool plain;            /* SE_BINARY: index arithmetic of the lowering, which cannot overflow */
	int64_t ival;
	double fval;
	SReg *reg;             /* SE_REF */
	SExpr *index;          /* SE_REF: an integer expression, NULL for scalars */
	SExpr *a[3];
	const TValue *origin;  /* SE_ASM */
};

typedef enum {
	SS_COMMENT,   /* text: a source line */
	SS_ASSIGN,    /* dst = value, where guard (or always) */
	SS_LOAD,      /* dst[0 .. vec) = *ptr .. ptr[vec-1] where mask, else other */
	SS_STORE,     /* *ptr .. = value[0 .. vec) where mask */
	SS_SHUFFLE,   /* dst[i] = src[i] of the partner lane (`shuffle`), i < src->count */
	SS_BARRIER,   /* every thread of the block reaches it before any goes on */
	SS_ASSERT,    /* where guard: the program fails with `text` (device_assert) */
	SS_ATOMIC,    /* dst = *ptr; *ptr = *ptr `atomic` value (one atomic step, with `sem` and `scope`), where
	                 guard; else dst = 0 (dst may be NULL; a shared dst is left as it is) */
	SS_FRAGMENT,  /* dst = words of a matrix instruction's operand, read from shared `src` */
	SS_MMA,       /* acc[0..3] += frag_a * frag_b, one matrix instruction of each warp */
	SS_COPY_ASYNC,/* where guard: shared dst[0 .. vec) = *ptr .. ptr[vec-1] where mask, else 0; lands later */
	SS_COPY_COMMIT,/* the async copies issued since the last commit form a group */
	SS_COPY_WAIT, /* wait until at most `vec` groups are still in flight (then a barrier publishes them) */
	SS_MMA_FENCE, /* before the first asynchronous matrix instruction that reads registers `src` (and
	                 `frag_regs`, its A operands) written since (src NULL: that reads shared memory the
	                 threads wrote since) */
	SS_MMA_COMMIT,/* the asynchronous matrix instructions issued since the last commit form a group */
	SS_MMA_WAIT,  /* wait until at most `vec` groups are in flight; then registers `src` may be read */
	SS_FOR,       /* for (iv = lo; step > 0 ? iv < hi : iv > hi; iv += step) {  (uniform) */
	SS_IF,        /* if (guard) {  (uniform) */
	SS_ELSE,      /* } else { */
	SS_END,       /* } */
	SS_WHILE,     /* for (;;) {  (uniform; left by SS_BREAK) */
	SS_BREAK,     /* if (guard) break;  out of the innermost SS_WHILE (uniform) */
	SS_PRINT,     /* where guard: printf(text, items[0 .. nitems)) (device_print) */
	/* The bulk tensor copy engine (sm_90a; c:wgmma models it). All
	 * uniform; one thread of the block issues the first three. */
	SS_MBAR_INIT, /* the `vec` mbarriers of shared `src` expect one arrival each; then fenced for the copies */
	SS_MBAR_EXPECT,/* arrive on mbarrier `bar`, which expects `vec` bytes more of copies in its phase */
	SS_TMA_LOAD,  /* copy the box of tensor map `tmap` at (coord[0] inner, coord[1] rows) into shared `dst`
	                 (its swizzled layout; zeros outside the view), completing its bytes on mbarrier `bar` */
	SS_MBAR_WAIT, /* every thread waits until the phase of parity `value` of mbarrier `bar` has completed */
} SStmtKind;

/* Which lane an SS_SHUFFLE reads. All lanes of the warp take part. */
typedef enum {
	SHUFFLE_XOR,    /* lane ^ lane_xor */
	SHUFFLE_UP,     /* lane - lane_delta; a lane with none that far below keeps its own value */
	SHUFFLE_DOWN,   /* lane + lane_delta; a lane with none that far above keeps its own value */
} ShuffleKind;

/* The matrix instructions (SS_MMA), and the lanes' fragments they read:
 *   MMA_M16N8K16: NVIDIA mma.sync.m16n8k16 (32 lanes, g = lane / 4,
 *     c = lane % 4). A: 4 words, elements (row g, k 2c..2c+1), (g+8, 2c),
 *     (g, 2c+8), (g+8, 2c+8). B: 2 words, (k 2c..2c+1, col g), (k 2c+8, g).
 *     acc: (g, 2c), (g, 2c+1), (g+8, 2c), (g+8, 2c+1).
 *   MFMA_16X16X16: AMD v_mfma_f32_16x16x16 (64 lanes, r = lane % 16,
 *     q = lane / 16). A: 2 words, (row r, k 4q..4q+3). B: 2 words, (k
 *     4q..4q+3, col r). acc: (4q + i, r), i = 0..3.
 *   WGMMA_M64K16: NVIDIA wgmma.mma_async m64nNk16 (sm_90a), one instruction
 *     of a warpgroup (4 warps, 128 threads). Both operands are read from
 *     shared memory through descriptors (below). Warp w of the group, lane
 *     (g = lane / 4, c = lane % 4) holds for each 8 columns j: (row 16w + g,
 *     col 8j + 2c), (16w + g, 8j + 2c + 1), (16w + g + 8, 8j + 2c), (16w +
 *     g + 8, 8j + 2c + 1): mma.sync's accumulator, once per 8 columns.
 *     A may instead come from registers (smem[0] NULL): 4 words, the
 *     elements (16w + g, k 2c..2c+1), (16w + g + 8, 2c), (16w + g, 2c+8),
 *     (16w + g + 8, 2c+8), mma.sync's A fragment of the warp's 16 rows.
 *   MMA_M16N8K8_TF32: mma.sync m16n8k8 with tf32 operands (fp32 registers of
 *     which the unit reads the tf32 bits), MMA_M16N8K32_S8: m16n8k32 with
 *     int8 operands and int32 accumulators. Counted in 32-bit words of K
 *     (one tf32, four int8, the lower k in the lower byte), their fragments
 *     are m16n8k16's: A (row g, word c), (g+8, c), (g, c+4), (g+8, c+4); B
 *     (word c, col g), (word c+4, g); acc as m16n8k16's. Their fragment
 *     registers hold one element each (frag_a: 4 words, frag_b: 2, each of
 *     4 / bytes elements), read from shared memory by plain assignments.
 *   MFMA_16X16X4_F32 (v_mfma_f32_16x16x4f32, exact fp32 products),
 *     MFMA_16X16X8_XF32 (v_mfma_f32_16x16x8_xf32, gfx94x: fp32 registers
 *     read as tf32), MFMA_16X16X16_I8 (v_mfma_i32_16x16x16i8, gfx908 and
 *     gfx90a), MFMA_16X16X32_I8 (v_mfma_i32_16x16x32_i8, gfx94x; int32
 *     accumulators): MFMA_16X16X16's layout for a K of 4 kb, lane (r, q)
 *     holding A (row r, k kb q .. kb q + kb - 1), B (k kb q .., col r), kb =
 *     1, 2, 4, 8; acc as MFMA_16X16X16's. Their fragment registers hold one
 *     element each (kb for A, kb for B), read by plain assignments.
 * A word holds two 16-bit elements, the lower index in the low half. */
typedef enum {
	MMA_M16N8K16,
	MFMA_16X16X16,
	WGMMA_M64K16,
	MMA_M16N8K8_TF32,
	MMA_M16N8K32_S8,
	MFMA_16X16X4_F32,
	MFMA_16X16X8_XF32,
	MFMA_16X16X16_I8,
	MFMA_16X16X32_I8,
} MatrixOp;

/* A wgmma operand in shared memory: a tile of 16-bit elements in rows of
 * `swizzle` bytes (128, 64 or 32), their 16-byte chunks xor-permuted by the
 * row's phase, 8 rows to a group, groups `sbo` bytes apart. K-major (the
 * operand's K dimension along the rows): the instruction's 16 k are within
 * one row. MN-major (`trans`): rows run along M (or N) 64 elements at a
 * time, blocks of 64 `lbo` bytes apart, and the 16 k are 16 rows. */
typedef struct WgmmaDesc {
	int lbo, sbo;
	int swizzle;
	bool trans;
} WgmmaDesc;

typedef struct SStmt SStmt;
struct SStmt {
	SStmtKind kind;
	int line;                       /* source line, 0 when none */
	const char *text;               /* SS_COMMENT; SS_ASSERT: the message */
	bool uniform;                   /* the same in every thread (no per-thread state) */
	int nloops;
	int extent[SIMT_MAX_LOOPS];     /* loop k runs over 0 .. extent[k]-1, outermost first */
	SExpr *dst;                     /* SE_REF: ASSIGN, LOAD (first element) */
	SExpr *value;                   /* ASSIGN; STORE: the first element (REF) */
	SExpr *guard;                   /* ASSIGN, STORE, LOAD: the mask, or NULL */
	SExpr *ptr;                     /* LOAD, STORE: the first element's address */
	SExpr *other;                   /* LOAD: the value of masked-off elements, or NULL; COPY_ASYNC:
					 * NULL, or how many leading elements (i32) are copied where
					 * mask holds, the others zeros */
	SExpr *mask;                    /* COPY_ASYNC: elements where it is false are zeros (NULL: none) */
	int vec;                        /* LOAD, STORE: consecutive elements per access */
	int value_stride;               /* STORE: element j of the access is value's index + j * value_stride */
	EvictionPolicy evict;           /* LOAD */
	SReg *src;                      /* SHUFFLE */
	SReg *shuffled;                 /* SHUFFLE: the destination */
	ShuffleKind shuffle;            /* SHUFFLE */
	int lane_xor;                   /* SHUFFLE_XOR */
	int lane_delta;                 /* SHUFFLE_UP, SHUFFLE_DOWN */
	SReg *iv;                       /* FOR: the induction variable */
	SExpr *lo, *hi, *step;          /* FOR */
	SStmt *also;                    /* ASSIGN: more assignments in the same loop body, in order */
	/* SS_FRAGMENT: dst is the first word; with nmat > 0 an ldmatrix of nmat
	 * 8x8 matrices (transposed if `trans`), each lane giving at `ptr` the
	 * index in `src` of one row; with nmat 0 one word packed from src[ptr]
	 * (low half) and src[value] (high half). */
	int nmat;
	bool trans;
	/* SS_MMA */
	MatrixOp mop;
	DType operand;                  /* DT_F16 or DT_BF16 (DT_F32, DT_I8 for the tf32 and int8 mma.sync and MFMA) */
	SExpr *frag_a, *frag_b;         /* the first word of each operand */
	SExpr *acc[4];                  /* the fp32 accumulators, in the instruction's order */
	SExpr **items;                  /* SS_PRINT: the format's arguments */
	int nitems;
	/* SS_ATOMIC */
	AtomicOp atomic;
	MemSem sem;
	MemScope scope;
	SExpr *expected;                /* ATOM_CAS: what the old value is compared with */
	/* SS_MMA of WGMMA_M64K16: frag_a and frag_b are the element index in
	 * smem[0] and smem[1] of the operand tile's first element (the same in
	 * every thread of a warpgroup); acc[0] is the first register of the row
	 * g, acc[1] of the row g + 8, and 8 columns later come 2 registers on.
	 * smem[0] NULL: frag_a is the first of the thread's 4 A words. */
	int n;
	int tmap;                       /* SS_TMA_LOAD: the kernel's tensor map number */
	SReg *smem[2];
	WgmmaDesc desc[2];
	SReg *frag_regs;                /* SS_MMA_FENCE: A operand registers fenced too; SS_MMA_WAIT: other
	                                   accumulators the wait completes; or NULL */
	/* SS_MBAR_EXPECT, SS_TMA_LOAD, SS_MBAR_WAIT */
	SExpr *bar;                     /* SE_REF: the mbarrier (a u64 of a shared array) */
	SExpr *coord[2];                /* SS_TMA_LOAD: the box's first column and row (i32) */
	/* SS_IF of a pipelined loop's body (peel.c): the consumer's (iv past
	 * the fill) or the producer's (iv < hi; its SS_ELSE, the drain's) */
	enum { PEEL_NONE, PEEL_CONSUMER, PEEL_PRODUCER } peel;
	SStmt *next;
};

/* A tensor map for the bulk tensor copy engine, encoded by the host
 * (cuTensorMapEncodeTiled) from arguments of the kernel: a 2-D view of
 * `elem`s at argument `base`, extents from arguments shape[0] (rows) and
 * shape[1] (columns), rows `stride` elements apart (an argument), copied
 * in boxes of box_rows x box_cols into shared memory swizzled by
 * `swizzle` bytes (128, 64 or 32: rows of box_cols 16-bit elements, their
 * 16-byte chunks xor-ed with address bits 7..), zeros outside the view.
 * The CUDA code takes the maps after the kernel's arguments, in order,
 * each a 128-byte parameter (`const __grid_constant__`). */
typedef struct STensorMap {
	int base, shape[2], stride;   /* argument numbers */
	DType elem;
	int box_rows, box_cols;
	int swizzle;
} STensorMap;

typedef struct SKernel {
	const char *name;
	const TKernel *tile;            /* what it was lowered from: argument names and types */
	Target target;
	int warp_size;                  /* the W this code was lowered for */
	int num_warps;
	int threads;                    /* per block: warp_size * num_warps */
	int min_blocks;                 /* CUDA: __launch_bounds__'s blocks an SM holds at once, 0: none (the plan's) */
	SReg **regs;                    /* every register, in order of definition */
	int nregs, cap_regs;
	const char **names;             /* the registers' names, a hash set (names_cap a power of two) */
	int names_cap;
	SStmt *first, *last;
	uint32_t kinds;                 /* bit 1 << kind for each kind of statement made (simt_uses: a kernel
	                                   without one is not walked; one may have been dropped since) */
	int shared_bytes;               /* shared memory of all SR_SHARED registers, at their offsets */
	bool shared_reuse;              /* some SR_SHARED registers share bytes: one block, each at its offset */
	int dynamic_bytes;              /* CUDA beyond 48 KiB: all of them in one dynamic block of this size, 0: static */
	int shared_align;               /* the largest alignment an SR_SHARED register asks for (dynamic: the block
	                                   is laid out from an address rounded up to it, the slack included) */
	const Source *src;              /* the source its statements' lines are of, or NULL (errors of simt_allocate) */
	STensorMap *tmaps;              /* the bulk tensor copies' maps, passed after the arguments */
	int ntmaps;
	Arena *arena;
	ArenaRun stmts, exprs;          /* where statements and expressions go, each one after another */
	SExpr *ints[256];               /* simt_int's last constants, by a hash of dtype and value: one node
	                                   for each (no one changes an SE_INT once made) */
	SExpr *leaves[64];              /* simt_leaf's last SE_LOOP .. SE_ARG, the same way */
} SKernel;

/* ---- building (simt.c) ---- */
SReg *simt_reg(SKernel *k, SRegKind kind, DType dt, DType elem, int count, const char *name);
SExpr *simt_ref(SKernel *k, SReg *r, SExpr *index);
SExpr *simt_int(SKernel *k, DType dt, int64_t v);
SExpr *simt_float(SKernel *k, DType dt, double v);
SExpr *simt_leaf(SKernel *k, SExprKind kind, DType dt, int aux);
SExpr *simt_binary(SKernel *k, TOp op, DType dt, SExpr *x, SExpr *y);
SExpr *simt_cmp(SKernel *k, CmpKind c, DType operand, SExpr *x, SExpr *y);
SExpr *simt_cast(SKernel *k, DType from, DType to, SExpr *x);
SExpr *simt_and(SKernel *k, SExpr *x, SExpr *y);   /* either may be NULL (true) */
SStmt *simt_stmt(SKernel *k, SStmtKind kind, int line);
/* An assignment run right after `head`'s, inside the same loops. */
SStmt *simt_also(SKernel *k, SStmt *head);
/* A statement put right after `after` (first of all where NULL), not at the end. */
SStmt *simt_stmt_after(SKernel *k, SStmt *after, SStmtKind kind, int line);
/* The statement opens a construct that an SS_END closes. */
static inline bool simt_opens(SStmtKind k)
{
	return k == SS_FOR || k == SS_WHILE || k == SS_IF;
}
/* The pipelined loop f (SS_FOR .. its SS_END, the kernel's last statement)
 * as three (peel.c): iterations below fill_end without the consumer's
 * part, those below hi with both parts and no guards, and the rest with
 * the consumer's part and the producer's SS_ELSE. SS_FOR with lo NULL
 * goes on from the induction variable's value. */
void simt_peel_pipeline(SKernel *k, SStmt *f, SExpr *fill_end, SExpr *hi);

/* Bytes of one element of a shared array: packed 16-bit patterns, fp16 and
 * bf16 otherwise held in fp32, the dtype's size for the rest. */
int simt_shared_elem_bytes(const SReg *r);
/* The alignment of a shared array: 16 bytes, or more where it asks. */
int simt_shared_align(const SReg *r);

/* Bytes of all the SR_SHARED registers of `k`, one after another. */
int simt_shared_bytes(const SKernel *k);

/* True when some statement of `k` is of kind `kind`. */
bool simt_uses(const SKernel *k, SStmtKind kind);
/* True when some SS_MMA of `k` is the instruction `op`. */
bool simt_uses_mma(const SKernel *k, MatrixOp op);

/* ---- text (simt.c): `tritonc compile --dump simt` ---- */
void simt_dump(Buf *b, const SKernel *k);
/* The C spelling of a dtype in registers ("float" for fp16 and bf16) and in memory. */
const char *simt_reg_ctype(DType dt);
const char *simt_mem_ctype(DType dt);
/* Triton's names: "xchg", "acq_rel", "gpu" */
const char *simt_atomic_name(AtomicOp op);
const char *simt_sem_name(MemSem sem);
const char *simt_scope_name(MemScope scope);

/* ---- the lowering (lower.c) ----
 * Lowers `tk` for `target` (warp width, vector width). NULL after reporting
 * an error through `diag` (at the source line of an op that cannot be
 * lowered yet). `tk` has been through the tile-IR passes (driver_passes in
 * src/driver/driver.c): its axis info chooses the vector widths. `src`
 * gives the source lines copied into comments; it may be NULL. */
SKernel *simt_lower(Arena *a, Diag *diag, const Source *src, TKernel *tk, const Target *target);

#endif
