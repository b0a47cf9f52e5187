/* spec.h: what the specializer's files share (specialize.c: values,
 * expressions, statements; spec_control.c: run-time loops and ifs, helper
 * inlining; spec_lib.c: the tl / triton_helpers functions built from
 * several ops; spec_math.c: the element-wise math functions; spec_atomic.c:
 * atomics and the split scan's lookback). Internal to src/ir. */
#ifndef TC_SPEC_H
#define TC_SPEC_H

#include "ir/specialize.h"

typedef enum {
	SV_NONE,     /* None */
	SV_INT,      /* a Python int (also bool) */
	SV_FLOAT,    /* a Python float */
	SV_DTYPE,    /* tl.float32, ... */
	SV_STR,
	SV_MODULE,   /* tl, triton, libdevice, tl_math, triton_helpers */
	SV_VALUE,    /* a runtime tile or scalar */
	SV_TUPLE,
	SV_FUNC,     /* a @triton.jit function of the module (fn: its ND_FUNCDEF) */
	SV_DESC,     /* a tensor descriptor (spec_desc.c): v its base pointer, i its rank, dtype
	                the element type, items the shape, then the strides, then the block
	                shape (3 * rank of them) */
} SvKind;

typedef struct SVal SVal;
struct SVal {
	SvKind kind;
	int64_t i;
	double f;
	DType dtype;
	const char *str;
	TValue *v;
	SVal **items;
	int nitems;
	const Node *fn;
};

typedef struct Binding {
	const char *name;
	SVal *val;             /* NULL: unbound again (a name local to a loop or branch) */
	struct Binding *next;  /* in its hash chain */
} Binding;

/* The names of one function body: a hash table, so that a kernel of many
 * names (or a module of many helpers) binds and looks up in O(1). */
typedef struct Env {
	Binding **slots;       /* chains by the name's hash; nslots a power of two */
	int nslots, count;
} Env;

/* What a binding held before it changed: an if or a loop body puts every
 * name back as it was by undoing these, newest first (spec_control.c). */
typedef struct Undo {
	Binding *b;
	SVal *val;
} Undo;

typedef struct Spec {
	Arena *a;
	Arena *vals;           /* the SVals alone, which die with the specializer: their memory goes to `a` */
	Diag *d;
	const Kernel *k;
	const Source *src;
	LineTable *lines;      /* of src */
	TBuilder b;
	Env *env;
	Undo *undo;            /* changes since the oldest open snapshot (none open: not kept) */
	int nundo, undo_cap;
	int snapshots;         /* open snapshots */
	const Node *reads_func;        /* the function `reads` counts the reads of (spec_control.c) */
	const struct Names *reads;
	struct LoopReads *loop_reads;  /* each loop's reads before its writes, as asked (spec_control.c) */
	const Node *func;      /* the function whose body runs (the kernel or an inlined helper) */
	SVal *ret;             /* what its `return` gave */
	bool returned;         /* a return ran: skip the rest of the function */
	int depth;             /* helper calls being inlined */
} Spec;

TC_NORETURN void spec_error(Spec *s, const Node *n, const char *fmt, ...) TC_PRINTF(3, 4);

SVal *spec_sv_new(Spec *s, SvKind k);
SVal *spec_sv_int(Spec *s, int64_t i);
SVal *spec_sv_float(Spec *s, double f);
SVal *spec_sv_value(Spec *s, const Node *n, TValue *t);
SVal *spec_sv_tuple(Spec *s, int n, SVal **items);
void spec_bind(Spec *s, const char *name, SVal *v);
/* A copy of `name` for a value of the tile IR, which outlives the syntax
 * tree the name is read from (driver_compile gives the tree's memory away). */
const char *spec_value_name(Spec *s, const char *name);
SVal *spec_lookup(Spec *s, const char *name);
void spec_bind_modules(Spec *s);
Env *spec_env_new(Spec *s);

bool spec_is_const(const SVal *v);
DType spec_const_dtype(const SVal *v);
TValue *spec_materialize(Spec *s, const Node *n, SVal *v, DType dt);
TValue *spec_to_value(Spec *s, const Node *n, SVal *v);
void spec_weak_operands(Spec *s, const Node *n, SVal *x, SVal *y, bool div_or_mod, TValue **tx, TValue **ty);
TValue *spec_checked(Spec *s, const Node *n, TValue *v);    /* v, or the builder's error at n */

SVal *spec_eval(Spec *s, const Node *n);
const Node *spec_hint_target(const Node *st);   /* a hint statement's name (spec_control.c) */
SVal *spec_eval_binary(Spec *s, const Node *n, Op op, SVal *x, SVal *y);
SVal *spec_eval_compare(Spec *s, const Node *n, Op op, SVal *x, SVal *y);
int64_t spec_const_int(Spec *s, const Node *n, SVal *v, const char *what);
void spec_assign(Spec *s, const Node *target, SVal *v);
void spec_exec_block(Spec *s, const NodeList *body);

/* Arguments of a call: by position (pos >= 0) or keyword. */
const Node *spec_arg_node(const Node *call, int pos, const char *kw);
SVal *spec_arg(Spec *s, const Node *call, int pos, const char *kw);
SVal *spec_need_arg(Spec *s, const Node *call, int pos, const char *kw);
TValue *spec_need_value(Spec *s, const Node *call, int pos, const char *kw);

/* spec_control.c */
void spec_exec_runtime_for(Spec *s, const Node *n, SVal *lo, SVal *hi, SVal *step);
void spec_exec_runtime_if(Spec *s, const Node *n, TValue *cond);
void spec_exec_while(Spec *s, const Node *n);
/* Runs helper `fn` on already evaluated arguments (kwargs: names of the
 * last nkw of them, or NULL) and returns what it returns. */
SVal *spec_inline_call(Spec *s, const Node *site, const Node *fn, SVal **args, int nargs, const char **kwnames,
		  int nkw);
SVal *spec_call_jit_function(Spec *s, const Node *call, const Node *fn);

/* spec_jumps.c: `fn` with the break and continue of its loops rewritten
 * into flags (fn itself when it has none). */
const Node *spec_rewrite_jumps(Spec *s, const Node *fn);

/* spec_math.c: tl / tl.math / libdevice math functions by name */
bool spec_is_math_fn(const char *fn);
SVal *spec_call_math(Spec *s, const Node *call, const char *fn);  /* NULL: not a math function */

/* spec_builtins.c: Python's builtins (NULL: `name` is none of them), the
 * other spellings of Triton's modules (NULL: no such submodule),
 * tl.extra.cuda's functions (NULL: not one of them), and -D values (NULL:
 * not a constant). */
SVal *spec_call_builtin(Spec *s, const Node *call, const char *name);
SVal *spec_module_attr(Spec *s, const SVal *mod, const char *name);
SVal *spec_call_extra_cuda(Spec *s, const Node *call, const char *fn);
SVal *spec_parse_define(Spec *s, const char *name, const char *text);
/* tl.device_print(prefix, *values) and print(...) */
SVal *spec_device_print(Spec *s, const Node *call, const char *prefix);

/* spec_desc.c: tensor descriptors. spec_desc_arg binds a kernel parameter
 * of signature type tensordesc<T[B0,B1,...]> (`ty`, false when it is not
 * one); spec_call_desc builds tl.make_tensor_descriptor and its kin (NULL:
 * not one); spec_desc_method runs desc.load / desc.store; spec_desc_attr
 * reads desc.shape / strides / block_shape / dtype (NULL: no such one). */
bool spec_desc_arg(Spec *s, const Node *param, const char *ty);
SVal *spec_call_desc(Spec *s, const Node *call, const char *fn);
SVal *spec_desc_method(Spec *s, const Node *call, SVal *desc, const char *fn);
SVal *spec_desc_attr(Spec *s, const Node *n, SVal *desc, const char *name);

/* spec_shape.c: tl.reshape / view / expand_dims / split / join /
 * interleave / cat / broadcast / clamp (NULL: none of them) */
SVal *spec_call_shape(Spec *s, const Node *call, const char *fn);

/* spec_dot_scaled.c: tl.dot_scaled, as upcasts and a tl.dot */
SVal *spec_call_dot_scaled(Spec *s, const Node *call);
/* spec_asm.c: tl.inline_asm_elementwise */
SVal *spec_call_inline_asm(Spec *s, const Node *call);

/* spec_lib.c */
SVal *spec_call_tl_lib(Spec *s, const Node *call, const char *fn);      /* NULL: not one of its functions */
SVal *spec_call_helpers_lib(Spec *s, const Node *call, const char *fn); /* NULL: likewise */

/* spec_atomic.c: tl.atomic_<fn> (fn without "atomic_"; NULL: no such
 * function), and triton_helpers.exclusive_scan_decoupled_lookback (with
 * `wide`, its _64 variant). */
SVal *spec_call_tl_atomic(Spec *s, const Node *call, const char *fn);
SVal *spec_call_lookback(Spec *s, const Node *call, bool wide);

#endif
