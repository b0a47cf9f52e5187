/* fuzz_stack.h: runs each fuzz input on one worker thread with a 1 GiB
 * stack, made once and reused, as the tools run their work on a big stack
 * (base/stack.c). A new thread per input (base_run_on_big_stack) costs
 * more than most inputs do under ASan: the mapping of the stack and, at
 * the thread's end, the clearing of its shadow. */
#ifndef FUZZ_STACK_H
#define FUZZ_STACK_H

#include "base/base.h"

#include <pthread.h>
#include <stdint.h>

typedef struct FuzzInput {
	const uint8_t *data;
	size_t size;
} FuzzInput;

static int fuzz_one(const uint8_t *data, size_t size);

static pthread_mutex_t fuzz_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fuzz_cv = PTHREAD_COND_INITIALIZER;
static FuzzInput fuzz_job;
static unsigned long fuzz_posted, fuzz_done;

static void *fuzz_worker(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&fuzz_mu);
	for (;;) {
		while (fuzz_done == fuzz_posted)
			pthread_cond_wait(&fuzz_cv, &fuzz_mu);
		FuzzInput in = fuzz_job;
		pthread_mutex_unlock(&fuzz_mu);
		fuzz_one(in.data, in.size);
		pthread_mutex_lock(&fuzz_mu);
		fuzz_done++;
		pthread_cond_broadcast(&fuzz_cv);
	}
	return NULL;
}

static int fuzz_on_stack(void *p)
{
	const FuzzInput *in = p;
	return fuzz_one(in->data, in->size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int started;   /* 0: not yet, 1: the worker runs, -1: no thread could be made */
	FuzzInput in = {data, size};
	if (started == 0) {
		pthread_attr_t attr;
		pthread_t t;
		started = -1;
		if (pthread_attr_init(&attr) == 0) {
			if (pthread_attr_setstacksize(&attr, (size_t)1 << 30) == 0 &&
			    pthread_create(&t, &attr, fuzz_worker, NULL) == 0) {
				pthread_detach(t);
				started = 1;
			}
			pthread_attr_destroy(&attr);
		}
	}
	if (started < 0)
		return base_run_on_big_stack(fuzz_on_stack, &in);
	pthread_mutex_lock(&fuzz_mu);
	fuzz_job = in;
	fuzz_posted++;
	pthread_cond_broadcast(&fuzz_cv);
	while (fuzz_done != fuzz_posted)
		pthread_cond_wait(&fuzz_cv, &fuzz_mu);
	pthread_mutex_unlock(&fuzz_mu);
	return 0;
}

#endif
