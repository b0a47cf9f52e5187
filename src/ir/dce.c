/* dce.c: dead values of the tile IR. A value whose op has no effect but
 * its result (tir_pure) and that nothing live reads is marked dead. The
 * body of a dead scan or reduce (its combine) keeps its reads, as the
 * lowering counts them. One count of the readers, then one walk from the
 * end (sweep).
 *
 * Dead values are marked, not unlinked: the lowering numbers its frames in
 * value order, dead values included, so removing them would rename
 * registers in the generated code. The lowering skips them (place.c), and
 * drops on its own the values its rematerialization leaves unread. */
#include "ir/tir.h"

#include <stdlib.h>

bool tir_pure(const TValue *v)
{
	switch (v->op) {
	case TOP_STORE: case TOP_ATOMIC: case TOP_ASSERT: case TOP_BARRIER: case TOP_FOR: case TOP_IF:
	case TOP_WHILE: case TOP_CONDITION: case TOP_PRINT:
	case TOP_YIELD: case TOP_RESULT: case TOP_ARG:
		return false;
	default:
		return true;
	}
}

void tir_count_reads(const TBlock *b, int *reads)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		for (int i = 0; i < v->nargs; i++)
			reads[v->args[i]->id]++;
		tir_count_reads(v->body, reads);
		tir_count_reads(v->orelse, reads);
	}
}

/* The values of the blocks being swept, innermost last: one array for the
 * whole walk, each block's values above those of the blocks around it. */
typedef struct Stack {
	TValue **v;
	size_t len, cap;
} Stack;

/* Visits `b` from its last value to its first, each value's blocks before
 * it: every reader of a value is decided before the value is, so one walk
 * finds every dead value, chains of them included. Returns how many it
 * marked. */
static int sweep(TBlock *b, int *reads, Stack *st)
{
	size_t base = st->len;
	for (TValue *v = b ? b->first : NULL; v; v = v->next) {
		if (st->len == st->cap) {
			st->cap = st->cap ? 2 * st->cap : 1024;
			st->v = base_realloc(st->v, st->cap * sizeof *st->v);
		}
		st->v[st->len++] = v;
	}
	int marked = 0;
	for (size_t j = st->len; j-- > base;) {
		TValue *v = st->v[j];   /* by index: the blocks' sweeps may move the array */
		if (v->dead)
			continue;
		marked += sweep(v->body, reads, st) + sweep(v->orelse, reads, st);
		if (!tir_pure(v) || reads[v->id] != 0)
			continue;
		for (int i = 0; i < v->nargs; i++)
			reads[v->args[i]->id]--;
		v->dead = true;
		marked++;
	}
	st->len = base;
	return marked;
}

int tir_dce(TKernel *k)
{
	/* every value is the builder's here: its ids are below k->nids */
	int *reads = base_calloc((size_t)k->nids + 1, sizeof *reads);
	tir_count_reads(k->body, reads);
	Stack st = {0};
	int marked = sweep(k->body, reads, &st);
	free(st.v);
	free(reads);
	return marked;
}
