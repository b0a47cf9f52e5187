/* spec_jumps.c: `break` and `continue`, rewritten into flags before a
 * function runs.
 *
 * Triton's control flow is structured (scf.for, scf.while, scf.if): a loop
 * has one exit. So a loop whose body leaves early is rewritten, on the AST,
 * into one that says the same with two hidden variables, whose names no
 * Python name can take:
 *
 *   skip   set false when an iteration starts; `continue` and `break` set
 *          it, and the statements after an `if` that may have set it run
 *          only where it is still false (an `if skip: pass else: rest`);
 *   broken set false before the loop; `break` sets it. A for loop runs its
 *          body only while it is false (the remaining iterations do
 *          nothing); a while loop's condition becomes a variable, `go`,
 *          computed before the loop and at the end of each iteration where
 *          the loop did not break, so the condition is never evaluated after
 *          a break (it may read past what the loop may touch).
 *
 *   while cond:                    broken = False
 *       a                          go = cond
 *       if c:                      while go:
 *           break                      skip = False
 *       b                              a
 *                                      if c:
 *                                          broken = True
 *                                          skip = True
 *                                      if skip:
 *                                          pass
 *                                      else:
 *                                          b
 *                                      if broken:
 *                                          go = False
 *                                      else:
 *                                          go = cond
 *
 * The flags are ordinary values afterwards: compile-time constants where
 * the jumps are (a static loop, an `if` on a constexpr), run-time scalars
 * carried by the loop and handed on by run-time ifs where they are not.
 * Statements after a `break` or `continue` in the same block never run and
 * are dropped. */
#include "ir/spec.h"

#include <string.h>

typedef struct Jumps {
	Spec *s;
	const char *skip, *broken;   /* the hidden names of the loop being rewritten */
	size_t at;                   /* the loop's offset, for the nodes made */
} Jumps;

/* Whether a block has a break or continue of its own loop (those inside
 * nested loops are theirs). */
static bool has_jump(const NodeList *body, bool breaks_only)
{
	for (int i = 0; i < body->len; i++) {
		const Node *st = body->items[i];
		if (st->kind == ND_BREAK || (!breaks_only && st->kind == ND_CONTINUE))
			return true;
		if (st->kind == ND_IF && (has_jump(&st->body, breaks_only) || has_jump(&st->orelse, breaks_only)))
			return true;
	}
	return false;
}

static Node *name_node(Jumps *j, const char *name)
{
	Node *n = ast_new(j->s->a, ND_NAME, j->at);
	n->name = name;
	return n;
}

/* name = value */
static Node *assign_node(Jumps *j, const char *name, Node *value)
{
	Node *n = ast_new(j->s->a, ND_ASSIGN, value->offset);
	ast_nodelist_push(j->s->a, &n->items, name_node(j, name));
	n->rhs = value;
	return n;
}

static Node *bool_node(Jumps *j, bool v, size_t at)
{
	return ast_new(j->s->a, v ? ND_TRUE : ND_FALSE, at);
}

/* if cond: then else: other */
static Node *if_node(Jumps *j, Node *cond, NodeList then, NodeList other)
{
	Node *n = ast_new(j->s->a, ND_IF, cond->offset);
	n->cond = cond;
	n->body = then;
	n->orelse = other;
	return n;
}

static NodeList rewrite_block(Jumps *j, const NodeList *body);
static Node *rewrite_loop(Spec *s, const Node *loop, NodeList *before);

/* A block of a loop's body: its jumps become flags, what follows an if
 * that may jump is guarded by `skip`, nested loops are rewritten on their
 * own. */
static NodeList rewrite_block(Jumps *j, const NodeList *body)
{
	Arena *a = j->s->a;
	NodeList out = {0};
	for (int i = 0; i < body->len; i++) {
		const Node *st = body->items[i];
		if (st->kind == ND_BREAK || st->kind == ND_CONTINUE) {
			if (st->kind == ND_BREAK)
				ast_nodelist_push(a, &out, assign_node(j, j->broken, bool_node(j, true, st->offset)));
			ast_nodelist_push(a, &out, assign_node(j, j->skip, bool_node(j, true, st->offset)));
			return out;                  /* the rest of the block never runs */
		}
		if (st->kind == ND_FOR || st->kind == ND_WHILE) {
			NodeList before = {0};
			Node *loop = rewrite_loop(j->s, st, &before);
			for (int k = 0; k < before.len; k++)
				ast_nodelist_push(a, &out, before.items[k]);
			ast_nodelist_push(a, &out, loop);
			continue;
		}
		if (st->kind != ND_IF) {
			ast_nodelist_push(a, &out, (Node *)st);
			continue;
		}
		Node *copy = arena_alloc(a, sizeof *copy);   /* its loops rewritten, and its jumps */
		*copy = *st;
		copy->body = rewrite_block(j, &st->body);
		copy->orelse = rewrite_block(j, &st->orelse);
		ast_nodelist_push(a, &out, copy);
		if (!has_jump(&st->body, false) && !has_jump(&st->orelse, false))
			continue;
		NodeList rest_in = {.items = body->items + i + 1, .len = body->len - i - 1};
		NodeList rest = rewrite_block(j, &rest_in);
		if (rest.len) {
			NodeList pass = {0};
			ast_nodelist_push(a, &pass, ast_new(a, ND_PASS, st->offset));
			ast_nodelist_push(a, &out, if_node(j, name_node(j, j->skip), pass, rest));
		}
		return out;
	}
	return out;
}

/* A loop with its own jumps rewritten (and those of the loops in it);
 * what must run before it (the flags' first values) goes to *before. */
static Node *rewrite_loop(Spec *s, const Node *loop, NodeList *before)
{
	Arena *a = s->a;
	Node *copy = arena_alloc(a, sizeof *copy);
	*copy = *loop;
	bool jumps = has_jump(&loop->body, false), breaks = has_jump(&loop->body, true);
	Jumps j = {.s = s, .at = loop->offset};
	j.skip = arena_printf(a, "<skip@%zu>", loop->offset);
	j.broken = arena_printf(a, "<broken@%zu>", loop->offset);
	NodeList body = rewrite_block(&j, &loop->body);
	if (!jumps) {
		copy->body = body;
		return copy;
	}
	NodeList inner = {0};
	ast_nodelist_push(a, &inner, assign_node(&j, j.skip, bool_node(&j, false, loop->offset)));
	for (int i = 0; i < body.len; i++)
		ast_nodelist_push(a, &inner, body.items[i]);
	if (!breaks) {
		copy->body = inner;
		return copy;
	}
	ast_nodelist_push(a, before, assign_node(&j, j.broken, bool_node(&j, false, loop->offset)));
	if (loop->kind == ND_FOR) {   /* for: the body only until it breaks */
		NodeList pass = {0}, guarded = {0};
		ast_nodelist_push(a, &pass, ast_new(a, ND_PASS, loop->offset));
		ast_nodelist_push(a, &guarded, if_node(&j, name_node(&j, j.broken), pass, inner));
		copy->body = guarded;
		return copy;
	}
	/* while: the condition as a variable, not evaluated after a break */
	const char *go = arena_printf(a, "<go@%zu>", loop->offset);
	ast_nodelist_push(a, before, assign_node(&j, go, loop->cond));
	NodeList stop = {0}, next = {0};
	ast_nodelist_push(a, &stop, assign_node(&j, go, bool_node(&j, false, loop->offset)));
	ast_nodelist_push(a, &next, assign_node(&j, go, loop->cond));
	ast_nodelist_push(a, &inner, if_node(&j, name_node(&j, j.broken), stop, next));
	copy->cond = name_node(&j, go);
	copy->body = inner;
	return copy;
}

/* Whether a block has a loop anywhere in it with a jump of its own. */
static bool has_loop_jump(const NodeList *body)
{
	for (int i = 0; i < body->len; i++) {
		const Node *st = body->items[i];
		if ((st->kind == ND_FOR || st->kind == ND_WHILE) && has_jump(&st->body, false))
			return true;
		if (has_loop_jump(&st->body) || has_loop_jump(&st->orelse))
			return true;
	}
	return false;
}

/* A block outside any loop: the loops in it (also in its ifs) rewritten. */
static NodeList rewrite_outside(Spec *s, const NodeList *body)
{
	NodeList out = {0};
	for (int i = 0; i < body->len; i++) {
		const Node *st = body->items[i];
		if (st->kind == ND_FOR || st->kind == ND_WHILE) {
			NodeList before = {0};
			Node *loop = rewrite_loop(s, st, &before);
			for (int k = 0; k < before.len; k++)
				ast_nodelist_push(s->a, &out, before.items[k]);
			ast_nodelist_push(s->a, &out, loop);
		} else if (st->kind == ND_IF) {
			Node *copy = arena_alloc(s->a, sizeof *copy);
			*copy = *st;
			copy->body = rewrite_outside(s, &st->body);
			copy->orelse = rewrite_outside(s, &st->orelse);
			ast_nodelist_push(s->a, &out, copy);
		} else {
			ast_nodelist_push(s->a, &out, (Node *)st);
		}
	}
	return out;
}

/* ---- `return` without a value inside an if or a loop ----
 *
 * The program (or the helper) ends early: rewritten, before the jumps,
 * into a hidden flag `done`, false at the start. A `return` sets it and
 * drops the rest of its block; inside a loop it also breaks out of the
 * loop (and each loop around it breaks when `done` is set), and the
 * statements after an if or a loop that may have returned run only where
 * `done` is still false:
 *
 *   if pid >= n:                   done = False
 *       return                     if pid >= n:
 *   a                                  done = True
 *                                  if done:
 *                                      pass
 *                                  else:
 *                                      a
 *
 * Only functions whose every return is value-less are rewritten (a return
 * of a value inside an if on a run-time condition stays a located error). */

static bool is_bare_return(const Node *st)
{
	return st->kind == ND_RETURN && (!st->lhs || st->lhs->kind == ND_NONE);
}

/* Whether a block has a return anywhere (bare: only value-less ones
 * count; otherwise any return). */
static bool has_return(const NodeList *body, bool bare)
{
	for (int i = 0; i < body->len; i++) {
		const Node *st = body->items[i];
		if (st->kind == ND_RETURN && (!bare || is_bare_return(st)))
			return true;
		if ((st->kind == ND_IF || st->kind == ND_FOR || st->kind == ND_WHILE) &&
		    (has_return(&st->body, bare) || has_return(&st->orelse, bare)))
			return true;
	}
	return false;
}

/* Whether every return of a block (nested ones too) is value-less. */
static bool all_returns_bare(const NodeList *body)
{
	for (int i = 0; i < body->len; i++) {
		const Node *st = body->items[i];
		if (st->kind == ND_RETURN && !is_bare_return(st))
			return false;
		if ((st->kind == ND_IF || st->kind == ND_FOR || st->kind == ND_WHILE) &&
		    (!all_returns_bare(&st->body) || !all_returns_bare(&st->orelse)))
			return false;
	}
	return true;
}

/* Whether some return is nested in an if or a loop. */
static bool has_nested_return(const NodeList *body)
{
	for (int i = 0; i < body->len; i++) {
		const Node *st = body->items[i];
		if ((st->kind == ND_IF || st->kind == ND_FOR || st->kind == ND_WHILE) &&
		    (has_return(&st->body, false) || has_return(&st->orelse, false)))
			return true;
	}
	return false;
}

static NodeList returns_in_loop(Jumps *j, const NodeList *body);

/* A loop whose body may return: its returns set `done` and break. */
static Node *return_loop(Jumps *j, const Node *st)
{
	Node *copy = arena_alloc(j->s->a, sizeof *copy);
	*copy = *st;
	copy->body = returns_in_loop(j, &st->body);
	return copy;
}

/* A block inside a loop: `return` becomes `done = True; break`; after a
 * nested loop that may return, `if done: break`. */
static NodeList returns_in_loop(Jumps *j, const NodeList *body)
{
	Arena *a = j->s->a;
	NodeList out = {0};
	for (int i = 0; i < body->len; i++) {
		const Node *st = body->items[i];
		if (st->kind == ND_RETURN) {
			ast_nodelist_push(a, &out, assign_node(j, j->skip, bool_node(j, true, st->offset)));
			ast_nodelist_push(a, &out, ast_new(a, ND_BREAK, st->offset));
			return out;
		}
		if ((st->kind == ND_FOR || st->kind == ND_WHILE) && has_return(&st->body, false)) {
			ast_nodelist_push(a, &out, return_loop(j, st));
			NodeList brk = {0};
			ast_nodelist_push(a, &brk, ast_new(a, ND_BREAK, st->offset));
			ast_nodelist_push(a, &out, if_node(j, name_node(j, j->skip), brk, (NodeList){0}));
			continue;
		}
		if (st->kind == ND_IF && (has_return(&st->body, false) || has_return(&st->orelse, false))) {
			Node *copy = arena_alloc(a, sizeof *copy);
			*copy = *st;
			copy->body = returns_in_loop(j, &st->body);
			copy->orelse = returns_in_loop(j, &st->orelse);
			ast_nodelist_push(a, &out, copy);
			continue;
		}
		ast_nodelist_push(a, &out, (Node *)st);
	}
	return out;
}

/* A block outside any loop: `return` sets `done` and ends the block; what
 * follows an if or a loop that may return is guarded by `done`. */
static NodeList returns_outside(Jumps *j, const NodeList *body)
{
	Arena *a = j->s->a;
	NodeList out = {0};
	for (int i = 0; i < body->len; i++) {
		const Node *st = body->items[i];
		if (st->kind == ND_RETURN) {
			ast_nodelist_push(a, &out, assign_node(j, j->skip, bool_node(j, true, st->offset)));
			return out;
		}
		bool loop = st->kind == ND_FOR || st->kind == ND_WHILE;
		if (!(loop || st->kind == ND_IF) || (!has_return(&st->body, false) && !has_return(&st->orelse, false))) {
			ast_nodelist_push(a, &out, (Node *)st);
			continue;
		}
		if (loop) {
			ast_nodelist_push(a, &out, return_loop(j, st));
		} else {
			Node *copy = arena_alloc(a, sizeof *copy);
			*copy = *st;
			copy->body = returns_outside(j, &st->body);
			copy->orelse = returns_outside(j, &st->orelse);
			ast_nodelist_push(a, &out, copy);
		}
		NodeList rest_in = {.items = body->items + i + 1, .len = body->len - i - 1};
		NodeList rest = returns_outside(j, &rest_in);
		if (rest.len) {
			NodeList pass = {0};
			ast_nodelist_push(a, &pass, ast_new(a, ND_PASS, st->offset));
			ast_nodelist_push(a, &out, if_node(j, name_node(j, j->skip), pass, rest));
		}
		return out;
	}
	return out;
}

static const Node *rewrite_returns(Spec *s, const Node *fn)
{
	if (!has_nested_return(&fn->body) || !all_returns_bare(&fn->body))
		return fn;   /* a return of a value anywhere: left as it is */
	Jumps j = {.s = s, .at = fn->offset};
	j.skip = arena_printf(s->a, "<done@%zu>", fn->offset);
	Node *copy = arena_alloc(s->a, sizeof *copy);
	*copy = *fn;
	NodeList body = returns_outside(&j, &fn->body);
	copy->body = (NodeList){0};
	ast_nodelist_push(s->a, &copy->body, assign_node(&j, j.skip, bool_node(&j, false, fn->offset)));
	for (int i = 0; i < body.len; i++)
		ast_nodelist_push(s->a, &copy->body, body.items[i]);
	return copy;
}

const Node *spec_rewrite_jumps(Spec *s, const Node *fn)
{
	fn = rewrite_returns(s, fn);
	if (!has_loop_jump(&fn->body))
		return fn;
	Node *copy = arena_alloc(s->a, sizeof *copy);
	*copy = *fn;
	copy->body = rewrite_outside(s, &fn->body);
	return copy;
}
