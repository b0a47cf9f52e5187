/* ---- running programs on the CPU (copied into NAME.c by tritonc export) ----
 *
 * The programs of a grid are split into one contiguous run per worker
 * thread. Workers get a stack of TRITONC_CPU_STACK bytes (64 MiB unless
 * defined), since a program keeps its whole tiles on the stack. Built with
 * TRITONC_NO_THREADS, the programs run on the caller's thread instead. */
#ifndef TRITONC_CPU_STACK
#define TRITONC_CPU_STACK ((size_t)64 << 20)
#endif
#define TCX_GRID_MAX_X INT64_C(2147483647)
#define TCX_GRID_MAX_YZ INT64_C(2147483647)

typedef void (*tcx_launch_fn)(void **args, const int grid[3], long first, long count);

typedef struct tcx_chunk {
	tcx_launch_fn fn;
	void **args;
	const int *grid;
	long first, count;
} tcx_chunk;

#ifndef TRITONC_NO_THREADS
static void *tcx_worker(void *p)
{
	tcx_chunk *c = (tcx_chunk *)p;
	c->fn(c->args, c->grid, c->first, c->count);
	return NULL;
}
#endif

/* Runs every program of grid g; a failed device_assert leaves its message
 * in `assertion`, which is cleared for the next launch. */
static int tcx_cpu_run(const tritonc_cpu_stream *s, tcx_launch_fn fn, void **args, const int64_t g[3],
		       char *assertion)
{
	if (s && s->threads < 0)
		return TRITONC_ERROR_INVALID_VALUE;
	if (g[0] * g[1] > INT64_C(0x7fffffffffffffff) / g[2] || g[0] * g[1] * g[2] > (int64_t)(~0ul >> 1))
		return TRITONC_ERROR_INVALID_GRID;
	int grid[3] = {(int)g[0], (int)g[1], (int)g[2]};
	long programs = (long)(g[0] * g[1] * g[2]);
	int rc = TRITONC_SUCCESS;
#ifdef TRITONC_NO_THREADS
	fn(args, grid, 0, programs);
#else
	long threads = s && s->threads > 0 ? s->threads : sysconf(_SC_NPROCESSORS_ONLN);
	if (threads < 1)
		threads = 1;
	if (threads > 1024)
		threads = 1024;
	if (threads > programs)
		threads = programs;
	tcx_chunk chunks[1024];
	pthread_t ids[1024];
	pthread_attr_t attr;
	if (pthread_attr_init(&attr) != 0)
		return TRITONC_ERROR_OUT_OF_RESOURCES;
	pthread_attr_setstacksize(&attr, TRITONC_CPU_STACK);
	long started = 0, next = 0;
	for (long t = 0; t < threads; t++) {
		long count = programs / threads + (t < programs % threads);
		chunks[t] = (tcx_chunk){fn, args, grid, next, count};
		next += count;
		if (pthread_create(&ids[t], &attr, tcx_worker, &chunks[t]) != 0) {
			rc = TRITONC_ERROR_OUT_OF_RESOURCES;
			break;
		}
		started++;
	}
	for (long t = 0; t < started; t++)
		pthread_join(ids[t], NULL);
	pthread_attr_destroy(&attr);
#endif
	if (rc == TRITONC_SUCCESS && assertion[0])
		rc = TRITONC_ERROR_ASSERT;
	assertion[0] = '\0';
	return rc;
}
