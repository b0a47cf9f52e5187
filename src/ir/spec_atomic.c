/* spec_atomic.c: Triton's atomics, and the decoupled lookback of
 * Inductor's split scans built from them.
 *
 * tl.atomic_add / xchg / max / min / and / or / xor (pointer, val,
 * mask=None, sem=None, scope=None) and tl.atomic_cas(pointer, cmp, val,
 * sem=None, scope=None) are one TOP_ATOMIC each; sem defaults to acq_rel
 * and scope to gpu, as in Triton.
 *
 * triton_helpers.exclusive_scan_decoupled_lookback (torch/_inductor/
 * runtime/triton_helpers.py) carries a scan across the programs along grid
 * axis 0 (Merrill and Garland's single-pass scan): program `index` holds
 * one reduced value of its block, publishes it, walks back over the slots
 * of the programs before it until one holds an inclusive prefix, and
 * returns the exclusive prefix of its block. It is built here op for op
 * from the same pieces (a run-time while loop, atomics, bitcasts), so
 * every backend lowers it with nothing of its own:
 *
 *   slot i of scratch (an unsigned integer twice the value's width) holds
 *   the value's bits in its high half and a flag in its low half: 0 nothing
 *   yet, 1 the block's own aggregate, 2 the inclusive prefix up to it.
 *   if index > 0: xchg(scratch + index, pack(value, 1))    relaxed
 *   exclusive = 0; valid = False; target = index - 1
 *   while target >= 0:
 *       pack = 0
 *       while flag(pack) == 0: pack = atomic_add(scratch + target, 0)   relaxed
 *       exclusive = combine(value(pack), exclusive) if valid else value(pack)
 *       valid = True
 *       target = -1 if flag(pack) == 2 else target - 1
 *   inclusive = combine(exclusive, value) if valid else value
 *   xchg(scratch + index, pack(inclusive, 2))                relaxed
 *   return exclusive
 *
 * Relaxed atomics are enough: value and flag travel in one word. The
 * _64 variant, for 64-bit values, keeps three words a slot (flag,
 * aggregate, inclusive prefix) and orders them with release and acquire.
 * A program waits only for programs with a smaller index along axis 0;
 * the runtimes start programs in that order (src/runtime/cpu.c), and the
 * interpreter runs them one after another. */
#include "ir/spec.h"

#include <string.h>

static int name_index(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/* sem= and scope= of an atomic call: arguments 3 and 4 in every one of
 * Triton's (after pointer, val, mask or pointer, cmp, val). */
static void sem_scope(Spec *s, const Node *call, MemSem *sem, MemScope *scope)
{
	static const char *const sems[] = {"acq_rel", "relaxed", "acquire", "release"};
	static const char *const scopes[] = {"gpu", "cta", "sys"};
	*sem = SEM_ACQ_REL;
	*scope = SCOPE_GPU;
	for (int which = 0; which < 2; which++) {
		SVal *v = spec_arg(s, call, 3 + which, which ? "scope" : "sem");
		if (!v || v->kind == SV_NONE)
			continue;
		if (v->kind != SV_STR)
			spec_error(s, call, "'%s' must be a string", which ? "scope" : "sem");
		int i = which ? name_index(v->str, scopes, 3) : name_index(v->str, sems, 4);
		if (i < 0)
			spec_error(s, call, "unknown %s '%s'", which ? "scope" : "sem", v->str);
		if (which)
			*scope = (MemScope)i;
		else
			*sem = (MemSem)i;
	}
}

/* tl.atomic_<op>: `fn` without its "atomic_". NULL: no such function. */
SVal *spec_call_tl_atomic(Spec *s, const Node *call, const char *fn)
{
	static const char *const ops[] = {"add", "xchg", "max", "min", "and", "or", "xor", "cas"};
	int op = name_index(fn, ops, 8);
	if (op < 0)
		return NULL;
	TValue *ptr = spec_need_value(s, call, 0, "pointer");
	if (ptr->type.dtype != DT_PTR)
		spec_error(s, call, "tl.atomic_%s needs a pointer", fn);
	DType et = ptr->type.elem;
	bool is_float = dtype_is_float(et);
	if (is_float && op != ATOM_ADD && op != ATOM_XCHG && op != ATOM_CAS)
		spec_error(s, call, "tl.atomic_%s on %s is not supported yet (integers only)", fn, dtype_name(et));
	MemSem sem;
	MemScope scope;
	if (op == ATOM_CAS) {
		TValue *cmp = spec_materialize(s, call, spec_need_arg(s, call, 1, "cmp"), et);
		TValue *val = spec_materialize(s, call, spec_need_arg(s, call, 2, "val"), et);
		sem_scope(s, call, &sem, &scope);
		return spec_sv_value(s, call, spec_checked(s, call, tir_atomic_cas(&s->b, ptr, cmp, val, sem, scope)));
	}
	TValue *val = spec_materialize(s, call, spec_need_arg(s, call, 1, "val"), et);
	SVal *mask = spec_arg(s, call, 2, "mask");
	TValue *m = mask && mask->kind != SV_NONE ? spec_to_value(s, call, mask) : NULL;
	sem_scope(s, call, &sem, &scope);
	return spec_sv_value(s, call, spec_checked(s, call, tir_atomic(&s->b, (AtomicOp)op, ptr, val, m, sem, scope)));
}

/* ---- the decoupled lookback ---- */

/* What one lookback works with. */
typedef struct Lookback {
	const Node *call;
	const Node *combine;       /* the @triton.jit combine function */
	TValue *scratch;           /* pointer to the slots (their unsigned type) */
	TValue *value;             /* the block's value, a scalar */
	TValue *index;             /* the block's index along the scan */
	DType vt;                  /* the value's dtype */
	DType as_uint;             /* an unsigned integer of the value's width */
	DType pack;                /* twice that: one slot */
	bool wide;                 /* the _64 variant: three u64 words a slot */
} Lookback;

static TValue *num(Spec *s, DType dt, int64_t v)
{
	return tir_const_int(&s->b, dt, v);
}

static TValue *binop(Spec *s, const Lookback *lb, TOp op, TValue *x, TValue *y)
{
	return spec_checked(s, lb->call, tir_binary(&s->b, op, x, y));
}

/* combine_fn(x, y) on two scalars of the value's dtype. */
static TValue *combine(Spec *s, const Lookback *lb, TValue *x, TValue *y)
{
	SVal *args[2] = {spec_sv_value(s, lb->call, x), spec_sv_value(s, lb->call, y)};
	int line = s->b.line;
	SVal *r = spec_inline_call(s, lb->call, lb->combine, args, 2, NULL, 0);
	s->b.line = line;   /* the combine's lines were the function's */
	TValue *v = spec_materialize(s, lb->call, r, lb->vt);
	if (v->type.rank != 0)
		spec_error(s, lb->call, "the combine function '%s' must return a scalar", lb->combine->name);
	return tir_cast(&s->b, v, lb->vt);
}

/* `combine(x, y) if valid else otherwise`, as the helper's `if prefix_valid:` */
static TValue *combine_if(Spec *s, const Lookback *lb, TValue *valid, TValue *x, TValue *y, TValue *otherwise)
{
	TBuilder *b = &s->b;
	TValue *op = tir_if(b, valid);
	TBlock *outer = b->block;
	b->block = op->body;
	TValue *c = combine(s, lb, x, y);
	tir_yield(b, 1, &c);
	b->block = op->orelse;
	tir_yield(b, 1, &otherwise);
	b->block = outer;
	TValue *r;
	tir_results(b, op, &r);
	return r;
}

/* scratch + i (elements of the slots' type) */
static TValue *slot(Spec *s, const Lookback *lb, TValue *i)
{
	return spec_checked(s, lb->call, tir_binary(&s->b, TOP_ADD, lb->scratch, i));
}

/* pack_value_flag: the value's bits in the high half, the flag in the low. */
static TValue *pack(Spec *s, const Lookback *lb, TValue *value, int flag)
{
	int bits = 8 * dtype_bytes(lb->as_uint);
	TValue *u = tir_cast(&s->b, spec_checked(s, lb->call, tir_bitcast(&s->b, value, lb->as_uint)), lb->pack);
	TValue *hi = binop(s, lb, TOP_SHL, u, num(s, lb->pack, bits));
	return binop(s, lb, TOP_OR, hi, num(s, lb->pack, flag));
}

/* The flag of a packed slot (the low half), and its value. */
static TValue *flag_of(Spec *s, const Lookback *lb, TValue *p)
{
	return tir_cast(&s->b, p, lb->as_uint);
}

static TValue *value_of(Spec *s, const Lookback *lb, TValue *p)
{
	int bits = 8 * dtype_bytes(lb->as_uint);
	TValue *hi = tir_cast(&s->b, binop(s, lb, TOP_SHR, p, num(s, lb->pack, bits)), lb->as_uint);
	return spec_checked(s, lb->call, tir_bitcast(&s->b, hi, lb->vt));
}

/* The _64 variant's word `k` (0 flag, 1 aggregate, 2 inclusive) of slot i. */
static TValue *word(Spec *s, const Lookback *lb, TValue *i, TValue *k)
{
	TValue *three = binop(s, lb, TOP_MUL, num(s, i->type.dtype, 3), i);
	return slot(s, lb, binop(s, lb, TOP_ADD, three, tir_cast(&s->b, k, i->type.dtype)));
}

/* Publishes `value` with `flag` in the block's slot (where `mask`, if any). */
static void publish(Spec *s, const Lookback *lb, TValue *value, int flag, TValue *mask)
{
	TBuilder *b = &s->b;
	if (!lb->wide) {
		spec_checked(s, lb->call, tir_atomic(b, ATOM_XCHG, slot(s, lb, lb->index), pack(s, lb, value, flag), mask,
						SEM_RELAXED, SCOPE_GPU));
		return;
	}
	TValue *bits = spec_checked(s, lb->call, tir_bitcast(b, value, DT_U64));
	spec_checked(s, lb->call, tir_store(b, word(s, lb, lb->index, num(s, DT_I32, flag)), bits, mask));
	tir_barrier(b);
	spec_checked(s, lb->call, tir_atomic(b, ATOM_XCHG, word(s, lb, lb->index, num(s, DT_I32, 0)), num(s, DT_U64, flag),
					mask, SEM_RELEASE, SCOPE_GPU));
}

/* The slot of program `target`, once it holds a flag: the spin-wait.
 * Returns the slot (packed), or for the _64 variant its flag word. */
static TValue *wait_for(Spec *s, const Lookback *lb, TValue *target)
{
	TBuilder *b = &s->b;
	DType dt = lb->wide ? DT_U64 : lb->pack;
	TValue *zero = num(s, dt, 0);
	TValue *loop = tir_while(b, 1, &zero);
	TBlock *outer = b->block;
	b->block = loop->body;
	TValue *p = loop->body->params[0];
	p->name = lb->wide ? "flag" : "pack";
	TValue *f = lb->wide ? p : flag_of(s, lb, p);
	tir_condition(b, spec_checked(s, lb->call, tir_cmp(b, CMP_EQ, f, num(s, f->type.dtype, 0))));
	TValue *at = lb->wide ? word(s, lb, target, num(s, DT_I32, 0)) : slot(s, lb, target);
	TValue *got = spec_checked(s, lb->call, tir_atomic(b, ATOM_ADD, at, num(s, dt, 0), NULL,
						      lb->wide ? SEM_ACQUIRE : SEM_RELAXED, SCOPE_GPU));
	tir_yield(b, 1, &got);
	b->block = outer;
	TValue *r;
	tir_results(b, loop, &r);
	r->name = p->name;
	return r;
}

/* The walk back: the exclusive prefix of the programs before this one
 * (zero when there are none) and whether there were any. */
static void walk_back(Spec *s, const Lookback *lb, TValue **exclusive, TValue **valid)
{
	TBuilder *b = &s->b;
	DType it = lb->index->type.dtype;
	TValue *init[3] = {
		dtype_is_float(lb->vt) ? tir_const_float(b, lb->vt, 0) : num(s, lb->vt, 0),
		num(s, DT_I1, 0),
		binop(s, lb, TOP_SUB, lb->index, num(s, it, 1)),
	};
	static const char *const names[] = {"exclusive_prefix", "prefix_valid", "test_target"};
	TValue *loop = tir_while(b, 3, init);
	TBlock *outer = b->block;
	b->block = loop->body;
	TValue **p = loop->body->params;
	for (int i = 0; i < 3; i++)
		p[i]->name = names[i];
	tir_condition(b, spec_checked(s, lb->call, tir_cmp(b, CMP_GE, p[2], num(s, it, 0))));
	TValue *got = wait_for(s, lb, p[2]), *flag, *value;
	if (lb->wide) {
		flag = got;
		TValue *at = word(s, lb, p[2], tir_cast(b, got, DT_I32));
		value = spec_checked(s, lb->call, tir_bitcast(b, spec_checked(s, lb->call, tir_load(b, at, NULL, NULL, EVICT_NORMAL)),
							   lb->vt));
	} else {
		flag = flag_of(s, lb, got);
		value = value_of(s, lb, got);
	}
	TValue *next[3];
	next[0] = combine_if(s, lb, p[1], value, p[0], value);
	next[1] = num(s, DT_I1, 1);
	TValue *done = spec_checked(s, lb->call, tir_cmp(b, CMP_EQ, flag, num(s, flag->type.dtype, 2)));
	next[2] = spec_checked(s, lb->call, tir_where(b, done, num(s, it, -1), binop(s, lb, TOP_SUB, p[2], num(s, it, 1))));
	tir_yield(b, 3, next);
	b->block = outer;
	TValue *r[3];
	tir_results(b, loop, r);
	for (int i = 0; i < 3; i++)
		r[i]->name = names[i];
	*exclusive = r[0];
	*valid = r[1];
}

/* The DTYPE_* argument at `pos` / `kw`: an unsigned integer dtype. */
static DType uint_arg(Spec *s, const Node *call, int pos, const char *kw)
{
	SVal *v = spec_need_arg(s, call, pos, kw);
	if (v->kind != SV_DTYPE || (v->dtype != DT_U8 && v->dtype != DT_U32 && v->dtype != DT_U64))
		spec_error(s, call, "%s must be an unsigned integer type such as tl.uint32", kw);
	return v->dtype;
}

/* exclusive_scan_decoupled_lookback(scratch_base, block_value, index,
 * combine_fn, DTYPE_VALUE_AS_UINT, DTYPE_PACK), or with `wide` the _64
 * variant (scratch_base, block_value, index, combine_fn). */
SVal *spec_call_lookback(Spec *s, const Node *call, bool wide)
{
	Lookback lb = {.call = call, .wide = wide};
	lb.scratch = spec_need_value(s, call, 0, "scratch_base");
	lb.value = spec_need_value(s, call, 1, "block_value");
	lb.index = spec_need_value(s, call, 2, "index");
	SVal *fn = spec_need_arg(s, call, 3, "combine_fn");
	if (fn->kind != SV_FUNC)
		spec_error(s, call, "the combine function must be a @triton.jit function of this module");
	lb.combine = fn->fn;
	lb.vt = lb.value->type.dtype;
	if (wide) {
		lb.as_uint = lb.pack = DT_U64;
	} else {
		lb.as_uint = uint_arg(s, call, 4, "DTYPE_VALUE_AS_UINT");
		lb.pack = uint_arg(s, call, 5, "DTYPE_PACK");
	}
	if (lb.value->type.rank != 0 || lb.index->type.rank != 0)
		spec_error(s, call, "the block value and the index must be scalars");
	if (!dtype_is_signed(lb.index->type.dtype))
		spec_error(s, call, "the index must be a signed integer");
	if (lb.scratch->type.dtype != DT_PTR || lb.scratch->type.rank != 0 || lb.scratch->type.elem != lb.pack)
		spec_error(s, call, "scratch_base must be a pointer to %s (its slots)", dtype_name(lb.pack));
	if (dtype_bytes(lb.vt) != dtype_bytes(lb.as_uint) || lb.vt == DT_I1 ||
	    (!wide && dtype_bytes(lb.pack) != 2 * dtype_bytes(lb.as_uint)))
		spec_error(s, call, "a %s value does not fit these types: DTYPE_VALUE_AS_UINT must be as wide as the value "
				    "and DTYPE_PACK twice as wide (%s)",
			   dtype_name(lb.vt), wide ? "64-bit values only" : "values of 32 bits at most");
	int line, col;
	diag_source_linecol(s->src, call->offset, &line, &col);
	s->b.line = line;   /* the arguments' lines were their own */
	TValue *first = spec_checked(s, call, tir_cmp(&s->b, CMP_GT, lb.index, num(s, lb.index->type.dtype, 0)));
	publish(s, &lb, lb.value, 1, first);
	TValue *exclusive, *valid;
	walk_back(s, &lb, &exclusive, &valid);
	publish(s, &lb, combine_if(s, &lb, valid, exclusive, lb.value, lb.value), 2, NULL);
	return spec_sv_value(s, call, exclusive);
}
