/* peel.c: a pipelined loop as its fill, steady and drain loops.
 *
 * lower.c emits a pipelined loop (docs/lowering.md section 5) as one loop
 * that runs stages - 1 iterations more than the source's: the consumer's
 * part is guarded by iv >= lo + (stages - 1) step (nothing to compute
 * before the first copies land), the producer's by iv < hi (nothing to
 * copy past the end; in a pipeline carried across tiles its SS_ELSE
 * issues the next tile's copies). Every iteration then branches twice, and
 * the branches are what the GPU's assembler schedules around: it keeps
 * the copies, the address arithmetic and the matrix instructions of one
 * iteration inside their own blocks. On an H200 that one form cost Triton's
 * tutorial matmul 5 % and the persistent one 3 % (bench/persistent).
 *
 * Here the loop becomes three, each with its guards resolved:
 *   for (iv = lo; iv < min(fill_end, hi'); ...)  producer only (its guard kept)
 *   for (; iv < hi; ...)                         both, no guards
 *   for (; iv < hi'; ...)                        consumer, and the producer's else
 * where hi' is the loop's own bound (hi + the iterations ahead). The
 * statements are cloned (a statement's `also` chain and expressions are
 * shared: nothing changes them after lowering), so every later pass
 * (shared memory allocation, the printers) sees ordinary statements; the
 * iterations each thread runs and what each does are exactly the one
 * loop's, on every target. */
#include "gpu/simt.h"

#include <string.h>

/* The statement that closes the construct `s` opens (its SS_END), and its
 * SS_ELSE at the same depth, if any. */
static SStmt *closer(SStmt *s, SStmt **els)
{
	int depth = 0;
	if (els)
		*els = NULL;
	for (SStmt *t = s->next; t; t = t->next) {
		if (simt_opens(t->kind))
			depth++;
		else if (t->kind == SS_ELSE && depth == 0 && els)
			*els = t;
		else if (t->kind == SS_END && depth-- == 0)
			return t;
	}
	return NULL;
}

static void clone(SKernel *k, const SStmt *s)
{
	SStmt *c = simt_stmt(k, s->kind, s->line);
	*c = *s;
	c->next = NULL;
}

/* Clone [from, to) (to excluded, NULL: the list's end). */
static void clone_range(SKernel *k, const SStmt *from, const SStmt *to)
{
	for (const SStmt *s = from; s && s != to; s = s->next)
		clone(k, s);
}

enum { FILL, STEADY, DRAIN };

/* The loop's body [first, end) for one of the three loops. */
static void clone_body(SKernel *k, SStmt *first, SStmt *end, int which)
{
	for (SStmt *s = first; s && s != end;) {
		if (!simt_opens(s->kind)) {
			clone(k, s);
			s = s->next;
			continue;
		}
		SStmt *els, *e = closer(s, &els);
		if (s->kind == SS_IF && s->peel == PEEL_CONSUMER) {
			if (which != FILL)   /* iv is past the fill: the then-branch */
				clone_range(k, s->next, els ? els : e);
		} else if (s->kind == SS_IF && s->peel == PEEL_PRODUCER) {
			if (which == FILL)   /* iv may be past hi when the loop is short */
				clone_range(k, s, e->next);
			else if (which == STEADY)
				clone_range(k, s->next, els ? els : e);
			else if (els)
				clone_range(k, els->next, e);
		} else {
			clone_range(k, s, e->next);
		}
		s = e->next;
	}
}

void simt_peel_pipeline(SKernel *k, SStmt *f, SExpr *fill_end, SExpr *hi)
{
	SStmt *end = k->last;
	if (f->kind != SS_FOR || f == end || end->kind != SS_END || closer(f, NULL) != end ||
	    f->step->kind != SE_INT || f->step->ival <= 0)
		return;
	SStmt *body = f->next;
	DType dt = f->iv->dtype;
	SExpr *bound = f->hi;
	/* f becomes the fill loop; the body's statements stay reachable from
	 * `body` (arena memory) while the three copies are made */
	f->next = NULL;
	k->last = f;
	SExpr *first = simt_leaf(k, SE_SELECT, dt, 0);
	first->a[0] = simt_cmp(k, CMP_LT, dt, fill_end, bound);
	first->a[1] = fill_end;
	first->a[2] = bound;
	f->hi = first;
	clone_body(k, body, end, FILL);
	clone(k, end);
	SExpr *his[] = {hi, bound};
	for (int w = STEADY; w <= DRAIN; w++) {
		SStmt *g = simt_stmt(k, SS_FOR, f->line);
		*g = *f;
		g->next = NULL;
		g->lo = NULL;
		g->hi = his[w - STEADY];
		clone_body(k, body, end, w);
		clone(k, end);
	}
}
