/* test_cuda_runtime.c: the CUDA runtime (src/runtime/cuda.c).
 *
 * Without a GPU: cuda_open fails cleanly and says what is missing, and
 * NVRTC alone (where the CUDA toolkit is installed) makes the PTX and the
 * cubin of a kernel, or says it is missing. With a GPU also: an axpy
 * kernel's results, the cubin cache (with its PTX), the PTX and cubin kept
 * on a loaded kernel, a compile error's log, a launch with more than 48 KiB
 * of dynamic shared memory and cuda_time. */
#include "runtime/cuda.h"
#include "check.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 1000

static const char *axpy_source =
	"extern \"C\" __global__ void axpy(float *y, const float *x, float a, int n)\n"
	"{\n"
	"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"\tif (i < n)\n"
	"\t\ty[i] = fmaf(a, x[i], y[i]);\n"
	"}\n";

static const char *broken_source =
	"extern \"C\" __global__ void axpy(float *y, const float *x, float a, int n)\n"
	"{\n"
	"\ty[0] = x[0] +;\n"
	"}\n";

static void test_without_gpu(const char *err)
{
	char tiny[8];
	memset(tiny, 'x', sizeof tiny);
	CudaRuntime *again = cuda_open(tiny, sizeof tiny);
	CudaRuntime *silent = cuda_open(NULL, 0);
	cuda_close(NULL);
	cuda_kernel_free(NULL);
	bool names_what_is_missing = strstr(err, "libcuda") || strstr(err, "libnvrtc") || strstr(err, " failed: ");
	printf("note: no usable GPU, so only cuda_open's failure is checked: %s\n", err);
	CHECK("cuda_open without a GPU: NULL and a message naming what is missing",
	      err[0] && names_what_is_missing && !again && !silent && strlen(tiny) == sizeof tiny - 1);
}

/* True when `images` hold axpy's PTX (text with its .entry) and a cubin (an ELF image). */
static bool axpy_images(const CudaImages *im)
{
	return im && im->ptx && im->ptx_len == strlen(im->ptx) && strstr(im->ptx, ".entry axpy") &&
	       strstr(im->ptx, ".target sm_") && im->cubin && im->cubin_len > 64 &&
	       memcmp(im->cubin, "\177ELF", 4) == 0;
}

/* NVRTC without a driver or device: where libnvrtc loads, the PTX and cubin
 * of axpy and a compile error's log; where it does not, a message naming it. */
static void test_nvrtc_alone(void)
{
	char err[4096] = "";
	CudaImages im;
	bool ok = cuda_nvrtc_images(axpy_source, "sm_90", &im, err, sizeof err);
	if (!ok) {
		printf("note: NVRTC is not usable here: %s\n", err);
		CHECK("without NVRTC, cuda_nvrtc_images fails naming libnvrtc",
		      strstr(err, "libnvrtc") != NULL && !im.ptx && !im.cubin);
		return;
	}
	CHECK("NVRTC alone: axpy's PTX (.entry axpy, .target sm_90) and cubin (ELF)",
	      axpy_images(&im) && strstr(im.ptx, ".target sm_90") != NULL);
	cuda_images_free(&im);
	CHECK("cuda_images_free clears", !im.ptx && !im.cubin && !im.ptx_len && !im.cubin_len);
	ok = cuda_nvrtc_images(broken_source, "sm_90", &im, err, sizeof err);
	CHECK("NVRTC alone: a syntax error gives the log and no images", !ok && strstr(err, "error") && !im.ptx &&
	      !im.cubin);
}

static void remove_folder(const char *path)
{
	DIR *dir = opendir(path);
	if (!dir)
		return;
	char file[4096];
	for (struct dirent *e; (e = readdir(dir));) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(file, sizeof file, "%s/%s", path, e->d_name);
		unlink(file);
	}
	closedir(dir);
	rmdir(path);
}

/* A value of check.h's input formula, never zero. */
static float nonzero_input(uint32_t i, uint32_t arg)
{
	float v = hash_input(i, arg);
	return v != 0.0f ? v : 0.5f;
}

/* Runs y = a*x + y on the device from the host arrays and compares with the host's fmaf. */
static bool axpy_matches(CudaRuntime *rt, CudaKernel *k, uint64_t dy, uint64_t dx, int shared_bytes)
{
	static float x[N], y[N], result[N];
	for (int i = 0; i < N; i++) {
		x[i] = nonzero_input((uint32_t)i, 0);
		y[i] = nonzero_input((uint32_t)i, 1);
	}
	float a = nonzero_input(0, 2);
	int n = N;
	void *args[] = {&dy, &dx, &a, &n};
	int grid[3] = {(N + 127) / 128, 1, 1};
	char err[1024];
	if (cuda_upload(rt, dx, x, sizeof x, err, sizeof err) || cuda_upload(rt, dy, y, sizeof y, err, sizeof err) ||
	    cuda_launch(k, grid, 128, shared_bytes, args, err, sizeof err) ||
	    cuda_download(rt, result, dy, sizeof result, err, sizeof err)) {
		printf("note: %s\n", err);
		return false;
	}
	for (int i = 0; i < N; i++)
		if (result[i] != fmaf(a, x[i], y[i]))
			return false;
	return true;
}

static void test_kernels(CudaRuntime *rt, const char *cache)
{
	static const char *const extra_opts[] = {"-lineinfo", NULL};
	char err[4096];
	CudaKernel *k = cuda_compile(rt, axpy_source, "axpy", extra_opts, cache, err, sizeof err);
	CHECK("cuda_compile axpy", k != NULL && !cuda_kernel_from_cache(k));
	if (!k) {
		printf("note: %s\n", err);
		return;
	}
	CHECK("the compiled kernel keeps its PTX and cubin", axpy_images(cuda_kernel_images(k)));
	uint64_t dx = 0, dy = 0;
	CHECK("cuda_alloc", cuda_alloc(rt, N * sizeof(float), &dx, err, sizeof err) == 0 &&
	                    cuda_alloc(rt, N * sizeof(float), &dy, err, sizeof err) == 0 && dx && dy);
	CHECK("axpy results are exact", axpy_matches(rt, k, dy, dx, 0));

	CudaKernel *cached = cuda_compile(rt, axpy_source, "axpy", extra_opts, cache, err, sizeof err);
	CHECK("the second compile comes from the cache", cached && cuda_kernel_from_cache(cached));
	CHECK("the cached kernel's results are exact", cached && axpy_matches(rt, cached, dy, dx, 0));
	CHECK("the cached kernel has the same PTX and cubin", cached && axpy_images(cuda_kernel_images(cached)) &&
	      cuda_kernel_images(cached)->cubin_len == cuda_kernel_images(k)->cubin_len &&
	      !strcmp(cuda_kernel_images(cached)->ptx, cuda_kernel_images(k)->ptx));
	cuda_kernel_free(cached);

	if (atoi(cuda_arch(rt) + 3) >= 70)
		CHECK("a launch with 64 KiB of dynamic shared memory", axpy_matches(rt, k, dy, dx, 64 * 1024));

	float ms[5] = {0};
	float a = 1.0f;
	int n = N;
	void *args[] = {&dy, &dx, &a, &n};
	int grid[3] = {(N + 127) / 128, 1, 1};
	int timed = cuda_time(k, grid, 128, 0, args, 2, 5, 8u << 20, ms, err, sizeof err);
	CHECK("cuda_time gives positive times", timed == 0 && ms[0] > 0 && ms[1] > 0 && ms[2] > 0 && ms[3] > 0 &&
	                                        ms[4] > 0);

	cuda_free(rt, dx);
	cuda_free(rt, dy);
	cuda_kernel_free(k);
}

static void test_errors(CudaRuntime *rt, const char *cache)
{
	char err[4096] = "";
	CudaKernel *broken = cuda_compile(rt, broken_source, "axpy", NULL, cache, err, sizeof err);
	CHECK("a syntax error gives the NVRTC log", !broken && strstr(err, "error") != NULL);
	cuda_kernel_free(broken);

	CudaKernel *unnamed = cuda_compile(rt, axpy_source, "no_such_kernel", NULL, "", err, sizeof err);
	CHECK("a missing kernel name names cuModuleGetFunction",
	      !unnamed && strstr(err, "cuModuleGetFunction") != NULL);
	cuda_kernel_free(unnamed);
}

int main(void)
{
	char err[1024];
	test_nvrtc_alone();
	CudaRuntime *rt = cuda_open(err, sizeof err);
	if (!rt) {
		test_without_gpu(err);
		return failures != 0;
	}
	CHECK("cuda_arch is sm_XX", strncmp(cuda_arch(rt), "sm_", 3) == 0);
	char cache[] = "/tmp/tritonc-cuda-test-XXXXXX";
	if (!mkdtemp(cache)) {
		CHECK("mkdtemp for the cubin cache", false);
		cuda_close(rt);
		return 1;
	}
	test_kernels(rt, cache);
	test_errors(rt, cache);
	remove_folder(cache);
	cuda_close(rt);
	return failures != 0;
}
