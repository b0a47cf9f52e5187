/* parse.c: a recursive-descent parser for the Triton kernel language.
 *
 * Each function is preceded by the grammar rule it parses. At module
 * level only function definitions are parsed; imports and any other
 * top-level statement (with its indented block) are skipped, so Python
 * that is no part of a kernel (classes, lambdas, with) does no harm. */
#include "triton/internal.h"

#include <string.h>

/* Brackets and unary operators nest at most this deep; a tree of
 * expressions (a long `a + b + ...` chain is a deep one) at most
 * MAX_TREE_DEPTH; an if/elif chain has at most MAX_ELIF branches. The
 * later stages recurse over these trees, on a stack that holds them
 * (base_run_on_big_stack). */
#define MAX_DEPTH 1000
#define MAX_TREE_DEPTH 200000
#define MAX_ELIF 1000

typedef struct Parser {
	Arena *arena;
	ArenaRun nodes;   /* where the nodes go, one after another, as later stages walk them */
	Diag *diag;
	const Source *src;
	const Token *toks;
	int ntoks;
	int pos;
	int depth;
	int elifs;     /* branches of the if/elif chain being parsed */
} Parser;

static Node *expr(Parser *P);
static Node *or_test(Parser *P);
static Node *bitor(Parser *P);
static Node *factor(Parser *P);
static void block(Parser *P, NodeList *out);

static const Token *tok(Parser *P) { return &P->toks[P->pos]; }
static const Token *peek_tok(Parser *P, int k)
{
	int i = P->pos + k;
	return &P->toks[i < P->ntoks ? i : P->ntoks - 1];
}
static void next(Parser *P)
{
	if (P->pos < P->ntoks - 1)
		P->pos++;
}
/* lex_equal, with its first tests here: the parser asks each precedence
 * level's operators of every token, and most differ in kind or first byte. */
static bool equal(Parser *P, const char *s)
{
	const Token *t = tok(P);
	if (t->kind != TK_PUNCT && t->kind != TK_KEYWORD)
		return false;
	if (t->len && P->src->text[t->offset] != s[0])
		return false;
	return lex_equal(P->src, t, s);
}

static bool consume(Parser *P, const char *s)
{
	if (!equal(P, s))
		return false;
	next(P);
	return true;
}

static TC_NORETURN void error_tok(Parser *P, const Token *t, const char *msg)
{
	if (t->kind == TK_INDENT)
		diag_fatal(P->diag, P->src, t->offset + t->len, "unexpected indent");
	if (t->kind == TK_EOF)
		diag_fatal(P->diag, P->src, t->offset, "%s (unexpected end of file)", msg);
	if (t->kind == TK_NEWLINE || t->kind == TK_DEDENT)
		diag_fatal(P->diag, P->src, t->offset, "%s (unexpected end of line)", msg);
	diag_fatal(P->diag, P->src, t->offset, "%s near '%.*s'", msg,
	           (int)(t->len > 40 ? 40 : t->len), P->src->text + t->offset);
}

static void skip(Parser *P, const char *s)
{
	if (!consume(P, s)) {
		char msg[64];
		snprintf(msg, sizeof msg, "expected '%s'", s);
		error_tok(P, tok(P), msg);
	}
}

static const char *ident(Parser *P, const char *what)
{
	const Token *t = tok(P);
	if (t->kind != TK_IDENT) {
		char msg[64];
		snprintf(msg, sizeof msg, "expected %s", what);
		error_tok(P, t, msg);
	}
	next(P);
	return arena_strndup(P->arena, P->src->text + t->offset, t->len);
}

static Node *new_node(Parser *P, NodeKind kind, size_t offset)
{
	Node *n = arena_run_alloc(P->arena, &P->nodes, sizeof *n);
	n->kind = kind;
	n->offset = offset;
	return n;
}

static void enter(Parser *P)
{
	if (++P->depth > MAX_DEPTH)
		diag_fatal(P->diag, P->src, tok(P)->offset, "too many nested expressions and statements (limit is %d)", MAX_DEPTH);
}

static Node *binop(Parser *P, Op op, Node *lhs, Node *rhs)
{
	Node *n = new_node(P, ND_BINOP, lhs->offset);
	n->op = op;
	n->lhs = lhs;
	n->rhs = rhs;
	return n;
}

/* strings = STRING+   (adjacent literals are joined) */
static Node *strings(Parser *P)
{
	Node *n = new_node(P, ND_STR, tok(P)->offset);
	Buf b = {0};
	while (tok(P)->kind == TK_STR) {
		buf_putn(&b, tok(P)->s->str, tok(P)->s->len);
		next(P);
	}
	n->str = arena_strndup(P->arena, buf_str(&b), b.len);
	n->str_len = b.len;
	buf_free(&b);
	return n;
}

/* star_expr = '*' bitor | expr */
static Node *star_expr(Parser *P)
{
	if (equal(P, "*")) {
		Node *n = new_node(P, ND_STARRED, tok(P)->offset);
		next(P);
		n->lhs = bitor(P);
		return n;
	}
	return expr(P);
}

/* exprlist = star_expr (',' star_expr)* ','?   (a tuple when there is a comma)
 * `end` lists the tokens that may follow, so a trailing comma is allowed. */
static Node *exprlist(Parser *P, Node *(*item)(Parser *))
{
	size_t at = tok(P)->offset;
	Node *first = item(P);
	if (!equal(P, ","))
		return first;
	Node *t = new_node(P, ND_TUPLE, at);
	ast_nodelist_push(P->arena, &t->items, first);
	while (consume(P, ",")) {
		const Token *k = tok(P);
		if (k->kind == TK_NEWLINE || lex_equal(P->src, k, "=") || lex_equal(P->src, k, ")") ||
		    lex_equal(P->src, k, ":") || lex_equal(P->src, k, "in") || lex_equal(P->src, k, ";") ||
		    (k->kind == TK_PUNCT && k->len == 2 && P->src->text[k->offset + 1] == '='))
			break;
		ast_nodelist_push(P->arena, &t->items, item(P));
	}
	return t;
}

/* comp_for = ('async'? 'for' targets 'in' or_test ('if' or_test)*)+
 * Turns `elt` into an ND_COMP of kind `op` (see ast.h). */
static Node *comprehension(Parser *P, Node *elt, Node *value, Op op)
{
	Node *c = new_node(P, ND_COMP, elt->offset);
	c->op = op;
	c->lhs = elt;
	c->rhs = value;
	while (equal(P, "for")) {
		Node *f = new_node(P, ND_FOR, tok(P)->offset);
		next(P);
		f->lhs = exprlist(P, bitor);
		skip(P, "in");
		f->rhs = or_test(P);
		while (consume(P, "if"))
			ast_nodelist_push(P->arena, &f->body, or_test(P));
		ast_nodelist_push(P->arena, &c->items, f);
	}
	return c;
}

/* paren = '(' ')' | '(' exprlist ')' | '(' expr comp_for ')' */
static Node *paren(Parser *P)
{
	size_t at = tok(P)->offset;
	skip(P, "(");
	if (consume(P, ")"))
		return new_node(P, ND_TUPLE, at);
	Node *n = exprlist(P, star_expr);
	if (equal(P, "for") && n->kind != ND_TUPLE)
		n = comprehension(P, n, NULL, OP_IN);
	skip(P, ")");
	return n;
}

/* list = '[' (star_expr (',' star_expr)* ','?)? ']' | '[' expr comp_for ']' */
static Node *list(Parser *P)
{
	Node *n = new_node(P, ND_LIST, tok(P)->offset);
	skip(P, "[");
	while (!equal(P, "]")) {
		ast_nodelist_push(P->arena, &n->items, star_expr(P));
		if (n->items.len == 1 && equal(P, "for")) {
			n = comprehension(P, n->items.items[0], NULL, OP_NONE);
			break;
		}
		if (!consume(P, ","))
			break;
	}
	skip(P, "]");
	return n;
}

/* dict_or_set = '{' '}'
 *             | '{' (expr ':' expr | '**' bitor) (',' ...)* ','? '}'
 *             | '{' star_expr (',' star_expr)* ','? '}' */
static Node *dict_or_set(Parser *P)
{
	Node *n = new_node(P, ND_DICT, tok(P)->offset);
	skip(P, "{");
	bool first = true;
	while (!equal(P, "}")) {
		if (equal(P, "**") && n->kind == ND_DICT) {
			next(P);
			ast_nodelist_push(P->arena, &n->items, NULL);
			ast_nodelist_push(P->arena, &n->values, bitor(P));
		} else {
			Node *k = star_expr(P);
			if (first && !equal(P, ":"))
				n->kind = ND_SET;
			if (first && n->kind == ND_SET && equal(P, "for")) {
				n = comprehension(P, k, NULL, OP_BITOR);
				break;
			}
			ast_nodelist_push(P->arena, &n->items, k);
			if (n->kind == ND_DICT) {
				skip(P, ":");
				Node *v = expr(P);
				if (first && equal(P, "for")) {
					n = comprehension(P, k, v, OP_MATMUL);
					break;
				}
				ast_nodelist_push(P->arena, &n->values, v);
			}
		}
		first = false;
		if (!consume(P, ","))
			break;
	}
	skip(P, "}");
	return n;
}

/* atom = NAME | INT | FLOAT | strings | 'True' | 'False' | 'None' | '...'
 *      | paren | list | dict_or_set */
static Node *atom(Parser *P)
{
	const Token *t = tok(P);
	Node *n;
	switch (t->kind) {
	case TK_IDENT:
		n = new_node(P, ND_NAME, t->offset);
		n->name = ident(P, "name");
		return n;
	case TK_INT:
		if (t->overflow)
			error_tok(P, t, "integer literal too large");
		n = new_node(P, ND_INT, t->offset);
		n->ival = t->ival;
		next(P);
		return n;
	case TK_FLOAT:
		n = new_node(P, ND_FLOAT, t->offset);
		n->fval = t->fval;
		next(P);
		return n;
	case TK_STR:
		return strings(P);
	default:
		break;
	}
	static const struct { const char *s; NodeKind k; } consts[] = {
		{"True", ND_TRUE}, {"False", ND_FALSE}, {"None", ND_NONE}, {"...", ND_ELLIPSIS},
	};
	for (size_t i = 0; i < TC_COUNT(consts); i++) {
		if (equal(P, consts[i].s)) {
			next(P);
			return new_node(P, consts[i].k, t->offset);
		}
	}
	if (equal(P, "("))
		return paren(P);
	if (equal(P, "["))
		return list(P);
	if (equal(P, "{"))
		return dict_or_set(P);
	error_tok(P, t, "invalid syntax: expected an expression");
}

/* args = (arg (',' arg)* ','?)?
 * arg  = NAME '=' expr | '**' expr | '*' expr | expr */
static void call_args(Parser *P, Node *call)
{
	while (!equal(P, ")")) {
		const Token *t = tok(P);
		if (t->kind == TK_IDENT && lex_equal(P->src, peek_tok(P, 1), "=")) {
			Node *k = new_node(P, ND_KEYWORD, t->offset);
			k->name = ident(P, "name");
			next(P);
			k->rhs = expr(P);
			ast_nodelist_push(P->arena, &call->keywords, k);
		} else if (equal(P, "**")) {
			Node *k = new_node(P, ND_KEYWORD, t->offset);
			next(P);
			k->rhs = expr(P);
			ast_nodelist_push(P->arena, &call->keywords, k);
		} else {
			if (call->keywords.len > 0 && !equal(P, "*"))
				error_tok(P, t, "positional argument follows keyword argument");
			Node *arg = star_expr(P);
			if (equal(P, "for"))
				arg = comprehension(P, arg, NULL, OP_IN);
			ast_nodelist_push(P->arena, &call->items, arg);
		}
		if (!consume(P, ","))
			break;
	}
	skip(P, ")");
}

/* slice = expr? ':' expr? (':' expr?)? | expr */
static Node *slice(Parser *P)
{
	size_t at = tok(P)->offset;
	Node *lo = NULL;
	if (!equal(P, ":"))
		lo = expr(P);
	if (!consume(P, ":"))
		return lo;
	Node *n = new_node(P, ND_SLICE, at);
	n->lhs = lo;
	if (!equal(P, ":") && !equal(P, ",") && !equal(P, "]"))
		n->rhs = expr(P);
	if (consume(P, ":") && !equal(P, ",") && !equal(P, "]"))
		n->cond = expr(P);
	return n;
}

/* subscript = slice (',' slice)* ','?   (a tuple when there is a comma) */
static Node *subscript(Parser *P)
{
	size_t at = tok(P)->offset;
	Node *first = slice(P);
	if (!equal(P, ","))
		return first;
	Node *t = new_node(P, ND_TUPLE, at);
	ast_nodelist_push(P->arena, &t->items, first);
	while (consume(P, ",") && !equal(P, "]"))
		ast_nodelist_push(P->arena, &t->items, slice(P));
	return t;
}

/* primary = atom ('(' args ')' | '[' subscript ']' | '.' NAME)* */
static Node *primary(Parser *P)
{
	Node *n = atom(P);
	for (;;) {
		size_t at = tok(P)->offset;
		if (consume(P, "(")) {
			Node *c = new_node(P, ND_CALL, n->offset);
			c->lhs = n;
			call_args(P, c);
			n = c;
		} else if (consume(P, "[")) {
			Node *s = new_node(P, ND_SUBSCRIPT, n->offset);
			s->lhs = n;
			s->rhs = subscript(P);
			skip(P, "]");
			n = s;
		} else if (consume(P, ".")) {
			Node *a = new_node(P, ND_ATTR, n->offset);
			a->lhs = n;
			a->name = ident(P, "attribute name after '.'");
			n = a;
		} else {
			(void)at;
			return n;
		}
	}
}

/* power = primary ('**' factor)?
 * `a ** -b ** c` is a ** (-(b ** c)): a chain is read in a loop and built
 * from the right, so its length costs no C stack here. */
static Node *power(Parser *P)
{
	Node *n = primary(P);
	if (!equal(P, "**"))
		return n;
	NodeList bases = {0}, heads = {0}, tails = {0};   /* operand k: unary ops head..tail, then bases[k] */
	ast_nodelist_push(P->arena, &bases, n);
	ast_nodelist_push(P->arena, &heads, NULL);
	ast_nodelist_push(P->arena, &tails, NULL);
	while (consume(P, "**")) {
		Node *head = NULL, *tail = NULL;
		for (;;) {
			Op op = equal(P, "-") ? OP_NEG : equal(P, "+") ? OP_POS : equal(P, "~") ? OP_INVERT : OP_NONE;
			if (op == OP_NONE)
				break;
			Node *u = new_node(P, ND_UNARY, tok(P)->offset);
			next(P);
			u->op = op;
			if (tail)
				tail->lhs = u;
			else
				head = u;
			tail = u;
		}
		ast_nodelist_push(P->arena, &bases, primary(P));
		ast_nodelist_push(P->arena, &heads, head);
		ast_nodelist_push(P->arena, &tails, tail);
	}
	Node *acc = NULL;
	for (int k = bases.len - 1; k >= 0; k--) {
		Node *x = acc ? binop(P, OP_POW, bases.items[k], acc) : bases.items[k];
		if (tails.items[k]) {
			tails.items[k]->lhs = x;
			x = heads.items[k];
		}
		acc = x;
	}
	return acc;
}

/* factor = ('+' | '-' | '~') factor | power */
static Node *factor(Parser *P)
{
	Op op = equal(P, "-") ? OP_NEG : equal(P, "+") ? OP_POS : equal(P, "~") ? OP_INVERT : OP_NONE;
	if (op == OP_NONE)
		return power(P);
	enter(P);
	Node *n = new_node(P, ND_UNARY, tok(P)->offset);
	next(P);
	n->op = op;
	n->lhs = factor(P);
	P->depth--;
	return n;
}

/* A left-associative binary level: operand (OP operand)* */
typedef struct { const char *s; Op op; } OpTab;

static Node *binary_level(Parser *P, Node *(*operand)(Parser *), const OpTab *tab, size_t n)
{
	Node *lhs = operand(P);
	for (;;) {
		size_t i = 0;
		while (i < n && !equal(P, tab[i].s))
			i++;
		if (i == n)
			return lhs;
		next(P);
		lhs = binop(P, tab[i].op, lhs, operand(P));
	}
}

/* term = factor (('*' | '/' | '//' | '%' | '@') factor)* */
static Node *term(Parser *P)
{
	static const OpTab t[] = {{"*", OP_MUL}, {"/", OP_DIV}, {"//", OP_FLOORDIV}, {"%", OP_MOD}, {"@", OP_MATMUL}};
	return binary_level(P, factor, t, TC_COUNT(t));
}

/* arith = term (('+' | '-') term)* */
static Node *arith(Parser *P)
{
	static const OpTab t[] = {{"+", OP_ADD}, {"-", OP_SUB}};
	return binary_level(P, term, t, TC_COUNT(t));
}

/* shift = arith (('<<' | '>>') arith)* */
static Node *shift(Parser *P)
{
	static const OpTab t[] = {{"<<", OP_LSHIFT}, {">>", OP_RSHIFT}};
	return binary_level(P, arith, t, TC_COUNT(t));
}

/* bitand = shift ('&' shift)* */
static Node *bitand(Parser *P)
{
	static const OpTab t[] = {{"&", OP_BITAND}};
	return binary_level(P, shift, t, TC_COUNT(t));
}

/* bitxor = bitand ('^' bitand)* */
static Node *bitxor(Parser *P)
{
	static const OpTab t[] = {{"^", OP_BITXOR}};
	return binary_level(P, bitand, t, TC_COUNT(t));
}

/* bitor = bitxor ('|' bitxor)* */
static Node *bitor(Parser *P)
{
	static const OpTab t[] = {{"|", OP_BITOR}};
	return binary_level(P, bitxor, t, TC_COUNT(t));
}

/* Reads a comparison operator, or returns OP_NONE. */
static Op comp_op(Parser *P)
{
	static const OpTab t[] = {{"<", OP_LT}, {"<=", OP_LE}, {">", OP_GT}, {">=", OP_GE},
	                          {"==", OP_EQ}, {"!=", OP_NE}, {"in", OP_IN}};
	for (size_t i = 0; i < TC_COUNT(t); i++)
		if (consume(P, t[i].s))
			return t[i].op;
	if (equal(P, "not") && lex_equal(P->src, peek_tok(P, 1), "in")) {
		next(P), next(P);
		return OP_NOTIN;
	}
	if (consume(P, "is"))
		return consume(P, "not") ? OP_ISNOT : OP_IS;
	return OP_NONE;
}

/* comparison = bitor (comp_op bitor)*
 * comp_op    = '<' | '<=' | '>' | '>=' | '==' | '!=' | 'in' | 'not' 'in' | 'is' | 'is' 'not' */
static Node *comparison(Parser *P)
{
	Node *first = bitor(P);
	Op op = comp_op(P);
	if (op == OP_NONE)
		return first;
	Node *n = new_node(P, ND_COMPARE, first->offset);
	ast_nodelist_push(P->arena, &n->items, first);
	Op *ops = NULL;
	int nops = 0, cap = 0;
	while (op != OP_NONE) {
		if (nops == cap) {   /* a chain of any length: the array grows */
			cap = cap ? 2 * cap : 4;
			Op *grown = arena_alloc(P->arena, sizeof *grown * (size_t)cap);
			if (nops)
				memcpy(grown, ops, sizeof *ops * (size_t)nops);
			ops = grown;
		}
		ops[nops++] = op;
		ast_nodelist_push(P->arena, &n->items, bitor(P));
		op = comp_op(P);
	}
	n->ops = ops;
	return n;
}

/* not_test = 'not' not_test | comparison */
static Node *not_test(Parser *P)
{
	if (!equal(P, "not"))
		return comparison(P);
	enter(P);
	Node *n = new_node(P, ND_UNARY, tok(P)->offset);
	next(P);
	n->op = OP_NOT;
	n->lhs = not_test(P);
	P->depth--;
	return n;
}

/* and_test = not_test ('and' not_test)*
 * or_test  = and_test ('or' and_test)* */
static Node *bool_level(Parser *P, const char *kw, Op op, Node *(*operand)(Parser *))
{
	Node *first = operand(P);
	if (!equal(P, kw))
		return first;
	Node *n = new_node(P, ND_BOOLOP, first->offset);
	n->op = op;
	ast_nodelist_push(P->arena, &n->items, first);
	while (consume(P, kw))
		ast_nodelist_push(P->arena, &n->items, operand(P));
	return n;
}

static Node *and_test(Parser *P) { return bool_level(P, "and", OP_AND, not_test); }
static Node *or_test(Parser *P) { return bool_level(P, "or", OP_OR, and_test); }

/* lambda = 'lambda' (lparam (',' lparam)* ','?)? ':' expr
 * lparam = ('*' | '**')? NAME ('=' expr)?
 * (Only so that decorators such as @triton.heuristics parse.) */
static Node *lambda(Parser *P)
{
	Node *n = new_node(P, ND_LAMBDA, tok(P)->offset);
	skip(P, "lambda");
	while (!equal(P, ":")) {
		Node *p = new_node(P, ND_PARAM, tok(P)->offset);
		if (consume(P, "**"))
			p->op = OP_STARSTAR;
		else if (consume(P, "*"))
			p->op = OP_STAR;
		p->name = ident(P, "parameter name");
		if (consume(P, "="))
			p->rhs = expr(P);
		ast_nodelist_push(P->arena, &n->params, p);
		if (!consume(P, ","))
			break;
	}
	skip(P, ":");
	n->lhs = expr(P);
	return n;
}

/* expr = lambda | or_test ('if' or_test 'else' expr)? */
static Node *expr(Parser *P)
{
	enter(P);
	if (equal(P, "lambda")) {
		Node *l = lambda(P);
		P->depth--;
		return l;
	}
	Node *n = or_test(P);
	if (equal(P, "if")) {
		Node *t = new_node(P, ND_TERNARY, n->offset);
		next(P);
		t->lhs = n;
		t->cond = or_test(P);
		skip(P, "else");
		t->rhs = expr(P);
		n = t;
	}
	P->depth--;
	return n;
}

/* ---- statements ---- */

static void end_of_line(Parser *P)
{
	if (tok(P)->kind != TK_NEWLINE)
		error_tok(P, tok(P), "invalid syntax");
	next(P);
}

static Op aug_op(Parser *P)
{
	static const OpTab t[] = {
		{"+=", OP_ADD}, {"-=", OP_SUB}, {"*=", OP_MUL}, {"/=", OP_DIV}, {"//=", OP_FLOORDIV},
		{"%=", OP_MOD}, {"**=", OP_POW}, {"@=", OP_MATMUL}, {"<<=", OP_LSHIFT}, {">>=", OP_RSHIFT},
		{"&=", OP_BITAND}, {"|=", OP_BITOR}, {"^=", OP_BITXOR},
	};
	for (size_t i = 0; i < TC_COUNT(t); i++)
		if (consume(P, t[i].s))
			return t[i].op;
	return OP_NONE;
}

static void check_target(Parser *P, Node *n)
{
	switch (n->kind) {
	case ND_NAME: case ND_ATTR: case ND_SUBSCRIPT:
		return;
	case ND_TUPLE: case ND_LIST:
		for (int i = 0; i < n->items.len; i++)
			check_target(P, n->items.items[i]);
		return;
	case ND_STARRED:
		check_target(P, n->lhs);
		return;
	default:
		diag_fatal(P->diag, P->src, n->offset, "cannot assign to %s", ast_kind_name(n->kind));
	}
}

/* expr_stmt = exprlist ':' expr ('=' exprlist)?       annotated assignment
 *           | exprlist augop exprlist                  augmented assignment
 *           | exprlist ('=' exprlist)*                 assignment or expression */
static Node *expr_stmt(Parser *P)
{
	size_t at = tok(P)->offset;
	Node *lhs = exprlist(P, star_expr);
	if (consume(P, ":")) {
		if (lhs->kind != ND_NAME && lhs->kind != ND_ATTR && lhs->kind != ND_SUBSCRIPT)
			diag_fatal(P->diag, P->src, lhs->offset, "only a single target can be annotated");
		Node *n = new_node(P, ND_ANNASSIGN, at);
		n->lhs = lhs;
		n->cond = expr(P);
		if (consume(P, "="))
			n->rhs = exprlist(P, star_expr);
		return n;
	}
	Op op = aug_op(P);
	if (op != OP_NONE) {
		if (lhs->kind != ND_NAME && lhs->kind != ND_ATTR && lhs->kind != ND_SUBSCRIPT)
			diag_fatal(P->diag, P->src, lhs->offset, "illegal target for augmented assignment");
		Node *n = new_node(P, ND_AUGASSIGN, at);
		n->op = op;
		n->lhs = lhs;
		n->rhs = exprlist(P, star_expr);
		return n;
	}
	if (!equal(P, "=")) {
		Node *n = new_node(P, ND_EXPR_STMT, at);
		n->lhs = lhs;
		return n;
	}
	Node *n = new_node(P, ND_ASSIGN, at);
	Node *value = lhs;
	while (consume(P, "=")) {
		check_target(P, value);
		ast_nodelist_push(P->arena, &n->items, value);
		value = exprlist(P, star_expr);
	}
	n->rhs = value;
	return n;
}

/* simple_stmt = 'pass' | 'break' | 'continue' | 'return' exprlist?
 *             | 'assert' expr (',' expr)? | expr_stmt */
static Node *simple_stmt(Parser *P)
{
	const Token *t = tok(P);
	static const struct { const char *s; NodeKind k; } words[] = {
		{"pass", ND_PASS}, {"break", ND_BREAK}, {"continue", ND_CONTINUE},
	};
	for (size_t i = 0; i < TC_COUNT(words); i++)
		if (consume(P, words[i].s))
			return new_node(P, words[i].k, t->offset);
	if (consume(P, "return")) {
		Node *n = new_node(P, ND_RETURN, t->offset);
		if (tok(P)->kind != TK_NEWLINE && !equal(P, ";"))
			n->lhs = exprlist(P, star_expr);
		return n;
	}
	if (consume(P, "assert")) {
		Node *n = new_node(P, ND_ASSERT, t->offset);
		n->cond = expr(P);
		if (consume(P, ","))
			n->rhs = expr(P);
		return n;
	}
	if (t->kind == TK_KEYWORD && !equal(P, "not") && !equal(P, "True") && !equal(P, "False") &&
	    !equal(P, "None") && !equal(P, "lambda"))
		diag_fatal(P->diag, P->src, t->offset, "'%.*s' statement is not supported in a kernel",
		           (int)t->len, P->src->text + t->offset);
	return expr_stmt(P);
}

/* simple_stmts = simple_stmt (';' simple_stmt)* ';'? NEWLINE */
static void simple_stmts(Parser *P, NodeList *out)
{
	ast_nodelist_push(P->arena, out, simple_stmt(P));
	while (consume(P, ";") && tok(P)->kind != TK_NEWLINE)
		ast_nodelist_push(P->arena, out, simple_stmt(P));
	end_of_line(P);
}

/* if_stmt = 'if' expr ':' block ('elif' expr ':' block)* ('else' ':' block)? */
static Node *if_stmt(Parser *P)
{
	Node *n = new_node(P, ND_IF, tok(P)->offset);
	if (equal(P, "if"))
		P->elifs = 0;
	int elifs = P->elifs;   /* an if in a branch starts a chain of its own */
	next(P); /* 'if' or 'elif' */
	n->cond = expr(P);
	skip(P, ":");
	block(P, &n->body);
	if (equal(P, "elif")) {
		if (elifs + 1 >= MAX_ELIF)
			diag_fatal(P->diag, P->src, tok(P)->offset, "too many elif branches in one if statement (limit is %d)",
				   MAX_ELIF);
		P->elifs = elifs + 1;
		ast_nodelist_push(P->arena, &n->orelse, if_stmt(P));
	} else if (consume(P, "else")) {
		skip(P, ":");
		block(P, &n->orelse);
	}
	return n;
}

/* else_block = ('else' ':' block)?   (the tail of for and while) */
static void else_block(Parser *P, NodeList *orelse)
{
	if (consume(P, "else")) {
		skip(P, ":");
		block(P, orelse);
	}
}

/* for_stmt = 'for' targets 'in' exprlist ':' block ('else' ':' block)?
 * targets  = bitor (',' bitor)* ','? */
static Node *for_stmt(Parser *P)
{
	Node *n = new_node(P, ND_FOR, tok(P)->offset);
	skip(P, "for");
	n->lhs = exprlist(P, bitor);
	check_target(P, n->lhs);
	skip(P, "in");
	n->rhs = exprlist(P, star_expr);
	skip(P, ":");
	block(P, &n->body);
	else_block(P, &n->orelse);
	return n;
}

/* while_stmt = 'while' expr ':' block ('else' ':' block)? */
static Node *while_stmt(Parser *P)
{
	Node *n = new_node(P, ND_WHILE, tok(P)->offset);
	skip(P, "while");
	n->cond = expr(P);
	skip(P, ":");
	block(P, &n->body);
	else_block(P, &n->orelse);
	return n;
}

/* param = ('*' | '**')? NAME (':' expr)? ('=' expr)? */
static Node *param(Parser *P)
{
	Node *n = new_node(P, ND_PARAM, tok(P)->offset);
	if (consume(P, "**"))
		n->op = OP_STARSTAR;
	else if (consume(P, "*"))
		n->op = OP_STAR;
	n->name = ident(P, "parameter name");
	if (consume(P, ":"))
		n->lhs = expr(P);
	if (consume(P, "="))
		n->rhs = expr(P);
	return n;
}

/* funcdef = 'def' NAME '(' (param (',' param)* ','?)? ')' ('->' expr)? ':' block */
static Node *funcdef(Parser *P)
{
	Node *n = new_node(P, ND_FUNCDEF, tok(P)->offset);
	skip(P, "def");
	n->name = ident(P, "function name");
	skip(P, "(");
	while (!equal(P, ")")) {
		Node *p = param(P);
		for (int i = 0; i < n->params.len; i++)
			if (strcmp(n->params.items[i]->name, p->name) == 0)
				diag_fatal(P->diag, P->src, p->offset, "duplicate argument '%s' in function definition", p->name);
		ast_nodelist_push(P->arena, &n->params, p);
		if (!consume(P, ","))
			break;
	}
	skip(P, ")");
	if (consume(P, "->"))
		n->rhs = expr(P);
	skip(P, ":");
	block(P, &n->body);
	return n;
}

/* decorated = ('@' expr NEWLINE)+ funcdef */
static Node *decorated(Parser *P)
{
	NodeList decs = {0};
	while (consume(P, "@")) {
		ast_nodelist_push(P->arena, &decs, expr(P));
		end_of_line(P);
	}
	if (!equal(P, "def"))
		error_tok(P, tok(P), "expected 'def' after decorator");
	Node *n = funcdef(P);
	n->decorators = decs;
	return n;
}

/* stmt = if_stmt | for_stmt | while_stmt | decorated | funcdef | simple_stmts */
static void stmt(Parser *P, NodeList *out)
{
	if (equal(P, "if"))
		ast_nodelist_push(P->arena, out, if_stmt(P));
	else if (equal(P, "for"))
		ast_nodelist_push(P->arena, out, for_stmt(P));
	else if (equal(P, "while"))
		ast_nodelist_push(P->arena, out, while_stmt(P));
	else if (equal(P, "@"))
		ast_nodelist_push(P->arena, out, decorated(P));
	else if (equal(P, "def"))
		ast_nodelist_push(P->arena, out, funcdef(P));
	else if (equal(P, "elif") || equal(P, "else"))
		error_tok(P, tok(P), "invalid syntax");
	else if (tok(P)->kind == TK_INDENT)
		error_tok(P, tok(P), "unexpected indent");
	else
		simple_stmts(P, out);
}

/* block = NEWLINE INDENT stmt+ DEDENT | simple_stmts */
static void block(Parser *P, NodeList *out)
{
	if (tok(P)->kind != TK_NEWLINE) {
		simple_stmts(P, out);
		return;
	}
	next(P);
	if (tok(P)->kind != TK_INDENT)
		diag_fatal(P->diag, P->src, tok(P)->offset, "expected an indented block");
	next(P);
	while (tok(P)->kind != TK_DEDENT && tok(P)->kind != TK_EOF)
		stmt(P, out);
	next(P);
}

/* Skips a statement the front end does not need: its logical line and,
 * when it opens a block, the whole indented block. */
static void skip_stmt(Parser *P)
{
	while (tok(P)->kind != TK_NEWLINE && tok(P)->kind != TK_EOF)
		next(P);
	next(P);
	if (tok(P)->kind != TK_INDENT)
		return;
	int level = 0;
	do {
		if (tok(P)->kind == TK_INDENT)
			level++;
		else if (tok(P)->kind == TK_DEDENT)
			level--;
		next(P);
	} while (level > 0 && tok(P)->kind != TK_EOF);
}

/* The dotted name a decorator starts with (`triton.testing.perf_report`
 * for `@triton.testing.perf_report(...)`), read from the tokens without
 * parsing it; NULL when it does not start with a name. */
static const char *decorator_name(Parser *P)
{
	Buf b = {0};
	int k = 0;
	while (peek_tok(P, k)->kind == TK_IDENT) {
		const Token *t = peek_tok(P, k);
		buf_putn(&b, P->src->text + t->offset, t->len);
		if (!lex_equal(P->src, peek_tok(P, k + 1), "."))
			break;
		buf_putc(&b, '.');
		k += 2;
	}
	const char *res = b.len ? arena_strdup(P->arena, buf_str(&b)) : NULL;
	buf_free(&b);
	return res;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);
	return n >= m && strcmp(s + n - m, tail) == 0;
}

/* True for the decorators that make or configure a kernel: @triton.jit,
 * @jit, @triton.autotune(...), @triton.heuristics(...), Inductor's
 * @triton_heuristics.X(...). Other decorators (@triton.testing.perf_report,
 * @torch.jit.script, @pytest.mark...) belong to host code. */
static bool is_kernel_decorator(const char *name, bool *jit)
{
	if (!name)
		return false;
	if (strcmp(name, "jit") == 0 || strcmp(name, "triton.jit") == 0 || ends_with(name, "language.jit")) {
		*jit = true;
		return true;
	}
	if (strncmp(name, "triton_heuristics.", 18) == 0) {
		*jit = true;
		return true;
	}
	return strcmp(name, "triton.autotune") == 0 || strcmp(name, "autotune") == 0 ||
	       strcmp(name, "triton.heuristics") == 0 || strcmp(name, "heuristics") == 0;
}

/* Skips the rest of a logical line (brackets join lines in the lexer). */
static void skip_line(Parser *P)
{
	while (tok(P)->kind != TK_NEWLINE && tok(P)->kind != TK_EOF)
		next(P);
	next(P);
}

/* top_def = decorated, when a decorator is @triton.jit (or Inductor's);
 * other decorated definitions are skipped, and so are decorators that
 * are host code, unparsed. */
static void top_def(Parser *P, NodeList *out)
{
	NodeList decs = {0};
	bool triton = false;
	while (consume(P, "@")) {
		if (!is_kernel_decorator(decorator_name(P), &triton)) {
			skip_line(P);
			continue;
		}
		Node *d = expr(P);
		ast_nodelist_push(P->arena, &decs, d);
		end_of_line(P);
	}
	if (!equal(P, "def"))
		error_tok(P, tok(P), "expected 'def' after decorator");
	if (!triton) {
		skip_stmt(P);
		return;
	}
	Node *n = funcdef(P);
	n->decorators = decs;
	ast_nodelist_push(P->arena, out, n);
}

/* module = (top_def | skipped_stmt | NEWLINE)* EOF */
static Node *module(Parser *P)
{
	Node *m = new_node(P, ND_MODULE, 0);
	while (tok(P)->kind != TK_EOF) {
		if (tok(P)->kind == TK_NEWLINE) {
			next(P);
		} else if (tok(P)->kind == TK_INDENT) {
			error_tok(P, tok(P), "unexpected indent");
		} else if (equal(P, "@")) {
			top_def(P, &m->body);
		} else {
			skip_stmt(P);
		}
	}
	return m;
}

/* Every tree below `root` is at most MAX_TREE_DEPTH deep: a walk with a
 * stack of its own (arena-backed), never recursion. */
static void check_depth(Parser *P, Node *root)
{
	typedef struct { Node *n; int depth; } Item;
	size_t cap = 1024, len = 0;
	Item *st = arena_alloc(P->arena, sizeof *st * cap);
	st[len++] = (Item){root, 1};
	while (len) {
		Item it = st[--len];
		if (it.depth > MAX_TREE_DEPTH)
			diag_fatal(P->diag, P->src, it.n->offset, "expression nested too deeply (limit is %d)", MAX_TREE_DEPTH);
		Node *one[3] = {it.n->lhs, it.n->rhs, it.n->cond};
		const NodeList *lists[] = {&it.n->items, &it.n->values, &it.n->keywords, &it.n->params,
					   &it.n->decorators, &it.n->body, &it.n->orelse};
		size_t need = 3;
		for (size_t i = 0; i < TC_COUNT(lists); i++)
			need += (size_t)lists[i]->len;
		if (len + need > cap) {
			size_t ncap = (len + need) * 2;
			Item *bigger = arena_alloc(P->arena, sizeof *bigger * ncap);
			memcpy(bigger, st, sizeof *st * len);
			st = bigger;
			cap = ncap;
		}
		for (int i = 0; i < 3; i++)
			if (one[i])
				st[len++] = (Item){one[i], it.depth + 1};
		for (size_t i = 0; i < TC_COUNT(lists); i++)
			for (int j = 0; j < lists[i]->len; j++)
				if (lists[i]->items[j])
					st[len++] = (Item){lists[i]->items[j], it.depth + 1};
	}
}

Node *parse_run(Arena *a, Diag *d, const Source *src, const Token *toks, int ntoks)
{
	Parser P = {.arena = a, .diag = d, .src = src, .toks = toks, .ntoks = ntoks};
	Node *m = module(&P);
	if (m)
		check_depth(&P, m);
	return m;
}

Node *parse_module(Arena *a, Diag *d, const Source *src)
{
	jmp_buf jb;
	jmp_buf *saved = d->jump;
	Node *volatile res = NULL;
	d->jump = &jb;
	if (setjmp(jb) == 0) {
		int n;
		Token *toks = lex_run(a, d, src, &n);
		res = parse_run(a, d, src, toks, n);
	}
	d->jump = saved;
	return res;
}

Node *parse_expression(Arena *a, Diag *d, const Source *src)
{
	jmp_buf jb;
	jmp_buf *saved = d->jump;
	Node *volatile res = NULL;
	d->jump = &jb;
	if (setjmp(jb) == 0) {
		int n;
		Token *toks = lex_run(a, d, src, &n);
		Parser P = {.arena = a, .diag = d, .src = src, .toks = toks, .ntoks = n};
		Node *e = exprlist(&P, star_expr);
		check_depth(&P, e);
		while (tok(&P)->kind == TK_NEWLINE)
			next(&P);
		if (tok(&P)->kind != TK_EOF)
			error_tok(&P, tok(&P), "unexpected token after expression");
		res = e;
	}
	d->jump = saved;
	return res;
}
