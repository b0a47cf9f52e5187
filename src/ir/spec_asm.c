/* spec_asm.c: tl.inline_asm_elementwise(asm, constraints, args, dtype,
 * is_pure, pack), as Triton 3.6 has it: the arguments broadcast to one
 * shape (no type promotion), one result per dtype (a tuple when dtype is
 * one), the asm run once per element with its results first ($0 ...) and
 * then the arguments. Inline PTX: the CUDA targets lower it
 * (src/gpu/lower_index.c, src/emit/cuda.c); the other targets and the
 * interpreter give a located error. pack > 1: each call takes `pack`
 * elements of each argument and gives `pack` of each result, elements
 * narrower than 32 bits sharing 32-bit registers (tir_asm_registers); the
 * operands are then result 0's registers, result 1's ..., argument 0's
 * ..., and the constraints must name each one. */
#include "ir/spec.h"

#include <string.h>

static const char *str_arg(Spec *s, const Node *call, int pos, const char *kw)
{
	SVal *v = spec_need_arg(s, call, pos, kw);
	if (v->kind != SV_STR)
		spec_error(s, call, "tl.inline_asm_elementwise: '%s' must be a string", kw);
	return v->str;
}

/* The operand constraints in LLVM's list ("=r,r,~{memory}"): the entries
 * that are not clobbers (~{...}). */
static int count_constraints(const char *c)
{
	int n = 0;
	for (const char *p = c;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '~' && *p != ',' && *p)
			n++;
		const char *q = strchr(p, ',');
		if (!q)
			return n;
		p = q + 1;
	}
}

SVal *spec_call_inline_asm(Spec *s, const Node *call)
{
	const char *asm_text = str_arg(s, call, 0, "asm");
	const char *constraints = str_arg(s, call, 1, "constraints");
	SVal *args = spec_need_arg(s, call, 2, "args");
	SVal *dtype = spec_need_arg(s, call, 3, "dtype");
	SVal *pure = spec_need_arg(s, call, 4, "is_pure");
	SVal *pack = spec_need_arg(s, call, 5, "pack");
	if (pure->kind != SV_INT)
		spec_error(s, call, "tl.inline_asm_elementwise: 'is_pure' must be a compile-time constant");
	int64_t p = spec_const_int(s, call, pack, "pack");
	if (p < 1)
		spec_error(s, call, "tl.inline_asm_elementwise: pack must be at least 1, not %lld", (long long)p);
	if (p > 32 || (p & (p - 1)))
		spec_error(s, call, "tl.inline_asm_elementwise: pack must be a power of two up to 32, not %lld", (long long)p);
	int nargs = args->kind == SV_TUPLE ? args->nitems : 1;
	if (nargs < 1)
		spec_error(s, call, "tl.inline_asm_elementwise without arguments is not supported yet");
	TValue **xs = arena_alloc(s->b.arena, sizeof *xs * (size_t)nargs);
	for (int i = 0; i < nargs; i++)
		xs[i] = spec_to_value(s, call, args->kind == SV_TUPLE ? args->items[i] : args);
	bool several = dtype->kind == SV_TUPLE;
	int nout = several ? dtype->nitems : 1;
	if (nout < 1 || nout > TC_MAX_RANK - 1)
		spec_error(s, call, "tl.inline_asm_elementwise: %d results (1 to %d are supported)", nout, TC_MAX_RANK - 1);
	DType out[TC_MAX_RANK] = {0};
	for (int i = 0; i < nout; i++) {
		SVal *d = several ? dtype->items[i] : dtype;
		if (d->kind != SV_DTYPE)
			spec_error(s, call, "tl.inline_asm_elementwise: 'dtype' must be a dtype or a tuple of them");
		if (d->dtype == DT_PTR)
			spec_error(s, call, "tl.inline_asm_elementwise with pointer results is not supported yet");
		out[i] = d->dtype;
	}
	int want = 0;
	for (int i = 0; i < nout; i++)
		want += tir_asm_registers(out[i], (int)p);
	for (int i = 0; i < nargs; i++) {
		if (p > 1 && (xs[i]->type.dtype == DT_I1 || xs[i]->type.dtype == DT_PTR))
			spec_error(s, call, "tl.inline_asm_elementwise with pack=%lld: argument %d is a %s; bool and pointer "
				   "arguments take pack=1", (long long)p, i, xs[i]->type.dtype == DT_I1 ? "bool" : "pointer");
		want += tir_asm_registers(xs[i]->type.dtype, (int)p);
	}
	for (int i = 0; i < nout; i++)
		if (p > 1 && out[i] == DT_I1)
			spec_error(s, call, "tl.inline_asm_elementwise with pack=%lld: bool results take pack=1", (long long)p);
	int have = count_constraints(constraints);
	if (have != want)
		spec_error(s, call, "tl.inline_asm_elementwise: %d constraints (clobbers aside) for %d results and %d "
			   "arguments, which take %d registers%s", have, nout, nargs, want,
			   p > 1 ? " (elements narrower than 32 bits share 32-bit registers)" : "");
	TValue *res[TC_MAX_RANK] = {0};
	if (!tir_inline_asm(&s->b, asm_text, constraints, nargs, xs, nout, out, pure->i != 0, (int)p, res))
		spec_checked(s, call, NULL);
	if (!several)
		return spec_sv_value(s, call, res[0]);
	SVal *items[TC_MAX_RANK];
	for (int i = 0; i < nout; i++)
		items[i] = spec_sv_value(s, call, res[i]);
	return spec_sv_tuple(s, nout, items);
}
