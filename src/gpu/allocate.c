/* allocate.c: shared memory after emission (plan.h, simt_allocate).
 *
 * Runs on the emitted statements, as Triton's AllocateSharedMemory runs
 * after its pipeliner, and gives every shared array a byte offset in the
 * block's shared memory. An array lives from the first statement that
 * touches it to the last, and an access inside a run-time loop or branch
 * holds it for that whole top-level statement (every iteration reuses it).
 * Two arrays whose lives do not overlap may share bytes once every thread
 * is done with the first before any writes the second: a barrier between
 * the last access of one and the first of the other that every path
 * passes; only when the block would not hold the arrays otherwise, one
 * inserted at the top level before the second's statement. When that is
 * still too much, two of the dots' staged operands (SReg.local) in loops
 * share bytes by their own statements rather than their top-level ones:
 * where a barrier lies between the last access of one and the first of
 * the other on every path (and each is written after a barrier of its
 * own in a loop, so the next iteration's write waits for this one's
 * reads). When that is still too much, any two arrays in the loops of one
 * top-level statement share bytes by their own statements where barriers
 * separate them both ways: after the earlier's last access before the
 * later's first, and around the loop from the later's last access back
 * to the earlier's first (inner_apart: a persistent kernel's staged
 * operands and its epilogue's reshape, the dot operands of one iteration
 * and the gathers before them). Kernels that fit without these keep
 * their layout. Arrays go
 * first-fit, in order of definition, each aligned as it asks. When that
 * saves nothing the arrays stay one after another (the printers then
 * declare them as before: separate arrays, or CUDA's dynamic block at the
 * same offsets). */
#include "gpu/plan.h"

#include <stdio.h>
#include <string.h>

/* ---- statements, flat ---- */

typedef struct Flat {
	SStmt **at;             /* the statements in order */
	int *top;               /* of each: the index of its top-level statement */
	int *depth;             /* constructs open at it (before its own effect) */
	int n;
	bool *barrier_before;   /* by top-level index: a barrier is to be inserted before it */
	bool may_insert;        /* sharing may ask for barriers of its own */
	bool local;             /* dots' staged operands share by their own statements (SReg.local) */
	bool inner;             /* any two arrays in loops share by their own statements (inner_apart) */
	int *opener;            /* of each statement: the construct it is in (its SS_FOR ...), -1 at the top */
	int *closer;            /* of each SS_FOR, SS_WHILE and SS_IF: its SS_END */
} Flat;

static void flatten(Arena *a, const SKernel *k, Flat *f)
{
	int n = 0;
	for (const SStmt *s = k->first; s; s = s->next)
		n++;
	f->at = arena_alloc(a, sizeof *f->at * (size_t)(n + 1));
	f->top = arena_alloc(a, sizeof *f->top * (size_t)(n + 1));
	f->depth = arena_alloc(a, sizeof *f->depth * (size_t)(n + 1));
	f->barrier_before = arena_alloc(a, sizeof *f->barrier_before * (size_t)(n + 1));
	f->opener = arena_alloc(a, sizeof *f->opener * (size_t)(n + 1));
	f->closer = arena_alloc(a, sizeof *f->closer * (size_t)(n + 1));
	int *open = arena_alloc(a, sizeof *open * (size_t)(n + 1));   /* the constructs open, innermost last */
	int depth = 0, top = 0;
	for (SStmt *s = k->first; s; s = s->next) {
		int i = f->n++;
		f->at[i] = s;
		if (depth == 0)
			top = i;
		f->top[i] = top;
		f->depth[i] = depth;
		f->opener[i] = depth > 0 ? open[depth - 1] : -1;
		f->closer[i] = -1;
		if (simt_opens(s->kind))
			open[depth++] = i;
		else if (s->kind == SS_END && depth > 0)
			f->closer[open[--depth]] = i;
	}
}

/* ---- who touches what ---- */

static bool expr_uses(const SExpr *e, const SReg *r)
{
	if (!e)
		return false;
	if (e->kind == SE_REF && (e->reg == r || expr_uses(e->index, r)))
		return true;
	for (int i = 0; i < 3; i++)
		if (expr_uses(e->a[i], r))
			return true;
	return false;
}

static bool stmt_uses(const SStmt *s, const SReg *r)
{
	if (s->src == r || s->shuffled == r || s->smem[0] == r || s->smem[1] == r)
		return true;
	const SExpr *es[] = {s->dst, s->value, s->guard, s->ptr, s->other, s->mask, s->lo, s->hi, s->step,
			     s->expected, s->frag_a, s->frag_b, s->acc[0], s->acc[1], s->acc[2], s->acc[3], s->bar,
			     s->coord[0], s->coord[1]};
	for (size_t i = 0; i < sizeof es / sizeof es[0]; i++)
		if (expr_uses(es[i], r))
			return true;
	return s->also && stmt_uses(s->also, r);
}

typedef struct Life {
	SReg *r;
	int bytes, align;
	int first, last;        /* statements that touch it, -1 if none */
	int offset;
} Life;

static void life_of(const Flat *f, Life *l)
{
	l->first = l->last = -1;
	for (int i = 0; i < f->n; i++)
		if (stmt_uses(f->at[i], l->r)) {
			if (l->first < 0)
				l->first = i;
			l->last = i;
		}
}

/* The top-level statements of a life. */
static int top_first(const Flat *f, const Life *l)
{
	return l->first < 0 ? 0 : f->top[l->first];
}

static int top_last(const Flat *f, const Life *l)
{
	return l->last < 0 ? 0 : f->top[l->last];
}

/* The end of top-level statement t: its SS_END when it opens a construct. */
static int end_of(const Flat *f, int t)
{
	int i = t;
	if (!simt_opens(f->at[t]->kind))
		return t;
	while (i + 1 < f->n && f->depth[i + 1] > 0)
		i++;
	return i + 1 < f->n ? i + 1 : i;
}

/* A barrier after top-level statement `t` (and all it contains) that every
 * path to statement `c` passes: at the top level, or in a construct that c
 * is in too, before c. */
static bool barrier_between(const Flat *f, int t, int c)
{
	for (int b = end_of(f, t) + 1; b < c; b++) {
		if (f->depth[b] == 0 && f->barrier_before[b])
			return true;
		if (f->at[b]->kind != SS_BARRIER)
			continue;
		int d = f->depth[b], ok = 1;
		for (int j = b + 1; j <= c && ok; j++) {
			SStmtKind k = f->at[j]->kind;
			if ((k == SS_END || k == SS_ELSE) && f->depth[j] <= d)
				ok = 0;   /* the construct the barrier is in ends (or turns) before c */
		}
		if (ok)
			return true;
	}
	return f->depth[c] == 0 && f->barrier_before[c];
}

/* A barrier statement after statement x that every path from x to c
 * passes (in a construct that c is in too, before c). */
static bool barrier_after(const Flat *f, int x, int c)
{
	for (int b = x + 1; b < c; b++) {
		if (f->at[b]->kind != SS_BARRIER)
			continue;
		int d = f->depth[b], ok = 1;
		for (int j = b + 1; j <= c && ok; j++) {
			SStmtKind k = f->at[j]->kind;
			if ((k == SS_END || k == SS_ELSE) && f->depth[j] <= d)
				ok = 0;
		}
		if (ok)
			return true;
	}
	return false;
}

/* A barrier at statement b that every path from b to statement `hi`
 * (inclusive) keeps: no construct b is in ends or turns to its else
 * before. */
static bool keeps(const Flat *f, int b, int hi)
{
	if (f->at[b]->kind != SS_BARRIER)
		return false;
	for (int j = b + 1; j <= hi && j < f->n; j++) {
		SStmtKind k = f->at[j]->kind;
		if ((k == SS_END || k == SS_ELSE) && f->depth[j] <= f->depth[b])
			return false;
	}
	return true;
}

/* A barrier strictly between statements lo and c that stays on every path
 * up to statement hi (every access of the array that comes next). */
static bool barrier_keeping(const Flat *f, int lo, int c, int hi)
{
	for (int b = lo + 1; b < c; b++)
		if (keeps(f, b, hi))
			return true;
	return false;
}

/* Whether statement i lies inside the construct that statement o opens. */
static bool inside(const Flat *f, int o, int i)
{
	return o >= 0 && o < i && i < f->closer[o];
}

/* Whether array l's life ends with an access that is still in flight
 * after its statement: an asynchronous copy (it lands later) or a wgmma
 * (it reads the operands until waited for). */
static bool async_access(const Flat *f, const Life *l)
{
	const SStmt *s = f->at[l->last];
	return s->kind == SS_COPY_ASYNC || (s->kind == SS_MMA && (s->smem[0] || s->smem[1]));
}

/* Two arrays in the loops of one top-level statement that share bytes by
 * their own statements (the last try of simt_allocate): the earlier's
 * accesses all come before the later's in the statements; a barrier
 * after the earlier's last access that every path to each of the later's
 * accesses passes (so every thread is done with the one before any writes
 * the other), and, when a loop holds both, a barrier every path from the
 * later's last access around the loop back to the earlier's accesses
 * passes: after that access to the loop's end, or from the loop's start
 * before the earlier's first. Accesses still in flight after their
 * statement (asynchronous copies, wgmma) do not share so. */
static bool inner_apart(const Flat *f, const Life *a, const Life *b)
{
	const Life *e = a->first < b->first ? a : b, *l = e == a ? b : a;
	if (e->last >= l->first || async_access(f, e) || async_access(f, l))
		return false;
	if (!barrier_keeping(f, e->last, l->first, l->last))
		return false;
	int o = f->opener[e->first];   /* the innermost loop around both */
	while (o >= 0 && !((f->at[o]->kind == SS_FOR || f->at[o]->kind == SS_WHILE) && inside(f, o, l->last)))
		o = f->opener[o];
	if (o < 0)
		return true;
	return barrier_keeping(f, l->last, f->closer[o], f->closer[o] - 1) || barrier_keeping(f, o, e->first, e->last);
}

/* Whether `a` and `b` may share bytes; inserts the barrier that lets them
 * (noted in barrier_before) when `insert`. */
static bool may_share(Flat *f, const Life *a, const Life *b, bool insert)
{
	if (a->first < 0 || b->first < 0)
		return true;   /* one is never touched */
	if (f->local && a->r->local && b->r->local && f->depth[a->first] > 0 && f->depth[b->first] > 0) {
		const Life *e = a->first < b->first ? a : b, *l = e == a ? b : a;
		if (e->last < l->first && barrier_after(f, e->last, l->first))
			return true;
	}
	if (f->inner && f->depth[a->first] > 0 && f->depth[b->first] > 0 && f->top[a->first] == f->top[b->first] &&
	    inner_apart(f, a, b))
		return true;
	const Life *early = a, *late = b;
	if (top_first(f, b) < top_first(f, a)) {
		early = b;
		late = a;
	}
	if (top_last(f, early) >= top_first(f, late))
		return false;   /* their lives overlap */
	if (barrier_between(f, top_last(f, early), late->first))
		return true;
	if (!f->may_insert)
		return false;
	if (insert)
		f->barrier_before[top_first(f, late)] = true;
	return true;
}

static int round_up(int x, int align)
{
	return (x + align - 1) / align * align;
}

/* First-fit: the lowest offset, aligned, where `l` overlaps in bytes only
 * arrays it may share them with. */
static int first_fit(Flat *f, Life *lives, int n, Life *l)
{
	int off = 0;
	for (bool moved = true; moved;) {
		moved = false;
		for (int i = 0; i < n; i++) {
			const Life *o = &lives[i];
			if (o == l || o->offset < 0)
				continue;
			bool apart = off + l->bytes <= o->offset || o->offset + o->bytes <= off;
			if (!apart && !may_share(f, o, l, false)) {
				off = round_up(o->offset + o->bytes, l->align);
				moved = true;
			}
		}
	}
	for (int i = 0; i < n; i++) {   /* now note the barriers the sharing needs */
		const Life *o = &lives[i];
		if (o != l && o->offset >= 0 && !(off + l->bytes <= o->offset || o->offset + o->bytes <= off))
			may_share(f, o, l, true);
	}
	return off;
}

/* The barriers noted, inserted before their top-level statements. */
static void insert_barriers(SKernel *k, const Flat *f)
{
	SStmt *prev = NULL;
	for (int i = 0; i < f->n; i++) {
		SStmt *s = f->at[i];
		if (f->depth[i] == 0 && f->barrier_before[i]) {
			SStmt *b = arena_alloc(k->arena, sizeof *b);
			b->kind = SS_BARRIER;
			k->kinds |= 1u << SS_BARRIER;
			b->line = s->line;
			b->uniform = false;
			b->next = s;
			if (prev)
				prev->next = b;
			else
				k->first = b;
		}
		prev = s;
	}
}

/* ---- the layout ---- */

/* The arrays one after another, each aligned as it asks: the old layout. */
static int one_after_another(Life *lives, int n)
{
	int total = 0;
	for (int i = 0; i < n; i++) {
		total = round_up(total, lives[i].align);
		lives[i].offset = total;
		total += lives[i].bytes;
	}
	return total;
}

/* The error of a kernel whose arrays do not fit the block: how many bytes,
 * what was tried, and the largest array, at the first statement that
 * touches it (its source line, where the kernel has one). */
static void too_much(Diag *diag, SKernel *k, Life *lives, int n)
{
	const Target *t = &k->target;
	Life *big = NULL;
	for (int i = 0; i < n; i++)
		if (!big || lives[i].bytes > big->bytes)
			big = &lives[i];
	char what[256] = "";
	if (big)
		snprintf(what, sizeof what, "; the largest array is %s (%d bytes)", big->r->name, big->bytes);
	const char *fmt = "%s needs %d bytes of shared memory, more than %s gives a block (%d), after cutting the "
			  "pipelines' stages to what the block holds, staging large dot operands in chunks of K and "
			  "sharing bytes between arrays wherever barriers separate them%s";
	int line = 0;
	if (big && k->src) {
		Flat f = {0};
		flatten(k->arena, k, &f);
		life_of(&f, big);
		line = big->first >= 0 ? f.at[big->first]->line : 0;
	}
	if (line > 0) {
		size_t off = base_line_table_start(base_line_table(k->arena, k->src), line);
		while (off < k->src->len && (k->src->text[off] == ' ' || k->src->text[off] == '\t'))
			off++;
		diag_at(diag, DIAG_ERROR, k->src, off, fmt, "the kernel", k->shared_bytes, t->spec, t->shared_bytes, what);
	} else {
		diag_plain(diag, DIAG_ERROR, fmt, k->name, k->shared_bytes, t->spec, t->shared_bytes, what);
	}
}

bool simt_allocate(Diag *diag, SKernel *k)
{
	const Target *t = &k->target;
	int n = 0;
	for (int i = 0; i < k->nregs; i++)
		n += k->regs[i]->kind == SR_SHARED;
	Life *lives = arena_alloc(k->arena, sizeof *lives * (size_t)(n + 1));
	n = 0;
	for (int i = 0; i < k->nregs; i++) {
		SReg *r = k->regs[i];
		if (r->kind != SR_SHARED)
			continue;
		lives[n++] = (Life){.r = r, .bytes = r->count * simt_shared_elem_bytes(r), .align = simt_shared_align(r)};
		k->shared_align = imax(k->shared_align, simt_shared_align(r));
	}
	int sum = one_after_another(lives, n);
	int peak = sum;
	/* Sharing where barriers already separate the arrays; where that is
	 * not enough for the target's block, with barriers of its own. */
	for (int pass = 0; n > 1 && pass < 4 && !(pass >= 1 && sum <= t->shared_bytes && peak <= sum); pass++) {
		Flat f = {.may_insert = pass >= 1, .local = pass >= 2, .inner = pass == 3};
		flatten(k->arena, k, &f);
		int fit = 0;
		for (int i = 0; i < n; i++) {
			life_of(&f, &lives[i]);
			lives[i].offset = -1;
		}
		for (int i = 0; i < n; i++) {
			lives[i].offset = first_fit(&f, lives, n, &lives[i]);
			fit = imax(fit, lives[i].offset + lives[i].bytes);
		}
		/* a layout that saves bytes, and fits or is the last try (passes 1 to 3 when the
		 * arrays one after another do not fit) */
		if (round_up(fit, 16) < round_up(peak, 16) && (pass == 0 || sum > t->shared_bytes) &&
		    (round_up(fit, 16) <= t->shared_bytes || pass == 3)) {
			peak = fit;
			insert_barriers(k, &f);
			k->shared_reuse = true;
			break;
		}
		one_after_another(lives, n);   /* nothing saved: as before */
	}
	for (int i = 0; i < n; i++)
		lives[i].r->offset = lives[i].offset;
	k->shared_bytes = k->shared_reuse ? round_up(peak, 16) : peak;
	if (k->shared_bytes > t->shared_bytes) {
		too_much(diag, k, lives, n);
		return false;
	}
	/* Beyond the target's static limits (CUDA: 48 KiB, or an array aligned
	 * beyond 16 bytes) a kernel takes its shared memory dynamically, from a base rounded
	 * up to the largest alignment (the slack is part of the block). */
	if (t->static_shared_bytes && (k->shared_bytes > t->static_shared_bytes || k->shared_align > t->static_shared_align)) {
		int total = round_up(peak, 16);
		k->dynamic_bytes = k->shared_align > 16 ? total + k->shared_align - 16 : total;
	}
	return true;
}
