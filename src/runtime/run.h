/* run.h: running a lowered kernel on host buffers, on the CPU or an NVIDIA
 * GPU, and checking it against the tile-IR interpreter.
 *
 * The caller owns host copies of every buffer. run_kernel compiles the
 * kernel's source for its device, copies the buffers in, launches the grid
 * once, copies every buffer back, and, when asked, times more launches. */
#ifndef TC_RUN_H
#define TC_RUN_H

#include "gpu/simt.h"
#include "runtime/cuda.h"

typedef enum {
	DEVICE_CPU,   /* the C printer's output, compiled by the system cc */
	DEVICE_CUDA,  /* the CUDA printer's output, compiled by NVRTC */
} Device;

/* One kernel argument: a buffer (pointer arguments) or a scalar. */
typedef struct RunArg {
	void *host;           /* pointers: the host buffer */
	size_t bytes;         /* pointers: its size */
	int64_t i;            /* integer scalars */
	double f;             /* float scalars */
	const char *name;     /* buffers that are no argument (RunOptions.extra): the name and */
	size_t esize;         /* the element size */
} RunArg;

/* A table of addresses (`tritonc run --arg NAME=@A,@B`): element `elem`
 * of the int64 buffer of argument `table` holds, while the kernel runs,
 * the address of buffer `target` as the run has it (the device's or the
 * guarded copy's): argument `target` when below the kernel's argument
 * count, else extra buffer target - that count. Outside the run the
 * element holds 0. */
typedef struct RunFixup {
	int table;
	size_t elem;
	int target;
} RunFixup;

typedef struct RunOptions {
	Device device;
	int grid[3];
	int cpu_threads;      /* 0: every core */
	int run_width;        /* CPU: the warp width to simulate; 0: the one lowered for */
	int bench_reps;       /* 0: no timing */
	int bench_warmup;
	const char *cache_dir;/* NULL: the default cache */
	CudaRuntime *cuda;    /* CUDA: an open runtime to use; NULL: opened and closed here */
	RunArg *extra;        /* buffers no argument names, reached through tables of addresses */
	int nextra;
	const RunFixup *fixups;
	int nfixups;
	double timeout_s;     /* the first launch's time limit in seconds; 0: none */
} RunOptions;

typedef struct RunResult {
	double ms_median;     /* of the timed launches */
	double ms_min;
	bool from_cache;      /* the compiled code came from the cache */
} RunResult;

/* 0 on success; otherwise a message in err. `source` is emit_kernel's output
 * for `k`. RUN_TIMED_OUT when the kernel did not finish within
 * o->timeout_s: it may still run (on the CPU its threads do, on a GPU the
 * device does), so the process should exit soon, and the buffers of `args`
 * hold what they held before. */
#define RUN_TIMED_OUT (-2)
int run_kernel(const SKernel *k, const char *source, RunArg *args, const RunOptions *o, RunResult *res,
	       char *err, size_t errlen);

/* Writes the addresses of a run's buffers (`addr`: the arguments', then
 * the extra ones') into its copies of the tables (`tables`, by argument),
 * or with `addr` NULL the 0 that the tables hold outside the run. */
void run_apply_fixups(const RunFixup *f, int n, void *const *tables, void *const *addr);

/* Fills a buffer of `count` elements of `dt` for argument number `arg`
 * with the golden-input formula: floats in [-1, 1) from a hash of the
 * element index and the argument number (exact in fp32; rounded for fp16
 * and bf16), integers in [0, int_range), booleans alternating by hash. */
void run_fill(void *buf, DType dt, size_t count, int arg, int64_t int_range);
/* The hash behind that formula (tests/triton_values/inputs.md), before its mapping
 * to [-1, 1): element i of argument number arg. */
uint32_t run_hash(uint32_t i, uint32_t arg);

/* Compares `got` with `want` (count elements of dt): an element is wrong
 * when |got - want| > tol * max(|want|, rms(want)), or exactly one is NaN.
 * Returns the number of wrong elements; *max_err gets the largest error
 * relative to that scale. */
size_t run_compare(const void *got, const void *want, DType dt, size_t count, double tol, double *max_err,
		   size_t *first_bad);

/* Element i of a buffer of dt, as a double. */
double run_element(const void *p, DType dt, size_t i);
/* |got - want| / max(|want|, rms); infinite when exactly one is NaN. */
double run_element_error(double got, double want, double rms);

/* The tolerance for a dtype: 1e-5 fp32/fp64 (relative), 1e-2 fp16/bf16, 0 integers. */
double run_tolerance(DType dt);

#endif
