/* spec_atomic.c: Triton's atomics.
 *
 * tl.atomic_add / xchg / max / min / and / or / xor (pointer, val,
 * mask=None, sem=None, scope=None) and tl.atomic_cas(pointer, cmp, val,
 * sem=None, scope=None) are one TOP_ATOMIC each; sem defaults to acq_rel
 * and scope to gpu, as in Triton. */
#include "ir/spec.h"

#include <string.h>

static int name_index(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/* sem= and scope= of an atomic call, by their keywords only (Triton's
 * positions differ between atomic_cas and the others). */
static void sem_scope(Spec *s, const Node *call, MemSem *sem, MemScope *scope)
{
	static const char *const sems[] = {"acq_rel", "relaxed", "acquire", "release"};
	static const char *const scopes[] = {"gpu", "cta", "sys"};
	*sem = SEM_ACQ_REL;
	*scope = SCOPE_GPU;
	for (int which = 0; which < 2; which++) {
		SVal *v = arg(s, call, -1, which ? "scope" : "sem");
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
SVal *call_tl_atomic(Spec *s, const Node *call, const char *fn)
{
	static const char *const ops[] = {"add", "xchg", "max", "min", "and", "or", "xor", "cas"};
	int op = name_index(fn, ops, 8);
	if (op < 0)
		return NULL;
	TValue *ptr = need_value(s, call, 0, "pointer");
	if (ptr->type.dtype != DT_PTR)
		spec_error(s, call, "tl.atomic_%s needs a pointer", fn);
	DType et = ptr->type.elem;
	bool is_float = dtype_is_float(et);
	if (is_float && op != ATOM_ADD && op != ATOM_XCHG && op != ATOM_CAS)
		spec_error(s, call, "tl.atomic_%s on %s is not supported yet (integers only)", fn, dtype_name(et));
	MemSem sem;
	MemScope scope;
	if (op == ATOM_CAS) {
		TValue *cmp = materialize(s, call, need_arg(s, call, 1, "cmp"), et);
		TValue *val = materialize(s, call, need_arg(s, call, 2, "val"), et);
		sem_scope(s, call, &sem, &scope);
		return sv_value(s, call, checked(s, call, tir_atomic_cas(&s->b, ptr, cmp, val, sem, scope)));
	}
	TValue *val = materialize(s, call, need_arg(s, call, 1, "val"), et);
	SVal *mask = arg(s, call, 2, "mask");
	TValue *m = mask && mask->kind != SV_NONE ? to_value(s, call, mask) : NULL;
	sem_scope(s, call, &sem, &scope);
	return sv_value(s, call, checked(s, call, tir_atomic(&s->b, (AtomicOp)op, ptr, val, m, sem, scope)));
}
