/* plan.c: everything the lowering decides before it emits (plan.h).
 *
 * In order: the tile IR's cheap tiles copied where they are needed in two
 * shapes (place.c), every value placed on a frame, with conversions where a
 * tile is needed in two places (place.c), the dots' strategies and their
 * frames' matrix layouts (lower_dot.c), the other frames' blocked layouts
 * from their accesses (here: Triton's coalescing), every loop's pipeline
 * with the shared memory the rest of the kernel leaves it, and the packed
 * operands of the other matrix dots. Nothing here makes a register or a
 * statement: simt_emit does, by this plan. */
#include "gpu/lower_ops.h"

#include <setjmp.h>
#include <string.h>

/* ---- frame layouts ---- */

/* What a frame's accesses along its last dim allow, for the layout. */
typedef struct FrameAccess {
	int elem_bytes;    /* the narrowest element accessed in global memory, 0 if none */
	int width;         /* the widest load or store along the last dim, in elements, 0 if none */
	int store_width;   /* the narrowest store along it, 0 if none */
} FrameAccess;

static void frame_access(const Lower *L, const TBlock *b, int frame, FrameAccess *fa)
{
	int last = L->frames[frame].rank - 1;
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		frame_access(L, v->body, frame, fa);
		if (v->op == TOP_IF)
			frame_access(L, v->orelse, frame, fa);
		if (v->op != TOP_LOAD && v->op != TOP_STORE && v->op != TOP_ATOMIC)
			continue;
		const TValue *ptr = v->args[0];
		if (L->vp[ptr->id].frame != frame || ptr->type.rank != L->frames[frame].rank)
			continue;
		int e = dtype_bytes(ptr->type.elem);
		fa->elem_bytes = fa->elem_bytes ? imin(fa->elem_bytes, e) : e;
		int k = ptr->type.rank - 1;
		while (k >= 0 && !(ptr->type.shape[k] > 1 && L->vp[ptr->id].map[k] == last))
			k--;
		if (k < 0 || v->op == TOP_ATOMIC)
			continue;
		/* the pointer's contiguity and alignment, not the mask's: a mask
		 * that splits the access still leaves a thread's run in one warp
		 * access after another (Triton's coalescing reads no mask) */
		int w = tir_vector_width_along(ptr, NULL, k, L->target->max_vector_bytes);
		fa->width = imax(fa->width, w);
		if (v->op == TOP_STORE)
			fa->store_width = fa->store_width ? imin(fa->store_width, w) : w;
	}
}

/* Consecutive elements a thread of frame f holds along its last dim, as
 * Triton's coalescing chooses them: as many as the widest of its loads and
 * stores could move at once by its pointer (contiguity and alignment), so
 * that gathers feeding a contiguous store get the store's run and share
 * the index arithmetic of its elements; but no more than any of its stores
 * could (a thread's run longer than its store leaves gaps in each warp's
 * writes, 4 times the memory transactions for fp32 stores one at a time),
 * nor more than the frame's elements shared out over the block's threads
 * (more would leave warps holding copies). With no access along that dim,
 * 16 bytes of the narrowest element the frame accesses. Returns the
 * element size too. */
static int frame_vector(const Lower *L, int f, int *elem_bytes)
{
	FrameAccess fa = {0};
	frame_access(L, L->tk->body, f, &fa);
	*elem_bytes = fa.elem_bytes ? fa.elem_bytes : 4;
	int vec = fa.width ? fa.width : L->target->max_vector_bytes / *elem_bytes;
	if (fa.store_width)
		vec = imin(vec, fa.store_width);
	int64_t elems = 1;
	for (int d = 0; d < L->frames[f].rank; d++)
		elems *= L->frames[f].shape[d];
	int64_t per_thread = elems / L->plan->threads;
	return per_thread < vec ? (int)imax((int)per_thread, 1) : vec;
}

static void plan_layouts(Lower *L)
{
	for (int f = 0; f < L->nframes; f++) {
		Frame *fr = &L->frames[f];
		if (fr->rank == 0 || fr->unit != MATRIX_NONE)
			continue;
		int bytes;
		fr->vector = frame_vector(L, f, &bytes);
		fr->layout = layout_blocked(fr->rank, fr->shape, bytes, fr->vector * bytes, L->plan->warp_size,
					    L->plan->num_warps);
	}
}

/* ---- what each value's emission reads: access widths, scan paths, runs ---- */

/* The tile dim of `v` that lies on the last dim of the frame in use, or -1
 * (none, or the tile does not span it). */
static int dim_on_last(const Lower *L, const TValue *v)
{
	int last = L->rank - 1;
	if (L->rank == 0 || !v || !(L->vp[v->id].present & (1u << last)))
		return -1;
	int k = v->type.rank - 1;
	while (k >= 0 && L->vp[v->id].map[k] != last)
		k--;
	return k;
}

/* Elements per access along the last frame dim: from the pointer's
 * contiguity and alignment (axis analysis) along the tile dim that lies on
 * it, the mask's constancy, the target's widest access and what one thread
 * holds consecutively. */
static int access_width(const Lower *L, const TValue *ptr, const TValue *mask)
{
	int k = dim_on_last(L, ptr);
	if (k < 0)
		return 1;
	int w = tir_vector_width_along(ptr, mask, k, L->target->max_vector_bytes);
	return imin(w, L->frame.size_per_thread[L->rank - 1]);
}

/* Whether `x` (a load's `other`) may differ along the last frame dim: a
 * vector load fills its masked-off elements with one `other`. */
static bool varies_on_last(const Lower *L, const TValue *x)
{
	int k = dim_on_last(L, x);
	return k >= 0 && x->axis->constancy[k] < x->type.shape[k];
}

/* Consecutive elements along the frame's last dim that a thread loads
 * from one address (the constancy of the pointer, the mask and the fill):
 * loaded once and copied, as an index read by every element of an
 * embedding row is. */
static int splat_width(const Lower *L, const TValue *v)
{
	const TValue *ptr = v->args[0];
	int last = L->rank - 1, d = ptr->type.rank - 1;
	if (L->rank == 0 || d < 0 || L->vp[ptr->id].map[d] != last)
		return 1;
	int64_t k = ptr->axis->constancy[d];
	for (int i = 1; i < v->nargs; i++) {
		int64_t c = v->args[i]->type.rank == ptr->type.rank ? v->args[i]->axis->constancy[d] : 1;
		k = tir_gcd(k, c);   /* runs aligned to both */
	}
	int w = 1;
	while (w * 2 <= k && w * 2 <= L->frame.size_per_thread[last])
		w *= 2;
	return w;
}

/* Whether mask `m` holds on a prefix of every aligned run of `vec`
 * elements along tile dim k: an and of parts constant over each run and
 * at most one x < n with x consecutive over it and n constant (a
 * descriptor's bound, or K's in tutorial 03's `offs_k < K - k * BK`, when
 * what divides it is not known). *x and *n: that compare's operands. */
static bool prefix_mask(const TValue *m, int k, int vec, const TValue **x, const TValue **n)
{
	if (m->axis->constancy[k] % vec == 0)
		return true;
	switch (m->op) {
	case TOP_AND:
		return prefix_mask(m->args[0], k, vec, x, n) && prefix_mask(m->args[1], k, vec, x, n);
	case TOP_BROADCAST:
		return m->args[0]->type.rank == m->type.rank && m->args[0]->type.shape[k] == m->type.shape[k] &&
		       prefix_mask(m->args[0], k, vec, x, n);
	case TOP_CMP: {
		const TValue *a = m->args[0], *b = m->args[1];
		if (m->aux != CMP_LT || *x || a->axis->contiguity[k] % vec || b->axis->constancy[k] % vec ||
		    dtype_is_float(a->type.dtype))
			return false;
		*x = a;
		*n = b;
		return true;
	}
	default:
		return false;
	}
}

/* A load's width as an asynchronous copy (ValuePlan.copy_vector): its
 * vector, or the width its pointers allow when the mask holds on a prefix
 * of each copy (prefix_mask), which then records the compare that cuts it. */
static void plan_copy_width(Lower *L, const TValue *v, ValuePlan *vp)
{
	const TValue *mask = v->nargs > 1 ? v->args[1] : NULL;
	vp->copy_vector = vp->vector;
	vp->cut_x = vp->cut_n = NULL;
	if (!mask || vp->vector >= 2)
		return;
	int whole = access_width(L, v->args[0], NULL);
	int k = dim_on_last(L, v);
	const TValue *px = NULL, *pn = NULL;
	if (whole < 2 || k < 0 || mask->type.rank != v->type.rank || !prefix_mask(mask, k, whole, &px, &pn) || !px ||
	    L->vp[px->id].frame != vp->frame || L->vp[pn->id].frame != vp->frame)
		return;
	vp->copy_vector = whole;
	vp->cut_x = px;
	vp->cut_n = pn;
}

/* The vector width of a load or store (and of a load copied ahead into a
 * pipeline's operand, which has no `other` but zeros). */
static void plan_access_width(Lower *L, const TValue *v, ValuePlan *vp)
{
	vp->vector = vp->splat = vp->copy_vector = 1;
	vp->cut_x = vp->cut_n = NULL;
	if (v->op != TOP_LOAD && v->op != TOP_STORE)
		return;
	lower_use_frame(L, vp->frame);
	const TValue *mask = v->op == TOP_LOAD ? (v->nargs > 1 ? v->args[1] : NULL) : (v->nargs > 2 ? v->args[2] : NULL);
	vp->vector = access_width(L, v->args[0], mask);
	const TValue *other = v->op == TOP_LOAD && v->nargs > 2 ? v->args[2] : NULL;
	if (other && varies_on_last(L, other))
		vp->vector = 1;
	if (v->op == TOP_LOAD && vp->vector == 1)
		vp->splat = splat_width(L, v);
	if (v->op == TOP_LOAD)
		plan_copy_width(L, v, vp);
}

/* The thread's run along the last frame dim (size_per_thread) when `v` is
 * known the same over each aligned run of it (axis analysis: constancy),
 * else 1. As Triton computes index arithmetic once per run, the C++
 * compiler then computes each run's elements once. */
static void plan_run(Lower *L, const TValue *v, ValuePlan *vp)
{
	const Frame *fr = &L->frames[vp->frame];
	int last = fr->rank - 1, spt = fr->rank ? fr->layout.size_per_thread[last] : 1;
	vp->run = 1;
	if (spt == 1 || !(vp->present & (1u << last)))
		return;
	for (int k = 0; k < v->type.rank; k++)
		if (v->type.shape[k] > 1 && vp->map[k] == last) {
			vp->run = v->axis->constancy[k] % spt == 0 ? spt : 1;
			return;
		}
}

/* A scan takes the fast path (lower_scan.c) along a blocked frame whose
 * thread runs tile the scanned row evenly; any other goes through shared
 * memory, one thread a row. */
static void plan_scan_path(Lower *L, const TValue *v, ValuePlan *vp)
{
	int d = v->op == TOP_SCAN ? vp->map[v->aux] : -1;
	if (d < 0)
		return;
	const Frame *fr = &L->frames[vp->frame];
	int spt = fr->layout.size_per_thread[d];
	bool fast = fr->layout.kind == LAYOUT_BLOCKED && spt <= fr->shape[d] && fr->shape[d] % spt == 0;
	vp->scan_shared = lower_scan_in_shared_memory || !fast;
}

/* What each value's emission reads of its frame's layout: access widths,
 * the scan's path, the run. */
static void plan_values(Lower *L, const TBlock *b)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		plan_values(L, v->body);
		if (v->op == TOP_IF)
			plan_values(L, v->orelse);
		ValuePlan *vp = &L->vp[v->id];
		if (vp->frame < 0)
			continue;
		plan_access_width(L, v, vp);
		plan_scan_path(L, v, vp);
		plan_run(L, v, vp);
	}
}

/* ---- shared memory, before there is any ---- */

static int elem_bytes(DType dt)
{
	return dt == DT_F16 || dt == DT_BF16 || dtype_is_fp8(dt) ? 4 : dtype_bytes(dt);   /* as simt_shared_elem_bytes, unpacked */
}

static int64_t tile_elems(const TValue *v)
{
	int64_t n = 1;
	for (int k = 0; k < v->type.rank; k++)
		n *= v->type.shape[k];
	return n;
}

/* Registers of a tile of frame f varying along `vary`, per thread. */
static int64_t count_in(const Lower *L, int f, unsigned vary)
{
	int64_t n = 1;
	for (int d = 0; d < L->frames[f].rank; d++)
		if (vary & (1u << d))
			n *= layout_local_extent(&L->frames[f].layout, d);
	return n;
}

/* At most the shared bytes op `v` itself (not a loop's body) emits. */
static int64_t op_bytes(Lower *L, const TValue *v)
{
	const Plan *p = L->plan;
	if (L->uses && L->uses[v->id] < 0)
		return 0;
	switch (v->op) {
	case TOP_CONVERT: {
		int64_t n = tile_elems(v->args[0]) + (v->type.rank >= 2 ? tile_elems(v->args[0]) / v->type.shape[v->type.rank - 1] : 0);
		return n * elem_bytes(v->type.dtype);
	}
	case TOP_REDUCE: {
		const TValue *x = v->args[0];
		const ValuePlan *xp = &L->vp[x->id];
		int d = xp->map[v->aux2];
		if (d < 0 || L->frames[xp->frame].layout.warps_per_cta[d] <= 1)
			return 0;
		/* a combine: every thread's partial; else one per lane along d (lower_reduce.c) */
		int tpw = v->aux == RED_COMBINE ? 1 : L->frames[xp->frame].layout.threads_per_warp[d];
		int64_t count = (int64_t)p->threads / tpw * count_in(L, xp->frame, xp->present & ~(1u << d)), bytes = 0;
		for (int i = 0; i < v->nargs; i++)
			bytes += count * elem_bytes(v->args[i]->type.dtype);
		return v->aux == RED_ARGMAX || v->aux == RED_ARGMIN ? bytes + count * elem_bytes(v->type.dtype) : bytes;
	}
	case TOP_SCAN: {
		int64_t bytes = 0;
		for (int i = 0; i < v->nargs; i++)
			bytes += (tile_elems(v->args[i]) + p->threads) * elem_bytes(v->args[i]->type.dtype);
		return bytes;
	}
	case TOP_DOT: {
		const ValuePlan *vp = &L->vp[v->id];
		if (vp->staged && (vp->staged->pipe || vp->staged->loop))
			return 0;   /* the pipeline's */
		int64_t bytes = 0;
		for (int i = 0; i < 2; i++)
			bytes += tile_elems(v->args[i]) * (vp->matrix ? dtype_bytes(v->args[i]->type.dtype) : elem_bytes(v->args[i]->type.dtype));
		return v->type.rank == 2 ? bytes / v->args[0]->type.shape[1] * lower_dot_k_chunk(L, v) : bytes;   /* K in chunks */
	}
	case TOP_ATOMIC:
		return 8;
	default:
		return 0;
	}
}

static int64_t held_bytes(Lower *L, const TValue *v);

/* At most the shared bytes live together while block `b` runs, every
 * array of a loop's body live through the whole loop; `sum`: all of the
 * block's at once (a loop body's, each iteration using every one). */
static int64_t block_bytes(Lower *L, const TBlock *b, bool sum)
{
	int64_t total = 0, peak = 0;
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		int64_t n = held_bytes(L, v);
		total += n;
		peak = n > peak ? n : peak;
	}
	return sum ? total : peak;
}

/* What op `v` and what it holds live at once (a loop: all of its body). */
static int64_t held_bytes(Lower *L, const TValue *v)
{
	int64_t n = op_bytes(L, v);
	if (v->op == TOP_FOR || v->op == TOP_WHILE) {
		n += block_bytes(L, v->body, true);
		if (L->vp[v->id].pipe)
			n += L->vp[v->id].pipe->bytes;
	} else if (v->op == TOP_IF) {
		n += imax((int)block_bytes(L, v->body, true), (int)block_bytes(L, v->orelse, true));
	}
	return n;
}

/* Every run-time loop of matrix dots gets a pipeline, in program order,
 * with the room the shared arrays live beside it leave: those of its body,
 * of the other ops of the loop bodies it is in (`in_loop`: `b` is one) and
 * of the loops around those (`outer`). Arrays before or after it at the
 * top level do not count: simt_allocate gives them the same bytes. */
static void plan_pipelines(Lower *L, const TBlock *b, int64_t outer, bool in_loop)
{
	/* the block's bytes change only when a pipeline is added: summed again
	 * then, not for each if of a long loop body (quadratic) */
	int64_t all = 0;
	int pipes = -1;
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		if (v->op != TOP_FOR && v->op != TOP_WHILE && v->op != TOP_IF)
			continue;
		if (in_loop && pipes != L->plan->npipes) {
			all = block_bytes(L, b, true);
			pipes = L->plan->npipes;
		}
		int64_t siblings = in_loop ? all - held_bytes(L, v) : 0;
		if (v->op == TOP_IF) {
			plan_pipelines(L, v->body, outer + siblings, in_loop);
			plan_pipelines(L, v->orelse, outer + siblings, in_loop);
			continue;
		}
		int64_t body = 0;   /* the body's arrays but its matrix dots' operands, which become the stages */
		for (const TValue *x = v->body->first; x; x = x->next)
			body += x->op == TOP_DOT && L->vp[x->id].matrix ? 0 : held_bytes(L, x);
		int64_t room = L->plan->target.shared_bytes - outer - siblings - body;
		if (v->op == TOP_FOR && v->args[2]->op == TOP_CONST && v->args[2]->iconst > 0 && room > 0)
			lower_plan_pipeline(L, v, (int)room);   /* room <= the target's block */
		plan_pipelines(L, v->body, outer + siblings, true);
	}
}

/* ---- loads issued iterations ahead ----
 *
 * As Triton pipelines the loads of a loop without a dot only when the loop
 * asks for stages itself (`tl.range(..., num_stages=n)`, n >= 2): a load of
 * the loop's body whose address, mask and `other` depend on nothing but the
 * induction variable and values from before the loop is issued one
 * iteration ahead, into registers, so it is in flight while the iteration
 * before it computes (tutorial 02's rows). The C++ compiler does not do it
 * across a loop of a run-time trip count. Not more than one: without
 * unrolling, a ring of registers moves registers whose loads are still in
 * flight at every back edge, which waits for them (on the H200, tutorial
 * 02 three iterations ahead was slower than one). Not in a pipelined loop (its copies are), nor where the body
 * writes through a pointer of the same kernel argument, or of one not
 * known, or has atomics or barriers (an earlier iteration's effects the
 * load could have to see). */

/* The kernel argument a pointer is an offset from, or NULL. */
static const TValue *pointer_root(const TValue *p)
{
	while (p) {
		switch (p->op) {
		case TOP_ARG:
			return p;
		case TOP_PTR_ADD: case TOP_SPLAT: case TOP_BROADCAST: case TOP_EXPAND: case TOP_RESHAPE:
		case TOP_TRANS: case TOP_HINT: case TOP_CONVERT:
			p = p->args[0];
			break;
		default:
			return NULL;
		}
	}
	return NULL;
}

/* Whether block `b` (and what it holds) writes through a pointer of
 * argument `root` (or of one not known), or has an atomic or a barrier. */
static bool writes_maybe(const TBlock *b, const TValue *root)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		if (v->op == TOP_ATOMIC || v->op == TOP_BARRIER)
			return true;
		if (v->op == TOP_STORE) {
			const TValue *r = pointer_root(v->args[0]);
			if (!r || r == root)
				return true;
		}
		if (writes_maybe(v->body, root) || (v->op == TOP_IF && writes_maybe(v->orelse, root)))
			return true;
	}
	return false;
}

/* Whether `x` depends on nothing of loop body `b` but its induction
 * variable and ops that may be lowered again (computed anew for another
 * iteration, element by element, no shared memory): marks those
 * AHEAD_SLICE in `slice` (by value id), each id it marks also in
 * marked[(*nmarked)++], so that a load refused can take them back.
 * `in_body`: the body's ops. */
static bool ahead_slice(Lower *L, const TBlock *b, const TValue *x, const bool *in_body, int8_t *slice,
			int *marked, int *nmarked)
{
	if (!x || x == b->params[0])
		return true;
	for (int i = 1; i < b->nparams; i++)
		if (x == b->params[i])
			return false;   /* a carried value */
	if (!in_body[x->id] || slice[x->id] == AHEAD_SLICE)
		return true;    /* from before the loop, or seen */
	if (slice[x->id] != AHEAD_NONE)
		return false;   /* a load ahead */
	switch (x->op) {
	case TOP_CONST: case TOP_ARANGE: case TOP_SPLAT: case TOP_BROADCAST: case TOP_EXPAND: case TOP_HINT:
	case TOP_ADD: case TOP_SUB: case TOP_MUL: case TOP_IDIV: case TOP_MOD: case TOP_AND: case TOP_OR:
	case TOP_XOR: case TOP_SHL: case TOP_SHR: case TOP_NEG: case TOP_NOT: case TOP_CMP: case TOP_WHERE:
	case TOP_CAST: case TOP_MAXIMUM: case TOP_MINIMUM: case TOP_PTR_ADD:
		break;
	case TOP_RESHAPE:
		if (lower_reshape_is_alias(x))
			break;
		return false;
	default:
		return false;
	}
	for (int i = 0; i < x->nargs; i++)
		if (!ahead_slice(L, b, x->args[i], in_body, slice, marked, nmarked))
			return false;
	slice[x->id] = AHEAD_SLICE;
	marked[(*nmarked)++] = x->id;
	return true;
}

/* Registers a thread holds of value `v`. */
static int64_t regs_of(const Lower *L, const TValue *v)
{
	const ValuePlan *vp = &L->vp[v->id];
	return vp->frame < 0 ? 1 : count_in(L, vp->frame, vp->present);
}

enum { AHEAD_REGS = 32 };   /* registers a thread may hold of the loads ahead */

static void plan_ahead_loop(Lower *L, const TValue *loop)
{
	const TBlock *b = loop->body;
	if (loop->aux < 2 || L->vp[loop->id].pipe)
		return;
	bool *in_body = arena_alloc(L->arena, sizeof *in_body * (size_t)(L->nvalues + 1));
	int8_t *slice = arena_alloc(L->arena, sizeof *slice * (size_t)(L->nvalues + 1));
	for (const TValue *x = b->first; x; x = x->next)
		in_body[x->id] = true;
	int *marked = arena_alloc(L->arena, sizeof *marked * (size_t)(L->nvalues + 1));
	int64_t regs = 0;
	int nloads = 0;
	for (const TValue *x = b->first; x; x = x->next) {
		if (x->op != TOP_LOAD || L->vp[x->id].staged || (L->uses && L->uses[x->id] <= 0))
			continue;
		const TValue *root = pointer_root(x->args[0]);
		if (!root || writes_maybe(b, root))
			continue;
		int nmarked = 0;
		bool ok = true;
		for (int i = 0; i < x->nargs && ok; i++)
			ok = ahead_slice(L, b, x->args[i], in_body, slice, marked, &nmarked);
		if (!ok || regs + regs_of(L, x) > AHEAD_REGS) {
			while (nmarked)   /* not this load: its slice is not marked */
				slice[marked[--nmarked]] = AHEAD_NONE;
			continue;
		}
		regs += regs_of(L, x);
		slice[x->id] = AHEAD_LOAD;
		nloads++;
	}
	if (!nloads)
		return;
	/* the ops that only the loads ahead read, from the last: an op whose
	 * every live reader is a load ahead or such an op */
	int n = 0;
	for (const TValue *x = b->first; x; x = x->next)
		n++;
	const TValue **ops = arena_alloc(L->arena, sizeof *ops * (size_t)(n + 1));
	n = 0;
	for (const TValue *x = b->first; x; x = x->next)
		ops[n++] = x;
	/* readers[id]: the reads of it by loads ahead and AHEAD_ONLY ops; all
	 * of an op's readers come after it, so they are counted when it is reached */
	int *readers = arena_alloc(L->arena, sizeof *readers * (size_t)(L->nvalues + 1));
	for (int i = n - 1; i >= 0; i--) {
		const TValue *x = ops[i];
		if (slice[x->id] == AHEAD_SLICE && L->uses && L->uses[x->id] > 0 && readers[x->id] == L->uses[x->id])
			slice[x->id] = AHEAD_ONLY;
		if (slice[x->id] == AHEAD_LOAD || slice[x->id] == AHEAD_ONLY)
			for (int a = 0; a < x->nargs; a++)
				if (x->args[a])
					readers[x->args[a]->id]++;
	}
	for (const TValue *x = b->first; x; x = x->next)
		L->vp[x->id].ahead = slice[x->id];
	L->vp[loop->id].ahead_iters = 1;
}

static void plan_ahead(Lower *L, const TBlock *b)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		plan_ahead(L, v->body);
		if (v->op == TOP_IF)
			plan_ahead(L, v->orelse);
		if (v->op == TOP_FOR)
			plan_ahead_loop(L, v);
	}
}

/* ---- pipelines carried across a loop of tiles ----
 *
 * A persistent kernel (Triton's tutorial 09) walks tiles in an outer loop,
 * `for tile in tl.range(pid, tiles, NUM_SMS)`, around its pipelined K loop.
 * Left alone, each tile fills the pipeline (stages - 1 iterations of copies
 * only) and drains it (stages - 1 iterations of dots only), and the
 * epilogue's stores wait for nothing but keep the copies of the next tile
 * from starting. Carried across the tiles, the drain iterations of tile t
 * issue the copies of tile t + step's first stages - 1 iterations (their
 * addresses from the tile loop's ops lowered again at t + step), and the
 * next tile's K loop starts at iteration stages - 1. Triton's `flatten=True`
 * makes one loop of the two for the same end. The slots and the copy groups
 * run on from tile to tile as they do from iteration to iteration, so the
 * waits are the pipeline's own. Planned when the K loop's trip count is the
 * same for every tile (its bounds computed from nothing the tile loop
 * changes), its step a constant, it carries nothing but the consumer's
 * accumulators, its dots stream both operands, and the producer reads of
 * the tile loop's body only ops that can be lowered again (element-wise,
 * no load, no shared memory) of its induction variable and of values from
 * before it; not when the tile loop writes through a pointer of an argument
 * the copies read (or of one not known), or has atomics or barriers, since
 * the next tile's copies then start before this tile's stores. At run time
 * a tile loop whose K loop has fewer than stages - 1 iterations fills and
 * drains each tile as before. */

/* Whether `x` is the same in every iteration of tile loop body `ob`: from
 * before the loop, or a pure scalar op of its body on such values. */
static bool tile_invariant(const TBlock *ob, const bool *in_outer, const TValue *x)
{
	if (!x)
		return true;
	for (int i = 0; i < ob->nparams; i++)
		if (x == ob->params[i])
			return false;
	if (!in_outer[x->id])
		return true;
	if (x->type.rank || !lower_pure(x) || x->op == TOP_LOAD || x->body || x->op == TOP_RESULT)
		return false;
	for (int i = 0; i < x->nargs; i++)
		if (!tile_invariant(ob, in_outer, x->args[i]))
			return false;
	return true;
}

/* Whether `x`, read by the producer, can be computed for the next tile:
 * marks the ops of tile loop body `ob` it takes in `mark`. */
static bool next_tile_slice(const TBlock *ob, const bool *in_outer, const TValue *x, bool *mark)
{
	if (!x || x == ob->params[0])
		return true;
	for (int i = 1; i < ob->nparams; i++)
		if (x == ob->params[i])
			return false;   /* carried by the tile loop */
	if (!in_outer[x->id] || mark[x->id])
		return true;
	switch (x->op) {
	case TOP_CONST: case TOP_ARANGE: case TOP_SPLAT: case TOP_BROADCAST: case TOP_EXPAND: case TOP_HINT:
	case TOP_ADD: case TOP_SUB: case TOP_MUL: case TOP_IDIV: case TOP_MOD: case TOP_AND: case TOP_OR:
	case TOP_XOR: case TOP_SHL: case TOP_SHR: case TOP_NEG: case TOP_NOT: case TOP_CMP: case TOP_WHERE:
	case TOP_CAST: case TOP_MAXIMUM: case TOP_MINIMUM: case TOP_PTR_ADD:
		break;
	case TOP_RESHAPE:
		if (lower_reshape_is_alias(x))
			break;
		return false;
	default:
		return false;
	}
	for (int i = 0; i < x->nargs; i++)
		if (!next_tile_slice(ob, in_outer, x->args[i], mark))
			return false;
	mark[x->id] = true;
	return true;
}

/* The pipelines in block `b` and what it holds. */
static int pipes_in(const Lower *L, const TBlock *b)
{
	int n = 0;
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		n += v->op == TOP_FOR && L->vp[v->id].pipe;
		n += pipes_in(L, v->body) + (v->op == TOP_IF ? pipes_in(L, v->orelse) : 0);
	}
	return n;
}

static void plan_across_loop(Lower *L, const TValue *outer)
{
	const TBlock *ob = outer->body;
	if (L->vp[outer->id].pipe || L->vp[outer->id].ahead_iters || pipes_in(L, ob) != 1)
		return;
	const TValue *loop = NULL;
	for (const TValue *v = ob->first; v; v = v->next)
		if (v->op == TOP_FOR && L->vp[v->id].pipe)
			loop = v;
	Pipeline *pp = loop ? L->vp[loop->id].pipe : NULL;
	if (!pp || pp->stages < 2 || loop->args[2]->op != TOP_CONST || loop->args[2]->iconst <= 0)
		return;
	for (int i = 0; i < L->plan->noperands; i++)
		if (L->plan->operands[i]->loop == pp)
			return;   /* an operand written once or every iteration: streamed ones only */
	const TBlock *body = loop->body;
	for (int i = 1; i < body->nparams; i++)
		if (L->vp[body->params[i]->id].part != PART_CONSUMER)
			return;   /* the producer carries a value (pointers advanced): a tile's own */
	bool *in_outer = arena_alloc(L->arena, sizeof *in_outer * (size_t)(L->nvalues + 1));
	bool *mark = arena_alloc(L->arena, sizeof *mark * (size_t)(L->nvalues + 1));
	for (const TValue *v = ob->first; v; v = v->next)
		in_outer[v->id] = true;
	if (!tile_invariant(ob, in_outer, loop->args[0]) || !tile_invariant(ob, in_outer, loop->args[1]))
		return;   /* the next tile's K loop could run another number of iterations */
	for (const TValue *x = body->first; x; x = x->next) {
		if (L->vp[x->id].part != PART_PRODUCER || (L->uses && L->uses[x->id] <= 0))
			continue;
		if (x->op == TOP_LOAD) {
			const TValue *root = pointer_root(x->args[0]);
			if (!root || writes_maybe(ob, root))
				return;
		}
		for (int i = 0; i < x->nargs; i++)
			if (!next_tile_slice(ob, in_outer, x->args[i], mark))
				return;
		/* a bulk tensor copy reads its box's offsets, not the pointers */
		for (int k = 0; x->desc && k < x->desc->rank; k++)
			if (!next_tile_slice(ob, in_outer, x->desc->offset[k], mark))
				return;
	}
	pp->tiles = outer;
	for (const TValue *v = ob->first; v; v = v->next)
		L->vp[v->id].next_tile = mark[v->id];
}

static void plan_across_tiles(Lower *L, const TBlock *b)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		plan_across_tiles(L, v->body);
		if (v->op == TOP_IF)
			plan_across_tiles(L, v->orelse);
		if (v->op == TOP_FOR)
			plan_across_loop(L, v);
	}
}

/* ---- registers ----
 *
 * A kernel of element-wise ops, loads, stores and reductions (no dot, no
 * scan) whose largest tile is 17 to 32 registers a thread
 * asks ptxas (`__launch_bounds__(threads, blocks)`) for the blocks an SM
 * holds at 64 registers a thread. Such a kernel may keep a few of those
 * tiles live, and left to itself ptxas takes a few registers more than 64
 * (a block fewer an SM) and issues fewer of its loads at once: tutorial
 * 05's layer norm (tiles of 32 fp32 a thread, 256 threads) took 66
 * registers and 0.0563 ms on the H200, 64 and 0.0428 ms when asked for 4
 * blocks. Smaller tiles leave ptxas room below 64 as it is; larger ones
 * would spill, as would the ops largest_tile refuses. */

/* The registers a thread holds of tile `v` (0 for scalars and pointers:
 * their arithmetic is folded into the accesses). */
static int64_t tile_registers(const Lower *L, const TValue *v)
{
	const ValuePlan *vp = &L->vp[v->id];
	if (vp->frame < 0 || v->type.dtype == DT_PTR || !v->type.rank)
		return 0;
	return count_in(L, vp->frame, vp->present) * (dtype_bytes(v->type.dtype) == 8 ? 2 : 1);
}

/* The registers a thread holds of the tiles a loop carries: all of them are
 * live through the whole body (tutorial 05's dw/db kernel carries two tiles
 * of 32 a thread, and at 64 registers spilled 216 bytes and ran 0.0119 ms
 * on the H200 against 0.0090 without the bound). */
static int64_t carried_tiles(const Lower *L, const TValue *loop)
{
	int64_t sum = 0;
	const TBlock *body = loop->body;
	for (int i = loop->op == TOP_FOR ? 1 : 0; body && i < body->nparams; i++)
		sum += tile_registers(L, body->params[i]);
	return sum;
}

/* The registers a thread holds of its largest tile, or -1 with an op whose
 * lowering holds more than its tiles (a dot's fragments, a scan's or a
 * combine's steps, a gather's indices, Philox's rounds: scans of tiles of
 * 32 elements a thread take 255 registers, and spill at 64) or a loop that
 * carries more than 32 registers of tiles. */
static int64_t largest_tile(const Lower *L, const TBlock *b)
{
	int64_t most = 0;
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		if (v->op == TOP_DOT || v->op == TOP_SCAN || v->op == TOP_GATHER || v->op == TOP_PHILOX ||
		    (v->op == TOP_REDUCE && v->aux == RED_COMBINE))
			return -1;
		if ((v->op == TOP_FOR || v->op == TOP_WHILE) && carried_tiles(L, v) > 32)
			return -1;
		int64_t in = largest_tile(L, v->body), other = v->op == TOP_IF ? largest_tile(L, v->orelse) : 0;
		if (in < 0 || other < 0)
			return -1;
		most = imax((int)most, (int)imax((int)in, (int)other));
		if (L->uses && L->uses[v->id] < 0)
			continue;
		int64_t n = tile_registers(L, v);
		most = n > most ? n : most;
	}
	return most;
}

/* The registers of tiles held through a run-time loop that does not carry
 * them: defined before the loop, read after it (each value live from its
 * definition to its last use, a use inside a loop the value is defined
 * outside of keeping it live to that loop's end). They stay in registers
 * through the whole loop beside what the loop itself needs. Tutorial 05's
 * backward dx kernel has tiles of 32 a thread as its forward kernel does,
 * but holds its partial sums (two tiles of 32) and the mask through the
 * lock's spin loop: at 64 registers it spilled 552 bytes and ran 0.303 ms
 * on the H200 against Triton's 0.112 at 128 registers. */
typedef struct LiveScan {
	int *def, *last;        /* by value id: positions in program order */
	int *end;               /* by value id of an op with a body: its body's last position */
	const TValue **loops;   /* the run-time loops around the op being walked, outermost first */
	int nloops, pos;
} LiveScan;

static void live_number(LiveScan *S, const TBlock *b)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		S->def[v->id] = S->pos++;
		if (v->body) {
			for (int i = 0; i < v->body->nparams; i++)
				S->def[v->body->params[i]->id] = S->def[v->id];
			live_number(S, v->body);
		}
		if (v->orelse)
			live_number(S, v->orelse);
		S->end[v->id] = S->pos - 1;
	}
}

static void live_use(LiveScan *S, const TValue *a, int at)
{
	for (int i = 0; i < S->nloops; i++)   /* the outermost loop around the use that `a` is defined outside of */
		if (S->def[S->loops[i]->id] >= S->def[a->id]) {
			at = S->end[S->loops[i]->id];
			break;
		}
	if (at > S->last[a->id])
		S->last[a->id] = at;
}

static void live_uses(LiveScan *S, const TBlock *b)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		for (int i = 0; i < v->nargs; i++)
			if (v->args[i])
				live_use(S, v->args[i], S->def[v->id]);
		bool loop = v->op == TOP_FOR || v->op == TOP_WHILE;
		if (loop)
			S->loops[S->nloops++] = v;
		live_uses(S, v->body);
		if (loop)
			S->nloops--;
		live_uses(S, v->orelse);
	}
}

static int64_t held_through(const Lower *L, const LiveScan *S, const TBlock *body, const TValue *loop)
{
	int64_t sum = 0;
	for (const TValue *v = body ? body->first : NULL; v && S->def[v->id] < S->def[loop->id]; v = v->next) {
		if (v->type.dtype != DT_I1 && S->last[v->id] > S->end[loop->id] && !(L->uses && L->uses[v->id] < 0))
			sum += tile_registers(L, v);
		if (v->body && S->end[v->id] >= S->def[loop->id])   /* the loop is inside v */
			sum += held_through(L, S, v->body, loop) + held_through(L, S, v->orelse, loop);
	}
	return sum;
}

static int64_t most_held(const Lower *L, const LiveScan *S, const TBlock *top, const TBlock *b)
{
	int64_t most = 0;
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		if (v->op == TOP_FOR || v->op == TOP_WHILE) {
			int64_t n = held_through(L, S, top, v);
			most = n > most ? n : most;
		}
		int64_t in = most_held(L, S, top, v->body), other = most_held(L, S, top, v->orelse);
		most = in > most ? in : most;
		most = other > most ? other : most;
	}
	return most;
}

static int64_t held_through_loops(Lower *L, const TBlock *body)
{
	int n = L->nvalues;
	LiveScan S = {0};
	S.def = arena_alloc(L->arena, sizeof(int) * (size_t)n);
	S.last = arena_alloc(L->arena, sizeof(int) * (size_t)n);
	S.end = arena_alloc(L->arena, sizeof(int) * (size_t)n);
	S.loops = arena_alloc(L->arena, sizeof(*S.loops) * (size_t)n);
	for (int i = 0; i < n; i++)
		S.def[i] = S.last[i] = S.end[i] = -1;
	live_number(&S, body);
	live_uses(&S, body);
	return most_held(L, &S, body, body);
}

static void plan_registers(Lower *L)
{
	Plan *p = L->plan;
	if (p->target.kind != TARGET_CUDA)
		return;
	int64_t most = largest_tile(L, p->tk->body);
	int blocks = 65536 / (64 * p->threads);
	if (most > 16 && most <= 32 && blocks >= 2) {
		int64_t held = held_through_loops(L, p->tk->body);
		if (held <= 32)
			p->min_blocks = blocks;
	}
}

/* ---- the plan ---- */

static void plan_kernel(Lower *L)
{
	Plan *p = L->plan;
	TKernel *tk = p->tk;
	if (p->threads > p->target.max_threads)
		lower_error(L, NULL, "num_warps=%d gives %d threads a block, more than %s allows (%d)", p->num_warps,
			    p->threads, p->target.spec, p->target.max_threads);
	lower_remat(L, tk);
	lower_place(L);   /* (each round a new L->vp) */
	/* the passes over dots and loops alone skip a kernel without any */
	bool dots = tir_may_have(tk, TOP_DOT), loops = tir_may_have(tk, TOP_FOR);
	if (dots)
		lower_plan_dots(L);
	plan_layouts(L);
	plan_values(L, tk->body);
	if (loops)
		plan_pipelines(L, tk->body, 0, false);
	if (dots)
		lower_plan_operands(L, tk->body);
	if (loops) {
		plan_ahead(L, tk->body);
		plan_across_tiles(L, tk->body);
	}
	plan_registers(L);
	p->frames = L->frames;   /* place.c sized them */
	p->nframes = L->nframes;
	p->scalar_frame = L->scalar_frame;
	p->values = L->vp;
	p->nvalues = L->nvalues;
	p->uses = L->uses;
	p->shared_estimate = (int)block_bytes(L, tk->body, false);
}

Plan *simt_plan(Arena *a, Diag *diag, const Source *src, TKernel *tk, const Target *target)
{
	Plan *p = arena_alloc(a, sizeof *p);
	p->tk = tk;
	p->target = *target;
	p->warp_size = target->warp_size;
	p->num_warps = tk->num_warps > 0 ? tk->num_warps : 4;
	p->threads = p->warp_size * p->num_warps;
	/* the kernel the planning helpers read its warps from; it gets no
	 * register and no statement */
	SKernel *shell = lower_new_kernel(a, tk, target);
	Lower L = {.arena = a, .diag = diag, .src = src, .tk = tk, .target = &p->target, .k = shell, .plan = p};
	jmp_buf jb, *saved = diag->jump;
	diag->jump = &jb;
	if (setjmp(jb)) {
		diag->jump = saved;
		return NULL;
	}
	plan_kernel(&L);
	if (shell->nregs || shell->first)
		lower_error(&L, NULL, "internal error: the plan emitted code");
	diag->jump = saved;
	return p;
}

/* ---- text ---- */

static const char *unit_name(MatrixUnit u)
{
	switch (u) {
	case MATRIX_MMA: return "mma";
	case MATRIX_WGMMA: return "wgmma";
	case MATRIX_MFMA: return "mfma";
	default: return "none";
	}
}

/* Ops whose value is their operand's, indexed anew: their runs are the operand's. */
static bool is_alias(TOp op)
{
	return op == TOP_SPLAT || op == TOP_BROADCAST || op == TOP_EXPAND || op == TOP_TRANS || op == TOP_HINT ||
	       op == TOP_RESHAPE;
}

/* An access's widths, where it moves more than one element at a time. */
static void dump_width(Buf *b, const ValuePlan *vp)
{
	if (vp->vector > 1)
		buf_printf(b, " vector %d", vp->vector);
	if (vp->splat > 1)
		buf_printf(b, " splat %d", vp->splat);
}

static void dump_value(Buf *b, const Plan *p, const TValue *v, int depth)
{
	const ValuePlan *vp = &p->values[v->id];
	if (p->uses && p->uses[v->id] < 0)
		return;
	if (v->op == TOP_YIELD || v->op == TOP_ARG)
		return;
	buf_printf(b, "%*s%%%d %s", 2 * depth, "", v->id, tir_op_name(v->op));
	if (v->name)
		buf_printf(b, " '%s'", v->name);
	buf_printf(b, ": frame %d", vp->frame);
	if (v->type.rank) {
		buf_puts(b, " dims [");
		for (int k = 0; k < v->type.rank; k++)
			buf_printf(b, "%s%d", k ? "," : "", v->type.shape[k] > 1 ? vp->map[k] : -1);
		buf_puts(b, "]");
	}
	if (v->op == TOP_LOAD || v->op == TOP_STORE)
		dump_width(b, vp);
	if (vp->scan_shared)
		buf_puts(b, " in shared memory");
	if (vp->run > 1 && !is_alias(v->op))
		buf_printf(b, " run %d", vp->run);
	if (v->op == TOP_DOT)
		buf_printf(b, " %s%s", vp->wgmma ? "wgmma" : vp->matrix ? "matrix" : "fma", vp->in_place ? " in place" : "");
	else if (vp->in_place)
		buf_printf(b, " in place of %%%d", v->args[vp->in_place_arg]->id);
	if (vp->staged)
		buf_printf(b, " operand %d%s", vp->staged->id, v->op == TOP_DOT ? "" : " (copied ahead)");
	if (vp->staged_b)
		buf_printf(b, ",%d", vp->staged_b->id);
	if (vp->part != PART_NONE)
		buf_puts(b, vp->part == PART_PRODUCER ? " producer" : vp->part == PART_BOTH ? " both parts" : " consumer");
	if (vp->pipe)
		buf_printf(b, " pipeline %d", vp->pipe->id);
	if (vp->ahead_iters)
		buf_printf(b, " loads %d iteration%s ahead", vp->ahead_iters, vp->ahead_iters > 1 ? "s" : "");
	if (vp->ahead != AHEAD_NONE)
		buf_puts(b, vp->ahead == AHEAD_LOAD ? " loaded ahead" : vp->ahead == AHEAD_ONLY ? " ahead only" : " ahead");
	if (vp->next_tile)
		buf_puts(b, " next tile");
	buf_puts(b, "\n");
}

static void dump_block(Buf *b, const Plan *p, const TBlock *blk, int depth)
{
	for (const TValue *v = blk ? blk->first : NULL; v; v = v->next) {
		dump_value(b, p, v, depth);
		if (v->body)
			dump_block(b, p, v->body, depth + 1);
		if (v->op == TOP_IF && v->orelse) {
			buf_printf(b, "%*selse\n", 2 * depth, "");
			dump_block(b, p, v->orelse, depth + 1);
		}
	}
}

void plan_dump(Buf *b, const Plan *p)
{
	buf_printf(b, "plan %s for %s: %d warps of %d, shared memory at most %d bytes", p->tk->name, p->target.spec,
		   p->num_warps, p->warp_size, p->shared_estimate);
	if (p->min_blocks)
		buf_printf(b, ", %d blocks an SM", p->min_blocks);
	buf_puts(b, "\n");
	for (int f = 0; f < p->nframes; f++) {
		const Frame *fr = &p->frames[f];
		char lay[256];
		layout_format(&fr->layout, lay, sizeof lay);
		buf_printf(b, "frame %d: %s", f, fr->rank ? lay : "scalars");
		if (fr->unit != MATRIX_NONE)
			buf_printf(b, " %s warps %dx%d%s", unit_name(fr->unit), fr->wm, fr->wn,
				   fr->wgmma_rows ? ", rows in wgmma order" : "");
		else if (fr->rank)
			buf_printf(b, " vector %d", fr->vector);
		buf_puts(b, fr->live ? "\n" : " (unused)\n");
	}
	for (int i = 0; i < p->npipes; i++) {
		const Pipeline *pp = p->pipes[i];
		buf_printf(b, "pipeline %d: loop %%%d, %d stages, %d bytes%s", pp->id, pp->loop->id, pp->stages, pp->bytes,
			   pp->wgmma ? ", wgmma" : "");
		if (pp->tma)
			buf_printf(b, ", bulk tensor copies (%d bytes a stage on an mbarrier%s)", pp->tx_bytes,
				   pp->cp_async ? ", the other operands by cp.async" : "");
		for (int a = 0; a < pp->nacc; a++)
			buf_printf(b, "%s%%%d", a ? "," : ", in place: ", pp->acc[a]->id);
		if (pp->tiles)
			buf_printf(b, ", across the tiles of loop %%%d", pp->tiles->id);
		buf_puts(b, "\n");
	}
	for (int i = 0; i < p->noperands; i++) {
		const Operand *o = p->operands[i];
		buf_printf(b, "operand %d '%s': %%%d, rows of %d along dim %d, %d elements%s", o->id, o->name, o->tile->id,
			   o->width, o->inner, o->elems, o->wgmma ? ", wgmma layout" : "");
		if (o->pipe)
			buf_printf(b, " x %d stages (pipeline %d)", o->pipe->stages, o->pipe->id);
		if (o->same)
			buf_printf(b, o->pipe ? ", operand %d's copy" : ", operand %d's tile", o->same->id);
		if (o->tma) {
			const STensorMap *m = &p->tmaps[o->tmap];
			buf_printf(b, ", TMA: tensor map %d of argument %d, boxes %dx%d, swizzle %d", o->tmap, m->base, m->box_rows,
				   m->box_cols, m->swizzle);
		} else if (o->loop)
			buf_printf(b, ", %s (pipeline %d)",
				   o->once ? (o->same ? "written before an earlier loop" : "written once before the loop")
					   : o->regs ? "from registers" : "written every iteration",
				   o->loop->id);
		buf_puts(b, "\n");
	}
	dump_block(b, p, p->tk->body, 0);
}
