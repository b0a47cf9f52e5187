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

static void count_reads(const TBlock *b, int *reads)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		for (int i = 0; i < v->nargs; i++)
			reads[v->args[i]->id]++;
		count_reads(v->body, reads);
		count_reads(v->orelse, reads);
	}
}

/* Visits `b` from its last value to its first, each value's blocks before
 * it: every reader of a value is decided before the value is, so one walk
 * finds every dead value, chains of them included. Returns how many it
 * marked. */
static int sweep(TBlock *b, int *reads)
{
	int n = 0, marked = 0;
	for (TValue *v = b ? b->first : NULL; v; v = v->next)
		n++;
	if (!n)
		return 0;
	TValue **vals = base_calloc((size_t)n, sizeof *vals);
	n = 0;
	for (TValue *v = b->first; v; v = v->next)
		vals[n++] = v;
	for (int j = n - 1; j >= 0; j--) {
		TValue *v = vals[j];
		if (v->dead)
			continue;
		marked += sweep(v->body, reads) + sweep(v->orelse, reads);
		if (!tir_pure(v) || reads[v->id] != 0)
			continue;
		for (int i = 0; i < v->nargs; i++)
			reads[v->args[i]->id]--;
		v->dead = true;
		marked++;
	}
	free(vals);
	return marked;
}

int tir_dce(TKernel *k)
{
	int *reads = base_calloc((size_t)tir_value_count(k) + 1, sizeof *reads);
	count_reads(k->body, reads);
	int marked = sweep(k->body, reads);
	free(reads);
	return marked;
}
