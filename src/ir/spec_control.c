/* spec_control.c: control flow known only at run time, and calls of the
 * module's own @triton.jit functions.
 *
 * A `for` over a range whose bounds are not all compile-time constants
 * becomes a TOP_FOR; an `if` on a run-time scalar becomes a TOP_IF. Both
 * are in SSA form like MLIR's scf.for / scf.if: a variable assigned inside
 * becomes a block parameter (loops) and a result of the op when its value
 * crosses the boundary. Which variables do is decided on the AST:
 *
 *   loop-carried  bound before the loop, assigned in its body, and either
 *                 read in the body before being assigned there (live across
 *                 iterations) or read anywhere in the function outside the
 *                 loop (possibly live after it);
 *   if results    assigned in a branch, bound before the if or assigned in
 *                 both branches, and read outside the if or, in a loop,
 *                 read by an iteration before it assigns them (the next
 *                 iteration's if may read them).
 *
 * The second test is conservative (a read before the loop counts), which
 * only costs registers. Names first assigned inside a loop or a branch are
 * unbound after it, as Triton's front end leaves them.
 *
 * Helper functions are inlined: their parameters are bound in a fresh
 * scope holding only the module's globals, and `return` ends them. */
#include "ir/spec.h"

#include <stdlib.h>
#include <string.h>

/* ---- sets of names ---- */

/* An ordered set of names with a hash index and, for reads, how often
 * each was added: a list scanned per name was quadratic in a kernel of
 * many names. */
typedef struct Names {
	const char **items;
	int *counts;           /* times each item was added */
	int len, cap;
	int *slots;            /* item index + 1, or 0; nslots a power of two (NULL: scan items) */
	int nslots;
} Names;

static size_t names_hash(const char *name)
{
	return (size_t)base_hash_fnv1a(name, strlen(name), 0xcbf29ce484222325ull);
}

/* The index of `name` in n, or -1. */
static int names_find(const Names *n, const char *name)
{
	if (!n->slots) {
		for (int i = 0; i < n->len; i++)
			if (!strcmp(n->items[i], name))
				return i;
		return -1;
	}
	size_t mask = (size_t)n->nslots - 1;
	for (size_t h = names_hash(name) & mask; n->slots[h]; h = (h + 1) & mask)
		if (!strcmp(n->items[n->slots[h] - 1], name))
			return n->slots[h] - 1;
	return -1;
}

static bool names_has(const Names *n, const char *name)
{
	return names_find(n, name) >= 0;
}

/* How often `name` was added to n. */
static int names_count(const Names *n, const char *name)
{
	int i = names_find(n, name);
	return i < 0 ? 0 : n->counts[i];
}

static void names_index(Names *n, int i)
{
	size_t mask = (size_t)n->nslots - 1;
	size_t h = names_hash(n->items[i]) & mask;
	while (n->slots[h])
		h = (h + 1) & mask;
	n->slots[h] = i + 1;
}

static void names_add(Names *n, const char *name)
{
	int at = names_find(n, name);
	if (at >= 0) {
		n->counts[at]++;
		return;
	}
	if (n->len == n->cap) {
		n->cap = n->cap ? 2 * n->cap : 16;
		n->items = base_realloc(n->items, sizeof *n->items * (size_t)n->cap);
		n->counts = base_realloc(n->counts, sizeof *n->counts * (size_t)n->cap);
	}
	n->items[n->len] = name;
	n->counts[n->len] = 1;
	n->len++;
	if (2 * n->len > n->nslots) {
		free(n->slots);
		n->nslots = n->nslots ? 2 * n->nslots : 64;
		n->slots = base_calloc((size_t)n->nslots, sizeof *n->slots);
		for (int i = 0; i < n->len; i++)
			names_index(n, i);
	} else {
		names_index(n, n->len - 1);
	}
}

static Names names_copy(const Names *n)
{
	Names c = {0};
	for (int i = 0; i < n->len; i++)
		names_add(&c, n->items[i]);
	return c;
}

static void names_free(Names *n)
{
	free(n->items);
	free(n->counts);
	free(n->slots);
	memset(n, 0, sizeof *n);
}

/* Moves a set into the kernel's arena: what must survive a spec_error
 * (which longjmps past any free) lives there. */
static Names names_in_arena(Spec *s, Names *n)
{
	Names a = {0};
	a.len = a.cap = n->len;
	a.items = arena_alloc(s->a, sizeof *a.items * (size_t)(n->len + 1));
	a.counts = arena_alloc(s->a, sizeof *a.counts * (size_t)(n->len + 1));
	if (n->len) {
		memcpy(a.items, n->items, sizeof *a.items * (size_t)n->len);
		memcpy(a.counts, n->counts, sizeof *a.counts * (size_t)n->len);
	}
	if (n->slots) {
		a.nslots = n->nslots;
		a.slots = arena_alloc(s->a, sizeof *a.slots * (size_t)n->nslots);
		memcpy(a.slots, n->slots, sizeof *a.slots * (size_t)n->nslots);
	}
	names_free(n);
	return a;
}

/* ---- what the AST reads and writes ---- */

static void expr_reads(const Node *e, Names *out);

static void list_reads(const NodeList *l, Names *out)
{
	for (int i = 0; i < l->len; i++)
		expr_reads(l->items[i], out);
}

/* Every name an expression reads. */
static void expr_reads(const Node *e, Names *out)
{
	if (!e || e->kind == ND_LAMBDA)
		return;
	if (e->kind == ND_NAME) {
		names_add(out, e->name);
		return;
	}
	expr_reads(e->lhs, out);
	if (e->kind != ND_ATTR) {
		expr_reads(e->rhs, out);
		expr_reads(e->cond, out);
	}
	list_reads(&e->items, out);
	list_reads(&e->values, out);
	list_reads(&e->keywords, out);
}

static void target_names(const Node *t, Names *out)
{
	if (t->kind == ND_NAME)
		names_add(out, t->name);
	else if (t->kind == ND_TUPLE || t->kind == ND_LIST)
		for (int i = 0; i < t->items.len; i++)
			target_names(t->items.items[i], out);
}

/* `tl.multiple_of(x, ...)` (or max_contiguous, max_constancy) as a
 * statement of its own, on a name: Triton sets the hint on x's value in
 * place (the result need not be used: tutorial-style `tl.multiple_of(ptrs,
 * [16, 16])` before the loads), so the statement rebinds x to the hinted
 * value. The name node, or NULL. */
const Node *spec_hint_target(const Node *st)
{
	if (st->kind != ND_EXPR_STMT || !st->lhs || st->lhs->kind != ND_CALL)
		return NULL;
	const Node *call = st->lhs, *f = call->lhs;
	if (f->kind != ND_ATTR || !f->name ||
	    (strcmp(f->name, "multiple_of") && strcmp(f->name, "max_contiguous") && strcmp(f->name, "max_constancy")))
		return NULL;
	const Node *x = spec_arg_node(call, 0, "input");
	return x && x->kind == ND_NAME ? x : NULL;
}

/* Names a statement assigns directly (not in nested blocks). */
static void stmt_targets(const Node *st, Names *out)
{
	const Node *hinted = spec_hint_target(st);
	if (hinted)
		target_names(hinted, out);
	switch (st->kind) {
	case ND_ASSIGN:
		for (int i = 0; i < st->items.len; i++)
			target_names(st->items.items[i], out);
		break;
	case ND_ANNASSIGN:
	case ND_AUGASSIGN:
	case ND_FOR:
		target_names(st->lhs, out);
		break;
	default:
		break;
	}
}

/* Expressions a statement evaluates itself (not in nested blocks). */
static void stmt_reads(const Node *st, Names *out)
{
	switch (st->kind) {
	case ND_ASSIGN:
	case ND_ANNASSIGN:
		expr_reads(st->rhs, out);
		break;
	case ND_AUGASSIGN:
		expr_reads(st->lhs, out);
		expr_reads(st->rhs, out);
		break;
	case ND_FOR:
		expr_reads(st->rhs, out);
		break;
	case ND_EXPR_STMT:
	case ND_RETURN:
		expr_reads(st->lhs, out);
		break;
	case ND_IF:
	case ND_WHILE:
	case ND_ASSERT:
		expr_reads(st->cond, out);
		expr_reads(st->rhs, out);
		break;
	default:
		break;
	}
}

/* Every name assigned in a block, nested blocks included. */
static void block_assigns(const NodeList *body, Names *out)
{
	for (int i = 0; i < body->len; i++) {
		const Node *st = body->items[i];
		stmt_targets(st, out);
		block_assigns(&st->body, out);
		block_assigns(&st->orelse, out);
	}
}

/* Every name read in a block, nested blocks included, except inside `skip`. */
static void block_reads(const NodeList *body, const Node *skip, Names *out)
{
	for (int i = 0; i < body->len; i++) {
		const Node *st = body->items[i];
		if (st == skip)
			continue;
		stmt_reads(st, out);
		block_reads(&st->body, skip, out);
		block_reads(&st->orelse, skip, out);
	}
}

/* Every read in the running function's body, counted (made once per
 * function: a walk of the whole body per if and loop was quadratic). */
static const Names *func_reads(Spec *s)
{
	if (s->reads_func != s->func) {
		Names all = {0};
		block_reads(&s->func->body, NULL, &all);
		Names *kept = arena_alloc(s->a, sizeof *kept);
		*kept = names_in_arena(s, &all);
		s->reads = kept;
		s->reads_func = s->func;
	}
	return s->reads;
}

/* The reads of statement `n` and the blocks in it, counted. */
static Names stmt_reads_all(const Node *n)
{
	Names in = {0};
	stmt_reads(n, &in);
	block_reads(&n->body, NULL, &in);
	block_reads(&n->orelse, NULL, &in);
	return in;
}

/* Whether the running function reads `name` outside statement n (whose
 * reads are `inside`): what block_reads(body, n) would find. */
static bool read_outside(Spec *s, const Names *inside, const char *name)
{
	return names_count(func_reads(s), name) > names_count(inside, name);
}

/* Names a block reads before it has certainly assigned them, given the
 * names `defined` on entry (updated to those certainly assigned on exit). */
static void exposed_reads(const NodeList *body, Names *defined, Names *exposed)
{
	for (int i = 0; i < body->len; i++) {
		const Node *st = body->items[i];
		Names reads = {0};
		stmt_reads(st, &reads);
		for (int j = 0; j < reads.len; j++)
			if (!names_has(defined, reads.items[j]))
				names_add(exposed, reads.items[j]);
		names_free(&reads);
		if (st->kind == ND_IF) {
			Names then = names_copy(defined), other = names_copy(defined);
			exposed_reads(&st->body, &then, exposed);
			exposed_reads(&st->orelse, &other, exposed);
			for (int j = 0; j < then.len; j++)
				if (names_has(&other, then.items[j]))
					names_add(defined, then.items[j]);
			names_free(&then);
			names_free(&other);
		} else if (st->kind == ND_FOR || st->kind == ND_WHILE) {
			Names inner = names_copy(defined);      /* the body may not run */
			if (st->kind == ND_FOR)
				target_names(st->lhs, &inner);
			exposed_reads(&st->body, &inner, exposed);
			names_free(&inner);
		} else {
			stmt_targets(st, defined);
		}
	}
}

/* ---- the environment around a block ---- */

/* A snapshot is a place in the undo log: restoring undoes, newest first,
 * every binding made since, so each name holds its value at the snapshot
 * again and names bound since are unbound; in time proportional to what
 * changed, not to the names there are. */
typedef struct EnvSnapshot {
	int mark;
} EnvSnapshot;

static EnvSnapshot env_save(Spec *s)
{
	s->snapshots++;
	return (EnvSnapshot){s->nundo};
}

static void env_restore(Spec *s, const EnvSnapshot *e)
{
	while (s->nundo > e->mark) {
		Undo *u = &s->undo[--s->nundo];
		u->b->val = u->val;
	}
}

/* The snapshot is no longer restored to. */
static void env_close(Spec *s, const EnvSnapshot *e)
{
	(void)e;
	if (--s->snapshots == 0)
		s->nundo = 0;
}

static bool types_equal(const Type *x, const Type *y)
{
	if (x->dtype != y->dtype || x->rank != y->rank || (x->dtype == DT_PTR && x->elem != y->elem))
		return false;
	for (int d = 0; d < x->rank; d++)
		if (x->shape[d] != y->shape[d])
			return false;
	return true;
}

static const char *type_text(Spec *s, const Type *t)
{
	Buf b = {0};
	tir_format_type(&b, t);
	const char *r = arena_strdup(s->a, buf_str(&b));
	buf_free(&b);
	return r;
}

/* ---- for loops with run-time bounds ---- */

/* The induction variable's dtype: Triton promotes the bounds' types. */
static DType bound_dtype(Spec *s, const Node *n, SVal *v, DType sofar)
{
	DType dt;
	if (v->kind == SV_INT)
		dt = spec_const_dtype(v);
	else if (v->kind == SV_VALUE && v->v->type.rank == 0 && !dtype_is_float(v->v->type.dtype) &&
		 v->v->type.dtype != DT_PTR)
		dt = v->v->type.dtype;
	else
		spec_error(s, n, "a loop's bounds and step must be integer scalars");
	DType out;
	if (!tir_promote(sofar, false, dt, false, false, &out))
		spec_error(s, n, "a loop's bounds have types that cannot be combined");
	return out == DT_I1 ? DT_I32 : out;
}

static TValue *bound_value(Spec *s, const Node *n, SVal *v, DType dt)
{
	return v->kind == SV_VALUE ? tir_cast(&s->b, v->v, dt) : spec_materialize(s, n, v, dt);
}

/* The loop-carried names of loop `n` (a for, or a while whose condition
 * reads them too), in order of first assignment. */
static Names carried_names(Spec *s, const Node *n)
{
	Names assigned = {0}, exposed = {0}, defined = {0}, carried = {0};
	block_assigns(&n->body, &assigned);
	if (n->kind == ND_FOR)
		target_names(n->lhs, &defined);
	else
		expr_reads(n->cond, &exposed);
	exposed_reads(&n->body, &defined, &exposed);
	Names inside = stmt_reads_all(n);
	for (int i = 0; i < assigned.len; i++) {
		const char *name = assigned.items[i];
		if (n->kind == ND_FOR && !strcmp(n->lhs->name, name))
			continue;
		if (spec_lookup(s, name) && (names_has(&exposed, name) || read_outside(s, &inside, name)))
			names_add(&carried, name);
	}
	names_free(&assigned);
	names_free(&exposed);
	names_free(&inside);
	names_free(&defined);
	return carried;
}

static TValue *carried_init(Spec *s, const Node *n, const char *name, DType want)
{
	SVal *v = spec_lookup(s, name);
	if (v->kind == SV_VALUE)
		return v->v;
	if (spec_is_const(v))
		return spec_materialize(s, n, v, want);
	spec_error(s, n, "'%s' cannot be carried through a loop with run-time bounds (only numbers and tensors can)", name);
}

/* The value a carried name has at the end of the body, as the param's
 * type. Sets *retry_dtype and returns NULL when the init was a Python number
 * whose type the body changes (the loop is then built again with it). */
static TValue *carried_next(Spec *s, const Node *n, const char *name, TValue *param, bool init_was_const,
			    DType *retry_dtype)
{
	SVal *v = spec_lookup(s, name);
	if (!v)
		spec_error(s, n, "'%s' is unbound at the end of the loop's body", name);
	if (spec_is_const(v))
		return spec_materialize(s, n, v, param->type.dtype);
	if (v->kind != SV_VALUE)
		spec_error(s, n, "'%s' must stay a number or a tensor in a loop with run-time bounds", name);
	if (types_equal(&v->v->type, &param->type))
		return v->v;
	if (init_was_const && v->v->type.rank == 0 && v->v->type.dtype != DT_PTR) {
		*retry_dtype = v->v->type.dtype;
		return NULL;
	}
	spec_error(s, n, "loop-carried variable '%s' is %s before the loop but %s at the end of its body", name,
		   type_text(s, &param->type), type_text(s, &v->v->type));
}

static int loop_option(Spec *s, const Node *range, const char *kw)
{
	SVal *v = spec_arg(s, range, -1, kw);
	return v && v->kind == SV_INT ? (int)v->i : 0;
}

void spec_exec_runtime_for(Spec *s, const Node *n, SVal *lo, SVal *hi, SVal *step)
{
	const Node *range = n->rhs;
	if (n->lhs->kind != ND_NAME)
		spec_error(s, n->lhs, "the variable of a loop with run-time bounds must be a single name");
	if (step->kind == SV_INT && step->i == 0)
		spec_error(s, range, "a loop's step must not be zero");
	DType ivt = bound_dtype(s, range, lo, DT_I32);
	ivt = bound_dtype(s, range, hi, ivt);
	ivt = bound_dtype(s, range, step, ivt);

	Names heap = carried_names(s, n);
	Names carried = names_in_arena(s, &heap);
	int nc = carried.len;
	DType *want = arena_alloc(s->a, sizeof *want * (size_t)(nc + 1));
	bool *was_const = arena_alloc(s->a, sizeof *was_const * (size_t)(nc + 1));
	for (int i = 0; i < nc; i++) {
		SVal *v = spec_lookup(s, carried.items[i]);
		was_const[i] = spec_is_const(v);
		want[i] = was_const[i] ? spec_const_dtype(v) : DT_F32;
	}
	TValue **init = arena_alloc(s->a, sizeof *init * (size_t)(nc + 1));
	TValue **next = arena_alloc(s->a, sizeof *next * (size_t)(nc + 1));
	EnvSnapshot before = env_save(s);
	TBuilder *b = &s->b;
	for (int attempt = 0;; attempt++) {
		TValue *mark = b->block->last;
		TValue *tlo = bound_value(s, range, lo, ivt), *thi = bound_value(s, range, hi, ivt);
		TValue *tstep = bound_value(s, range, step, ivt);
		for (int i = 0; i < nc; i++)
			init[i] = carried_init(s, n, carried.items[i], want[i]);
		TValue *loop = tir_for(b, tlo, thi, tstep, nc, init);
		loop->aux = loop_option(s, range, "num_stages");
		loop->aux2 = loop_option(s, range, "loop_unroll_factor");
		TBlock *outer = b->block;
		b->block = loop->body;
		loop->body->params[0]->name = spec_value_name(s, n->lhs->name);
		spec_bind(s, n->lhs->name, spec_sv_value(s, n, loop->body->params[0]));
		for (int i = 0; i < nc; i++) {
			loop->body->params[i + 1]->name = spec_value_name(s, carried.items[i]);
			spec_bind(s, carried.items[i], spec_sv_value(s, n, loop->body->params[i + 1]));
		}
		spec_exec_block(s, &n->body);
		if (s->returned)
			spec_error(s, n, "'return' of a value inside a loop with run-time bounds is not supported (a bare 'return' is)");
		bool again = false;
		for (int i = 0; i < nc; i++) {
			next[i] = carried_next(s, n, carried.items[i], loop->body->params[i + 1], was_const[i] && attempt == 0,
					       &want[i]);
			again |= !next[i];
		}
		env_restore(s, &before);
		b->block = outer;
		if (again) {
			tir_truncate(b, mark);
			continue;
		}
		env_close(s, &before);
		b->block = loop->body;
		tir_yield(b, nc, next);
		b->block = outer;
		tir_results(b, loop, next);
		for (int i = 0; i < nc; i++) {
			next[i]->name = spec_value_name(s, carried.items[i]);
			spec_bind(s, carried.items[i], spec_sv_value(s, n, next[i]));
		}
		break;
	}
}

/* ---- while loops ---- */

/* The condition of while loop `n` as an i1 scalar in the current block. */
static TValue *while_condition(Spec *s, const Node *n, SVal *c)
{
	TValue *v = spec_to_value(s, n->cond, c);
	if (v->type.rank != 0)
		spec_error(s, n->cond, "the condition of a while loop must be a scalar, not a tensor of type %s",
			   type_text(s, &v->type));
	return tir_cast(&s->b, v, DT_I1);
}

/* A while loop whose condition is a run-time scalar: a TOP_WHILE carrying
 * the names it assigns that are live across iterations or after it, its
 * condition evaluated first in its body. */
static void exec_runtime_while(Spec *s, const Node *n)
{
	Names heap = carried_names(s, n);
	Names carried = names_in_arena(s, &heap);
	int nc = carried.len;
	DType *want = arena_alloc(s->a, sizeof *want * (size_t)(nc + 1));
	bool *was_const = arena_alloc(s->a, sizeof *was_const * (size_t)(nc + 1));
	for (int i = 0; i < nc; i++) {
		SVal *v = spec_lookup(s, carried.items[i]);
		was_const[i] = spec_is_const(v);
		want[i] = was_const[i] ? spec_const_dtype(v) : DT_F32;
	}
	TValue **init = arena_alloc(s->a, sizeof *init * (size_t)(nc + 1));
	TValue **next = arena_alloc(s->a, sizeof *next * (size_t)(nc + 1));
	EnvSnapshot before = env_save(s);
	TBuilder *b = &s->b;
	for (int attempt = 0;; attempt++) {
		TValue *mark = b->block->last;
		for (int i = 0; i < nc; i++)
			init[i] = carried_init(s, n, carried.items[i], want[i]);
		TValue *loop = tir_while(b, nc, init);
		TBlock *outer = b->block;
		b->block = loop->body;
		for (int i = 0; i < nc; i++) {
			loop->body->params[i]->name = spec_value_name(s, carried.items[i]);
			spec_bind(s, carried.items[i], spec_sv_value(s, n, loop->body->params[i]));
		}
		SVal *c = spec_eval(s, n->cond);
		if (c->kind == SV_NONE)
			c = spec_sv_int(s, 0);
		tir_condition(b, while_condition(s, n, c));
		spec_exec_block(s, &n->body);
		if (s->returned)
			spec_error(s, n, "'return' of a value inside a while loop on a run-time condition is not supported (a bare 'return' is)");
		bool again = false;
		for (int i = 0; i < nc; i++) {
			next[i] = carried_next(s, n, carried.items[i], loop->body->params[i], was_const[i] && attempt == 0,
					       &want[i]);
			again |= !next[i];
		}
		env_restore(s, &before);
		b->block = outer;
		if (again) {
			tir_truncate(b, mark);
			continue;
		}
		env_close(s, &before);
		b->block = loop->body;
		tir_yield(b, nc, next);
		b->block = outer;
		tir_results(b, loop, next);
		for (int i = 0; i < nc; i++) {
			next[i]->name = spec_value_name(s, carried.items[i]);
			spec_bind(s, carried.items[i], spec_sv_value(s, n, next[i]));
		}
		break;
	}
}

#define MAX_STATIC_WHILE 4096

/* while cond: body. While the condition is known at compile time the body
 * runs here, as a static loop is unrolled (up to MAX_STATIC_WHILE times);
 * once it depends on run-time values the rest is a run-time loop. */
void spec_exec_while(Spec *s, const Node *n)
{
	if (n->orelse.len)
		spec_error(s, n, "'while ... else' is not supported");
	for (int iter = 0;; iter++) {
		TValue *mark = s->b.block->last;
		SVal *c = spec_eval(s, n->cond);
		if (c->kind == SV_NONE)
			c = spec_sv_int(s, 0);
		if (c->kind == SV_FLOAT)
			c = spec_sv_int(s, c->f != 0);
		if (c->kind == SV_VALUE) {
			tir_truncate(&s->b, mark);   /* evaluated again in the loop */
			exec_runtime_while(s, n);
			return;
		}
		if (c->kind != SV_INT)
			spec_error(s, n->cond, "this condition is neither a constant nor a scalar");
		if (!c->i)
			return;
		if (iter == MAX_STATIC_WHILE)
			spec_error(s, n, "too many iterations of a while loop on compile-time values (limit is %d)",
				   MAX_STATIC_WHILE);
		spec_exec_block(s, &n->body);
		if (s->returned)
			return;
	}
}

/* ---- if on a run-time scalar ---- */

/* The statements of `body` and the blocks below that hold `n` (not `n`
 * itself), outermost first; true when `n` is there. */
static bool path_to(const NodeList *body, const Node *n, Vec *path)
{
	for (int i = 0; i < body->len; i++) {
		const Node *st = body->items[i];
		if (st == n)
			return true;
		vec_push(path, (void *)st);
		if (path_to(&st->body, n, path) || path_to(&st->orelse, n, path))
			return true;
		vec_pop(path);
	}
	return false;
}

/* What loop `st` reads in an iteration before it assigns it, made once
 * per loop (every if in a long loop asked again: quadratic). */
typedef struct LoopReads {
	const Node *loop;
	Names names;
	struct LoopReads *next;
} LoopReads;

static const Names *loop_exposed(Spec *s, const Node *st)
{
	for (LoopReads *l = s->loop_reads; l; l = l->next)
		if (l->loop == st)
			return &l->names;
	Names defined = {0}, exposed = {0};
	if (st->kind == ND_FOR)
		target_names(st->lhs, &defined);
	else
		expr_reads(st->cond, &exposed);
	exposed_reads(&st->body, &defined, &exposed);
	names_free(&defined);
	LoopReads *l = arena_alloc(s->a, sizeof *l);
	l->loop = st;
	l->names = names_in_arena(s, &exposed);
	l->next = s->loop_reads;
	s->loop_reads = l;
	return &l->names;
}

/* The names that the loops around `n` read in an iteration before they
 * assign them (the values their next iteration starts from). */
static void loops_exposed(Spec *s, const NodeList *body, const Node *n, Names *out)
{
	Vec path = {0};
	if (!path_to(body, n, &path))
		path.len = 0;
	for (int i = 0; i < path.len; i++) {
		const Node *st = path.data[i];
		if (st->kind == ND_FOR || st->kind == ND_WHILE) {
			const Names *e = loop_exposed(s, st);
			for (int j = 0; j < e->len; j++)
				names_add(out, e->items[j]);
		}
	}
	vec_free(&path);
}

/* The names an if hands on, in order. A name the loops around the if read
 * before assigning it counts as read after it: the next iteration does. */
static Names if_results(Spec *s, const Node *n)
{
	Names then = {0}, other = {0}, all = {0}, outside = {0}, out = {0};
	block_assigns(&n->body, &then);
	block_assigns(&n->orelse, &other);
	block_assigns(&n->body, &all);
	block_assigns(&n->orelse, &all);
	Names inside = stmt_reads_all(n);
	loops_exposed(s, &s->func->body, n, &outside);
	for (int i = 0; i < all.len; i++) {
		const char *name = all.items[i];
		bool both = names_has(&then, name) && names_has(&other, name);
		if ((spec_lookup(s, name) || both) && (names_has(&outside, name) || read_outside(s, &inside, name)))
			names_add(&out, name);
	}
	names_free(&then);
	names_free(&other);
	names_free(&all);
	names_free(&outside);
	names_free(&inside);
	return out;
}

/* The type both branches' values of `name` take. */
static Type branch_type(Spec *s, const Node *n, const char *name, SVal *x, SVal *y)
{
	for (int i = 0; i < 2; i++) {
		SVal *v = i ? y : x;
		if (!v || (v->kind != SV_VALUE && !spec_is_const(v)))
			spec_error(s, n, "'%s' must be a number or a tensor in both branches of an if on a run-time condition",
				   name);
	}
	if (x->kind == SV_VALUE && y->kind == SV_VALUE) {
		if (!types_equal(&x->v->type, &y->v->type))
			spec_error(s, n, "'%s' is %s in one branch and %s in the other", name,
				   type_text(s, &x->v->type), type_text(s, &y->v->type));
		return x->v->type;
	}
	Type t = {.dtype = DT_I32};
	if (x->kind == SV_VALUE || y->kind == SV_VALUE) {
		t = (x->kind == SV_VALUE ? x : y)->v->type;
		if (t.rank != 0)
			spec_error(s, n, "'%s' is a number in one branch and a tensor in the other", name);
	} else {
		t.dtype = x->kind == SV_FLOAT || y->kind == SV_FLOAT ? DT_F32 :
			  spec_const_dtype(x) == DT_I64 || spec_const_dtype(y) == DT_I64 ? DT_I64 : DT_I32;
	}
	return t;
}

static void yield_branch(Spec *s, const Node *n, TBlock *blk, int count, SVal **vals, const Type *types)
{
	TBlock *outer = s->b.block;
	s->b.block = blk;
	TValue **out = arena_alloc(s->a, sizeof *out * (size_t)(count + 1));
	for (int i = 0; i < count; i++)
		out[i] = vals[i]->kind == SV_VALUE ? vals[i]->v : spec_materialize(s, n, vals[i], types[i].dtype);
	tir_yield(&s->b, count, out);
	s->b.block = outer;
}

void spec_exec_runtime_if(Spec *s, const Node *n, TValue *cond)
{
	if (cond->type.rank != 0)
		spec_error(s, n->cond, "the condition of an if must be a scalar, not a tensor of type %s",
			   type_text(s, &cond->type));
	TBuilder *b = &s->b;
	Names heap = if_results(s, n);
	Names names = names_in_arena(s, &heap);
	int count = names.len;
	SVal **then = arena_alloc(s->a, sizeof *then * (size_t)(count + 1));
	SVal **other = arena_alloc(s->a, sizeof *other * (size_t)(count + 1));
	Type *types = arena_alloc(s->a, sizeof *types * (size_t)(count + 1));
	EnvSnapshot before = env_save(s);
	TValue *op = tir_if(b, tir_cast(b, cond, DT_I1));
	TBlock *outer = b->block;
	for (int branch = 0; branch < 2; branch++) {
		b->block = branch ? op->orelse : op->body;
		spec_exec_block(s, branch ? &n->orelse : &n->body);
		if (s->returned)
			spec_error(s, n, "'return' of a value inside an if on a run-time condition is not supported (a bare 'return' is)");
		for (int i = 0; i < count; i++)
			(branch ? other : then)[i] = spec_lookup(s, names.items[i]);
		env_restore(s, &before);
	}
	env_close(s, &before);
	b->block = outer;
	for (int i = 0; i < count; i++)
		types[i] = branch_type(s, n, names.items[i], then[i], other[i]);
	yield_branch(s, n, op->body, count, then, types);
	yield_branch(s, n, op->orelse, count, other, types);
	TValue **results = arena_alloc(s->a, sizeof *results * (size_t)(count + 1));
	tir_results(b, op, results);
	for (int i = 0; i < count; i++) {
		results[i]->name = spec_value_name(s, names.items[i]);
		spec_bind(s, names.items[i], spec_sv_value(s, n, results[i]));
	}
}

/* ---- inlining the module's @triton.jit functions ---- */

#define MAX_INLINE_DEPTH 32   /* calls inlined one inside another */

SVal *spec_inline_call(Spec *s, const Node *site, const Node *fn, SVal **args, int nargs, const char **kwnames, int nkw)
{
	if (s->depth >= MAX_INLINE_DEPTH)
		spec_error(s, site, "too many nested calls of @triton.jit functions at '%s' (limit is %d; recursion is not supported)",
			   fn->name, MAX_INLINE_DEPTH);
	Env *env = s->env;
	const Node *func = s->func;
	SVal *ret = s->ret;
	s->env = spec_env_new(s);
	spec_bind_modules(s);
	int npos = nargs - nkw;
	for (int i = 0; i < fn->params.len; i++) {
		const Node *p = fn->params.items[i];
		SVal *v = i < npos ? args[i] : NULL;
		for (int j = 0; j < nkw; j++)
			if (!strcmp(kwnames[j], p->name))
				v = args[npos + j];
		if (!v && p->rhs)
			v = spec_eval(s, p->rhs);
		if (!v)
			spec_error(s, site, "missing argument '%s' of '%s'", p->name, fn->name);
		spec_bind(s, p->name, v);
	}
	if (npos > fn->params.len)
		spec_error(s, site, "'%s' takes %d arguments, %d given", fn->name, fn->params.len, npos);
	s->func = fn = spec_rewrite_jumps(s, fn);
	s->ret = NULL;
	s->depth++;
	spec_exec_block(s, &fn->body);
	s->depth--;
	SVal *result = s->ret ? s->ret : spec_sv_new(s, SV_NONE);
	s->returned = false;
	s->env = env;
	s->func = func;
	s->ret = ret;
	return result;
}

SVal *spec_call_jit_function(Spec *s, const Node *call, const Node *fn)
{
	int n = call->items.len + call->keywords.len;
	/* in the arena: an error in an argument or in the callee jumps out of here */
	SVal **args = arena_alloc(s->a, ((size_t)n + 1) * sizeof *args);
	const char **kw = arena_alloc(s->a, ((size_t)call->keywords.len + 1) * sizeof *kw);
	for (int i = 0; i < call->items.len; i++)
		args[i] = spec_eval(s, call->items.items[i]);
	for (int i = 0; i < call->keywords.len; i++) {
		const Node *k = call->keywords.items[i];
		if (!k->name)
			spec_error(s, k, "'**' arguments are not supported");
		kw[i] = k->name;
		args[call->items.len + i] = spec_eval(s, k->rhs);
	}
	return spec_inline_call(s, call, fn, args, n, kw, call->keywords.len);
}
