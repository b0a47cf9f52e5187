/* stack.c: running a compile on a stack that holds its deepest trees.
 *
 * The parser bounds how deep an expression tree may be (parse.c); the
 * stages after it recurse over those trees. A thread with a 1 GiB stack
 * (address space only: pages are used as they are touched) holds them
 * with room to spare, where the 8 MiB of a main thread would not. */
#define _GNU_SOURCE   /* pthread_getattr_np */
#include "base.h"

#include <pthread.h>
#include <stdlib.h>

#define BIG_STACK ((size_t)1 << 30)
#define SMALLER_STACK ((size_t)256 << 20)

typedef struct StackCall {
	int (*fn)(void *);
	void *arg;
	int result;
} StackCall;

static void *stack_thread(void *p)
{
	StackCall *c = p;
	c->result = c->fn(c->arg);
	return NULL;
}

int base_run_on_big_stack(int (*fn)(void *), void *arg)
{
	StackCall c = {fn, arg, 0};
	static const size_t sizes[] = {BIG_STACK, SMALLER_STACK};
	for (size_t i = 0; i < TC_COUNT(sizes); i++) {
		pthread_attr_t attr;
		if (pthread_attr_init(&attr) != 0)
			break;
		pthread_t t;
		bool started = pthread_attr_setstacksize(&attr, sizes[i]) == 0 &&
			       pthread_create(&t, &attr, stack_thread, &c) == 0;
		pthread_attr_destroy(&attr);
		if (started) {
			pthread_join(t, NULL);
			return c.result;
		}
	}
	return fn(arg);   /* no thread could be made: the stack there is */
}

/* The lowest address of this thread's stack, found once per thread. */
static _Thread_local char *stack_low_end;

bool base_stack_nearly_full(void)
{
	char *here = __builtin_frame_address(0);
	if (!stack_low_end) {
		pthread_attr_t attr;
		void *addr;
		size_t size;
		if (pthread_getattr_np(pthread_self(), &attr) != 0)
			return false;
		int rc = pthread_attr_getstack(&attr, &addr, &size);
		pthread_attr_destroy(&attr);
		if (rc != 0)
			return false;
		/* keep an eighth of the stack (at least 1 MiB) for what runs below the check */
		size_t keep = size / 8 > ((size_t)1 << 20) ? size / 8 : (size_t)1 << 20;
		stack_low_end = (char *)addr + (keep < size ? keep : size / 2);
	}
	return here < stack_low_end;
}
