/* axis.c: what is known of integer and pointer tiles' values, as Triton's
 * axis analysis knows it, so the lowering can choose 16-byte accesses.
 *
 * For each dimension: contiguity (runs of consecutive values), constancy
 * (runs of equal values) and divisibility (the largest power of two known
 * to divide the first value of each run; bytes for pointers). The rules are
 * Triton's, simplified to the ops the tile IR has.
 *
 * Blocks: a loop's induction variable is a scalar divisible by what divides
 * both its start and its step; its carried values start from their inits'
 * info and are joined (gcd per dim) with what the body yields until nothing
 * changes, so what holds is what holds on every iteration (after 32 rounds
 * without a fixpoint they fall to unknown). An if's results join its two
 * yields. tl.max_contiguous / max_constancy (TOP_HINT) replace what is
 * known, as Triton's attributes do; tl.multiple_of raises the divisibility
 * to its value where less is known (a larger known one stays: both hold). */
#include "ir/tir.h"

#include <stdlib.h>

#include <string.h>

#define DIV_MAX ((int64_t)1 << 30)

const AxisInfo tir_axis_none;

/* The analysis of one kernel: its arguments' divisibility, and a hash set
 * of the distinct AxisInfos given out (a long kernel has a few dozen for
 * hundreds of thousands of values). */
typedef struct Axes {
	Arena *arena;
	const int64_t *arg_div;
	const AxisInfo **set;      /* open addressing; cap a power of two */
	size_t cap, n;
	const AxisInfo *last;      /* the last one given out (the next value's often) */
} Axes;

static size_t axis_hash(const AxisInfo *a)
{
	uint64_t h = HASH_SEED;
	for (int d = 0; d < TC_MAX_RANK; d++) {
		h = (h ^ ((uint64_t)(uint32_t)a->contiguity[d] << 32 | (uint32_t)a->constancy[d])) * 0x100000001b3ull;
		h = (h ^ (uint64_t)a->divisibility[d]) * 0x100000001b3ull;
		h ^= h >> 29;
	}
	return (size_t)h;
}

/* The shared copy of *a. */
static const AxisInfo *intern(Axes *x, const AxisInfo *a)
{
	if (x->last && !memcmp(x->last, a, sizeof *a))
		return x->last;
	if (2 * (x->n + 1) > x->cap) {
		const AxisInfo **old = x->set;
		size_t n = x->cap;
		x->cap = n ? 2 * n : 64;
		x->set = base_calloc(x->cap, sizeof *x->set);
		for (size_t i = 0; i < n; i++)
			if (old[i]) {
				size_t h = axis_hash(old[i]) & (x->cap - 1);
				while (x->set[h])
					h = (h + 1) & (x->cap - 1);
				x->set[h] = old[i];
			}
		free(old);
	}
	size_t h = axis_hash(a) & (x->cap - 1);
	for (; x->set[h]; h = (h + 1) & (x->cap - 1))
		if (!memcmp(x->set[h], a, sizeof *a))
			return x->last = x->set[h];
	AxisInfo *c = arena_alloc(x->arena, sizeof *c);
	*c = *a;
	x->set[h] = c;
	x->n++;
	return x->last = c;
}

/* Whether `x` holds consecutive values along a dim other than d. */
static bool moving_elsewhere(const AxisInfo *x, int rank, int d)
{
	for (int e = 0; e < rank; e++)
		if (e != d && x->contiguity[e] > 1)
			return true;
	return false;
}

int64_t tir_gcd(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static int64_t pow2_factor(int64_t c)
{
	if (c == 0)
		return DIV_MAX;
	int64_t f = c & -c;
	return f < 0 || f > DIV_MAX ? DIV_MAX : f;
}

static void set_scalar(AxisInfo *a, const Type *t, int64_t div)
{
	for (int d = 0; d < TC_MAX_RANK; d++) {
		a->contiguity[d] = 1;
		a->constancy[d] = d < t->rank ? t->shape[d] : 1;
		a->divisibility[d] = div;
	}
}

static void set_unknown(AxisInfo *a)
{
	for (int d = 0; d < TC_MAX_RANK; d++) {
		a->contiguity[d] = 1;
		a->constancy[d] = 1;
		a->divisibility[d] = 1;
	}
}

static void infer_block(Axes *x, TBlock *b);

/* v's info, unknown */
static void give_unknown(Axes *x, TValue *v)
{
	AxisInfo u;
	set_unknown(&u);
	v->axis = intern(x, &u);
}

static void join(AxisInfo *r, const AxisInfo *a, const AxisInfo *b)
{
	for (int d = 0; d < TC_MAX_RANK; d++) {
		r->contiguity[d] = (int)tir_gcd(a->contiguity[d], b->contiguity[d]);
		r->constancy[d] = (int)tir_gcd(a->constancy[d], b->constancy[d]);
		r->divisibility[d] = tir_gcd(a->divisibility[d], b->divisibility[d]);
	}
}

static bool axis_equal(const AxisInfo *a, const AxisInfo *b)
{
	for (int d = 0; d < TC_MAX_RANK; d++)
		if (a->contiguity[d] != b->contiguity[d] || a->constancy[d] != b->constancy[d] ||
		    a->divisibility[d] != b->divisibility[d])
			return false;
	return true;
}

/* A loop: params from the inits, then joined with the yields to a fixpoint. */
/* An integer constant, splat or broadcast: its value in *c. */
static bool spec_const_int(const TValue *x, int64_t *c)
{
	while (x->op == TOP_SPLAT || x->op == TOP_BROADCAST)
		x = x->args[0];
	if (x->op != TOP_CONST || dtype_is_float(x->type.dtype))
		return false;
	*c = x->iconst;
	return true;
}

/* The integer constant 1, splat or broadcast. */
static bool is_one(const TValue *x)
{
	while (x->op == TOP_SPLAT || x->op == TOP_BROADCAST)
		x = x->args[0];
	return x->op == TOP_CONST && !dtype_is_float(x->type.dtype) && x->iconst == 1;
}

/* A loop's carried values (params from `p0` on, initial values args from
 * `a0` on): a fixpoint of what holds on entry and after each iteration. */
static void infer_carried(Axes *x, TValue *v, int p0, int a0)
{
	TBlock *body = v->body;
	int n = v->nargs - a0;
	for (int i = 0; i < n; i++)
		body->params[i + p0]->axis = v->args[i + a0]->axis;
	for (int round = 0;; round++) {
		infer_block(x, body);
		const TValue *y = body->last;
		bool changed = false;
		for (int i = 0; y && y->op == TOP_YIELD && i < n; i++) {
			AxisInfo j;
			join(&j, body->params[i + p0]->axis, y->args[i]->axis);
			if (!axis_equal(&j, body->params[i + p0]->axis)) {
				body->params[i + p0]->axis = intern(x, &j);
				changed = true;
			}
		}
		if (!changed)
			return;
		if (round == 32) {
			for (int i = 0; i < n; i++)
				give_unknown(x, body->params[i + p0]);
			infer_block(x, body);
			return;
		}
	}
}

static void infer_for(Axes *x, TValue *v)
{
	TBlock *body = v->body;
	int64_t div = tir_gcd(v->args[0]->axis->divisibility[0], v->args[2]->axis->divisibility[0]);
	AxisInfo iv = *body->params[0]->axis;
	set_scalar(&iv, &body->params[0]->type, div);
	body->params[0]->axis = intern(x, &iv);
	infer_carried(x, v, 1, 3);
}

static void infer_hint(TValue *v, AxisInfo *r)
{
	*r = *v->args[0]->axis;
	for (int d = 0; d < TC_MAX_RANK; d++) {
		int64_t h = v->hint[d];
		if (v->aux == HINT_MULTIPLE_OF)   /* both are facts: the larger holds */
			r->divisibility[d] = h > r->divisibility[d] ? h : r->divisibility[d];
		else if (v->aux == HINT_MAX_CONTIGUOUS)
			r->contiguity[d] = (int)h;
		else
			r->constancy[d] = (int)h;
	}
}

/* Computes v's info into *r (which holds what it had). */
static void infer_into(Axes *x, TValue *v, AxisInfo *r)
{
	const int64_t *arg_div = x->arg_div;
	const AxisInfo *a = v->nargs > 0 ? v->args[0]->axis : NULL;
	const AxisInfo *b = v->nargs > 1 ? v->args[1]->axis : NULL;
	int rank = v->type.rank > 0 ? v->type.rank : 1;   /* a scalar's facts sit in dim 0, as set_scalar puts them */
	switch (v->op) {
	case TOP_ARG:
		set_scalar(r, &v->type, arg_div ? arg_div[v->iconst] : 1);
		return;
	case TOP_CONST:
		set_scalar(r, &v->type, dtype_is_float(v->type.dtype) ? 1 : pow2_factor(v->iconst));
		return;
	case TOP_PROGRAM_ID:
	case TOP_NUM_PROGRAMS:
		set_scalar(r, &v->type, 1);
		return;
	case TOP_ARANGE:
		set_unknown(r);
		r->contiguity[0] = v->type.shape[0];
		r->divisibility[0] = pow2_factor(v->iconst);
		return;
	case TOP_SPLAT:
		set_scalar(r, &v->type, a->divisibility[0]);
		return;
	case TOP_EXPAND: {
		/* along the new dim every element is a run of its own: what
		 * divides them all, a run [x, x+1, ...] counting 1 (Triton's rule) */
		int axis = v->aux;
		int64_t every = a->divisibility[0];
		for (int d = 0; d < v->args[0]->type.rank; d++)
			every = tir_gcd(every, a->contiguity[d] > 1 ? 1 : a->divisibility[d]);
		for (int d = rank - 1; d >= 0; d--) {
			int s = d < axis ? d : d > axis ? d - 1 : -1;
			r->contiguity[d] = s < 0 ? 1 : a->contiguity[s];
			r->constancy[d] = s < 0 ? 1 : a->constancy[s];
			r->divisibility[d] = s < 0 ? every : a->divisibility[s];
		}
		return;
	}
	case TOP_BROADCAST:
		*r = *a;
		for (int d = 0; d < rank; d++) {
			if (v->args[0]->type.shape[d] == 1 && v->type.shape[d] != 1) {
				r->constancy[d] = v->type.shape[d];
				r->contiguity[d] = 1;
			}
		}
		return;
	case TOP_TRANS:   /* what holds along operand dim perm[d] holds along d */
		*r = *a;
		for (int d = 0; d < rank; d++) {
			r->contiguity[d] = a->contiguity[v->perm[d]];
			r->constancy[d] = a->constancy[v->perm[d]];
			r->divisibility[d] = a->divisibility[v->perm[d]];
		}
		return;
	case TOP_CAST:
	case TOP_CONVERT:
		*r = *a;
		return;
	case TOP_BITCAST:   /* a pointer cast keeps its addresses: their runs and alignment (bytes) */
		set_unknown(r);
		for (int d = 0; d < rank && v->type.dtype == DT_PTR; d++) {
			r->constancy[d] = a->constancy[d];
			r->divisibility[d] = a->divisibility[d];
		}
		return;
	case TOP_ADD:
	case TOP_SUB:
	case TOP_PTR_ADD: {
		int64_t scale = v->op == TOP_PTR_ADD ? dtype_bytes(v->type.elem) : 1;
		for (int d = 0; d < rank; d++) {
			int64_t c1 = tir_gcd(a->contiguity[d], b->constancy[d]);
			int64_t c2 = v->op == TOP_SUB ? 1 : tir_gcd(a->constancy[d], b->contiguity[d]);
			r->contiguity[d] = (int)(c1 > c2 ? c1 : c2);
			r->constancy[d] = (int)tir_gcd(a->constancy[d], b->constancy[d]);
			int64_t bd = b->divisibility[d] * scale;
			r->divisibility[d] = tir_gcd(a->divisibility[d], bd > DIV_MAX ? DIV_MAX : bd);
		}
		return;
	}
	case TOP_MUL:
		if (is_one(v->args[0]) || is_one(v->args[1])) {   /* x * 1 is x, as Triton's analysis knows */
			*r = is_one(v->args[0]) ? *b : *a;
			return;
		}
		for (int d = 0; d < rank; d++) {
			/* a run [x, x+1, ...] times anything: only its first element
			 * is known divisible (Triton's rule), so its divisor counts 1 */
			int64_t da = a->contiguity[d] > 1 ? 1 : a->divisibility[d];
			int64_t db = b->contiguity[d] > 1 ? 1 : b->divisibility[d];
			int64_t m = da * db;
			r->contiguity[d] = 1;
			r->constancy[d] = (int)tir_gcd(a->constancy[d], b->constancy[d]);
			r->divisibility[d] = m > DIV_MAX || m <= 0 ? DIV_MAX : m;
		}
		return;
	case TOP_CMP:
		/* x < n (or x >= n) with x contiguous and n constant: the result
		 * changes at most where n falls, which divisibility bounds. Not so
		 * for ==, != (x % 2 == 0 alternates), <= and > (they change after
		 * n, inside the run that starts there), as in Triton's analysis. */
		for (int d = 0; d < rank; d++) {
			int64_t run = tir_gcd(a->constancy[d], b->constancy[d]);
			if ((v->aux == CMP_LT || v->aux == CMP_GE) && b->constancy[d] > 1 && a->contiguity[d] > 1) {
				/* an operand counting up along another dim (rows[:, None]
				 * against cols[None, :]) starts its runs along d at
				 * consecutive values: their divisibility is 1, whatever the
				 * expand_dims of rows carried (Triton's expand_dims says 1) */
				int64_t c = tir_gcd(moving_elsewhere(a, rank, d) ? 1 : a->divisibility[d],
						    moving_elsewhere(b, rank, d) ? 1 : b->divisibility[d]);
				c = c < a->contiguity[d] ? c : a->contiguity[d];
				run = c > run ? c : run;
			}
			r->constancy[d] = (int)run;
			r->contiguity[d] = 1;
			r->divisibility[d] = 1;
		}
		return;
	case TOP_AND:
	case TOP_OR:
	case TOP_WHERE:
		for (int d = 0; d < rank; d++) {
			const AxisInfo *c = v->op == TOP_WHERE ? v->args[2]->axis : b;
			r->constancy[d] = (int)tir_gcd(a->constancy[d], c->constancy[d]);
			if (v->op == TOP_WHERE)
				r->constancy[d] = (int)tir_gcd(r->constancy[d], b->constancy[d]);
			r->contiguity[d] = 1;
			r->divisibility[d] = 1;
		}
		return;
	case TOP_IDIV:
	case TOP_MOD: {
		/* x // c and x % c with c a positive constant: an aligned run of
		 * consecutive x (contiguity, divisibility of its start) that c's
		 * multiples do not cut gives one quotient and consecutive
		 * remainders. Index arithmetic is not negative (Triton's analysis
		 * assumes the same). */
		int64_t c;
		if (v->op == TOP_MOD && !spec_const_int(v->args[1], &c)) {
			/* x % n, n a run-time value constant along d (a splat of a
			 * scalar argument): n's known divisor plays c's part, so
			 * tutorial 03's (pid_m * BM + arange) % M stays contiguous
			 * in runs of what divides M (Triton's rule, gcd of the
			 * run with n's divisibility) */
			for (int d = 0; d < rank; d++) {
				int64_t run = tir_gcd(tir_gcd(a->contiguity[d], b->divisibility[d]), a->divisibility[d]);
				run = tir_gcd(run, b->constancy[d]);
				r->constancy[d] = (int)tir_gcd(a->constancy[d], b->constancy[d]);
				r->contiguity[d] = (int)run;
				r->divisibility[d] = tir_gcd(a->divisibility[d], b->divisibility[d]);
			}
			return;
		}
		if (!spec_const_int(v->args[1], &c) || c <= 0) {
			set_unknown(r);
			for (int d = 0; d < rank; d++)
				r->constancy[d] = (int)tir_gcd(a->constancy[d], b->constancy[d]);
			return;
		}
		for (int d = 0; d < rank; d++) {
			int64_t run = tir_gcd(tir_gcd(a->contiguity[d], c), a->divisibility[d]);
			if (v->op == TOP_IDIV) {
				r->constancy[d] = (int)(run > a->constancy[d] ? run : a->constancy[d]);
				r->contiguity[d] = 1;
				r->divisibility[d] = 1;
			} else {
				r->constancy[d] = a->constancy[d];
				r->contiguity[d] = (int)run;
				r->divisibility[d] = tir_gcd(a->divisibility[d], c);
			}
		}
		return;
	}
	case TOP_DIV:
	case TOP_FMOD:
	case TOP_XOR:
	case TOP_SHL:
	case TOP_SHR:
	case TOP_NEG:
	case TOP_NOT:
	case TOP_MATH:
	case TOP_MAXIMUM:
	case TOP_MINIMUM:
	case TOP_PHILOX:
		/* any element-wise function: equal operands give equal results */
		set_unknown(r);
		for (int d = 0; d < rank; d++)
			for (int i = 0; i < v->nargs; i++)
				r->constancy[d] = i ? (int)tir_gcd(r->constancy[d], v->args[i]->axis->constancy[d])
						    : v->args[i]->axis->constancy[d];
		return;
	case TOP_LOAD:
		/* equal addresses (and masks, and fill values) load equal values */
		for (int d = 0; d < rank; d++) {
			int64_t k = a->constancy[d];
			for (int i = 1; i < v->nargs; i++)
				k = tir_gcd(k, v->args[i]->axis->constancy[d]);
			r->constancy[d] = (int)k;
			r->contiguity[d] = 1;
			r->divisibility[d] = 1;
		}
		return;
	case TOP_HINT:
		infer_hint(v, r);
		return;
	case TOP_FOR:
		set_unknown(r);
		infer_for(x, v);
		return;
	case TOP_WHILE:
		set_unknown(r);
		infer_carried(x, v, 0, 0);
		return;
	case TOP_IF:
		set_unknown(r);
		infer_block(x, v->body);
		infer_block(x, v->orelse);
		return;
	case TOP_REDUCE:
	case TOP_SCAN:   /* a reduction's combine block, if it has one, as a scan's */
		set_unknown(r);
		if (!v->body)
			return;
		for (int i = 0; i < v->body->nparams; i++)
			give_unknown(x, v->body->params[i]);
		infer_block(x, v->body);
		return;
	case TOP_RESULT: {
		const TValue *op = v->args[0];
		if (op->op == TOP_FOR)
			*r = *op->body->params[v->aux + 1]->axis;
		else if (op->op == TOP_WHILE)
			*r = *op->body->params[v->aux]->axis;
		else if (op->op == TOP_SCAN || op->op == TOP_REDUCE)
			set_unknown(r);
		else
			join(r, op->body->last->args[v->aux]->axis, op->orelse->last->args[v->aux]->axis);
		return;
	}
	default:
		set_unknown(r);
		return;
	}
}

static void infer_block(Axes *x, TBlock *b)
{
	for (TValue *v = b->first; v; v = v->next) {
		AxisInfo r = *v->axis;
		infer_into(x, v, &r);
		v->axis = intern(x, &r);
	}
}

void tir_axis_analysis(TKernel *k, const int64_t *arg_div)
{
	Axes x = {.arena = k->arena, .arg_div = arg_div};
	infer_block(&x, k->body);
	free(x.set);
}

int tir_vector_width(const TValue *ptr, const TValue *mask, int max_bytes)
{
	return ptr->type.rank ? tir_vector_width_along(ptr, mask, ptr->type.rank - 1, max_bytes) : 1;
}

int tir_vector_width_along(const TValue *ptr, const TValue *mask, int d, int max_bytes)
{
	if (ptr->type.rank == 0)
		return 1;
	int64_t size = dtype_bytes(ptr->type.elem);
	int64_t w = max_bytes / size;
	int64_t c = ptr->axis->contiguity[d];
	int64_t align = ptr->axis->divisibility[d] / size;
	w = w < c ? w : c;
	w = w < align ? w : align;
	if (mask && mask->axis->constancy[d] < w)
		w = mask->axis->constancy[d];
	int v = 1;
	while (v * 2 <= w)
		v *= 2;
	return v;
}
