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
 * layout pass attaches a Layout (gpu/layout.h) to each value afterwards. */
#ifndef TC_TIR_H
#define TC_TIR_H

#include "base/base.h"
#include "gpu/layout.h"

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
	TOP_TRANS,
	/* element-wise */
	TOP_ADD, TOP_SUB, TOP_MUL,
	TOP_DIV,        /* true division (floats) */
	TOP_IDIV,       /* integer division, truncating toward zero as in C (Triton's //) */
	TOP_MOD,        /* integer remainder, sign of the dividend as in C (Triton's %) */
	TOP_FMOD,
	TOP_AND, TOP_OR, TOP_XOR, TOP_SHL, TOP_SHR,
	TOP_NEG, TOP_NOT,
	TOP_CMP,        /* aux: CmpKind */
	TOP_WHERE,
	TOP_CAST,       /* to Type.dtype, round to nearest even */
	TOP_BITCAST,
	TOP_MATH,       /* aux: MathFn (exp, log, sqrt, rsqrt, ...) */
	TOP_MAXIMUM, TOP_MINIMUM,
	TOP_PTR_ADD,    /* pointer + integer offset (in elements) */
	/* memory */
	TOP_LOAD,       /* ptr, mask?, other?; aux: EvictionPolicy */
	TOP_STORE,      /* ptr, value, mask? */
	TOP_ATOMIC_ADD,
	/* across a tile */
	TOP_REDUCE,     /* aux: ReduceKind, axis */
	TOP_SCAN,
	TOP_DOT,        /* a, b, acc */
	/* control */
	TOP_FOR,        /* lower, upper, step, init...; body block; results = carried values */
	TOP_IF,
	TOP_YIELD,
	TOP_ASSERT,
} TOp;

typedef enum { CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_EQ, CMP_NE } CmpKind;
typedef enum { RED_SUM, RED_MAX, RED_MIN, RED_PROD, RED_ARGMAX, RED_ARGMIN, RED_ANY } ReduceKind;
typedef enum { EVICT_NORMAL, EVICT_FIRST, EVICT_LAST } EvictionPolicy;
typedef enum {
	MATH_EXP, MATH_EXP2, MATH_LOG, MATH_LOG2, MATH_LOG1P, MATH_SQRT, MATH_RSQRT,
	MATH_ABS, MATH_SIN, MATH_COS, MATH_TANH, MATH_ERF, MATH_FLOOR, MATH_CEIL, MATH_SIGMOID,
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

typedef struct TBlock TBlock;
typedef struct TValue TValue;

struct TValue {
	int id;                /* %id in dumps */
	TOp op;
	Type type;
	const char *name;      /* the Triton variable it was assigned to, for readable output */
	int line;              /* source line, for comments in emitted code */
	TValue **args;
	int nargs;
	int aux;               /* CmpKind, MathFn, ReduceKind, EvictionPolicy, axis... */
	int aux2;
	double fconst;         /* TOP_CONST of a float type */
	int64_t iconst;        /* TOP_CONST of an integer type, TOP_ARG index */
	TBlock *body;          /* TOP_FOR, TOP_IF (then) */
	TBlock *orelse;        /* TOP_IF */
	AxisInfo axis;
	Layout layout;         /* filled by the layout pass */
	TValue *next;          /* in its block */
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
	Arena *arena;
} TKernel;

/* ---- building (build.c) ----
 * The builder appends ops to the current block and makes the IR explicit:
 * operands of element-wise ops are promoted (Triton 3.6's rules) and
 * broadcast to one shape by CAST, EXPAND and BROADCAST ops it inserts, so
 * the passes and the interpreter see operands of one type and shape. */
typedef struct TBuilder {
	TKernel *kernel;
	TBlock *block;
	Arena *arena;
	int next_id;
	int line;              /* source line given to each new op */
	const char *error;     /* set instead of a value when an op does not type */
} TBuilder;

TKernel *tir_kernel_new(Arena *a, const char *name, TBuilder *b);
TValue *tir_arg(TBuilder *b, const char *name, Type t);
TValue *tir_const_int(TBuilder *b, DType dt, int64_t v);
TValue *tir_const_float(TBuilder *b, DType dt, double v);
TValue *tir_program_id(TBuilder *b, int axis);
TValue *tir_arange(TBuilder *b, int start, int end);
TValue *tir_expand(TBuilder *b, TValue *x, int axis);
TValue *tir_broadcast_to(TBuilder *b, TValue *x, int rank, const int *shape);
TValue *tir_cast(TBuilder *b, TValue *x, DType to);
/* Element-wise binary op with promotion and broadcasting. NULL and
 * b->error set when the operands cannot be combined. */
TValue *tir_binary(TBuilder *b, TOp op, TValue *x, TValue *y);
TValue *tir_cmp(TBuilder *b, CmpKind k, TValue *x, TValue *y);
TValue *tir_where(TBuilder *b, TValue *c, TValue *x, TValue *y);
TValue *tir_math(TBuilder *b, MathFn fn, TValue *x);
TValue *tir_load(TBuilder *b, TValue *ptr, TValue *mask, TValue *other, EvictionPolicy ev);
TValue *tir_store(TBuilder *b, TValue *ptr, TValue *value, TValue *mask);
TValue *tir_reduce(TBuilder *b, ReduceKind k, TValue *x, int axis);
/* The result dtype of a binary op on `x` and `y` under Triton's rules; a
 * "weak" operand is a Python scalar, which adopts the other side's type.
 * False when the types cannot be combined. */
bool tir_promote(DType x, bool x_weak, DType y, bool y_weak, bool div_or_mod, DType *out);
bool dtype_is_float(DType t);
bool dtype_is_signed(DType t);

/* ---- axis analysis (axis.c) ---- */
/* Fills every value's AxisInfo. `arg_div` gives each argument's known
 * divisibility (bytes for pointers, e.g. 16 when aligned), or NULL. */
void tir_axis_analysis(TKernel *k, const int64_t *arg_div);
/* Elements per access for a load or store through `ptr` (with `mask` or
 * NULL) along its last dimension, at most `max_bytes` wide. Before layout:
 * the layout's size_per_thread bounds it further. */
int tir_vector_width(const TValue *ptr, const TValue *mask, int max_bytes);

/* ---- text (dump.c) ---- */
void tir_dump(Buf *b, const TKernel *k);
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

/* ---- fp16 and bf16 (fp.c): round to nearest even ---- */
uint16_t fp16_from_float(float f);
float fp16_to_float(uint16_t h);
uint16_t bf16_from_float(float f);
float bf16_to_float(uint16_t h);

int dtype_bytes(DType t);
const char *dtype_name(DType t);   /* Triton's spelling: fp32, bf16, i1, ... */
bool dtype_parse(const char *s, DType *out); /* "fp32" -> DT_F32 */

#endif
