/* common.h: what the warpcheck GPU programs share.
 *
 * Each program runs a kernel written for 32-lane warps on random inputs
 * (fixed seed), checks the result against the host, and prints every
 * output word, so that the program as written and the program after
 * `warpcheck --fix` can be compared byte for byte. The HIP names below let
 * the fixed programs build with hipcc too (hipcc defines __HIPCC__). */
#ifndef WC_GPU_COMMON_H
#define WC_GPU_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __HIPCC__
#include <hip/hip_runtime.h>
#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaGetErrorString hipGetErrorString
#define cudaGetLastError hipGetLastError
#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaMalloc hipMalloc
#define cudaFree hipFree
#define cudaMemset hipMemset
#define cudaMemcpy hipMemcpy
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#endif

#define CHECK(call) \
	do { \
		cudaError_t err_ = (call); \
		if (err_ != cudaSuccess) { \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
			exit(2); \
		} \
	} while (0)

/* splitmix64 from a fixed seed: the same inputs on every run and build. */
static uint64_t rng_state = 0x5eed5eed12345678ull;

static inline uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [-1, 1), never exactly 0. */
static inline float rng_float(void)
{
	float x = (float)(rng_next() >> 40) * (2.0f / 16777216.0f) - 1.0f;
	return x == 0.0f ? 0.5f : x;
}

/* Uniform in [lo, hi]. */
static inline int rng_int(int lo, int hi)
{
	return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}

static inline void *to_device(const void *host, size_t bytes)
{
	void *d;
	CHECK(cudaMalloc(&d, bytes));
	CHECK(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice));
	return d;
}

/* An output buffer filled with 0xff bytes, so unwritten words show. */
static inline void *poisoned(size_t bytes)
{
	void *d;
	CHECK(cudaMalloc(&d, bytes));
	CHECK(cudaMemset(d, 0xff, bytes));
	return d;
}

/* Waits for the kernels, then copies a device buffer back (and frees it). */
static inline void to_host(void *host, void *dev, size_t bytes)
{
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
	CHECK(cudaFree(dev));
}

/* Every word of an output, as bits (and as a value, for reading). */
static inline void print_floats(const char *name, const float *v, int n)
{
	for (int i = 0; i < n; i++) {
		uint32_t bits;
		memcpy(&bits, &v[i], sizeof bits);
		printf("%s[%d] %08x %.9g\n", name, i, bits, v[i]);
	}
}

static inline void print_ints(const char *name, const int *v, int n)
{
	for (int i = 0; i < n; i++)
		printf("%s[%d] %08x %d\n", name, i, (uint32_t)v[i], v[i]);
}

/* Ends the program: status 1 when the outputs disagree with the host. */
static inline int finish(int mismatches)
{
	printf("host check: %d mismatches\n", mismatches);
	return mismatches != 0;
}

#endif
