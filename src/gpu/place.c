/* place.c: which layout ("frame") each tile uses, and which dimension of it
 * each tile dimension uses.
 *
 * Tiles connected by element-wise ops, broadcasts, reductions, loads and
 * stores, loop-carried values and results share one blocked layout, the
 * frame; tl.dot's operands and result are not connected through the dot
 * (it reads its operands through shared memory), so they get frames of
 * their own. A frame's rank is the largest rank of its tiles and its extents
 * are those of the largest ones. Cheap tiles (aranges and arithmetic on
 * them) that one op makes a row and another a column, or that are used
 * both as they are and transposed, are first copied, one copy a use, as
 * Triton rematerializes them.
 * Every dimension of extent > 1 of every tile is placed on one frame
 * dimension of the same extent; dimensions of extent 1 need no place (the
 * tile is collapsed there, Triton's slice layout). Places flow through the
 * ops that connect tiles, in both directions, until nothing changes: a 1-D
 * `tl.arange` that becomes a column by `[:, None]` or the result of a
 * reduction takes them from the tiles it meets. A transpose moves no
 * element: its result dim i lies on the frame dimension its operand's dim
 * perm[i] lies on (the registers, indexed by frame dimensions, are the
 * operand's). The flow starts from tiles of full rank, one at a time in
 * program order: the first that still has a dimension without a place
 * gives it the frame dimension of its own number (or the next free one),
 * and the flow runs again. Without transposes every full-rank tile ends
 * up placed trivially, dim k on frame dim k; with them, the tiles the
 * first one reaches through a transpose are placed transposed.
 *
 * A tile that would need two places at once (a loaded tile added to its
 * own transpose) gets both: the op that meets it in the second place reads
 * a copy of it when it is cheap, else a conversion (TOP_CONVERT, which
 * lower_convert.c lowers through shared memory) that shares no place and
 * no frame with its operand, and placement starts over. Then each frame's
 * dimensions are relabeled so that its last one, along which threads hold
 * consecutive elements, is the one most of its loads and stores can read in
 * wide vectors; a load or store the frame still makes one element at a time,
 * although along another of its dims it could move 16 bytes at a time, gets
 * a frame of its own (its pointers recomputed there) and reaches the other
 * tiles through a conversion, as Triton's coalescing does. */
#include "gpu/lower_ops.h"

#include <stdlib.h>
#include <string.h>

/* The dims of `v` with extent > 1, in order. */
static int wide_dims(const TValue *v, int *dims)
{
	int n = 0;
	for (int k = 0; k < v->type.rank; k++)
		if (v->type.shape[k] > 1)
			dims[n++] = k;
	return n;
}

static bool cheap(const TValue *x, int depth);

/* ---- frames: the connected parts of the kernel ---- */

static int find(Lower *L, int id)
{
	while (L->parent[id] != id)
		id = L->parent[id] = L->parent[L->parent[id]];
	return id;
}

/* Joins the frames of two tiles. Scalars have no layout: a program id or
 * an argument used by tiles of different frames does not join them. */
static void link(Lower *L, const TValue *x, const TValue *y)
{
	if (x->type.rank == 0 || y->type.rank == 0)
		return;
	int a = find(L, x->id), b = find(L, y->id);
	if (a != b)
		L->parent[a] = b;
}

/* Gives dimension `k` of `v` the place `d`; false on a conflict: k has
 * another place, or another dim of v has this one (a tile added to its own
 * transpose). */
static bool set_place(Lower *L, const TValue *v, int k, int d, bool *changed)
{
	int8_t *m = L->vp[v->id].map;
	if (d < 0 || m[k] == d)
		return true;
	if (m[k] >= 0)
		return false;
	for (int j = 0; j < v->type.rank; j++)
		if (m[j] == d)
			return false;
	m[k] = (int8_t)d;
	*changed = true;
	return true;
}

/* Makes the wide dims of `x` and `y` (which must correspond one to one, in
 * order) share places. */
static bool unify_wide(Lower *L, const TValue *x, const TValue *y, bool *changed)
{
	if (L->linking) {
		link(L, x, y);
		return true;
	}
	int dx[TC_MAX_RANK], dy[TC_MAX_RANK];
	int n = wide_dims(x, dx);
	if (wide_dims(y, dy) != n)
		return true;   /* not an alias: nothing to share */
	for (int i = 0; i < n; i++) {
		int px = L->vp[x->id].map[dx[i]], py = L->vp[y->id].map[dy[i]];
		if (!set_place(L, x, dx[i], py, changed) || !set_place(L, y, dy[i], px, changed))
			return false;
	}
	return true;
}

/* Same-shaped operands and results share every place. */
static bool unify_same(Lower *L, const TValue *x, const TValue *y, bool *changed)
{
	if (L->linking) {
		link(L, x, y);
		return true;
	}
	if (x->type.rank != y->type.rank)
		return true;
	for (int k = 0; k < x->type.rank; k++) {
		if (x->type.shape[k] <= 1 || y->type.shape[k] <= 1)
			continue;
		int px = L->vp[x->id].map[k], py = L->vp[y->id].map[k];
		if (!set_place(L, x, k, py, changed) || !set_place(L, y, k, px, changed))
			return false;
	}
	return true;
}

/* A reduction's result has its operand's places without the reduced axis. */
static bool unify_reduce(Lower *L, const TValue *v, bool *changed)
{
	const TValue *x = v->args[0];
	if (L->linking) {   /* a reduction's result, a scalar too, is held in its operand's frame */
		for (int i = 0; i < v->nargs; i++) {
			int a = find(L, v->id), b = find(L, v->args[i]->id);
			if (a != b)
				L->parent[a] = b;
		}
		return true;
	}
	int axis = v->aux2;
	for (int k = 0, j = 0; k < x->type.rank; k++) {
		if (k == axis)
			continue;
		if (x->type.shape[k] > 1) {
			int px = L->vp[x->id].map[k], pv = L->vp[v->id].map[j];
			if (!set_place(L, v, j, px, changed) || !set_place(L, x, k, pv, changed))
				return false;
		}
		j++;
	}
	return true;
}

/* A transpose: result dim i shares its place with operand dim perm[i]. */
static bool unify_trans(Lower *L, const TValue *v, bool *changed)
{
	const TValue *x = v->args[0];
	if (L->linking) {
		link(L, v, x);
		return true;
	}
	for (int i = 0; i < v->type.rank; i++) {
		int k = v->perm[i];
		if (v->type.shape[i] <= 1)
			continue;
		int pv = L->vp[v->id].map[i], px = L->vp[x->id].map[k];
		if (!set_place(L, v, i, px, changed) || !set_place(L, x, k, pv, changed))
			return false;
	}
	return true;
}

/* Where a tile would need two places: `user` reads args[arg] in a place
 * that operand does not have. arg < 0: `user` is a loop's or an if's result
 * whose readers want it elsewhere than the loop or if leaves it. */
typedef struct Cut {
	TValue *user;
	int arg;
} Cut;

static bool cut_at(Cut *cut, const TValue *user, int arg)
{
	cut->user = (TValue *)user;
	cut->arg = arg;
	return false;
}

/* The yield that ends a block. */
static const TValue *yield_of(const TBlock *b)
{
	return b && b->last && b->last->op == TOP_YIELD ? b->last : NULL;
}

/* A loop's carried values, its initial values, what the body yields and
 * the loop's results are one tile each: they share places. */
static bool unify_control(Lower *L, const TValue *v, bool *changed, Cut *cut)
{
	if (v->op == TOP_FOR) {
		const TValue *y = yield_of(v->body);
		for (int i = 0; i + 3 < v->nargs && i + 1 < v->body->nparams; i++) {
			const TValue *param = v->body->params[i + 1];
			if (!unify_same(L, v->args[3 + i], param, changed))
				return cut_at(cut, v, 3 + i);
			if (y && i < y->nargs && !unify_same(L, param, y->args[i], changed))
				return cut_at(cut, y, i);
		}
		return true;
	}
	if (v->op == TOP_WHILE) {
		const TValue *y = yield_of(v->body);
		for (int i = 0; i < v->nargs && i < v->body->nparams; i++) {
			const TValue *param = v->body->params[i];
			if (!unify_same(L, v->args[i], param, changed))
				return cut_at(cut, v, i);
			if (y && i < y->nargs && !unify_same(L, param, y->args[i], changed))
				return cut_at(cut, y, i);
		}
		return true;
	}
	if (v->op == TOP_IF) {
		const TValue *a = yield_of(v->body), *b = yield_of(v->orelse);
		for (int i = 0; a && b && i < a->nargs && i < b->nargs; i++)
			if (!unify_same(L, a->args[i], b->args[i], changed))
				return cut_at(cut, b, i);
		return true;
	}
	/* TOP_RESULT */
	const TValue *op = v->args[0];
	if (op->op == TOP_SCAN || op->op == TOP_REDUCE)   /* shaped as the op's value */
		return unify_same(L, v, op, changed) || cut_at(cut, v, -1);
	const TValue *y = yield_of(op->body);
	bool same = true;
	if (op->op == TOP_FOR)
		same = v->aux + 1 >= op->body->nparams || unify_same(L, v, op->body->params[v->aux + 1], changed);
	else if (op->op == TOP_WHILE)
		same = v->aux >= op->body->nparams || unify_same(L, v, op->body->params[v->aux], changed);
	else
		same = !y || v->aux >= y->nargs || unify_same(L, v, y->args[v->aux], changed);
	return same || cut_at(cut, v, -1);
}

/* Unifies the places `v` shares with its operands; false, with *cut, on
 * a conflict. */
static bool propagate(Lower *L, const TValue *v, bool *changed, Cut *cut)
{
	switch (v->op) {
	case TOP_CONVERT:   /* through shared memory: no place shared, nor a frame */
	case TOP_PRINT:     /* each value printed in its own frame (lower.c) */
		return true;
	case TOP_RESHAPE:   /* one that moves elements goes through shared memory (lower_shape.c) */
		if (!lower_reshape_is_alias(v))
			return true;
		return unify_wide(L, v, v->args[0], changed) || cut_at(cut, v, 0);
	case TOP_EXPAND:
		return unify_wide(L, v, v->args[0], changed) || cut_at(cut, v, 0);
	case TOP_GATHER:   /* placed as its index; the source crosses through shared memory (lower_shape.c) */
		return unify_same(L, v, v->args[1], changed) || cut_at(cut, v, 1);
	case TOP_REDUCE:
		for (int i = 1; i < v->nargs; i++)   /* an index, or more inputs: shaped as the first */
			if (!L->linking && !unify_same(L, v->args[0], v->args[i], changed))
				return cut_at(cut, v, i);
		return unify_reduce(L, v, changed) || cut_at(cut, v, 0);
	case TOP_TRANS:
		return unify_trans(L, v, changed) || cut_at(cut, v, 0);
	case TOP_BROADCAST:
		return unify_same(L, v, v->args[0], changed) || cut_at(cut, v, 0);
	case TOP_STORE:
	case TOP_ASSERT:   /* lowered in its pointer's (condition's) frame, over every element */
		if (L->linking && find(L, v->id) != find(L, v->args[0]->id))
			L->parent[find(L, v->id)] = find(L, v->args[0]->id);
		for (int i = 1; i < v->nargs; i++)
			if (!unify_same(L, v->args[0], v->args[i], changed))
				return cut_at(cut, v, i);
		return true;
	case TOP_FOR:
	case TOP_WHILE:
	case TOP_IF:
	case TOP_RESULT:
		return unify_control(L, v, changed, cut);
	case TOP_CONDITION:   /* a scalar: no place */
		return true;
	case TOP_YIELD:
		return true;
	case TOP_SCAN:   /* the combine's body holds scalars; the results are shaped as the inputs */
		for (int i = 0; i < v->nargs; i++)
			if (!unify_same(L, v, v->args[i], changed))
				return cut_at(cut, v, i);
		return true;
	case TOP_DOT:   /* operands go through shared memory: only the accumulator is the result's */
		return unify_same(L, v, v->args[2], changed) || cut_at(cut, v, 2);
	default:
		for (int i = 0; i < v->nargs; i++)
			if (!unify_same(L, v, v->args[i], changed))
				return cut_at(cut, v, i);
		return true;
	}
}

/* Calls fn on every value of the kernel, of its blocks and of the blocks
 * nested in them (a scan's combine excepted: it works on scalars),
 * parameters first. The placement walks the values a dozen times and more
 * a round, so the order is listed once (L->order, again after a value is
 * inserted) and each walk reads the list: a chase of `next` pointers
 * through the whole IR waits for each value before it finds the next. */
typedef void (*ValueFn)(Lower *L, const TValue *v, void *ctx);

static void list_value(Lower *L, const TValue *v)
{
	if (L->norder == L->order_cap) {   /* grows in the arena: values are only added, so this happens rarely */
		L->order_cap = L->order_cap ? 2 * L->order_cap : 1024;
		const TValue **grown = arena_alloc(L->arena, sizeof *grown * (size_t)L->order_cap);
		if (L->norder)
			memcpy(grown, L->order, sizeof *grown * (size_t)L->norder);
		L->order = grown;
	}
	L->order[L->norder++] = v;
}

static void list_values(Lower *L, const TBlock *b)
{
	for (int i = 0; i < b->nparams; i++)
		list_value(L, b->params[i]);
	for (const TValue *v = b->first; v; v = v->next) {
		list_value(L, v);
		if (v->op == TOP_FOR || v->op == TOP_WHILE || v->op == TOP_IF)
			list_values(L, v->body);
		if (v->op == TOP_IF)
			list_values(L, v->orelse);
	}
}

static void each_value(Lower *L, ValueFn fn, void *ctx)
{
	if (!L->order_ok) {
		L->norder = 0;
		list_values(L, L->tk->body);
		L->order_ok = true;
	}
	for (int i = 0; i < L->norder; i++)
		fn(L, L->order[i], ctx);
}

static void place_error(Lower *L, const TValue *v, const char *what)
{
	char shape[64];
	int n = 0;
	shape[0] = 0;
	for (int k = 0; k < v->type.rank; k++)
		n += snprintf(shape + n, sizeof shape - (size_t)n, "%s%d", k ? "," : "", v->type.shape[k]);
	lower_error(L, v, "a tile of shape [%s] %s", shape, what);
}

/* Places the tiles that no op connects to a placed one: right-aligned, as
 * numpy broadcasting would place them. */
static void place_default(Lower *L, const TValue *v)
{
	int8_t *m = L->vp[v->id].map;
	int rank = L->frames[L->vp[v->id].frame].rank;
	for (int k = 0; k < v->type.rank; k++)
		if (v->type.shape[k] > 1 && m[k] < 0)
			m[k] = (int8_t)(rank - v->type.rank + k);
}

static void check_place(Lower *L, const TValue *v)
{
	const int8_t *m = L->vp[v->id].map;
	const Frame *f = &L->frames[L->vp[v->id].frame];
	unsigned used = 0;
	for (int k = 0; k < v->type.rank; k++) {
		if (v->type.shape[k] <= 1)
			continue;
		int d = m[k];
		if (d < 0 || d >= f->rank || f->shape[d] != v->type.shape[k])
			place_error(L, v, "does not fit the kernel's other tiles");
		if (used & (1u << d))
			place_error(L, v, "spreads two dimensions over one");
		used |= 1u << d;
	}
	L->vp[v->id].present = used;
}

/* The largest rank in each connected part, kept at its root. */
static void measure_part(Lower *L, const TValue *v, void *ctx)
{
	int *rank_of_root = ctx;
	int root = find(L, v->id);
	rank_of_root[root] = imax(rank_of_root[root], v->type.rank);
}

/* Numbers the connected parts that hold tiles as frames; parts of scalars
 * alone share one frame of rank 0. */
static void give_frame(Lower *L, const TValue *v, void *ctx)
{
	int *frame_of_root = ctx, *rank_of_root = frame_of_root + L->nvalues + 1;
	int root = find(L, v->id);
	if (frame_of_root[root] < 0) {
		if (rank_of_root[root] == 0 && L->scalar_frame >= 0) {
			frame_of_root[root] = L->scalar_frame;
		} else {
			if (L->nframes == L->frames_cap) {
				Frame *frames = arena_alloc(L->arena, sizeof *frames * 2 * (size_t)L->frames_cap);
				memcpy(frames, L->frames, sizeof *frames * (size_t)L->frames_cap);
				L->frames = frames;
				L->frames_cap *= 2;
			}
			frame_of_root[root] = L->nframes++;
			if (rank_of_root[root] == 0)
				L->scalar_frame = frame_of_root[root];
		}
	}
	Frame *f = &L->frames[frame_of_root[root]];
	L->vp[v->id].frame = frame_of_root[root];
	f->rank = imax(f->rank, v->type.rank);
}

static void clear_place(Lower *L, const TValue *v, void *ctx)
{
	for (int k = 0; k < TC_MAX_RANK; k++)
		L->vp[v->id].map[k] = -1;
}

/* The first full-rank tile with a wide dimension not yet placed places
 * each such dimension k on frame dim k, or on the next free one when
 * another of its dimensions already lies there; sets *(bool *)seeded. */
static void seed_one(Lower *L, const TValue *v, void *seeded)
{
	int rank = L->frames[L->vp[v->id].frame].rank;
	if (*(bool *)seeded || v->type.rank == 0 || v->type.rank != rank)
		return;
	int8_t *m = L->vp[v->id].map;
	unsigned used = 0;
	bool open = false;
	for (int k = 0; k < rank; k++) {
		if (v->type.shape[k] > 1 && m[k] >= 0)
			used |= 1u << m[k];
		open |= v->type.shape[k] > 1 && m[k] < 0;
	}
	if (!open)
		return;
	for (int k = 0; k < rank; k++) {
		if (v->type.shape[k] <= 1 || m[k] >= 0)
			continue;
		int d = k;
		while (used & (1u << d))   /* fewer dims are placed than the frame has: one is free */
			d = (d + 1) % rank;
		m[k] = (int8_t)d;
		used |= 1u << d;
	}
	*(bool *)seeded = true;
}

/* A frame's extents: those of its full-rank tiles, on the frame dims they
 * are placed on. */
static void measure_shape(Lower *L, const TValue *v, void *ctx)
{
	Frame *f = &L->frames[L->vp[v->id].frame];
	const int8_t *m = L->vp[v->id].map;
	if (v->type.rank != f->rank)
		return;
	for (int k = 0; k < v->type.rank; k++)
		if (v->type.shape[k] > 1 && m[k] >= 0)
			f->shape[m[k]] = imax(f->shape[m[k]], v->type.shape[k]);
}

/* The flow of places: whether a sweep changed one, and the first conflict. */
typedef struct Flow {
	bool changed;
	bool failed;
	Cut cut;
} Flow;

static void propagate_one(Lower *L, const TValue *v, void *ctx)
{
	Flow *f = ctx;
	if (!f->failed && !propagate(L, v, &f->changed, &f->cut))
		f->failed = true;
}

static void finish_one(Lower *L, const TValue *v, void *ctx)
{
	place_default(L, v);
	check_place(L, v);
	if (!lower_pure(v) || (L->uses && L->uses[v->id] > 0))
		L->frames[L->vp[v->id].frame].live = true;
}

/* Places every tile from scratch; false, with *cut, when a tile would
 * need two places. */
static bool place_round(Lower *L, Cut *cut)
{
	size_t n = (size_t)L->nvalues + 1;
	L->vp = arena_alloc(L->arena, sizeof *L->vp * n);
	L->parent = arena_alloc(L->arena, sizeof *L->parent * n);
	/* frame_of_root, then rank_of_root */
	int *frame_of_root = arena_alloc(L->arena, sizeof *frame_of_root * 2 * n);
	for (size_t i = 0; i < n; i++) {
		L->parent[i] = (int)i;
		frame_of_root[i] = -1;
	}
	if (!L->frames_cap) {   /* grown as give_frame numbers parts: most kernels have few */
		L->frames_cap = 16;
		L->frames = arena_alloc(L->arena, sizeof *L->frames * (size_t)L->frames_cap);
	}
	memset(L->frames, 0, sizeof *L->frames * (size_t)L->frames_cap);
	Flow flow = {0};
	L->linking = true;
	each_value(L, propagate_one, &flow);
	L->linking = false;
	each_value(L, measure_part, frame_of_root + n);
	L->nframes = 0;
	L->scalar_frame = -1;
	each_value(L, give_frame, frame_of_root);
	for (int f = 0; f < L->nframes; f++)
		for (int d = 0; d < TC_MAX_RANK; d++)
			L->frames[f].shape[d] = 1;
	each_value(L, clear_place, NULL);
	for (bool seeded = true; seeded;) {
		do {
			flow.changed = false;
			each_value(L, propagate_one, &flow);
		} while (flow.changed && !flow.failed);
		if (flow.failed) {
			*cut = flow.cut;
			return false;
		}
		seeded = false;
		each_value(L, seed_one, &seeded);
	}
	return true;
}

/* ---- rematerialization ---- */

/* Aranges, constants and element-wise arithmetic on them: what a thread can
 * recompute from its coordinates alone. */
static bool cheap(const TValue *x, int depth)
{
	if (x->type.rank == 0)
		return true;
	if (depth > 32)
		return false;
	switch (x->op) {
	case TOP_ARANGE: case TOP_CONST: case TOP_SPLAT: case TOP_BROADCAST: case TOP_EXPAND: case TOP_RESHAPE:
	case TOP_TRANS: case TOP_HINT: case TOP_ADD: case TOP_SUB: case TOP_MUL: case TOP_IDIV: case TOP_MOD: case TOP_AND:
	case TOP_OR: case TOP_XOR: case TOP_SHL: case TOP_SHR: case TOP_CMP: case TOP_WHERE: case TOP_CAST:
	case TOP_NEG: case TOP_NOT: case TOP_MAXIMUM: case TOP_MINIMUM: case TOP_PTR_ADD:
		for (int i = 0; i < x->nargs; i++)
			if (!cheap(x->args[i], depth + 1))
				return false;
		return true;
	default:
		return false;
	}
}

/* Puts `c` in `b` after `prev` (first when prev is NULL). */
static void insert_after(Lower *L, TBlock *b, TValue *prev, TValue *c)
{
	L->order_ok = false;
	c->next = prev ? prev->next : b->first;
	if (prev)
		prev->next = c;
	else
		b->first = c;
	if (b->last == prev)
		b->last = c;
}

/* A copy of cheap tile `x` and of the tiles it is made from (scalars are
 * shared), inserted in `b` after *prev (first when it is NULL). */
static TValue *clone_cheap(Lower *L, TBlock *b, TValue **prev, const TValue *x)
{
	if (x->type.rank == 0)
		return (TValue *)x;
	TValue *c = arena_alloc(L->arena, sizeof *c);
	*c = *x;
	c->id = L->nvalues++;
	c->args = arena_alloc(L->arena, sizeof *c->args * (size_t)(x->nargs + 1));
	for (int i = 0; i < x->nargs; i++)
		c->args[i] = clone_cheap(L, b, prev, x->args[i]);
	insert_after(L, b, *prev, c);
	*prev = c;
	return c;
}

/* Whether cheap tile x, or a tile it is made from, has other users. */
static bool shared_part(const TValue *x, const int *uses, int counted, int depth)
{
	if (x->type.rank == 0 || x->id >= counted || depth > 32)
		return false;
	if (uses[x->id] >= 2)
		return true;
	for (int i = 0; i < x->nargs; i++)
		if (shared_part(x->args[i], uses, counted, depth + 1))
			return true;
	return false;
}

const TValue *lower_stored(const TValue *store)
{
	const TValue *x = store->args[1];
	DType dt = x->type.dtype;
	if (x->op == TOP_CAST && (dt == DT_BF16 || dt == DT_F16) && x->args[0]->type.dtype == DT_F32)
		return x->args[0];
	return x;
}

static void count_uses(const TBlock *b, int *uses)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		for (int i = 0; i < v->nargs; i++)
			uses[(v->op == TOP_STORE && i == 1 ? lower_stored(v) : v->args[i])->id]++;
		count_uses(v->body, uses);
		if (v->op == TOP_IF)
			count_uses(v->orelse, uses);
	}
}

bool lower_carried_read(const Lower *L, const TValue *loop, int i)
{
	if (!L->uses || L->uses[loop->body->params[i + 1]->id] > 0)
		return true;
	for (const TValue *r = loop->next; r && r->op == TOP_RESULT && r->args[0] == loop; r = r->next)
		if (r->aux == i && L->uses[r->id] > 0)
			return true;
	return false;
}

/* Ops whose only effect is their value (tir_pure). */
bool lower_pure(const TValue *v)
{
	return tir_pure(v);
}

static void values_by_id(const TBlock *b, const TValue **byid)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		byid[v->id] = v;
		values_by_id(v->body, byid);
		if (v->op == TOP_IF)
			values_by_id(v->orelse, byid);
	}
}

/* Values nothing reads no longer read their operands, until none is left
 * (a work list: each value dies once). Their use count becomes -1. */
static void drop_dead(Lower *L)
{
	const TValue **byid = base_calloc((size_t)L->nvalues + 1, sizeof *byid);
	values_by_id(L->tk->body, byid);
	Vec work = {0};
	/* a carried value neither its loop's body nor what follows reads (a name
	 * assigned in the loop and read before it only) is not kept: its
	 * initial and yielded values lose that read (lower.c, lower_for) */
	for (int id = 0; id <= L->nvalues; id++) {
		const TValue *v = byid[id];
		if (!v || v->op != TOP_FOR)
			continue;
		const TValue *yield = NULL;
		for (const TValue *x = v->body->first; x; x = x->next)
			yield = x->op == TOP_YIELD ? x : yield;
		for (int i = 0; i + 1 < v->body->nparams && yield && i < yield->nargs; i++) {
			if (lower_carried_read(L, v, i))
				continue;
			L->uses[v->args[3 + i]->id]--;
			L->uses[yield->args[i]->id]--;
		}
	}
	for (int id = 0; id <= L->nvalues; id++)
		if (byid[id] && lower_pure(byid[id]) && L->uses[id] == 0)
			vec_push(&work, (void *)byid[id]);
	while (work.len) {
		const TValue *v = vec_pop(&work);
		if (L->uses[v->id] != 0)
			continue;
		L->uses[v->id] = -1;
		for (int i = 0; i < v->nargs; i++)
			if (--L->uses[v->args[i]->id] == 0 && lower_pure(v->args[i]))
				vec_push(&work, v->args[i]);
	}
	vec_free(&work);
	free(byid);
}

static void remat_block(Lower *L, TBlock *b, const int *uses, int counted)
{
	TValue *prev = NULL;
	for (TValue *v = b->first; v; prev = v, v = v->next) {
		if (v->op == TOP_FOR || v->op == TOP_WHILE || v->op == TOP_IF) {
			remat_block(L, v->body, uses, counted);
			if (v->op == TOP_IF)
				remat_block(L, v->orelse, uses, counted);
		}
		if (v->op != TOP_EXPAND && v->op != TOP_RESHAPE && v->op != TOP_TRANS)
			continue;   /* (the first value of a block too: its copies go first) */
		TValue *x = v->args[0];
		if (x->id >= counted || x->type.rank == 0 || !cheap(x, 0) || !shared_part(x, uses, counted, 0))
			continue;
		v->args[0] = clone_cheap(L, b, &prev, x);
		prev->next = v;
	}
}

/* Values the tile-IR passes marked dead (tir_dce) no longer read their
 * operands; from the last value to the first, so each has lost its readers
 * before it is dropped. */
static void drop_marked(Lower *L, const TBlock *b)
{
	int n = 0;
	for (const TValue *v = b ? b->first : NULL; v; v = v->next)
		n++;
	const TValue **vals = base_calloc((size_t)n + 1, sizeof *vals);
	n = 0;
	for (const TValue *v = b ? b->first : NULL; v; v = v->next)
		vals[n++] = v;
	for (int j = n - 1; j >= 0; j--) {
		const TValue *v = vals[j];
		drop_marked(L, v->body);
		if (v->op == TOP_IF)
			drop_marked(L, v->orelse);
		if (!v->dead || !lower_pure(v) || L->uses[v->id] != 0)
			continue;
		L->uses[v->id] = -1;
		for (int i = 0; i < v->nargs; i++)
			L->uses[v->args[i]->id]--;
	}
	free(vals);
}

/* How many live ops read each value, after values nothing reads are
 * dropped: those tir_dce marked, then those the rematerialization left. */
static void count_live(Lower *L)
{
	L->uses = arena_alloc(L->arena, sizeof *L->uses * (size_t)(L->nvalues + 1));
	count_uses(L->tk->body, L->uses);
	drop_marked(L, L->tk->body);
	drop_dead(L);
}

int lower_remat(Lower *L, TKernel *tk)
{
	L->nvalues = tir_value_count(tk);
	int *uses = base_calloc((size_t)L->nvalues + 1, sizeof *uses);
	count_uses(tk->body, uses);
	remat_block(L, tk->body, uses, L->nvalues);
	free(uses);
	count_live(L);
	return L->nvalues;
}

/* ---- conversions ---- */

/* The block that holds `v`, and in *prev the value before it (NULL: the
 * first); NULL when no block does. */
static TBlock *block_of(TBlock *b, const TValue *v, TValue **prev)
{
	TValue *before = NULL;
	for (TValue *x = b ? b->first : NULL; x; before = x, x = x->next) {
		if (x == v) {
			*prev = before;
			return b;
		}
		TBlock *in = x->op == TOP_FOR || x->op == TOP_WHILE || x->op == TOP_IF ? block_of(x->body, v, prev) : NULL;
		if (!in && x->op == TOP_IF)
			in = block_of(x->orelse, v, prev);
		if (in)
			return in;
	}
	return NULL;
}

/* convert_layout(x), at source line `line`: the same tile in a place of its
 * own, named after x or the tile x transposes or broadcasts. */
static TValue *new_convert(Lower *L, TValue *x, int line)
{
	TValue *c = arena_alloc(L->arena, sizeof *c);
	const TValue *named = x;
	while (!named->name && (named->op == TOP_TRANS || named->op == TOP_BROADCAST || named->op == TOP_EXPAND))
		named = named->args[0];
	c->id = L->nvalues++;
	c->op = TOP_CONVERT;
	c->type = x->type;
	c->name = named->name;
	c->line = line;
	c->args = arena_alloc(L->arena, sizeof *c->args);
	c->args[0] = x;
	c->nargs = 1;
	c->axis = x->axis;
	return c;
}

/* Ops that read `from` read `to` instead; conversions, which read from
 * any place, keep reading `from`. */
static void replace_reads(TBlock *b, const TValue *from, TValue *to)
{
	for (TValue *v = b ? b->first : NULL; v; v = v->next) {
		for (int i = 0; v->op != TOP_CONVERT && i < v->nargs; i++)
			if (v->args[i] == from)
				v->args[i] = to;
		if (v->op == TOP_FOR || v->op == TOP_WHILE || v->op == TOP_IF)
			replace_reads(v->body, from, to);
		if (v->op == TOP_IF)
			replace_reads(v->orelse, from, to);
	}
}

/* Every op that reads `v` reads a conversion of it instead, put right after
 * it (after the last result, when v is one of a loop's or an if's). */
static void convert_readers(Lower *L, TValue *v)
{
	TValue *prev;
	TBlock *b = block_of(L->tk->body, v, &prev);
	TValue *at = v;
	while (v->op == TOP_RESULT && at->next && at->next->op == TOP_RESULT && at->next->args[0] == v->args[0])
		at = at->next;
	TValue *c = new_convert(L, v, v->line);
	insert_after(L, b, at, c);
	replace_reads(L->tk->body, v, c);
}

/* Resolves a conflict: the op reads its own copy of a cheap operand, or a
 * conversion of it. A conversion of a broadcast or expand_dims that only
 * this op reads moves to what it broadcasts, which has fewer elements; a
 * conversion that only this op reads already has a place of its own, and
 * one that others read too is not converted again: its operand is. */
static void cut_edge(Lower *L, Cut cut)
{
	if (cut.arg < 0) {
		convert_readers(L, cut.user);
		return;
	}
	TValue *user = cut.user, *x = user->args[cut.arg], *prev;
	int arg = cut.arg;
	if (x->op == TOP_CONVERT && L->uses[x->id] == 1)
		return;
	if (x->op == TOP_CONVERT)
		x = x->args[0];
	if (cheap(x, 0)) {
		TBlock *b = block_of(L->tk->body, user, &prev);
		user->args[arg] = clone_cheap(L, b, &prev, x);
		return;
	}
	while ((x->op == TOP_BROADCAST || x->op == TOP_EXPAND) && L->uses[x->id] == 1 && x->args[0]->type.rank > 0) {
		user = x;
		arg = 0;
		x = x->args[0];
	}
	TBlock *b = block_of(L->tk->body, user, &prev);
	/* x made outside the loop (or if) that reads it: converted once, right
	 * before that loop, not at every iteration (attention backward's m,
	 * read by the dq loop in its layout) */
	TValue *xprev;
	TBlock *bx = block_of(L->tk->body, x, &xprev);
	if (bx && bx != b)
		for (TValue *a = bx->first, *before = NULL; a; before = a, a = a->next) {
			TValue *ignored;
			bool holds = (a->body && block_of(a->body, user, &ignored)) ||
				     (a->op == TOP_IF && a->orelse && block_of(a->orelse, user, &ignored));
			if (holds) {
				b = bx;
				prev = before;
				break;
			}
		}
	TValue *c = new_convert(L, x, cut.user->line);
	insert_after(L, b, prev, c);
	user->args[arg] = c;
}

/* ---- coalescing: which way each frame runs ---- */

static const TValue *access_mask(const TValue *v)
{
	int at = v->op == TOP_LOAD ? 1 : 2;
	return v->nargs > at ? v->args[at] : NULL;
}

/* The dim of a load's or store's pointer tile along which its addresses run
 * consecutively the longest, more than one element (a later dim wins a
 * tie): the one its lanes should run along. -1 when there is none or the
 * tile spans fewer than two dims. */
static int fastest_dim(const TValue *v)
{
	const TValue *ptr = v->args[0];
	int dims[TC_MAX_RANK], n = wide_dims(ptr, dims), best = -1, run = 1;
	for (int i = n - 1; n >= 2 && i >= 0; i--)
		if (ptr->axis->contiguity[dims[i]] > run) {
			best = dims[i];
			run = ptr->axis->contiguity[dims[i]];
		}
	return best;
}

/* Elements the access can move at once along dim k of its pointer tile. */
static int width_along(Lower *L, const TValue *v, int k)
{
	return tir_vector_width_along(v->args[0], access_mask(v), k, L->target->max_vector_bytes);
}

/* Calls fn on every live load and every store, in program order, with the
 * number of run-time loops around it. */
typedef void (*AccessFn)(Lower *L, TValue *v, int depth, void *ctx);

static void each_access(Lower *L, const TBlock *b, int depth, AccessFn fn, void *ctx)
{
	for (TValue *v = b ? b->first : NULL; v; v = v->next) {
		if (v->op == TOP_FOR || v->op == TOP_WHILE || v->op == TOP_IF)
			each_access(L, v->body, depth + (v->op != TOP_IF), fn, ctx);
		if (v->op == TOP_IF)
			each_access(L, v->orelse, depth, fn, ctx);
		if ((v->op == TOP_LOAD && L->uses[v->id] > 0) || v->op == TOP_STORE)
			fn(L, v, depth, ctx);
	}
}

/* Per frame and frame dim: the weight of the accesses whose fastest dim
 * lies there; one inside a run-time loop outweighs all those outside. */
typedef struct Votes {
	int64_t (*weight)[TC_MAX_RANK];  /* nframes of each */
	bool *fixed;                     /* holds a dot's result, whose matrix layout wants dims in order */
} Votes;

static void vote(Lower *L, TValue *v, int depth, void *ctx)
{
	Votes *votes = ctx;
	int k = fastest_dim(v);
	const ValuePlan *p = &L->vp[v->args[0]->id];
	if (k >= 0 && p->map[k] >= 0)
		votes->weight[p->frame][p->map[k]] += (int64_t)1 << (8 * imin(depth, 6));
}

static void fix_dot_frame(Lower *L, const TValue *v, void *ctx)
{
	if (v->op == TOP_DOT)
		((Votes *)ctx)->fixed[L->vp[v->id].frame] = true;
}

/* Frame dims a and b of frame f trade places in every tile of it. */
typedef struct Swap {
	int frame, a, b;
} Swap;

static void swap_one(Lower *L, const TValue *v, void *ctx)
{
	const Swap *s = ctx;
	int8_t *m = L->vp[v->id].map;
	if (L->vp[v->id].frame != s->frame)
		return;
	for (int k = 0; k < v->type.rank; k++)
		if (m[k] == s->a || m[k] == s->b)
			m[k] = (int8_t)(m[k] == s->a ? s->b : s->a);
}

/* Relabels each frame's dims so that its last one, along which a thread
 * holds consecutive elements, has the most votes; a tie keeps it. */
static void orient_frames(Lower *L)
{
	Votes *votes = arena_alloc(L->arena, sizeof *votes);
	votes->weight = arena_alloc(L->arena, sizeof *votes->weight * (size_t)(L->nframes + 1));
	votes->fixed = arena_alloc(L->arena, sizeof *votes->fixed * (size_t)(L->nframes + 1));
	each_access(L, L->tk->body, 0, vote, votes);
	each_value(L, fix_dot_frame, votes);
	for (int f = 0; f < L->nframes; f++) {
		int last = L->frames[f].rank - 1, best = last;
		for (int d = 0; d < last; d++)
			if (votes->weight[f][d] > votes->weight[f][best])
				best = d;
		if (best != last && !votes->fixed[f]) {
			Swap s = {f, best, last};
			each_value(L, swap_one, &s);
		}
	}
}

/* The bytes of shared memory that a conversion of `x` takes (about). */
static int moved_bytes(const TValue *x)
{
	int n = 1, dims[TC_MAX_RANK], wide = wide_dims(x, dims);
	for (int i = 0; i < wide; i++)
		n *= x->type.shape[dims[i]] + (i == wide - 1 && wide >= 2 ? 1 : 0);
	DType dt = x->type.dtype;
	return n * (dt == DT_F16 || dt == DT_BF16 || dtype_is_fp8(dt) ? 4 : dtype_bytes(dt));
}

/* The first load or store that its frame makes one element at a time
 * (the dim of its pointer along the frame's last one, if any, allows no
 * wider access) although along its fastest dim it could move the target's
 * widest vectors, whose pointer, mask and other value are cheap, and whose
 * tile takes at most a quarter of a block's shared memory. */
static void find_uncoalesced(Lower *L, TValue *v, int depth, void *ctx)
{
	TValue **found = ctx;
	const TValue *ptr = v->args[0];
	int k = fastest_dim(v);
	if (*found || k < 0 || width_along(L, v, k) * dtype_bytes(ptr->type.elem) < L->target->max_vector_bytes)
		return;
	if (moved_bytes(v->op == TOP_LOAD ? v : v->args[1]) > L->target->shared_bytes / 4)
		return;
	const ValuePlan *p = &L->vp[ptr->id];
	int last = L->frames[p->frame].rank - 1;
	for (int j = 0; j < ptr->type.rank; j++)
		if (ptr->type.shape[j] > 1 && p->map[j] == last && width_along(L, v, j) > 1)
			return;
	for (int i = 0; i < v->nargs; i++)
		if (!(v->op == TOP_STORE && i == 1) && !cheap(v->args[i], 0))
			return;
	*found = v;
}

/* Gives load or store `v` a frame of its own: its pointer, mask and other
 * value recomputed right before it, the value it loads (stores) crossing
 * to its readers (from its producer) through a conversion. */
static void split_access(Lower *L, TValue *v)
{
	TValue *prev;
	TBlock *b = block_of(L->tk->body, v, &prev);
	for (int i = 0; i < v->nargs; i++)
		if (!(v->op == TOP_STORE && i == 1))
			v->args[i] = clone_cheap(L, b, &prev, v->args[i]);
	if (v->op == TOP_LOAD)
		convert_readers(L, v);
	else
		cut_edge(L, (Cut){v, 1});
}

/* Rounds of placement before the lowering gives up: each cuts one
 * conflict or splits one access, and a kernel has no more conflicts to
 * cut than operands, so a kernel's own count bounds them (what passes it
 * is a placement that makes no progress: a compiler fault). */
static int max_rounds(const Lower *L)
{
	return 256 + 4 * L->nvalues;
}

/* Whether every tile's wide dims have the extents of the frame dims they
 * lie on (check_place without the error). */
static void fit_one(Lower *L, const TValue *v, void *ctx)
{
	const int8_t *m = L->vp[v->id].map;
	const Frame *f = &L->frames[L->vp[v->id].frame];
	place_default(L, v);
	for (int k = 0; k < v->type.rank; k++)
		if (v->type.shape[k] > 1 && (m[k] < 0 || m[k] >= f->rank || f->shape[m[k]] != v->type.shape[k]))
			*(bool *)ctx = false;
}

/* The broadcasts of a tile that others broadcast to another shape before
 * them (in program order), to be cut from it. */
static void find_two_way(const TBlock *b, const TValue **first, Vec *cuts)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		find_two_way(v->body, first, cuts);
		if (v->op == TOP_IF)
			find_two_way(v->orelse, first, cuts);
		if (v->op != TOP_BROADCAST || v->dead || v->args[0]->type.rank == 0)
			continue;
		const TValue *x = v->args[0], *f = first[x->id];
		if (!f)
			first[x->id] = v;
		else if (f->type.rank != v->type.rank ||
			 memcmp(f->type.shape, v->type.shape, sizeof(int) * (size_t)v->type.rank))
			vec_push(cuts, (void *)v);
	}
}

/* The same over the tiles of each frame (connected part): the broadcasts
 * of any of its tiles to a shape of the same rank other than that of the
 * part's first broadcast (in program order). Attention forward with
 * BLOCK_N < HEAD_DIM: the row maxima `m_ij` broadcast to qk's [BLOCK_M,
 * BLOCK_N] first, then `alpha` (computed from them) and the row sums `l_i`
 * to the accumulator's [BLOCK_M, HEAD_DIM]: those read a copy or a
 * conversion, and the accumulator's part splits from qk's. */
static void find_two_way_parts(Lower *L, const TBlock *b, const TValue **first, Vec *cuts)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		find_two_way_parts(L, v->body, first, cuts);
		if (v->op == TOP_IF)
			find_two_way_parts(L, v->orelse, first, cuts);
		if (v->op != TOP_BROADCAST || v->dead || v->args[0]->type.rank == 0)
			continue;
		int part = L->vp[v->id].frame;
		if (part < 0 || part >= L->nframes)
			continue;
		const TValue *f = first[part];
		if (!f)
			first[part] = v;
		else if (f->type.rank == v->type.rank &&
			 memcmp(f->type.shape, v->type.shape, sizeof(int) * (size_t)v->type.rank))
			vec_push(cuts, (void *)v);
	}
}

/* Tiles of one connected part with two extents along one frame dim: a
 * tile broadcast to BLOCK_N columns in one place and to BLOCK_N / 2 in
 * another (the row maxima `m` of the attention backward's masked and
 * unmasked steps). Each broadcast after the first of another shape reads
 * its own copy (cheap) or a conversion of the tile, which splits the part
 * where it joined; where no tile is broadcast two ways, the broadcasts of
 * the part's tiles are (find_two_way_parts). Kernels that fit are placed
 * as before. */
static bool refit(Lower *L)
{
	bool fits = true;
	each_value(L, measure_shape, NULL);
	each_value(L, fit_one, &fits);
	if (fits || L->refits >= 4)
		return false;
	L->refits++;
	const TValue **first = base_calloc((size_t)L->nvalues + 1, sizeof *first);
	Vec cuts = {0};
	find_two_way(L->tk->body, first, &cuts);
	if (!cuts.len) {   /* no tile broadcast two ways: the broadcasts of one part (find_two_way_parts) */
		free(first);
		first = base_calloc((size_t)L->nframes + 1, sizeof *first);
		find_two_way_parts(L, L->tk->body, first, &cuts);
	}
	for (int i = 0; i < cuts.len; i++)
		cut_edge(L, (Cut){.user = cuts.data[i], .arg = 0});
	bool any = cuts.len > 0;
	vec_free(&cuts);
	free(first);
	return any;
}

void lower_place(Lower *L)
{
	const TBlock *body = L->tk->body;
	const TValue *last_user = NULL;
	int again = 0, rounds = max_rounds(L);
	L->order_ok = false;
	for (int round = 0;; round++) {
		Cut cut;
		if (!place_round(L, &cut)) {
			/* the same op's operand cut again: its fresh copy met the same
			 * conflict, which lies beyond the op (on another operand of
			 * the ops reading it): they read a conversion of the op */
			again = cut.user == last_user ? again + 1 : 0;
			last_user = cut.user;
			if (again >= 1 && cut.arg >= 0)
				cut.arg = -1;
			if (round == rounds)
				lower_error(L, cut.user,
					    "internal error: the layouts of this kernel did not settle after %d conversions "
					    "(please report it with the kernel)", rounds);
			cut_edge(L, cut);
		} else {
			orient_frames(L);
			TValue *split = NULL;
			each_access(L, body, 0, find_uncoalesced, &split);
			if (!split || round >= rounds) {
				if (!refit(L))
					break;
			} else {
				split_access(L, split);
			}
		}
		count_live(L);
	}
	each_value(L, measure_shape, NULL);
	each_value(L, finish_one, NULL);
}
