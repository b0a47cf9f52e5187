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

#include <stddef.h>

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
	const char *dump;                /* NULL: code; a stage's name ("tir", "passes", "simt", ...; see
	                                    tritonc_result_stage), or several comma separated: that text */
	int pointer_hints;               /* 0: every pointer is taken as 16-byte aligned (tritonc compile's
	                                    default); 1: only those hinted ':16' in the signature, as
	                                    Triton specializes on the pointers' values */
} tritonc_options;

/* Compiles one kernel of `source` (the text of a .py file with @triton.jit
 * functions or TorchInductor output; `filename` names it in messages).
 * Returns the output (free with tritonc_free), or NULL on an error. When
 * `diagnostics` is not NULL it receives the messages, "file:line:col:
 * error: ..." with the source line and a caret, and the notes of the
 * defaults chosen for an Inductor kernel ("note: ..."), or NULL when there
 * were none. */
TRITONC_API char *tritonc_compile(const char *source, const char *filename, const tritonc_options *options,
				  char **diagnostics);

TRITONC_API void tritonc_free(void *p);

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
TRITONC_API tritonc_result *tritonc_compile_kernel(const char *source, const char *filename, const tritonc_options *options,
				       char **diagnostics);

/* Frees the result and every string it returned; NULL is ignored. */
TRITONC_API void tritonc_result_free(tritonc_result *r);

/* The generated code: CUDA C or HIP C (an extern "C" __global__ kernel) or
 * C (with NAME_launch); for the "interp" target the tile IR. */
TRITONC_API const char *tritonc_result_code(const tritonc_result *r);

/* The tile IR right after specialization (`tritonc compile --dump tir`). */
TRITONC_API const char *tritonc_result_tir(const tritonc_result *r);

/* The per-thread SIMT IR (`--dump simt`); NULL for the "interp" target. */
TRITONC_API const char *tritonc_result_simt(const tritonc_result *r);

/* The text of a stage by its `--dump` name: "kernels", "ast", "tir",
 * "passes" (the tile IR after its passes, with axis info), "plan", "simt" or
 * "code". NULL for an unknown name or a stage with no text here (a stage the
 * target skips; "plan" until the lowering has a plan of its own). */
TRITONC_API const char *tritonc_result_stage(const tritonc_result *r, const char *stage);

/* The notes of the compile, one a line ("KERNEL: no -D XBLOCK given, using
 * XBLOCK=1024" for the block sizes chosen for an Inductor kernel given none,
 * "KERNEL: using 8 warps"); "" when there were none. `tritonc compile`
 * prints the same lines as "tritonc: note: ...". */
TRITONC_API const char *tritonc_result_notes(const tritonc_result *r);

/* The kernel's name in the source. */
TRITONC_API const char *tritonc_result_name(const tritonc_result *r);

/* The generated code's entry point: the kernel's name for CUDA and HIP,
 * NAME_launch for C (void NAME_launch(void **args, const int grid[3], long
 * first, long count)); NULL for "interp". */
TRITONC_API const char *tritonc_result_symbol(const tritonc_result *r);

/* The target as given ("cuda:sm_90", "hip:gfx90a", "c:wave64"; "cuda:sm_90"
 * when the options named none). */
TRITONC_API const char *tritonc_result_target(const tritonc_result *r);

/* Lanes of a warp the code was lowered for (32 or 64). */
TRITONC_API int tritonc_result_warp_size(const tritonc_result *r);

/* Warps a program, after defaults (options->num_warps, else Inductor's
 * choice, else 4). */
TRITONC_API int tritonc_result_num_warps(const tritonc_result *r);

/* Threads a block to launch with: num_warps * warp size (0 for "interp"). */
TRITONC_API int tritonc_result_threads(const tritonc_result *r);

/* Bytes of dynamic shared memory to launch with: nonzero only for CUDA
 * kernels that need more than the 48 KiB of static shared memory (or a
 * larger alignment). */
TRITONC_API int tritonc_result_dynamic_shared_bytes(const tritonc_result *r);

/* Bytes of shared memory the kernel uses in all (static or dynamic). */
TRITONC_API int tritonc_result_shared_bytes(const tritonc_result *r);

/* The kernel's parameters, every one in the order of its definition:
 * those made constants by specialization (constexprs, -D values, Inductor's
 * constants) and those the launch passes. */
TRITONC_API int tritonc_result_num_params(const tritonc_result *r);

/* Parameter i's name; NULL when i is out of range. */
TRITONC_API const char *tritonc_result_param_name(const tritonc_result *r, int i);

/* Parameter i's type in the signature's spelling: "*fp32" (a pointer to
 * fp32), "i32", "fp64"; "constexpr" for a constant. */
TRITONC_API const char *tritonc_result_param_type(const tritonc_result *r, int i);

/* Whether parameter i was made a constant by specialization (then the
 * launch does not pass it). */
TRITONC_API int tritonc_result_param_is_constant(const tritonc_result *r, int i);

/* A constant's value as written ("1024", "0.25", "True"); NULL for a
 * parameter the launch passes. */
TRITONC_API const char *tritonc_result_param_value(const tritonc_result *r, int i);

/* Parameter i's position among the launch's arguments (0, 1, ...); -1 for
 * a constant. */
TRITONC_API int tritonc_result_param_index(const tritonc_result *r, int i);

/* What the code assumes divides the value the launch passes for parameter
 * i: 16 for a pointer (16-byte aligned, as Triton assumes of tensors;
 * with `pointer_hints`, only for one hinted ":16") and for an integer
 * hinted ":16" in the signature, else 1; 0 for a constant. */
TRITONC_API long long tritonc_result_param_divisibility(const tritonc_result *r, int i);

/* "0.1" */
TRITONC_API const char *tritonc_version(void);

/* ---- loading and launching compiled kernels ----
 *
 *   tritonc_load_options lo = {.target = "c", .name = "add_kernel"};
 *   tritonc_kernel *k = tritonc_load(c_code, &lo, &diag);
 *   float *x = ..., *y = ..., *out = ...; int32_t n = 1000;
 *   void *args[] = {&x, &y, &out, &n};
 *   if (tritonc_launch(k, (int[3]){4, 1, 1}, NULL, args)) fputs(tritonc_kernel_error(k), stderr);
 *   tritonc_unload(k);
 *
 * `args` holds a pointer to each argument's value, in the order of the
 * kernel's parameters that remain after specialization (those given as
 * constexprs are gone): for a pointer parameter a pointer to the buffer's
 * address (a `void *` variable), for i32 an int32_t, i64 an int64_t, fp32
 * a float, fp64 a double, i1 an int8_t. These functions use the system C
 * compiler (C code) or the CUDA driver and NVRTC (CUDA code), found at
 * run time; a program that never loads CUDA code needs neither. */

typedef struct tritonc_kernel tritonc_kernel;

typedef struct tritonc_load_options {
	const char *target;       /* what the code was compiled for: "c" (NULL), "c:wave64", "cuda:sm_90", "cuda:sm_90a" */
	const char *name;         /* the kernel's name (its function in the code) */
	int threads;              /* CUDA: threads a block (num_warps * 32); 0: 128 */
	int shared_bytes;         /* CUDA: dynamic shared memory a block */
	int run_width;            /* C: the warp width the code runs at; 0: the target's */
	int cpu_threads;          /* C: worker threads; 0: one a core */
	const char *cache_dir;    /* compiled objects: NULL the default cache ($TRITONC_CACHE, else
	                             $XDG_CACHE_HOME/tritonc, else ~/.cache/tritonc), "" none */
} tritonc_load_options;

/* Builds `code` (tritonc_compile's output for that target) and loads it:
 * C with the system compiler into a shared object, CUDA with NVRTC into a
 * module of the context current on the calling thread (device 0's primary
 * context when there is none; a kernel belongs to that context). Both are
 * cached on disk. NULL on an error, with the message in *diagnostics (free
 * with tritonc_free) when diagnostics is not NULL. */
TRITONC_API tritonc_kernel *tritonc_load(const char *code, const tritonc_load_options *options, char **diagnostics);

/* Runs the grid of programs. CUDA: queued on `stream` (a CUstream; NULL:
 * the legacy default stream) without waiting; a fault shows at the stream's
 * next synchronization. C: the programs spread over worker threads, done
 * when this returns (`stream` is ignored); a failed tl.device_assert is an
 * error. A grid with an axis of 0 runs nothing. 0 on success; otherwise
 * the message is tritonc_kernel_error's. */
TRITONC_API int tritonc_launch(tritonc_kernel *kernel, const int grid[3], void *stream, void **args);

/* The message of the kernel's last failed launch ("" when none). */
TRITONC_API const char *tritonc_kernel_error(const tritonc_kernel *kernel);

/* True when tritonc_load found the compiled object in the disk cache. */
TRITONC_API int tritonc_kernel_cached(const tritonc_kernel *kernel);

/* CUDA: the registers a thread uses and its local (spill) memory in bytes; 0 and 0 for C. */
TRITONC_API void tritonc_kernel_resources(const tritonc_kernel *kernel, int *registers, int *local_bytes);

/* What the load made of the code besides the loaded kernel: "ptx" (PTX
 * text, NUL-terminated) or "cubin" (an ELF image) of a CUDA kernel, as
 * NVRTC made them or as the disk cache kept them. *size (when not NULL)
 * gets the bytes, the PTX's NUL left out. NULL (and 0) for C kernels, an
 * unknown name, or a PTX the cache did not keep. Lives as long as the
 * kernel. */
TRITONC_API const void *tritonc_kernel_asm(const tritonc_kernel *kernel, const char *what, size_t *size);

/* Unloads the kernel. NULL is ignored. */
TRITONC_API void tritonc_unload(tritonc_kernel *kernel);

#ifdef __cplusplus
}
#endif

#endif
