/* run.c: one launch of a lowered kernel on host buffers, on the CPU or a
 * CUDA device; input generation and comparison for `tritonc run --check`. */
#include "runtime/run.h"

#include "runtime/cpu.h"
#include "runtime/cuda.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bytes of one scalar argument as the kernel's parameter type has them. */
typedef union ScalarArg {
	int8_t i8;
	int16_t i16;
	int32_t i32;
	int64_t i64;
	float f32;
	double f64;
	uint64_t ptr;
	void *host;
} ScalarArg;

/* What the workers (or the device) of a run past its time limit still
 * use: kept, and reachable from here (no leak is reported at exit). */
static void *stuck_run[8];

static void scalar_value(const Type *t, const RunArg *a, ScalarArg *out)
{
	memset(out, 0, sizeof *out);
	switch (t->dtype) {
	case DT_I1: case DT_I8: case DT_U8: out->i8 = (int8_t)a->i; break;
	case DT_I16: case DT_U16: out->i16 = (int16_t)a->i; break;
	case DT_I32: case DT_U32: out->i32 = (int32_t)a->i; break;
	case DT_I64: case DT_U64: out->i64 = a->i; break;
	case DT_F64: out->f64 = a->f; break;
	default: out->f32 = (float)a->f; break;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void summarize(double *ms, int n, RunResult *res)
{
	qsort(ms, (size_t)n, sizeof *ms, cmp_double);
	res->ms_min = ms[0];
	res->ms_median = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
}

void run_apply_fixups(const RunFixup *f, int n, void *const *tables, void *const *addr)
{
	for (int i = 0; i < n; i++) {
		int64_t v = addr ? (int64_t)(intptr_t)addr[f[i].target] : 0;
		memcpy((char *)tables[f[i].table] + f[i].elem * sizeof v, &v, sizeof v);
	}
}

/* The run's copies of the extra buffers (RunOptions.extra), guarded as the
 * arguments' are, their inputs copied in; the addresses of every buffer,
 * the arguments' then these, in `addr`. */
static int cpu_extras(const SKernel *k, ScalarArg *vals, const RunOptions *o, void **extra, void **addr, char *err,
		      size_t errlen)
{
	int n = k->tile->nargs;
	for (int i = 0; i < n; i++)
		addr[i] = k->tile->args[i]->type.dtype == DT_PTR ? vals[i].host : NULL;
	for (int j = 0; j < o->nextra; j++) {
		const RunArg *e = &o->extra[j];
		if (!(extra[j] = cpu_buffer_alloc(e->bytes, e->esize, e->name, err, errlen)))
			return -1;
		memcpy(extra[j], e->host, e->bytes);
		addr[n + j] = extra[j];
	}
	return 0;
}

static int run_cpu(const SKernel *k, const char *source, RunArg *args, const RunOptions *o, RunResult *res,
		   char *err, size_t errlen)
{
	const TKernel *tk = k->tile;
	char width[32];
	snprintf(width, sizeof width, "-DTC_RUN_W=%d", o->run_width ? o->run_width : k->warp_size);
	const char *flags[] = {width, NULL};
	CpuKernel *ck = cpu_compile(source, k->name, flags, o->cache_dir, err, errlen);
	if (!ck)
		return -1;
	res->from_cache = cpu_kernel_from_cache(ck);
	ScalarArg *vals = base_calloc((size_t)tk->nargs + 1, sizeof *vals);
	void **argv = base_calloc((size_t)tk->nargs + 1, sizeof *argv);
	int rc = 0;
	for (int i = 0; i < tk->nargs; i++) {
		const TValue *a = tk->args[i];
		if (a->type.dtype == DT_PTR) {   /* a guarded copy: a stray access is reported, not a crash */
			vals[i].host = rc ? NULL : cpu_buffer_alloc(args[i].bytes, (size_t)dtype_bytes(a->type.elem), a->name,
								 err, errlen);
			if (!vals[i].host)
				rc = -1;
			else if (args[i].bytes)
				memcpy(vals[i].host, args[i].host, args[i].bytes);
		} else {
			scalar_value(&a->type, &args[i], &vals[i]);
		}
		argv[i] = &vals[i];
	}
	void **extra = base_calloc((size_t)o->nextra + 1, sizeof *extra);
	void **addr = base_calloc((size_t)(tk->nargs + o->nextra) + 1, sizeof *addr);
	void **tables = base_calloc((size_t)tk->nargs + 1, sizeof *tables);
	if (rc == 0 && (rc = cpu_extras(k, vals, o, extra, addr, err, errlen)) == 0) {
		for (int i = 0; i < tk->nargs; i++)
			tables[i] = vals[i].host;
		run_apply_fixups(o->fixups, o->nfixups, tables, addr);
	}
	/* a checked kernel: the extents of its buffers and of the extra ones, and who stops it */
	uintptr_t **extents = cpu_kernel_symbol(ck, "tc_extents");
	int *nextents = cpu_kernel_symbol(ck, "tc_nextents");
	void (**bad_access)(const void *, long, int, int) = cpu_kernel_symbol(ck, "tc_bad_access");
	uintptr_t *spans = NULL;
	if (rc == 0 && extents && nextents && bad_access) {
		spans = base_calloc(2 * ((size_t)tk->nargs + (size_t)o->nextra) + 2, sizeof *spans);
		int m = 0;
		for (int i = 0; i < tk->nargs; i++) {
			if (tk->args[i]->type.dtype != DT_PTR)
				continue;
			spans[2 * m] = (uintptr_t)vals[i].host;
			spans[2 * m + 1] = (uintptr_t)vals[i].host + args[i].bytes;
			m++;
		}
		for (int j = 0; j < o->nextra; j++) {
			spans[2 * m] = (uintptr_t)extra[j];
			spans[2 * m + 1] = (uintptr_t)extra[j] + o->extra[j].bytes;
			m++;
		}
		*extents = spans;
		*nextents = m;
		*bad_access = cpu_bad_access;
	}
	char *assertion = cpu_kernel_symbol(ck, "tc_assertion");
	if (assertion)
		assertion[0] = 0;
	if (rc == 0 && (rc = cpu_run_timed(ck, argv, o->grid, o->cpu_threads, o->timeout_s, err, errlen)) == CPU_TIMED_OUT) {
		/* its workers still run it: what they use stays, reachable from here */
		void *keep[] = {ck, vals, argv, extra, addr, tables, spans};
		memcpy(stuck_run, keep, sizeof keep);
		snprintf(err, errlen, "kernel '%s' did not finish within %g s", k->name, o->timeout_s);
		return RUN_TIMED_OUT;
	}
	for (int j = 0; rc == 0 && j < o->nextra; j++)
		rc = cpu_buffer_check(extra[j], err, errlen);
	if (rc == 0 && assertion && assertion[0]) {
		snprintf(err, errlen, "%s", assertion);
		rc = -1;
	}
	for (int i = 0; rc == 0 && i < tk->nargs; i++)
		if (tk->args[i]->type.dtype == DT_PTR)
			rc = cpu_buffer_check(vals[i].host, err, errlen);
	if (rc == 0 && o->bench_reps > 0) {
		double *ms = base_calloc((size_t)o->bench_reps, sizeof *ms);
		rc = cpu_time(ck, argv, o->grid, o->cpu_threads, o->bench_warmup, o->bench_reps, ms, err, errlen);
		if (rc == 0)
			summarize(ms, o->bench_reps, res);
		free(ms);
	}
	for (int i = 0; i < tk->nargs; i++) {
		if (tk->args[i]->type.dtype != DT_PTR || !vals[i].host)
			continue;
		if (rc == 0 && args[i].bytes)
			memcpy(args[i].host, vals[i].host, args[i].bytes);
		cpu_buffer_free(vals[i].host);
	}
	for (int j = 0; j < o->nextra; j++) {
		if (rc == 0 && extra[j])
			memcpy(o->extra[j].host, extra[j], o->extra[j].bytes);
		if (extra[j])
			cpu_buffer_free(extra[j]);
	}
	for (int i = 0; i < tk->nargs; i++)
		tables[i] = args[i].host;
	run_apply_fixups(o->fixups, o->nfixups, tables, NULL);   /* the tables as given */
	if (spans) {
		*nextents = 0;
		*extents = NULL;
		free(spans);
	}
	free(extra);
	free(addr);
	free(tables);
	free(vals);
	free(argv);
	cpu_kernel_free(ck);
	return rc;
}

static int run_cuda(const SKernel *k, const char *source, RunArg *args, const RunOptions *o, RunResult *res,
		    char *err, size_t errlen)
{
	const TKernel *tk = k->tile;
	CudaRuntime *rt = o->cuda ? o->cuda : cuda_open(err, errlen);
	if (!rt)
		return -1;
	/* code for an architecture's own features (sm_90a: wgmma) when the
	 * device is that architecture */
	char arch[48];
	const char *opts[2] = {NULL, NULL};
	snprintf(arch, sizeof arch, "%sa", cuda_arch(rt));
	if (k->target.kind == TARGET_CUDA && !strcmp(k->target.arch, arch)) {
		snprintf(arch, sizeof arch, "-arch=%s", k->target.arch);
		opts[0] = arch;
	}
	CudaKernel *ck = cuda_compile(rt, source, k->name, opts, o->cache_dir, err, errlen);
	ScalarArg *vals = base_calloc((size_t)tk->nargs + 1, sizeof *vals);
	void **argv = base_calloc((size_t)tk->nargs + 1, sizeof *argv);
	int rc = ck ? 0 : -1;
	for (int i = 0; rc == 0 && i < tk->nargs; i++) {
		argv[i] = &vals[i];
		if (tk->args[i]->type.dtype != DT_PTR) {
			scalar_value(&tk->args[i]->type, &args[i], &vals[i]);
			continue;
		}
		rc = cuda_alloc(rt, args[i].bytes, &vals[i].ptr, err, errlen);
	}
	/* the extra buffers; the tables hold the device's addresses while uploaded */
	uint64_t *dextra = base_calloc((size_t)o->nextra + 1, sizeof *dextra);
	void **addr = base_calloc((size_t)(tk->nargs + o->nextra) + 1, sizeof *addr);
	void **tables = base_calloc((size_t)tk->nargs + 1, sizeof *tables);
	for (int j = 0; rc == 0 && j < o->nextra; j++)
		if ((rc = cuda_alloc(rt, o->extra[j].bytes, &dextra[j], err, errlen)) == 0)
			rc = cuda_upload(rt, dextra[j], o->extra[j].host, o->extra[j].bytes, err, errlen);
	for (int i = 0; i < tk->nargs; i++) {
		addr[i] = (void *)(uintptr_t)vals[i].ptr;
		tables[i] = args[i].host;
	}
	for (int j = 0; j < o->nextra; j++)
		addr[tk->nargs + j] = (void *)(uintptr_t)dextra[j];
	if (rc == 0)
		run_apply_fixups(o->fixups, o->nfixups, tables, addr);
	for (int i = 0; rc == 0 && i < tk->nargs; i++)
		if (tk->args[i]->type.dtype == DT_PTR)
			rc = cuda_upload(rt, vals[i].ptr, args[i].host, args[i].bytes, err, errlen);
	run_apply_fixups(o->fixups, o->nfixups, tables, NULL);
	if (rc == 0) {
		res->from_cache = cuda_kernel_from_cache(ck);
		rc = cuda_launch_timed(ck, o->grid, k->threads, k->dynamic_bytes, argv, o->timeout_s, err, errlen);
		if (rc == CUDA_TIMED_OUT) {   /* the device still runs it: nothing is freed (that would wait) */
			void *keep[] = {ck, vals, argv, addr, tables, dextra};
			memcpy(stuck_run, keep, sizeof keep);
			snprintf(err, errlen, "kernel '%s' did not finish within %g s", k->name, o->timeout_s);
			return RUN_TIMED_OUT;
		}
	}
	for (int i = 0; rc == 0 && i < tk->nargs; i++)
		if (tk->args[i]->type.dtype == DT_PTR)
			rc = cuda_download(rt, args[i].host, vals[i].ptr, args[i].bytes, err, errlen);
	for (int j = 0; rc == 0 && j < o->nextra; j++)
		rc = cuda_download(rt, o->extra[j].host, dextra[j], o->extra[j].bytes, err, errlen);
	run_apply_fixups(o->fixups, o->nfixups, tables, NULL);   /* the tables as given */
	if (rc == 0 && o->bench_reps > 0) {
		float *ms = base_calloc((size_t)o->bench_reps, sizeof *ms);
		double *msd = base_calloc((size_t)o->bench_reps, sizeof *msd);
		/* 256 MiB of scratch writes between launches push the inputs out of L2 */
		rc = cuda_time(ck, o->grid, k->threads, k->dynamic_bytes, argv, o->bench_warmup, o->bench_reps, (size_t)256 << 20, ms,
			       err, errlen);
		for (int i = 0; i < o->bench_reps; i++)
			msd[i] = ms[i];
		if (rc == 0)
			summarize(msd, o->bench_reps, res);
		free(ms);
		free(msd);
	}
	for (int i = 0; i < tk->nargs; i++)
		if (tk->args[i]->type.dtype == DT_PTR && vals[i].ptr)
			cuda_free(rt, vals[i].ptr);
	for (int j = 0; j < o->nextra; j++)
		if (dextra[j])
			cuda_free(rt, dextra[j]);
	free(dextra);
	free(addr);
	free(tables);
	free(vals);
	free(argv);
	cuda_kernel_free(ck);
	if (rt != o->cuda)
		cuda_close(rt);
	return rc;
}

int run_kernel(const SKernel *k, const char *source, RunArg *args, const RunOptions *o, RunResult *res,
	       char *err, size_t errlen)
{
	memset(res, 0, sizeof *res);
	if (o->device == DEVICE_CUDA)
		return run_cuda(k, source, args, o, res, err, errlen);
	return run_cpu(k, source, args, o, res, err, errlen);
}

/* ---- inputs and comparison ---- */

uint32_t run_hash(uint32_t i, uint32_t arg)
{
	uint32_t h = i * 0x9E3779B9u + (arg + 1) * 0x85EBCA6Bu;
	h ^= h >> 16;
	h *= 0x85EBCA6Bu;
	h ^= h >> 13;
	h *= 0xC2B2AE35u;
	h ^= h >> 16;
	return h;
}

void run_fill(void *buf, DType dt, size_t count, int arg, int64_t int_range)
{
	for (size_t i = 0; i < count; i++) {
		uint32_t h = run_hash((uint32_t)i, (uint32_t)arg);
		float f = (float)(h >> 8) * (1.0f / 8388608.0f) - 1.0f;
		int64_t n = int_range > 0 ? (int64_t)(h % (uint64_t)int_range) : 0;
		switch (dt) {
		case DT_F32: ((float *)buf)[i] = f; break;
		case DT_F64: ((double *)buf)[i] = f; break;
		case DT_F16: ((uint16_t *)buf)[i] = dtype_fp16_from_float(f); break;
		case DT_BF16: ((uint16_t *)buf)[i] = dtype_bf16_from_float(f); break;
		case DT_I1: ((int8_t *)buf)[i] = (int8_t)(h >> 31); break;
		case DT_I8: case DT_U8: ((int8_t *)buf)[i] = (int8_t)n; break;
		case DT_I16: case DT_U16: ((int16_t *)buf)[i] = (int16_t)n; break;
		case DT_I32: case DT_U32: ((int32_t *)buf)[i] = (int32_t)n; break;
		case DT_I64: case DT_U64: ((int64_t *)buf)[i] = n; break;
		case DT_PTR: break;
		case DT_F8E4NV: case DT_F8E5: case DT_F8E4B15: case DT_F8E4B8: case DT_F8E5B16:
			((uint8_t *)buf)[i] = (uint8_t)(h >> 24);   /* every code, NaNs and infinities too */
			break;
		}
	}
}

double run_element(const void *p, DType dt, size_t i)
{
	switch (dt) {
	case DT_F32: return ((const float *)p)[i];
	case DT_F64: return ((const double *)p)[i];
	case DT_F16: return dtype_fp16_to_float(((const uint16_t *)p)[i]);
	case DT_BF16: return dtype_bf16_to_float(((const uint16_t *)p)[i]);
	case DT_I1: case DT_I8: return ((const int8_t *)p)[i];
	case DT_U8: return ((const uint8_t *)p)[i];
	case DT_I16: return ((const int16_t *)p)[i];
	case DT_U16: return ((const uint16_t *)p)[i];
	case DT_I32: return ((const int32_t *)p)[i];
	case DT_U32: return ((const uint32_t *)p)[i];
	case DT_I64: return (double)((const int64_t *)p)[i];
	case DT_U64: return (double)((const uint64_t *)p)[i];
	case DT_PTR: return 0;
	case DT_F8E4NV: case DT_F8E5: case DT_F8E4B15: case DT_F8E4B8: case DT_F8E5B16:
		return dtype_fp8_to_float(dt, ((const uint8_t *)p)[i]);
	}
	return 0;
}

double run_element_error(double got, double want, double rms)
{
	if (isnan(got) || isnan(want))
		return isnan(got) && isnan(want) ? 0 : INFINITY;
	if (got == want)
		return 0;
	double scale = fmax(fabs(want), rms);
	return fabs(got - want) / (scale > 0 ? scale : 1);
}

double run_tolerance(DType dt)
{
	switch (dt) {
	case DT_F32: case DT_F64: return 1e-5;
	case DT_F16: case DT_BF16: return 1e-2;
	case DT_F8E4NV: case DT_F8E5: case DT_F8E4B15: case DT_F8E4B8: case DT_F8E5B16: return 0.13;   /* 2 mantissa bits */
	default: return 0;
	}
}

size_t run_compare(const void *got, const void *want, DType dt, size_t count, double tol, double *max_err,
		   size_t *first_bad)
{
	double sum_sq = 0;
	size_t finite = 0;
	for (size_t i = 0; i < count; i++) {
		double w = run_element(want, dt, i);
		if (isfinite(w)) {
			sum_sq += w * w;
			finite++;
		}
	}
	double rms = finite ? sqrt(sum_sq / (double)finite) : 0;
	size_t bad = 0;
	*max_err = 0;
	for (size_t i = 0; i < count; i++) {
		double e = run_element_error(run_element(got, dt, i), run_element(want, dt, i), rms);
		if (e > *max_err)
			*max_err = e;
		if (e > tol) {
			if (!bad && first_bad)
				*first_bad = i;
			bad++;
		}
	}
	return bad;
}
