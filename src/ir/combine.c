/* combine.c: `x + tl.dot(a, b)` as `tl.dot(a, b, x)`.
 *
 * Triton 3.6 rewrites an add of a dot that starts from zeros into the
 * dot's own accumulator (its combine pass), so `acc += tl.dot(a, b)` (the
 * tutorials' attention backward: dv, dk, dq) accumulates on the matrix
 * unit as `acc = tl.dot(a, b, acc)` does: no second tile of results, no
 * add, and a loop-carried accumulator that the pipeline may keep in place
 * (lower_dot.c, accumulates_in_place). Rounding is the matrix unit's for
 * both, as on Triton.
 *
 * The dot must start from a zero constant, be read by the add alone, sit
 * in the add's block, and x (of the add's type: no broadcast, no
 * promotion) must be made before the dot. The add stays in place for
 * tir_dce to mark dead; its readers read the dot, which takes its name. */
#include "ir/tir.h"

#include <stdlib.h>

static bool zero_tile(const TValue *x)
{
	if (x->op == TOP_SPLAT)
		x = x->args[0];
	if (x->op != TOP_CONST)
		return false;
	return dtype_is_float(x->type.dtype) ? x->fconst == 0.0 : x->iconst == 0;
}

static bool same_type(const Type *a, const Type *b)
{
	if (a->dtype != b->dtype || a->rank != b->rank)
		return false;
	for (int i = 0; i < a->rank; i++)
		if (a->shape[i] != b->shape[i])
			return false;
	return true;
}

/* pos[id]: a value's place in its block, block[id] the block's number. */
typedef struct Combine {
	int *reads, *pos, *block;
	TValue **repl;
	int blocks, combined;
} Combine;

static void combine_block(Combine *c, TBlock *b)
{
	if (!b)
		return;
	int me = ++c->blocks, i = 0;
	for (TValue *v = b->first; v; v = v->next) {
		c->pos[v->id] = i++;
		c->block[v->id] = me;
	}
	for (TValue *v = b->first; v; v = v->next) {
		combine_block(c, v->body);
		combine_block(c, v->orelse);
		if (v->op != TOP_ADD || v->nargs != 2)
			continue;
		for (int k = 0; k < 2; k++) {
			TValue *d = v->args[k], *x = v->args[1 - k];
			if (d->op != TOP_DOT || d->nargs != 3 || c->reads[d->id] != 1 || c->block[d->id] != me ||
			    !zero_tile(d->args[2]) || !same_type(&d->type, &v->type) || !same_type(&x->type, &v->type) ||
			    (c->block[x->id] == me && c->pos[x->id] > c->pos[d->id]) || x == d)
				continue;
			d->args[2] = x;
			if (v->name)
				d->name = v->name;
			c->repl[v->id] = d;
			c->combined++;
			break;
		}
	}
}

static void replace_reads(const TBlock *b, TValue **repl)
{
	for (TValue *v = b ? b->first : NULL; v; v = v->next) {
		for (int i = 0; i < v->nargs; i++)
			while (repl[v->args[i]->id])
				v->args[i] = repl[v->args[i]->id];
		replace_reads(v->body, repl);
		replace_reads(v->orelse, repl);
	}
}

int tir_combine_dot_add(TKernel *k)
{
	int n = tir_value_count(k);
	Combine c = {
		.reads = base_calloc((size_t)n + 1, sizeof *c.reads),
		.pos = base_calloc((size_t)n + 1, sizeof *c.pos),
		.block = base_calloc((size_t)n + 1, sizeof *c.block),
		.repl = base_calloc((size_t)n + 1, sizeof *c.repl),
	};
	tir_count_reads(k->body, c.reads);
	combine_block(&c, k->body);
	if (c.combined)
		replace_reads(k->body, c.repl);
	free(c.reads);
	free(c.pos);
	free(c.block);
	free(c.repl);
	return c.combined;
}
