/* tir.h: the tile IR, what a specialized kernel is between the AST and the
 * lowering.
 *
 * A kernel is a list of operations on whole tiles, Triton's own level: every
 * value is a tile of one dtype and a static shape (rank 0 for scalars), and
 * the semantics of every op (type promotion, integer division and remainder,
 * masks and `other`, broadcasting, reductions) are defined once, here and in
 * the interpreter. Constexprs are folded and helper calls inlined before a
 * kernel reaches this form; static loops are unrolled; `for` over a runtime
 * range stays a loop with loop-carried values (accumulators, pointer tiles).
 *
 * Values are in SSA form: each op defines at most one value, and a loop's
 * carried values are block arguments, as in MLIR's scf.for, so the lowering
 * can give each its registers once. Nothing here knows the warp width: the
 * lowering's plan (gpu/plan.h) gives each value a frame and its layout,
 * beside the IR. */
#ifndef TC_TIR_H
#define TC_TIR_H

#include "base/base.h"
#include "gpu/layout.h"   /* TC_MAX_RANK */

typedef enum {
	DT_I1,    /* bool */
	DT_I8,
	DT_I16,
	DT_I32,
	DT_I64,
	DT_U8,
	DT_U32,
	DT_U64,
	DT_F16,
	DT_BF16,
	DT_F32,
	DT_F64,
	DT_PTR,   /* a pointer; the pointee is Type.elem */
	/* the fp8 formats (fp.c says how each converts), held in fp32 like
	 * fp16 and bf16, one byte in memory */
	DT_F8E4NV,   /* tl.float8e4nv: e4m3fn, bias 7 */
	DT_F8E5,     /* tl.float8e5: e5m2, bias 15 */
	DT_F8E4B15,  /* tl.float8e4b15: e4m3, bias 15, no inf or NaN */
	DT_F8E4B8,   /* tl.float8e4b8: e4m3fnuz, bias 8 */
	DT_F8E5B16,  /* tl.float8e5b16: e5m2fnuz, bias 16 */
	DT_U16,      /* tl.uint16 (after the fp8 formats: the earlier codes keep their values) */
} DType;

typedef struct Type {
	DType dtype;
	DType elem;                /* pointee for DT_PTR */
	int rank;                  /* 0: a scalar */
	int shape[TC_MAX_RANK];
} Type;

typedef enum {
	/* sources */
	TOP_ARG,        /* a kernel argument (scalar or pointer) */
	TOP_CONST,      /* a constant splat to the type's shape */
	TOP_PROGRAM_ID, /* tl.program_id(axis) */
	TOP_NUM_PROGRAMS,
	TOP_ARANGE,     /* tl.arange(start, end) */
	/* shape changes */
	TOP_SPLAT,      /* scalar to tile */
	TOP_BROADCAST,  /* dims of extent 1 to the result's extents */
	TOP_EXPAND,     /* insert a dim of extent 1 (x[:, None]) */
	TOP_RESHAPE,
	TOP_TRANS,      /* tl.trans / tl.permute: perm[i] is the operand dim of result dim i */
	/* element-wise */
	TOP_ADD, TOP_SUB, TOP_MUL,
	TOP_DIV,        /* true division (floats) */
	TOP_IDIV,       /* integer division, truncating toward zero as in C (Triton's //);
			   x // 0 is all ones and INT_MIN // -1 is INT_MIN, as on the GPU */
	TOP_MOD,        /* integer remainder, sign of the dividend as in C (Triton's %);
			   x % 0 is x and INT_MIN % -1 is 0 */
	TOP_FMOD,
	TOP_AND, TOP_OR, TOP_XOR, TOP_SHL, TOP_SHR,
	TOP_NEG, TOP_NOT,
	TOP_CMP,        /* aux: CmpKind */
	TOP_WHERE,
	TOP_CAST,       /* to Type.dtype, round to nearest even */
	TOP_BITCAST,
	TOP_MATH,       /* aux: MathFn (exp, log, pow, fma, ...); its 1 to 3 operands; aux2: 1 for
			   tl.exp2 (Triton's approximation on NVIDIA), 0 for libdevice's exp2 */
	TOP_MAXIMUM, TOP_MINIMUM,
	TOP_PTR_ADD,    /* pointer + integer offset (in elements) */
	/* memory */
	TOP_LOAD,       /* ptr, mask?, other?; aux: EvictionPolicy */
	TOP_STORE,      /* ptr, value, mask? */
	TOP_ATOMIC,     /* a read-modify-write of memory; iconst: AtomicOp */
	/* across a tile */
	TOP_REDUCE,     /* aux: ReduceKind, axis */
	TOP_SCAN,
	TOP_DOT,        /* a, b, acc */
	/* control */
	TOP_FOR,        /* lower, upper, step, init...; body block; results = carried values */
	TOP_IF,
	TOP_YIELD,
	TOP_ASSERT,
	/* Added with helpers, run-time loops and tl.dot; appended here so the
	 * values above keep their numbers. Conventions in "Operand conventions"
	 * below. */
	TOP_BARRIER,    /* tl.debug_barrier(): no operands, no value */
	TOP_RESULT,     /* result number `aux` of the TOP_FOR or TOP_IF args[0] */
	TOP_PARAM,      /* a block parameter (TBlock.params), never in an op list */
	TOP_HINT,       /* args[0] unchanged; aux: HintKind; hint[d]: the value for dim d */
	TOP_PHILOX,     /* seed, offset; aux: rounds; aux2: which word of Triton's randint4x */
	TOP_CONVERT,    /* args[0] unchanged, in another layout (inserted by the lowering) */
	TOP_WHILE,      /* init...; body block, a TOP_CONDITION in it; results = carried values */
	TOP_CONDITION,  /* in a TOP_WHILE's body: the loop ends here unless args[0] */
	TOP_GATHER,     /* tl.gather: src, index; aux: axis */
	TOP_PRINT,      /* tl.device_print / print: the values; text: the prefix; aux: hex; no value */
	TOP_ASM,        /* tl.inline_asm_elementwise, one of its results: the arguments (broadcast);
			   text: the constraints, a newline, the asm; aux: results, aux2: this one;
			   hint[i]: result i's dtype (i < 7), hint[7]: is_pure; perm[0]: pack;
			   iconst: the id of result 0 (one asm) */
} TOp;

typedef enum { CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_EQ, CMP_NE } CmpKind;
typedef enum {
	RED_SUM, RED_MAX, RED_MIN, RED_PROD, RED_ARGMAX, RED_ARGMIN, RED_ANY,
	RED_COMBINE,    /* tl.reduce with a jitted combine function (a body) */
} ReduceKind;
typedef enum { EVICT_NORMAL, EVICT_FIRST, EVICT_LAST } EvictionPolicy;
typedef enum { SEM_ACQ_REL, SEM_RELAXED, SEM_ACQUIRE, SEM_RELEASE } MemSem;       /* Triton's default first */
typedef enum {
	ATOM_ADD,       /* tl.atomic_add */
	ATOM_XCHG,      /* tl.atomic_xchg */
	ATOM_MAX,       /* tl.atomic_max (integers) */
	ATOM_MIN,       /* tl.atomic_min (integers) */
	ATOM_AND,       /* tl.atomic_and */
	ATOM_OR,        /* tl.atomic_or */
	ATOM_XOR,       /* tl.atomic_xor */
	ATOM_CAS,       /* tl.atomic_cas */
} AtomicOp;
typedef enum { SCOPE_GPU, SCOPE_CTA, SCOPE_SYS } MemScope;
typedef enum { DOT_TF32, DOT_TF32X3, DOT_IEEE } DotPrecision;                  /* fp32 inputs only */
typedef enum { HINT_MULTIPLE_OF, HINT_MAX_CONTIGUOUS, HINT_MAX_CONSTANCY } HintKind;
/* TOP_MATH's functions. The result has the operands' dtype unless said
 * otherwise; fp16 and bf16 are computed in fp32 and rounded (Triton's
 * libdevice has fp32 and fp64 versions only). MATH_ABS alone takes integers. */
typedef enum {
	MATH_EXP, MATH_EXP2, MATH_LOG, MATH_LOG2, MATH_LOG1P, MATH_SQRT, MATH_RSQRT,
	MATH_ABS, MATH_SIN, MATH_COS, MATH_TANH, MATH_ERF, MATH_FLOOR, MATH_CEIL, MATH_SIGMOID,
	MATH_EXPM1, MATH_LOG10, MATH_TAN, MATH_ASIN, MATH_ACOS, MATH_ATAN, MATH_SINH, MATH_COSH,
	MATH_ASINH, MATH_ACOSH, MATH_ATANH, MATH_ERFC, MATH_ERFINV, MATH_LGAMMA, MATH_CBRT,
	MATH_TRUNC,
	MATH_RINT,      /* rint and nearbyint: to the nearest integer, ties to even */
	MATH_ROUND,     /* to the nearest integer, ties away from zero (libdevice's round) */
	MATH_SIGNBIT,   /* i32: 1 where the sign bit is set (-0.0 and negative NaNs too), else 0 */
	MATH_ILOGB,     /* i32: the exponent of |x| as an integer; INT32_MIN for 0 and NaN, INT32_MAX for infinities */
	MATH_ISNAN,     /* i1 */
	MATH_ISINF,     /* i1 */
	MATH_ISFINITE,  /* i1 */
	/* two operands */
	MATH_POW, MATH_ATAN2, MATH_HYPOT, MATH_COPYSIGN,
	MATH_NEXTAFTER, /* the next value of the dtype from x toward y (fp32's for fp16 and bf16) */
	MATH_LDEXP,     /* x * 2^y, y an i32 */
	/* three operands */
	MATH_FMA,       /* x * y + z with one rounding (to fp32 first for fp16 and bf16) */
} MathFn;

/* What is known of an integer or pointer tile's values along each dim, as
 * Triton's axis analysis knows it: runs of consecutive values (contiguity),
 * runs of equal values (constancy) and the largest power of two dividing the
 * first value of each run (divisibility; bytes for pointers). The lowering
 * reads it to choose 16-byte accesses. */
typedef struct AxisInfo {
	int contiguity[TC_MAX_RANK];
	int constancy[TC_MAX_RANK];
	int64_t divisibility[TC_MAX_RANK];
} AxisInfo;

/* Operand conventions of the ops whose form is not obvious from the list.
 *
 * TOP_REDUCE   args[0] = input; aux: ReduceKind; aux2: axis; result: the
 *              input's type without dim `axis`. RED_SUM of an integer
 *              narrower than 32 bits is on i32 (the builder casts).
 *              RED_ANY: input i1 (the builder casts), result i1.
 *              RED_ARGMAX / RED_ARGMIN: args[1] = indices, same shape as
 *              args[0], any integer dtype; the result has args[1]'s dtype
 *              and is the index of the chosen element, as Inductor's
 *              max_with_index / min_with_index define it: a NaN is chosen
 *              over any number (for both kinds), and among equal values
 *              (all NaNs are equal) the smallest index wins, so the result
 *              does not depend on the order of combination. The value of
 *              the maximum itself is a separate RED_MAX (NaN-propagating).
 *              RED_COMBINE: args[0..n-1] = the n inputs, one shape (dtypes
 *              may differ); `body` is the combine function as in TOP_SCAN
 *              (params [0..n-1] the values so far, [n..2n-1] the next
 *              ones, a TOP_YIELD of n scalars). The value is result 0 (input
 *              0's dtype, without dim `axis`); with n > 1 it is followed
 *              by n - 1 TOP_RESULTs (aux 1..n-1). The interpreter folds
 *              each row from its first element in order; the lowering in
 *              a tree, so the combine must be associative and commutative
 *              (as Triton's lowering also takes it).
 * TOP_SCAN     args[0..n-1] = the n inputs, one shape (dtypes may differ);
 *              aux: axis; aux2: 1 for reverse. The inclusive scan of the n
 *              inputs at once: `body` is the combine function, params
 *              [0..n-1] the running values and params [n..2n-1] the next
 *              elements (rank-0, the inputs' dtypes), ending with a TOP_YIELD
 *              of n rank-0 values of those dtypes. Element j is
 *              combine(...combine(x0, x1)..., xj) (from the end if reverse).
 *              The op's value is the first result (input 0's type); with
 *              n > 1 it is followed in its block by n - 1 TOP_RESULTs
 *              (aux 1..n-1, the other inputs' types). iconst: the ReduceKind
 *              (RED_SUM, RED_PROD, RED_MAX, RED_MIN) when n is 1 and the
 *              combine is exactly that op on the two params, else -1.
 * TOP_ATOMIC   ptr, value, mask?: value and mask already cast and
 *              broadcast to the pointer tile's shape; iconst: AtomicOp; aux:
 *              MemSem; aux2: MemScope; result: the old values (pointee
 *              dtype, the pointer's shape). Each element is one atomic
 *              read-modify-write: *p = old + value (ATOM_ADD), value
 *              (XCHG), max / min (integers, by the dtype's signedness),
 *              old & value, | value, ^ value. An element whose mask is off
 *              neither reads nor writes, and its result is 0. ATOM_CAS:
 *              ptr, cmp, value (Triton's order, no mask): *p = value where
 *              old == cmp (bit for bit). An atomic_add of 0 is how Triton
 *              code reads memory atomically (a spin-wait reads it again each
 *              time; no load may be hoisted out of the loop).
 * TOP_ASSERT   cond, mask?: i1, one shape; `text`: the message; no value.
 *              Fails the program where mask (if any) is on and cond is off.
 * TOP_BARRIER  no operands, no value: a no-op at tile level; the lowering
 *              emits the CTA barrier Triton's tl.debug_barrier() does.
 * TOP_DOT      a [M,K], b [K,N], acc [M,N] (always present: the builder
 *              makes zeros when the source has none). a and b have one dtype
 *              (fp16, bf16, fp32, or i8 with an i32 acc); the result has
 *              acc's type. aux: DotPrecision, for fp32 inputs: DOT_TF32 (the
 *              default, Triton 3.6's) takes each input as tf32, keeping 10
 *              mantissa bits by truncation (what an H200 does under Triton
 *              3.6: 0x3f801fff multiplies as 0x3f800000); DOT_IEEE and
 *              DOT_TF32X3 multiply in full fp32 (tf32x3 is within an ulp of it).
 * TOP_FOR      args: lower, upper, step (scalars of the induction variable's
 *              dtype), then the initial values of the n carried values.
 *              body->params: [0] the induction variable, [1..n] the carried
 *              values (the inits' types). The body ends with a TOP_YIELD of
 *              n values (the next iteration's carried values, same types).
 *              The op has no value of its own; it is followed in its block
 *              by exactly n TOP_RESULTs (aux 0..n-1): the final values. The
 *              loop runs iv = lower; while (step > 0 ? iv < upper : iv >
 *              upper); iv += step. aux: num_stages asked for (0: none), aux2:
 *              loop_unroll_factor (0: none).
 * TOP_WHILE    args: the initial values of the n carried values.
 *              body->params[0..n-1]: the carried values. The body runs its
 *              ops in order until its TOP_CONDITION (exactly one, at its
 *              top level, before anything with an effect): when that is
 *              false the loop ends, and its results are the params as they
 *              are; otherwise the rest runs and the closing TOP_YIELD of n
 *              values gives the next iteration's params (Python's `while
 *              cond: body`, the condition's ops first in the body, as
 *              scf.while's "before" region). Followed by n TOP_RESULTs.
 * TOP_CONDITION args[0]: an i1 scalar; no value.
 * TOP_IF       args[0]: i1 scalar condition; body (then) and orelse (never
 *              NULL) each end with a TOP_YIELD of the same n types; followed
 *              by n TOP_RESULTs like TOP_FOR.
 * TOP_YIELD    args: the values a block hands back; no value.
 * TOP_RESULT   args[0]: the TOP_FOR / TOP_WHILE / TOP_IF / TOP_SCAN / TOP_REDUCE; aux: which result.
 * TOP_PARAM    aux: its index in the block's params.
 * TOP_HINT     args[0]: the tile tl.multiple_of / tl.max_contiguous /
 *              tl.max_constancy annotate; the value is args[0]'s. hint[d]
 *              replaces what axis analysis knows for dim d (as Triton's
 *              tt.divisibility / tt.contiguity / tt.constancy do).
 * TOP_PHILOX   args[0]: seed (integer scalar), args[1]: offsets (integer
 *              tile, 32 or 64 bits); aux: rounds (10 by default); aux2: word
 *              0..3. The result (u32, the offsets' shape) is word aux2 of
 *              Triton 3.6's randint4x(seed, offset): Philox-4x32 on the
 *              counter (offset mod 2^32, offset >> 32 for 64-bit offsets
 *              else 0, 0, 0) under the key (seed as u64 mod 2^32, seed >> 32).
 *              interp.c spells out the rounds.
 * TOP_BITCAST  args[0]; result: the same bits as the result's dtype (one width),
 *              or a pointer to another element type (ptr.to(tl.pointer_type(T))):
 *              the same address.
 * TOP_TRANS    args[0]; perm[0..rank-1]: a permutation of its dims; result
 *              dim i is operand dim perm[i]: shape[i] = operand shape[perm[i]]
 *              and result[c] = operand[e] where e[perm[i]] = c[i]. Never the
 *              identity: the builder returns the operand then.
 * TOP_GATHER   args[0] = src, args[1] = index (an integer tile of src's rank,
 *              src's extents in every dim but aux, the axis); the result has
 *              index's shape and src's dtype: result[c] = src[c with c[aux]
 *              replaced by index[c]]. An index outside [0, src extent) is
 *              an error in the interpreter (Triton leaves it undefined); the
 *              lowering reads it modulo the extent.
 * TOP_PRINT    args: the values printed (scalars or tiles, any shapes); text:
 *              the prefix as Triton 3.6 shapes it (" x: "); aux: 1 for hex.
 *              Each program prints a line for every element of every value,
 *              Triton's format: "pid (X, Y, Z) idx (I, J)" then the prefix,
 *              "(operand N) " when there are several values, and the value
 *              (%f, %d, %u; 0x%0Nx for hex), the indices padded to the
 *              digits of their extents; with no values one line,
 *              "pid (X, Y, Z)" and the prefix. A scalar is printed once a
 *              program (Triton prints it from every thread), a tile element
 *              once (Triton: from every thread that holds a copy).
 * TOP_CONVERT  args[0]; the value is args[0]'s. Never built from source: the
 *              lowering inserts it where a tile is needed in two layouts
 *              (Triton's convert_layout); the interpreter copies. */

typedef struct TBlock TBlock;
typedef struct TValue TValue;

/* A load of a block of a descriptor argument made on the host (Triton's
 * TensorDescriptor; spec_desc.c): the arguments that describe the view and
 * the block's offsets, so that a target with a bulk tensor copy engine can
 * copy the block by a tensor map the host encodes from those arguments
 * instead of the pointer tile and mask the load also has. */
typedef struct TDescLoad {
	const TValue *base;                  /* TOP_ARG: the base pointer */
	const TValue *shape[TC_MAX_RANK];    /* TOP_ARG (an integer): the extents */
	const TValue *stride[TC_MAX_RANK];   /* TOP_ARG (an integer, elements); the last one NULL: 1 */
	const TValue *offset[TC_MAX_RANK];   /* the block's offsets (scalars), NULL: offset_const */
	int64_t offset_const[TC_MAX_RANK];
	int64_t block[TC_MAX_RANK];
	int rank;
} TDescLoad;

/* Fields are ordered to leave no padding, those every pass over the
 * values reads first (a long kernel has hundreds of thousands of values,
 * walked a few dozen times), and what few ops have is held apart (hint,
 * perm). */
struct TValue {
	int id;                /* %id in dumps */
	TOp op;
	int nargs;
	bool dead;             /* nothing live reads it (tir_dce) */
	TValue *next;          /* in its block */
	TValue **args;
	TBlock *body;          /* TOP_FOR, TOP_IF (then) */
	TBlock *orelse;        /* TOP_IF */
	Type type;
	int line;              /* source line, for comments in emitted code */
	int aux;               /* CmpKind, MathFn, ReduceKind, EvictionPolicy, axis... */
	int aux2;
	const char *name;      /* the Triton variable it was assigned to, for readable output */
	double fconst;         /* TOP_CONST of a float type */
	int64_t iconst;        /* TOP_CONST of an integer type, TOP_ARG index */
	const char *text;      /* TOP_ASSERT: the message */
	int64_t *hint;         /* TOP_HINT: the value for each dim; TOP_ASM: see TOP_ASM (TC_MAX_RANK of them, else NULL) */
	int *perm;             /* TOP_TRANS: the operand dim of each result dim; TOP_ASM: perm[0] (TC_MAX_RANK, else NULL) */
	const TDescLoad *desc; /* TOP_LOAD of a block of a descriptor made of arguments, or NULL */
	/* What axis analysis knows (all zeros before it): one shared copy of
	 * each distinct AxisInfo (128 bytes), never written once set; a value
	 * is given another. */
	const AxisInfo *axis;
};

struct TBlock {
	TValue *first, *last;
	TValue **params;       /* loop-carried values inside a TOP_FOR body; the induction variable first */
	int nparams;
};

typedef struct TKernel {
	const char *name;
	TValue **args;         /* TOP_ARG values, in signature order */
	int nargs;
	TBlock *body;
	int num_warps;
	int num_stages;
	bool uses_fp8;         /* some value is of an fp8 dtype or points to one (the printers add its conversions) */
	uint64_t ops;          /* bit 1 << op for each kind of op the builder appended (tir_may_have) */
	int nids;              /* the ids the builder gave are below this (tir_value_count walks the values) */
	Arena *arena;
} TKernel;

/* False when `k` has no op of kind `op`: a pass over one kind of op skips
 * a kernel without any (true may also mean one was built and later
 * dropped). */
static inline bool tir_may_have(const TKernel *k, TOp op)
{
	return (unsigned)op >= 64 || (k->ops >> op & 1);
}

/* ---- building (build.c) ----
 * The builder appends ops to the current block and makes the IR explicit:
 * operands of element-wise ops are promoted (Triton 3.6's rules) and
 * broadcast to one shape by CAST, EXPAND and BROADCAST ops it inserts, so
 * the passes and the interpreter see operands of one type and shape. */
typedef struct TBuilder {
	TKernel *kernel;
	TBlock *block;
	Arena *arena;
	ArenaRun values, args; /* where new values and their operand lists go, one after another */
	int next_id;
	int line;              /* source line given to each new op */
	const char *error;     /* set instead of a value when an op does not type */
	const char *limit;     /* set when an op made a tile Triton does not allow (too many
	                          elements, a dimension not a power of two); the caller reports it */
} TBuilder;

/* Triton's largest tile (TRITON_MAX_TENSOR_NUMEL). */
#define TIR_MAX_NUMEL ((int64_t)1 << 20)

TKernel *tir_kernel_new(Arena *a, const char *name, TBuilder *b);
TValue *tir_arg(TBuilder *b, const char *name, Type t);
TValue *tir_const_int(TBuilder *b, DType dt, int64_t v);
TValue *tir_const_float(TBuilder *b, DType dt, double v);
TValue *tir_program_id(TBuilder *b, int axis);
TValue *tir_arange(TBuilder *b, int start, int end);
TValue *tir_expand(TBuilder *b, TValue *x, int axis);
TValue *tir_broadcast_to(TBuilder *b, TValue *x, int rank, const int *shape);
/* The elements of x in row-major order, in a tile of `shape` (as many of them). */
TValue *tir_reshape(TBuilder *b, TValue *x, int rank, const int *shape);
TValue *tir_gather(TBuilder *b, TValue *src, TValue *index, int axis);
TValue *tir_print(TBuilder *b, int n, TValue **values, const char *prefix, bool hex);
/* The printf format of element `operand` of TOP_PRINT `v` (of `n`): pid, indices, prefix, value (ir/build.c). */
char *tir_print_format(const TValue *v, int operand);
/* Permutes the dims of x: result dim i is x's dim perm[i] (n == x's rank).
 * x itself for the identity. */
TValue *tir_trans(TBuilder *b, TValue *x, int n, const int *perm);
TValue *tir_cast(TBuilder *b, TValue *x, DType to);
/* Element-wise binary op with promotion and broadcasting. NULL and
 * b->error set when the operands cannot be combined. */
TValue *tir_binary(TBuilder *b, TOp op, TValue *x, TValue *y);
TValue *tir_cmp(TBuilder *b, CmpKind k, TValue *x, TValue *y);
TValue *tir_where(TBuilder *b, TValue *c, TValue *x, TValue *y);
TValue *tir_math(TBuilder *b, MathFn fn, TValue *x);
/* A math function of n operands (its arity), promoted to one float dtype
 * (MATH_LDEXP's exponent to i32) and broadcast to one shape. */
TValue *tir_math_n(TBuilder *b, MathFn fn, int n, TValue **args);
int tir_math_arity(MathFn fn);
TValue *tir_load(TBuilder *b, TValue *ptr, TValue *mask, TValue *other, EvictionPolicy ev);
TValue *tir_store(TBuilder *b, TValue *ptr, TValue *value, TValue *mask);
TValue *tir_reduce(TBuilder *b, ReduceKind k, TValue *x, int axis);
/* RED_ARGMAX / RED_ARGMIN of `values` carrying `index` (same shape). */
TValue *tir_reduce_index(TBuilder *b, ReduceKind k, TValue *values, TValue *index, int axis);
TValue *tir_bitcast(TBuilder *b, TValue *x, DType to);
TValue *tir_unary(TBuilder *b, TOp op, TValue *x);       /* TOP_NEG, TOP_NOT */
/* An atomic read-modify-write (not ATOM_CAS) of every element of `ptr`. */
TValue *tir_atomic(TBuilder *b, AtomicOp op, TValue *ptr, TValue *value, TValue *mask, MemSem sem, MemScope scope);
TValue *tir_atomic_cas(TBuilder *b, TValue *ptr, TValue *cmp, TValue *value, MemSem sem, MemScope scope);
/* `ptr` (a pointer tile) as pointers to `elem`: the same addresses. */
TValue *tir_pointer_cast(TBuilder *b, TValue *ptr, DType elem);
/* int64 addresses as pointers to `elem` and back (Triton's int_to_ptr,
 * ptr_to_int): the bits unchanged. */
TValue *tir_int_to_ptr(TBuilder *b, TValue *x, DType elem);
TValue *tir_ptr_to_int(TBuilder *b, TValue *ptr, DType to);
TValue *tir_assert(TBuilder *b, TValue *cond, TValue *mask, const char *msg);
TValue *tir_barrier(TBuilder *b);
/* tl.inline_asm_elementwise with pack 1: `nout` values, one a result, of
 * dtypes `out` and the arguments' broadcast shape, into `results`. */
int tir_asm_registers(DType dt, int pack);   /* an inline asm operand's registers for `pack` elements */
bool tir_inline_asm(TBuilder *b, const char *asm_text, const char *constraints, int nargs, TValue **args, int nout,
		    const DType *out, bool pure, int pack, TValue **results);
TValue *tir_dot(TBuilder *b, TValue *x, TValue *y, TValue *acc, DotPrecision p);
TValue *tir_philox(TBuilder *b, TValue *seed, TValue *offset, int rounds, int word);
TValue *tir_hint(TBuilder *b, TValue *x, HintKind kind, const int64_t *values);
/* Ops with blocks. The builder creates the op and its blocks (with their
 * params); the caller sets b->block to each block in turn, builds it,
 * ends it with tir_yield, restores b->block, and then appends the results
 * with tir_results. */
#define TIR_MAX_SCAN 8   /* tensors one scan carries at once */
TValue *tir_scan(TBuilder *b, int n, TValue **inputs, int axis, bool reverse);
/* tl.reduce of n tensors with a combine block (RED_COMBINE), built like a scan's. */
TValue *tir_reduce_combine(TBuilder *b, int n, TValue **inputs, int axis);
TValue *tir_for(TBuilder *b, TValue *lower, TValue *upper, TValue *step, int n, TValue **init);
TValue *tir_if(TBuilder *b, TValue *cond);
TValue *tir_while(TBuilder *b, int n, TValue **init);
TValue *tir_condition(TBuilder *b, TValue *cond);    /* in the body of a TOP_WHILE */
TValue *tir_yield(TBuilder *b, int n, TValue **values);
/* Appends the n TOP_RESULTs of a TOP_FOR or TOP_IF (types from its yield)
 * and stores them in out[0..n-1]. For a TOP_SCAN or RED_COMBINE reduction
 * of n inputs: out[0] is the op itself, out[1..n-1] the TOP_RESULTs appended. */
void tir_results(TBuilder *b, TValue *op, TValue **out);
/* The ReduceKind a combine block computes (one add/mul/max/min of its two
 * params), or -1. */
int tir_combine_kind(const TBlock *body);
/* Drops every op after `last` (NULL: all) from the current block. */
void tir_truncate(TBuilder *b, TValue *last);
/* Largest value id in the kernel, nested blocks and params included, + 1. */
int tir_value_count(const TKernel *k);
/* The result dtype of a binary op on `x` and `y` under Triton's rules; a
 * "weak" operand is a Python scalar, which adopts the other side's type.
 * False when the types cannot be combined. */
bool tir_promote(DType x, bool x_weak, DType y, bool y_weak, bool div_or_mod, DType *out);
bool dtype_is_float(DType t);
bool dtype_is_signed(DType t);

/* ---- dead values (dce.c) ---- */
/* Whether `v`'s only effect is its result (a store, an atomic, a loop or an
 * assert is not). */
bool tir_pure(const TValue *v);
/* Marks dead every pure value nothing reads, and those only dead values
 * read (TValue.dead); returns how many. */
int tir_dce(TKernel *k);
/* Adds to reads[id] how many ops of block b (and the blocks in them) read each value. */
void tir_count_reads(const TBlock *b, int *reads);

/* ---- combine.c ---- */
/* `x + tl.dot(a, b)` (a dot from zeros that only the add reads) as
 * `tl.dot(a, b, x)`, as Triton's combine pass; returns how many. */
int tir_combine_dot_add(TKernel *k);

/* ---- axis analysis (axis.c) ---- */
/* Every value's axis info until the analysis gives it one: all zeros. */
extern const AxisInfo tir_axis_none;
/* Fills every value's AxisInfo. `arg_div` gives each argument's known
 * divisibility (bytes for pointers, e.g. 16 when aligned), or NULL. */
void tir_axis_analysis(TKernel *k, const int64_t *arg_div);
/* Elements per access for a load or store through `ptr` (with `mask` or
 * NULL) along its last dimension, at most `max_bytes` wide. Before layout:
 * the layout's size_per_thread bounds it further. */
int tir_vector_width(const TValue *ptr, const TValue *mask, int max_bytes);
/* Greatest common divisor of two non-negative integers (gcd(a, 0) = a). */
int64_t tir_gcd(int64_t a, int64_t b);
/* The same along dimension `d` of the pointer tile (the one its layout runs
 * consecutive elements of a thread along). */
int tir_vector_width_along(const TValue *ptr, const TValue *mask, int d, int max_bytes);

/* ---- text (dump.c) ---- */
void tir_dump(Buf *b, const TKernel *k);
/* tir_dump with each value's axis info after its type:
 * "{contig=1,4 const=1,1 div=16,16}" (dims in order; "dead" last for a
 * value tir_dce marked). */
void tir_dump_axis(Buf *b, const TKernel *k);
void tir_format_type(Buf *b, const Type *t);
const char *tir_op_name(TOp op);     /* "load", "reduce", ... */

/* ---- the interpreter (interp.c) ---- */
typedef struct TArgValue {
	void *ptr;             /* pointer arguments */
	int64_t i;             /* integer scalars */
	double f;              /* float scalars */
} TArgValue;

/* Runs the kernel for every program of `grid`. 0 on success; otherwise
 * writes a message into `err`. */
int tir_interpret(TKernel *k, const TArgValue *args, const int grid[3], char *err, size_t errlen);
/* Runs only programs first .. first+count-1, numbered with axis 0 fastest. */
int tir_interpret_range(TKernel *k, const TArgValue *args, const int grid[3], int64_t first, int64_t count,
			char *err, size_t errlen);
/* tir_interpret_range with a time limit for all of them together
 * (`timeout_s` > 0; 0: none): TIR_TIMED_OUT once a loop is still running
 * past it. */
#define TIR_TIMED_OUT (-2)
int tir_interpret_timed(TKernel *k, const TArgValue *args, const int grid[3], int64_t first, int64_t count,
			double timeout_s, char *err, size_t errlen);

/* ---- fp16 and bf16 (fp.c): round to nearest even ---- */
uint16_t dtype_fp16_from_float(float f);
float dtype_fp16_to_float(uint16_t h);
uint16_t dtype_bf16_from_float(float f);
float dtype_bf16_to_float(uint16_t h);
bool dtype_is_fp8(DType t);
uint8_t dtype_fp8_from_float(DType dt, float x);   /* Triton's conversion from fp32 (fp.c) */
float dtype_fp8_to_float(DType dt, uint8_t b);
float dtype_fp8_round(DType dt, float x);          /* x converted to dt and back */
float dtype_fp8e5_value_to_bf16(float x);        /* the same, of the value held in fp32 */
float dtype_fp8e5_to_bf16(uint8_t b);              /* Triton's fp8e5 -> bf16 (exponent 31 finite) */

int dtype_bytes(DType t);
const char *dtype_name(DType t);   /* Triton's spelling: fp32, bf16, i1, ... */
bool dtype_parse(const char *s, DType *out); /* "fp32" -> DT_F32 */

#endif
