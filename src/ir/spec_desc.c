/* spec_desc.c: tensor descriptors (tl.make_tensor_descriptor, descriptor
 * arguments made on the host, desc.load, desc.store).
 *
 * A descriptor names a strided view of memory (a base pointer, an extent
 * and a stride per dim) and the shape of the blocks read and written
 * through it. Here it is a compile-time value (SV_DESC) holding those
 * parts, and desc.load([o0, o1, ...]) becomes the pointer tile
 *
 *   base + sum_d (o_d + arange(0, B_d)) * stride_d
 *
 * loaded under the mask 0 <= o_d + i_d < extent_d in every dim, with zero
 * where it is false; desc.store writes under the same mask. That is what
 * Triton does on targets without a bulk tensor copy engine, and what the
 * copy engine computes: elements outside the view read as zero and are
 * never written. So every target, and the interpreter, runs the same IR.
 *
 * A descriptor argument (signature type tensordesc<fp16[64,64]>, Triton's
 * TensorDescriptor on the host) is passed as its base pointer, its n
 * extents (i32) and its first n - 1 strides (i64): the last stride is 1,
 * as Triton requires of every descriptor. Its loads also carry which
 * arguments those are and the block's offsets (TValue.desc): on sm_90a
 * the pipeline copies such blocks with the bulk tensor copy engine, by a
 * tensor map the runtime encodes from the same arguments (lower_dot.c).
 * So do the loads of a descriptor made in the kernel from arguments
 * alone (host_load): its tensor map is the same at every program, so it
 * is made once on the host rather than by each program on the device. */
#include "ir/spec.h"

#include <stdlib.h>
#include <string.h>

static SVal **desc_shape(SVal *d) { return d->items; }
static SVal **desc_strides(SVal *d) { return d->items + d->i; }
static SVal **desc_block(SVal *d) { return d->items + 2 * d->i; }

static SVal *new_desc(Spec *s, TValue *base, int rank)
{
	SVal *d = spec_sv_new(s, SV_DESC);
	d->v = base;
	d->i = rank;
	d->dtype = base->type.elem;
	d->nitems = 3 * rank;
	d->items = arena_alloc(s->a, sizeof(SVal *) * (size_t)(3 * rank + 1));
	return d;
}

static bool power_of_two(int64_t x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

/* ---- descriptor arguments ---- */

/* Parses "tensordesc<T[B0,B1,...]>". */
static bool parse_desc_type(const char *ty, DType *elem, int *rank, int64_t *block)
{
	if (strncmp(ty, "tensordesc<", 11))
		return false;
	const char *p = ty + 11, *br = strchr(p, '[');
	if (!br || br == p || br - p >= 16)
		return false;
	char name[16];
	memcpy(name, p, (size_t)(br - p));
	name[br - p] = '\0';
	if (!dtype_parse(name, elem) || *elem == DT_PTR)
		return false;
	p = br + 1;
	*rank = 0;
	for (;;) {
		char *end;
		long long v = strtoll(p, &end, 10);
		if (end == p || *rank == TC_MAX_RANK)
			return false;
		block[(*rank)++] = v;
		p = end;
		if (*p == ',') {
			p++;
			continue;
		}
		return p[0] == ']' && p[1] == '>' && p[2] == '\0';
	}
}

bool spec_desc_arg(Spec *s, const Node *param, const char *ty)
{
	if (strncmp(ty, "tensordesc", 10))
		return false;
	DType elem;
	int rank;
	int64_t block[TC_MAX_RANK];
	if (!parse_desc_type(ty, &elem, &rank, block))
		spec_error(s, param, "bad descriptor type '%s' for parameter '%s' (expected tensordesc<fp16[64,64]>, "
			   "at most %d dims)", ty, param->name, TC_MAX_RANK);
	Type pt = {.dtype = DT_PTR, .elem = elem};
	SVal *d = new_desc(s, tir_arg(&s->b, param->name, pt), rank);
	Type i32 = {.dtype = DT_I32}, i64 = {.dtype = DT_I64};
	for (int k = 0; k < rank; k++)
		desc_shape(d)[k] = spec_sv_value(s, param, tir_arg(&s->b, arena_printf(s->a, "%s_shape%d", param->name, k), i32));
	/* the host's descriptor (cuTensorMapEncodeTiled, Triton's TensorDescriptor)
	 * has its strides in multiples of 16 bytes: said as tl.multiple_of, so
	 * rows of the block are 16-byte aligned for the copies */
	int64_t row_align[TC_MAX_RANK] = {0};
	row_align[0] = dtype_bytes(elem) < 16 ? 16 / dtype_bytes(elem) : 1;
	for (int k = 0; k < rank; k++) {
		if (k == rank - 1) {
			desc_strides(d)[k] = spec_sv_int(s, 1);
			continue;
		}
		TValue *st = tir_arg(&s->b, arena_printf(s->a, "%s_stride%d", param->name, k), i64);
		desc_strides(d)[k] = spec_sv_value(s, param, tir_hint(&s->b, st, HINT_MULTIPLE_OF, row_align));
	}
	for (int k = 0; k < rank; k++) {
		if (!power_of_two(block[k]))
			spec_error(s, param, "a descriptor's block extents must be powers of two; %lld is not",
				   (long long)block[k]);
		desc_block(d)[k] = spec_sv_int(s, block[k]);
	}
	d->str = param->name;   /* made on the host: its loads may use a tensor map */
	spec_bind(s, param->name, d);
	return true;
}

/* ---- tl.make_tensor_descriptor ---- */

/* A shape, strides or offsets argument: a list or tuple of `rank` numbers
 * or scalars (rank < 0: any length, returned in *rank). */
static SVal **list_arg(Spec *s, const Node *call, int pos, const char *kw, int *rank)
{
	SVal *v = spec_need_arg(s, call, pos, kw);
	if (v->kind != SV_TUPLE)
		spec_error(s, call, "'%s' must be a list or tuple", kw);
	if (*rank >= 0 && v->nitems != *rank)
		spec_error(s, call, "'%s' has %d entries; the descriptor has %d dims", kw, v->nitems, *rank);
	*rank = v->nitems;
	for (int i = 0; i < v->nitems; i++) {
		SVal *e = v->items[i];
		if (!spec_is_const(e) && !(e->kind == SV_VALUE && e->v->type.rank == 0 && !dtype_is_float(e->v->type.dtype) &&
				      e->v->type.dtype != DT_PTR))
			spec_error(s, call, "entry %d of '%s' must be an integer or an integer scalar", i, kw);
		if (e->kind == SV_FLOAT)
			spec_error(s, call, "entry %d of '%s' must be an integer", i, kw);
	}
	return v->items;
}

static SVal *make_descriptor(Spec *s, const Node *call)
{
	SVal *base = spec_need_arg(s, call, 0, "base");
	if (base->kind != SV_VALUE || base->v->type.dtype != DT_PTR || base->v->type.rank != 0)
		spec_error(s, call, "tl.make_tensor_descriptor needs a pointer as its base");
	int rank = -1;
	SVal **shape = list_arg(s, call, 1, "shape", &rank);
	if (rank < 1 || rank > TC_MAX_RANK)
		spec_error(s, call, "a descriptor has 1 to %d dims; this one has %d", TC_MAX_RANK, rank);
	SVal **strides = list_arg(s, call, 2, "strides", &rank);
	SVal **block = list_arg(s, call, 3, "block_shape", &rank);
	SVal *pad = spec_arg(s, call, 4, "padding_option");
	if (pad && !(pad->kind == SV_STR && (!strcmp(pad->str, "zero") || !*pad->str)))
		spec_error(s, call, "only padding_option=\"zero\" is supported");
	SVal *last = strides[rank - 1];
	if (last->kind == SV_INT && last->i != 1)
		spec_error(s, call, "a descriptor's last stride must be 1");
	/* Triton's contract for a descriptor (the copy engine's): the base
	 * 16-byte aligned, the strides but the last multiples of 16 bytes.
	 * Said as tl.multiple_of, so that the block's rows are 16-byte copies
	 * where the strides are run-time values (tutorial 08's, loaded from
	 * memory); a fact known besides it stays (axis.c keeps the larger). */
	int esize = dtype_bytes(base->v->type.elem);
	int64_t align[TC_MAX_RANK] = {16};
	SVal *d = new_desc(s, tir_hint(&s->b, base->v, HINT_MULTIPLE_OF, align), rank);
	align[0] = esize > 0 && esize < 16 ? 16 / esize : 1;
	for (int k = 0; k < rank; k++) {
		desc_shape(d)[k] = shape[k];
		SVal *st = strides[k];
		if (k < rank - 1 && st->kind == SV_VALUE && st->v->type.rank == 0 && !dtype_is_float(st->v->type.dtype) && st->v->type.dtype != DT_PTR)
			st = spec_sv_value(s, call, tir_hint(&s->b, st->v, HINT_MULTIPLE_OF, align));
		desc_strides(d)[k] = st;
		int64_t b = spec_const_int(s, call, block[k], "a block extent");
		if (!power_of_two(b))
			spec_error(s, call, "a descriptor's block extents must be powers of two; %lld is not", (long long)b);
		desc_block(d)[k] = block[k];
	}
	return d;
}

/* ---- load and store ---- */

/* The pointer tile and the in-bounds mask of the block at `offsets`. */
static void block_addresses(Spec *s, const Node *call, SVal *d, SVal **offsets, TValue **ptr, TValue **mask)
{
	int rank = (int)d->i;
	SVal *off = NULL, *m = NULL;
	for (int k = 0; k < rank; k++) {
		int extent = (int)desc_block(d)[k]->i;
		TValue *idx = tir_arange(&s->b, 0, extent);
		for (int j = 0; j < rank; j++)
			if (j != k)
				idx = spec_checked(s, call, tir_expand(&s->b, idx, j));
		SVal *x = spec_eval_binary(s, call, OP_ADD, spec_sv_value(s, call, idx), offsets[k]);
		SVal *in;
		if (offsets[k]->kind == SV_INT && offsets[k]->i >= 0) {
			in = spec_eval_compare(s, call, OP_LT, x, desc_shape(d)[k]);
		} else {
			/* 0 <= x < shape as one unsigned compare: a descriptor's shape
			 * is not negative (Triton's contract), a negative x is past it */
			TValue *xv = spec_to_value(s, call, x), *sv = spec_to_value(s, call, desc_shape(d)[k]);
			DType u = xv->type.dtype == DT_I64 || sv->type.dtype == DT_I64 ? DT_U64 : DT_U32;
			in = spec_eval_compare(s, call, OP_LT, spec_sv_value(s, call, tir_cast(&s->b, xv, u)),
					       spec_sv_value(s, call, tir_cast(&s->b, sv, u)));
		}
		m = m ? spec_eval_binary(s, call, OP_BITAND, m, in) : in;
		SVal *st = desc_strides(d)[k];
		SVal *term = st->kind == SV_INT && st->i == 1 ? x : spec_eval_binary(s, call, OP_MUL, x, st);
		off = off ? spec_eval_binary(s, call, OP_ADD, off, term) : term;
	}
	*ptr = spec_to_value(s, call, spec_eval_binary(s, call, OP_ADD, spec_sv_value(s, call, d->v), off));
	*mask = spec_to_value(s, call, m);
}

static SVal **offsets_arg(Spec *s, const Node *call, int pos, SVal *d)
{
	int rank = (int)d->i;
	return list_arg(s, call, pos, "offsets", &rank);
}

/* The kernel argument behind v, through hints (tl.multiple_of and the
 * like say something of the value, not a new one), or NULL. */
static const TValue *arg_under(const TValue *v)
{
	while (v && v->op == TOP_HINT)
		v = v->args[0];
	return v && v->op == TOP_ARG ? v : NULL;
}

/* The arguments behind a descriptor's load, and its offsets: what a
 * target with a bulk tensor copy engine reads instead (TDescLoad), where
 * the host can encode the tensor map from the kernel's arguments alone:
 * a descriptor argument, or one made in the kernel (tutorial 09's) from
 * a pointer argument, extents and strides that are arguments, and a last
 * stride of 1. Made from anything else (pointers loaded from memory,
 * tutorial 08's), its blocks are pointer loads. */
static const TDescLoad *host_load(Spec *s, const Node *call, SVal *d, SVal **offsets)
{
	const TValue *base = arg_under(d->v);
	if (!base)
		return NULL;
	TDescLoad *r = arena_alloc(s->a, sizeof *r);
	memset(r, 0, sizeof *r);
	r->base = base;
	r->rank = (int)d->i;
	for (int k = 0; k < r->rank; k++) {
		SVal *shv = desc_shape(d)[k], *stv = desc_strides(d)[k];
		const TValue *sh = shv->kind == SV_VALUE ? arg_under(shv->v) : NULL;
		const TValue *st = stv->kind == SV_VALUE ? arg_under(stv->v) : NULL;
		if (!sh || (k < r->rank - 1 ? !st : !(stv->kind == SV_INT && stv->i == 1)))
			return NULL;
		r->shape[k] = sh;
		r->stride[k] = k < r->rank - 1 ? st : NULL;
		r->block[k] = desc_block(d)[k]->i;
		if (offsets[k]->kind == SV_INT)
			r->offset_const[k] = offsets[k]->i;
		else if (offsets[k]->kind == SV_VALUE && offsets[k]->v->type.rank == 0)
			r->offset[k] = offsets[k]->v;
		else
			return NULL;
	}
	(void)call;
	return r;
}

static SVal *desc_load(Spec *s, const Node *call, SVal *d, int first)
{
	SVal **offsets = offsets_arg(s, call, first, d);
	TValue *ptr, *mask;
	block_addresses(s, call, d, offsets, &ptr, &mask);
	TValue *zero = dtype_is_float(d->dtype) ? tir_const_float(&s->b, d->dtype, 0) : tir_const_int(&s->b, d->dtype, 0);
	TValue *v = tir_load(&s->b, ptr, mask, zero, EVICT_NORMAL);
	if (v && v->op == TOP_LOAD)
		v->desc = host_load(s, call, d, offsets);
	return spec_sv_value(s, call, v);
}

static SVal *desc_store(Spec *s, const Node *call, SVal *d, int first)
{
	SVal **offsets = offsets_arg(s, call, first, d);
	SVal *val = spec_need_arg(s, call, first + 1, "value");
	TValue *v = spec_materialize(s, call, val, d->dtype);
	int rank = (int)d->i;
	bool same = v->type.rank == rank || v->type.rank == 0;
	for (int k = 0; same && v->type.rank && k < rank; k++)
		same = v->type.shape[k] == desc_block(d)[k]->i;
	if (!same)
		spec_error(s, call, "the value stored has not the descriptor's block shape");
	if (v->type.dtype != d->dtype)
		v = spec_checked(s, call, tir_cast(&s->b, v, d->dtype));
	TValue *ptr, *mask;
	block_addresses(s, call, d, offsets, &ptr, &mask);
	spec_checked(s, call, tir_store(&s->b, ptr, v, mask));
	return spec_sv_new(s, SV_NONE);
}

SVal *spec_desc_method(Spec *s, const Node *call, SVal *desc, const char *fn)
{
	if (!strcmp(fn, "load"))
		return desc_load(s, call, desc, 0);
	if (!strcmp(fn, "store"))
		return desc_store(s, call, desc, 0);
	spec_error(s, call, "unsupported tensor descriptor method '.%s'", fn);
}

SVal *spec_call_desc(Spec *s, const Node *call, const char *fn)
{
	if (!strcmp(fn, "make_tensor_descriptor"))
		return make_descriptor(s, call);
	if (!strcmp(fn, "load_tensor_descriptor") || !strcmp(fn, "store_tensor_descriptor")) {
		SVal *d = spec_need_arg(s, call, 0, "desc");
		if (d->kind != SV_DESC)
			spec_error(s, call, "tl.%s needs a tensor descriptor", fn);
		return fn[0] == 'l' ? desc_load(s, call, d, 1) : desc_store(s, call, d, 1);
	}
	return NULL;
}

SVal *spec_desc_attr(Spec *s, const Node *n, SVal *desc, const char *name)
{
	int rank = (int)desc->i;
	if (!strcmp(name, "shape"))
		return spec_sv_tuple(s, rank, desc_shape(desc));
	if (!strcmp(name, "strides"))
		return spec_sv_tuple(s, rank, desc_strides(desc));
	if (!strcmp(name, "block_shape"))
		return spec_sv_tuple(s, rank, desc_block(desc));
	if (!strcmp(name, "dtype")) {
		SVal *v = spec_sv_new(s, SV_DTYPE);
		v->dtype = desc->dtype;
		return v;
	}
	(void)n;
	return NULL;
}
