/* cpu.h: the CPU runtime: builds a generated C kernel into a shared object
 * with the system C compiler, loads it, and runs a grid of programs on
 * worker threads.
 *
 * The C emitter writes one launcher per kernel:
 *
 *     void NAME_launch(void **args, const int grid[3], long first, long count);
 *
 * which runs programs first .. first+count-1. Programs are numbered with
 * axis 0 fastest: p = x + grid[0] * (y + grid[1] * z). args[i] points at the
 * value of argument i: a pointer argument's args[i] points at a `void *`
 * holding the buffer address; an i32 at an int32_t, an i64 at an int64_t,
 * an fp32 at a float.
 *
 * Errors never abort: every call that can fail returns NULL or nonzero and
 * writes a one-paragraph message into `err` (which may be NULL). */
#ifndef TC_RUNTIME_CPU_H
#define TC_RUNTIME_CPU_H

#include <stdbool.h>
#include <stddef.h>

typedef struct CpuKernel CpuKernel;
typedef void (*CpuLaunchFn)(void **args, const int grid[3], long first, long count);

/* Compiles `source` (C11) into a shared object and loads "<name>_launch".
 *
 * The command is $CC (default "cc"; split at blanks, so "ccache gcc" works)
 * followed by -std=c11 -O2 -fPIC -shared, the NULL-terminated `extra_flags`
 * (may be NULL; e.g. "-DTC_RUN_W=64"), the words of $TRITONC_CFLAGS if set
 * (split at blanks; last, so "-O1" there replaces -O2), the paths, and -lm.
 * It runs without a shell; its stdout and stderr are captured.
 *
 * Objects are cached in `cache_dir`, created if missing. NULL picks
 * $TRITONC_CACHE, else $XDG_CACHE_HOME/tritonc, else $HOME/.cache/tritonc
 * (empty variables count as unset; with none of them set, a private folder
 * is used). "" asks for a private temporary folder, removed by
 * cpu_kernel_free. An object's name is the 64-bit FNV-1a hash of the command
 * words, the flags and the source; it is compiled in a temporary folder
 * inside the cache folder and renamed into place, so readers never see a
 * partial file and a failed compile leaves nothing behind.
 *
 * NULL on failure; on a compile error `err` gets the compiler's output,
 * truncated to `errlen`. */
CpuKernel *cpu_compile(const char *source, const char *name, const char *const *extra_flags,
	const char *cache_dir, char *err, size_t errlen);

/* True when cpu_compile found the object in the cache and ran no compiler. */
bool cpu_kernel_from_cache(const CpuKernel *k);

/* The loaded "<name>_launch". */
CpuLaunchFn cpu_kernel_fn(const CpuKernel *k);
/* Another symbol of the loaded object (dlsym), or NULL. */
void *cpu_kernel_symbol(const CpuKernel *k, const char *name);

/* Unloads the object and removes a private cache folder. NULL is fine. */
void cpu_kernel_free(CpuKernel *k);

/* A buffer of `bytes` for a kernel to run on, with a page that may not be
 * touched on either side (16-byte aligned, so up to 15 bytes lie between
 * its end and the page after it, and less than a page between the page
 * before it and its start): a kernel that reads or writes past it into
 * those pages stops with a message naming `name` and the element (`esize`
 * bytes each) instead of taking the process down; a checked kernel (see
 * cpu_bad_access) is stopped at any access outside it. NULL with `err` set
 * when there is no memory. */
void *cpu_buffer_alloc(size_t bytes, size_t esize, const char *name, char *err, size_t errlen);
/* 0, or -1 with `err` set when the kernel stored before the buffer's start
 * into the bytes up to the guard page (fewer than a page: no fault there). */
int cpu_buffer_check(const void *p, char *err, size_t errlen);
/* What a checked kernel's tc_bad_access points at (emit/c.c, target.checked):
 * called on a worker running a grid when an access of `bytes` at `p` (of
 * source line `line`; `write` 1 for a store or an atomic) lies in none of
 * the run's buffers. It does not return: the run stops and fails with a
 * message naming the buffer nearest `p` and the element. */
void cpu_bad_access(const void *p, long bytes, int line, int write);
void cpu_buffer_free(void *p);

/* Runs every program of `grid` once, spread over `threads` worker threads
 * (0: the number of online CPUs, at most 64; never more than 1024 or than
 * there are programs). Each worker has a 64 MiB stack, since generated
 * kernels keep whole tiles on the stack; the workers are started on first
 * need and kept for later runs (stopped at exit). Runs from several
 * threads take turns. The programs are split into one contiguous chunk per
 * worker. An empty grid runs nothing. 0 on success. */
int cpu_run(const CpuKernel *k, void **args, const int grid[3], int threads, char *err,
	size_t errlen);

/* cpu_run with a time limit (`timeout_s` > 0; 0: none): the workers alone
 * run the grid, and when they have not finished it in time CPU_TIMED_OUT
 * comes back, `err` saying so, and the grid is left running: its buffers,
 * arguments and kernel must stay as they are (never freed) while the
 * process lives, and later runs fail. The process may exit (its exit
 * handlers leave the stuck workers be). */
#define CPU_TIMED_OUT (-2)
int cpu_run_timed(const CpuKernel *k, void **args, const int grid[3], int threads, double timeout_s, char *err,
	size_t errlen);

/* Runs the whole grid `warmup` times untimed, then `reps` times timed:
 * ms[i] = wall-clock milliseconds (CLOCK_MONOTONIC) of timed run i, which
 * include handing the grid to the workers and waiting for them. 0 on success. */
int cpu_time(const CpuKernel *k, void **args, const int grid[3], int threads, int warmup,
	int reps, double *ms, char *err, size_t errlen);

#endif
