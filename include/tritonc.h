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
	const char *dump;                /* NULL: code; "tir" or "simt": that IR as text */
} tritonc_options;

/* Compiles one kernel of `source` (the text of a .py file with @triton.jit
 * functions or TorchInductor output; `filename` names it in messages).
 * Returns the output (free with tritonc_free), or NULL on an error. When
 * `diagnostics` is not NULL it receives the messages, "file:line:col:
 * error: ..." with the source line and a caret, or NULL when there were
 * none. */
char *tritonc_compile(const char *source, const char *filename, const tritonc_options *options,
		      char **diagnostics);

void tritonc_free(void *p);

/* "0.1" */
const char *tritonc_version(void);

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
tritonc_kernel *tritonc_load(const char *code, const tritonc_load_options *options, char **diagnostics);

/* Runs the grid of programs. CUDA: queued on `stream` (a CUstream; NULL:
 * the legacy default stream) without waiting; a fault shows at the stream's
 * next synchronization. C: the programs spread over worker threads, done
 * when this returns (`stream` is ignored); a failed tl.device_assert is an
 * error. A grid with an axis of 0 runs nothing. 0 on success; otherwise
 * the message is tritonc_kernel_error's. */
int tritonc_launch(tritonc_kernel *kernel, const int grid[3], void *stream, void **args);

/* The message of the kernel's last failed launch ("" when none). */
const char *tritonc_kernel_error(const tritonc_kernel *kernel);

/* True when tritonc_load found the compiled object in the disk cache. */
int tritonc_kernel_cached(const tritonc_kernel *kernel);

/* CUDA: the registers a thread uses and its local (spill) memory in bytes; 0 and 0 for C. */
void tritonc_kernel_resources(const tritonc_kernel *kernel, int *registers, int *local_bytes);

/* Unloads the kernel. NULL is ignored. */
void tritonc_unload(tritonc_kernel *kernel);

#ifdef __cplusplus
}
#endif

#endif
