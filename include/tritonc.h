/* tritonc.h: the tritonc compiler as a C library (libtritonc.a).
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

typedef struct tritonc_options {
	const char *kernel;              /* the kernel's name; NULL: the only one in the source */
	const char *signature;           /* "*fp32,*fp32,i32:16"; NULL for Inductor kernels */
	const char *const *defines;      /* "NAME=VALUE" constexpr values */
	int ndefines;
	int num_warps;                   /* 0: 4 */
	int num_stages;                  /* loops with tl.dot copy operands this many iterations ahead less one; 0: 3 */
	const char *target;              /* "cuda:sm_90" (NULL), "hip:gfx90a", "c", "c:wave64", "interp" */
	const char *dump;                /* NULL: code; a stage's name ("tir", "passes", "simt", ...; see
	                                    tritonc_result_stage), or several comma separated: that text */
} tritonc_options;

/* Compiles one kernel of `source` (the text of a .py file with @triton.jit
 * functions or TorchInductor output; `filename` names it in messages).
 * Returns the output (free with tritonc_free), or NULL on an error. When
 * `diagnostics` is not NULL it receives the messages, "file:line:col:
 * error: ..." with the source line and a caret, and the notes of the
 * defaults chosen for an Inductor kernel ("note: ..."), or NULL when there
 * were none. */
char *tritonc_compile(const char *source, const char *filename, const tritonc_options *options,
		      char **diagnostics);

void tritonc_free(void *p);

/* ---- a compiled kernel, with what a launcher needs to know ----
 *
 *   tritonc_result *r = tritonc_compile_kernel(python_text, "rmsnorm.py", &o, &diag);
 *   if (!r) { fputs(diag, stderr); ... }
 *   const char *cu = tritonc_result_code(r);
 *   launch tritonc_result_symbol(r) with tritonc_result_threads(r) threads a
 *   block and tritonc_result_dynamic_shared_bytes(r) bytes of dynamic shared
 *   memory, passing the parameters that are not constant, in order;
 *   tritonc_result_free(r);
 *
 * The result is opaque and read through the functions below, so it can
 * grow. Every string it returns lives as long as the result. Indexes that
 * are out of range give NULL, 0 or -1 as each function says. */
typedef struct tritonc_result tritonc_result;

/* Compiles one kernel as tritonc_compile does (options->dump is ignored:
 * every stage's text is kept). Returns NULL on an error. *diagnostics, as
 * for tritonc_compile, receives every message: errors, and on success too
 * the notes ("note: KERNEL: using 8 warps"), or NULL when there were none. */
tritonc_result *tritonc_compile_kernel(const char *source, const char *filename, const tritonc_options *options,
				       char **diagnostics);

/* Frees the result and every string it returned; NULL is ignored. */
void tritonc_result_free(tritonc_result *r);

/* The generated code: CUDA C or HIP C (an extern "C" __global__ kernel) or
 * C (with NAME_launch); for the "interp" target the tile IR. */
const char *tritonc_result_code(const tritonc_result *r);

/* The tile IR right after specialization (`tritonc compile --dump tir`). */
const char *tritonc_result_tir(const tritonc_result *r);

/* The per-thread SIMT IR (`--dump simt`); NULL for the "interp" target. */
const char *tritonc_result_simt(const tritonc_result *r);

/* The text of a stage by its `--dump` name: "kernels", "ast", "tir",
 * "passes" (the tile IR after its passes, with axis info), "plan", "simt" or
 * "code". NULL for an unknown name or a stage with no text here (a stage the
 * target skips; "plan" until the lowering has a plan of its own). */
const char *tritonc_result_stage(const tritonc_result *r, const char *stage);

/* The notes of the compile, one a line ("KERNEL: no -D XBLOCK given, using
 * XBLOCK=1024" for the block sizes chosen for an Inductor kernel given none,
 * "KERNEL: using 8 warps"); "" when there were none. `tritonc compile`
 * prints the same lines as "tritonc: note: ...". */
const char *tritonc_result_notes(const tritonc_result *r);

/* The kernel's name in the source. */
const char *tritonc_result_name(const tritonc_result *r);

/* The generated code's entry point: the kernel's name for CUDA and HIP,
 * NAME_launch for C (void NAME_launch(void **args, const int grid[3], long
 * first, long count)); NULL for "interp". */
const char *tritonc_result_symbol(const tritonc_result *r);

/* The target as given ("cuda:sm_90", "hip:gfx90a", "c:wave64"; "cuda:sm_90"
 * when the options named none). */
const char *tritonc_result_target(const tritonc_result *r);

/* Lanes of a warp the code was lowered for (32 or 64). */
int tritonc_result_warp_size(const tritonc_result *r);

/* Warps a program, after defaults (options->num_warps, else Inductor's
 * choice, else 4). */
int tritonc_result_num_warps(const tritonc_result *r);

/* Threads a block to launch with: num_warps * warp size (0 for "interp"). */
int tritonc_result_threads(const tritonc_result *r);

/* Bytes of dynamic shared memory to launch with: nonzero only for CUDA
 * kernels that need more than the 48 KiB of static shared memory (or a
 * larger alignment). */
int tritonc_result_dynamic_shared_bytes(const tritonc_result *r);

/* Bytes of shared memory the kernel uses in all (static or dynamic). */
int tritonc_result_shared_bytes(const tritonc_result *r);

/* The kernel's parameters, every one in the order of its definition:
 * those made constants by specialization (constexprs, -D values, Inductor's
 * constants) and those the launch passes. */
int tritonc_result_num_params(const tritonc_result *r);

/* Parameter i's name; NULL when i is out of range. */
const char *tritonc_result_param_name(const tritonc_result *r, int i);

/* Parameter i's type in the signature's spelling: "*fp32" (a pointer to
 * fp32), "i32", "fp64"; "constexpr" for a constant. */
const char *tritonc_result_param_type(const tritonc_result *r, int i);

/* Whether parameter i was made a constant by specialization (then the
 * launch does not pass it). */
int tritonc_result_param_is_constant(const tritonc_result *r, int i);

/* A constant's value as written ("1024", "0.25", "True"); NULL for a
 * parameter the launch passes. */
const char *tritonc_result_param_value(const tritonc_result *r, int i);

/* Parameter i's position among the launch's arguments (0, 1, ...); -1 for
 * a constant. */
int tritonc_result_param_index(const tritonc_result *r, int i);

/* What the code assumes divides the value the launch passes for parameter
 * i: 16 for a pointer (16-byte aligned, as Triton assumes of tensors) and
 * for an integer hinted ":16" in the signature, else 1; 0 for a constant. */
long long tritonc_result_param_divisibility(const tritonc_result *r, int i);

/* "0.1" */
const char *tritonc_version(void);

#ifdef __cplusplus
}
#endif

#endif
