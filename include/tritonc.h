/* tritonc.h: the tritonc compiler as a C library (libtritonc.a, libtritonc.so).
 *
 *   tritonc_options o = {.target = "cuda:sm_90", .signature = "*fp32,*fp32,*fp32,i32,i32",
 *                        .defines = (const char *[]){"XBLOCK=2"}, .ndefines = 1};
 *   char *diag = NULL;
 *   char *cu = tritonc_compile(python_text, "rmsnorm.py", &o, &diag);
 *   if (!cu) fputs(diag, stderr);
 *   ... tritonc_free(cu); tritonc_free(diag);
 *
 * The generated code is what `tritonc compile` prints: a CUDA C or HIP C
 * `extern "C" __global__` kernel, or C with NAME_launch (see
 * `tritonc --help`). Nothing here touches a GPU; the library needs libc
 * alone. */
#ifndef TRITONC_H
#define TRITONC_H

#ifdef __cplusplus
extern "C" {
#endif

/* The library's public functions: the only names libtritonc.so exports
 * (everything else is built with -fvisibility=hidden). */
#ifndef TRITONC_API
#if defined(__GNUC__) || defined(__clang__)
#define TRITONC_API __attribute__((visibility("default")))
#else
#define TRITONC_API
#endif
#endif

typedef struct tritonc_options {
	const char *kernel;              /* the kernel's name; NULL: the only one in the source */
	const char *signature;           /* "*fp32,*fp32,i32:16"; NULL for Inductor kernels */
	const char *const *defines;      /* "NAME=VALUE" constexpr values */
	int ndefines;
	int num_warps;                   /* 0: 4 */
	int num_stages;                  /* loops with tl.dot copy operands this many iterations ahead less one; 0: 3 */
	const char *target;              /* "cuda:sm_90" (NULL), "hip:gfx90a", "c", "c:wave64", "interp" */
	const char *dump;                /* NULL: code; "tir" or "simt": that IR as text */
} tritonc_options;

/* Compiles one kernel of `source` (the text of a .py file with @triton.jit
 * functions or TorchInductor output; `filename` names it in messages).
 * Returns the output (free with tritonc_free), or NULL on an error. When
 * `diagnostics` is not NULL it receives the messages, "file:line:col:
 * error: ..." with the source line and a caret, or NULL when there were
 * none. */
TRITONC_API char *tritonc_compile(const char *source, const char *filename, const tritonc_options *options,
				  char **diagnostics);

TRITONC_API void tritonc_free(void *p);

/* "0.1" */
TRITONC_API const char *tritonc_version(void);

#ifdef __cplusplus
}
#endif

#endif
