/* internal.h: what the files of src/export share. */
#ifndef TC_EXPORT_INTERNAL_H
#define TC_EXPORT_INTERNAL_H

#include "base/base.h"
#include "export/export.h"
#include "gpu/target.h"
#include "ir/tir.h"

#include <stdint.h>

/* One line of NAME.variants: how one variant was exported. */
typedef struct ExSpec {
	char *file;                  /* absolute path of the .py file */
	char *signature;             /* as given to -s, hints included; "" for none */
	char *grid;                  /* as given to --grid; "" for Inductor's rule */
	char **defines;              /* -D, in the order given */
	int ndefines;
	int num_warps, num_stages;   /* 0: the default */
} ExSpec;

/* A parameter of the launcher: a non-constexpr parameter of the kernel. */
typedef struct ExParam {
	const char *name;
	bool known;                  /* its type is known (some variant does not fix it with -D) */
	bool is_ptr;
	DType dtype;                 /* scalars */
	DType elem;                  /* pointers: the pointee */
} ExParam;

typedef enum {
	EXC_NONE,                    /* any value */
	EXC_DIV16,                   /* ":16": a multiple of 16 (a pointer: 16-byte aligned) */
	EXC_EQUAL,                   /* fixed with -D: equal to `value` */
} ExCondKind;

typedef struct ExCond {
	ExCondKind kind;
	int64_t value;
} ExCond;

/* One variant lowered for one target. */
typedef struct ExCode {
	Target target;
	char *source;                /* the emitted code, names made the variant's own */
	int threads;                 /* a block */
	int dynamic_bytes;           /* dynamic shared memory (CUDA beyond 48 KiB), 0: none */
} ExCode;

typedef struct ExVariant {
	ExSpec spec;
	char *fn;                    /* "NAME__v0": its kernel's name in the generated code */
	char *describe;              /* "-s ... -D ... --num-warps 4" */
	ExCond *cond;                /* per launcher parameter */
	int nconds;                  /* how many are not EXC_NONE */
	int *arg;                    /* per launcher parameter: its index among the kernel's arguments, -1: fixed */
	char *grid_c[3];             /* C expressions over the launcher's parameters */
	ExCode *code;                /* per target of the export, in order */
} ExVariant;

/* The whole export: the kernel and all its variants. */
typedef struct ExKernel {
	const char *name;
	ExParam *params;
	int nparams;
	ExVariant *v;
	int nv;
	int *order;                  /* the variants, most specialized first */
	Target *targets;
	int ntargets;
	Arena *arena;
} ExKernel;

/* ---- compile.c ---- */

/* What the compiler said about one variant. */
typedef struct ExLowered {
	const char *const *param_names;   /* the kernel's parameters, in order */
	bool *param_constexpr;            /* annotated tl.constexpr */
	int nparams;
	const char *const *arg_names;     /* the lowered kernel's arguments (parameters left after -D) */
	Type *arg_types;
	int nargs;
	bool *arg_div16;                  /* the argument's -s entry carries ":16" */
	const char *const *defines;       /* -D and the defaults applied */
	int ndefines;
	bool inductor_grid;               /* xnumel and XBLOCK: Inductor's grid rule applies */
	bool split_scan;                  /* Inductor's SplitScanGrid */
	bool has_ynumel;
} ExLowered;

/* Compiles variant `spec` for `target`, the kernel named `fn` in the code;
 * `notes`: say which block sizes an Inductor kernel got by default. NULL
 * after reporting errors to `d`. */
ExCode *export_compile(Arena *a, Diag *d, const ExSpec *spec, const char *kernel, const Target *target,
		       const char *fn, bool notes, ExLowered *info);

/* ---- grid.c ---- */

/* Translates one --grid expression (integers, + - * / % ( ), cdiv, min,
 * max; names of the launcher's integer parameters and the variant's
 * constexprs) into C over `int64_t` values; names of parameters come out
 * as `(int64_t)NAME`. NULL and a message in err on a bad expression. */
char *export_grid_expr(Arena *a, const char *expr, const ExKernel *k, const ExLowered *info, char *err,
		       size_t errlen);

/* ---- launcher.c ---- */
void export_write_header(Buf *b, const ExKernel *k, TargetKind kind);
/* The error strings (a weak definition: every exported kernel has one). */
void export_write_errors(Buf *b);
/* The C type of a launcher parameter ("float *", "int32_t"). */
const char *export_param_ctype(const ExParam *p);
/* Parameter list text: ", float *x, int32_t n" (with the leading comma). */
void export_write_params(Buf *b, const ExKernel *k);
/* The arguments' names: ", x, n". */
void export_write_arg_names(Buf *b, const ExKernel *k);
/* `(void)NAME;` for every parameter, a line each. */
void export_write_unused(Buf *b, const ExKernel *k);
/* Variant i's arguments as `void *a[]` entries, or (call) as the arguments
 * of a <<<>>> call with pointers cast to the kernel's own types. */
void export_write_args(Buf *b, const ExKernel *k, int i, bool call);
/* The dispatch: NAME, NAME_variant, NAME_variant_count, NAME_variant_name
 * and each variant's grid, calling `launch_fn(variant, grid)` that the target defines:
 *   static int NAME__launch(int v, void *stream, const int64_t grid[3], PARAMS) */
void export_write_dispatch(Buf *b, const ExKernel *k);
/* The code of a variant with every tc_ and TC_ name prefixed tcK_ and TCK_,
 * so that all variants fit in one file; the launcher made static. */
char *export_rename(Arena *a, const char *source, int variant, const char *fn);
/* Bytes as a C array initializer, 16 a line. */
void export_write_bytes(Buf *b, const unsigned char *data, size_t len);

/* ---- targets ---- */
int export_target_c(const ExKernel *k, int t, const char *dir, FILE *errors);
int export_target_cuda(const ExKernel *k, const int *ts, int nts, const char *dir, FILE *errors);
int export_target_hip(const ExKernel *k, const int *ts, int nts, const char *dir, FILE *errors);

/* ---- nvrtc.c ---- */
/* CUDA C to a cubin for `arch` ("sm_90") or, when ptx, PTX for compute_NN.
 * The result is malloc'd (*len bytes; PTX NUL-terminated); NULL and a message. */
unsigned char *export_nvrtc(const char *source, const char *arch, bool ptx, size_t *len, char *err, size_t errlen);

/* Writes DIR/NAME atomically; false after saying why. */
bool export_write_file(const char *dir, const char *name, const Buf *b, FILE *errors);
/* A target's files: DIR/KERNEL.h, DIR/KERNEL.c and, where `device` is not
 * NULL, DIR/KERNEL.EXT (the device code), each as export_write_file
 * writes it; the three buffers are freed (NULL ones skipped). Returns 0,
 * or 1 after saying why. */
int export_write_files(const ExKernel *k, const char *dir, Buf *h, Buf *c, Buf *device, const char *ext, FILE *errors);

#endif
