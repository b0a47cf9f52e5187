/* cuda.h: the CUDA runtime: compiles CUDA C with NVRTC, loads it on device 0
 * and launches and times kernels through the driver API.
 *
 * The driver (libcuda) and NVRTC are loaded with dlopen when cuda_open is
 * called, so a program linked with this runtime builds and runs on machines
 * without CUDA; there cuda_open returns NULL and says what is missing.
 *
 * Every function that can fail takes `err` and `errlen`: on failure it writes
 * a message naming the failing call into err (truncated to errlen bytes, NUL
 * included; err may be NULL) and returns NULL or nonzero. Nothing aborts. */
#ifndef TC_RUNTIME_CUDA_H
#define TC_RUNTIME_CUDA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct CudaRuntime CudaRuntime;
typedef struct CudaKernel CudaKernel;

/* What NVRTC made of a kernel: the PTX (text) and the cubin (an ELF image),
 * each NUL-terminated past its length; NULL when not made or not kept. */
typedef struct CudaImages {
	char *ptx;
	size_t ptx_len;
	char *cubin;
	size_t cubin_len;
} CudaImages;
void cuda_images_free(CudaImages *images);

/* Loads the driver and NVRTC, initializes device 0 and makes its primary
 * context current. NULL and a message in err when there is none. */
CudaRuntime *cuda_open(char *err, size_t errlen);
/* Frees the runtime and its scratch memory; free its kernels first. NULL is ignored. */
void cuda_close(CudaRuntime *rt);
/* "sm_90" etc. of the runtime's device */
const char *cuda_arch(CudaRuntime *rt);

/* The runtime of the context current on the calling thread (as the CUDA
 * runtime or torch left it; device 0's primary context, made current, when
 * there is none): one per context, made on first use and kept for the life
 * of the process (never cuda_close it). Thread-safe. NULL and a message in
 * err when there is no driver, NVRTC or device. */
CudaRuntime *cuda_current(char *err, size_t errlen);

/* Compiles CUDA C source with NVRTC to a cubin for the device's arch
 * (options: -arch=sm_XX, -std=c++17, -default-device, plus `extra_opts`,
 * NULL-terminated, may be NULL) and loads the function `name`.
 * Cubins are cached in `cache_dir`: NULL means the default ($TRITONC_CACHE,
 * else $XDG_CACHE_HOME/tritonc, else $HOME/.cache/tritonc, created if
 * missing), "" means no cache. The key hashes the source, the options, the
 * NVRTC version and the arch. On a compile error err gets the NVRTC log. */
CudaKernel *cuda_compile(CudaRuntime *rt, const char *source, const char *name,
                         const char *const *extra_opts, const char *cache_dir,
                         char *err, size_t errlen);
/* true when the cubin came from the cache */
bool cuda_kernel_from_cache(const CudaKernel *k);
/* The kernel's PTX and cubin, kept as long as the kernel (from the disk
 * cache: the cubin, and the PTX when the cache has it). */
const CudaImages *cuda_kernel_images(const CudaKernel *k);
/* Compiles `source` with NVRTC alone (no driver, no device) for `arch`
 * ("sm_90") with cuda_compile's options, into *images (free with
 * cuda_images_free); false with the log, or what is missing, in err. */
bool cuda_nvrtc_images(const char *source, const char *arch, CudaImages *images, char *err, size_t errlen);
/* Registers a thread and local (spill) memory bytes a thread the kernel uses. */
void cuda_kernel_resources(const CudaKernel *k, int *regs, int *local_bytes);
/* Unloads the kernel's module. NULL is ignored. */
void cuda_kernel_free(CudaKernel *k);

/* Device memory: *dptr gets the address (0 bytes allocates a minimal block). 0 on success. */
int cuda_alloc(CudaRuntime *rt, size_t bytes, uint64_t *dptr, char *err, size_t errlen);
/* Frees what cuda_alloc gave; 0 is ignored. */
void cuda_free(CudaRuntime *rt, uint64_t dptr);
/* Copies host to device and device to host; synchronous. 0 on success. */
int cuda_upload(CudaRuntime *rt, uint64_t dst, const void *src, size_t bytes, char *err, size_t errlen);
int cuda_download(CudaRuntime *rt, void *dst, uint64_t src, size_t bytes, char *err, size_t errlen);

/* Launches grid[3] blocks of `threads` threads with `shared_bytes` of dynamic
 * shared memory (the function's limit is raised when it exceeds 48 KiB);
 * args is cuLaunchKernel's kernelParams: an array of pointers to each
 * argument's value. Waits for the kernel; 0 on success. */
int cuda_launch(CudaKernel *k, const int grid[3], int threads, int shared_bytes, void **args,
                char *err, size_t errlen);
/* cuda_launch with a time limit (`timeout_s` > 0; 0: none), the device
 * polled, never waited on: CUDA_TIMED_OUT with `err` saying so when the
 * kernel has not finished in time. It still runs then: its buffers must
 * not be freed (that would wait for it), and the process should exit. */
#define CUDA_TIMED_OUT (-2)
int cuda_launch_timed(CudaKernel *k, const int grid[3], int threads, int shared_bytes, void **args,
                      double timeout_s, char *err, size_t errlen);
/* Queues one launch on `stream` (a CUstream; NULL: the legacy default
 * stream) of the kernel's context and returns without waiting. Faults in
 * the kernel show at the stream's next synchronization. 0 on success. */
int cuda_launch_async(CudaKernel *k, const int grid[3], int threads, int shared_bytes, void *stream, void **args,
                      char *err, size_t errlen);
/* Times `reps` launches after `warmup` untimed ones, one event pair per
 * launch, writing each launch's milliseconds into ms[reps] (the caller takes
 * the median). When flush_bytes > 0, a scratch buffer of that size (kept by
 * the runtime) is overwritten with cuMemsetD8 before each timed launch to
 * flush L2. 0 on success. */
int cuda_time(CudaKernel *k, const int grid[3], int threads, int shared_bytes, void **args,
              int warmup, int reps, size_t flush_bytes, float *ms, char *err, size_t errlen);

#endif
