/* ast.c: AST construction helpers, queries and the S-expression dump. */
#include "triton/triton.h"

#include <string.h>

void ast_nodelist_push(Arena *a, NodeList *l, Node *n)
{
	if (l->len == l->cap) {
		int cap = l->cap ? l->cap * 2 : 4;
		Node **items = arena_alloc(a, sizeof(Node *) * (size_t)cap);
		if (l->len)
			memcpy(items, l->items, sizeof(Node *) * (size_t)l->len);
		l->items = items;
		l->cap = cap;
	}
	l->items[l->len++] = n;
}

Node *ast_new(Arena *a, NodeKind kind, size_t offset)
{
	Node *n = arena_alloc(a, sizeof(Node));
	n->kind = kind;
	n->offset = offset;
	return n;
}

static const char *kind_names[] = {
	[ND_MODULE] = "module", [ND_FUNCDEF] = "def", [ND_PARAM] = "param",
	[ND_EXPR_STMT] = "expr", [ND_ASSIGN] = "assign", [ND_ANNASSIGN] = "annassign",
	[ND_AUGASSIGN] = "augassign", [ND_FOR] = "for", [ND_IF] = "if", [ND_WHILE] = "while",
	[ND_RETURN] = "return", [ND_ASSERT] = "assert", [ND_PASS] = "pass",
	[ND_BREAK] = "break", [ND_CONTINUE] = "continue", [ND_NAME] = "name",
	[ND_INT] = "int", [ND_FLOAT] = "float", [ND_STR] = "str", [ND_TRUE] = "True",
	[ND_FALSE] = "False", [ND_NONE] = "None", [ND_ELLIPSIS] = "...",
	[ND_TUPLE] = "tuple", [ND_LIST] = "list", [ND_SET] = "set", [ND_DICT] = "dict",
	[ND_BINOP] = "binop", [ND_UNARY] = "unary", [ND_BOOLOP] = "boolop",
	[ND_COMPARE] = "compare", [ND_TERNARY] = "ternary", [ND_CALL] = "call",
	[ND_KEYWORD] = "kw", [ND_STARRED] = "starred", [ND_ATTR] = "attr",
	[ND_SUBSCRIPT] = "subscript", [ND_SLICE] = "slice", [ND_LAMBDA] = "lambda", [ND_COMP] = "comprehension",
};

const char *ast_kind_name(NodeKind kind)
{
	return (unsigned)kind < TC_COUNT(kind_names) && kind_names[kind] ? kind_names[kind] : "?";
}

const char *ast_op_name(Op op)
{
	static const char *names[] = {
		[OP_NONE] = "?", [OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/",
		[OP_FLOORDIV] = "//", [OP_MOD] = "%", [OP_POW] = "**", [OP_MATMUL] = "@",
		[OP_LSHIFT] = "<<", [OP_RSHIFT] = ">>", [OP_BITAND] = "&", [OP_BITOR] = "|",
		[OP_BITXOR] = "^", [OP_NEG] = "-", [OP_POS] = "+", [OP_INVERT] = "~",
		[OP_NOT] = "not", [OP_AND] = "and", [OP_OR] = "or", [OP_LT] = "<", [OP_LE] = "<=",
		[OP_GT] = ">", [OP_GE] = ">=", [OP_EQ] = "==", [OP_NE] = "!=", [OP_IS] = "is",
		[OP_ISNOT] = "is not", [OP_IN] = "in", [OP_NOTIN] = "not in", [OP_STAR] = "*",
		[OP_STARSTAR] = "**",
	};
	return (unsigned)op < TC_COUNT(names) && names[op] ? names[op] : "?";
}

static void dump(Buf *b, const Node *n, int depth);

static void dump_list(Buf *b, const char *tag, const NodeList *l, int depth)
{
	buf_printf(b, " (%s", tag);
	for (int i = 0; i < l->len; i++) {
		buf_putc(b, ' ');
		dump(b, l->items[i], depth);
	}
	buf_putc(b, ')');
}

/* Statement lists go one per line, indented. */
static void dump_block(Buf *b, const char *tag, const NodeList *l, int depth)
{
	buf_printf(b, "\n");
	buf_indent(b, depth);
	buf_printf(b, "(%s", tag);
	for (int i = 0; i < l->len; i++) {
		buf_putc(b, '\n');
		buf_indent(b, depth + 1);
		dump(b, l->items[i], depth + 1);
	}
	buf_putc(b, ')');
}

static void dump_opt(Buf *b, const Node *n, int depth)
{
	buf_putc(b, ' ');
	if (n)
		dump(b, n, depth);
	else
		buf_puts(b, "_");
}

static void dump_str(Buf *b, const char *s, size_t n)
{
	buf_putc(b, '\'');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\'' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c == '\n')
			buf_puts(b, "\\n");
		else if (c < 0x20 || c >= 0x7f)
			buf_printf(b, "\\x%02x", c);
		else
			buf_putc(b, (char)c);
	}
	buf_putc(b, '\'');
}

static void dump(Buf *b, const Node *n, int depth)
{
	if (!n) {
		buf_puts(b, "_");
		return;
	}
	switch (n->kind) {
	case ND_NAME: buf_puts(b, n->name); return;
	case ND_INT: buf_printf(b, "%lld", (long long)n->ival); return;
	case ND_FLOAT: buf_printf(b, "%gf", n->fval); return;
	case ND_STR: dump_str(b, n->str, n->str_len); return;
	case ND_TRUE: case ND_FALSE: case ND_NONE: case ND_ELLIPSIS: case ND_PASS:
	case ND_BREAK: case ND_CONTINUE:
		buf_puts(b, ast_kind_name(n->kind));
		return;
	default:
		break;
	}
	buf_printf(b, "(%s", ast_kind_name(n->kind));
	switch (n->kind) {
	case ND_MODULE:
		dump_block(b, "body", &n->body, depth + 1);
		break;
	case ND_FUNCDEF:
		buf_printf(b, " %s", n->name);
		if (n->decorators.len)
			dump_list(b, "decorators", &n->decorators, depth);
		dump_list(b, "params", &n->params, depth);
		if (n->rhs)
			dump_opt(b, n->rhs, depth);
		dump_block(b, "body", &n->body, depth + 1);
		break;
	case ND_PARAM:
		buf_printf(b, " %s%s", n->op ? ast_op_name(n->op) : "", n->name);
		if (n->lhs || n->rhs) {
			dump_opt(b, n->lhs, depth);
			dump_opt(b, n->rhs, depth);
		}
		break;
	case ND_IF: case ND_WHILE: case ND_FOR:
		if (n->kind == ND_FOR) {
			dump_opt(b, n->lhs, depth);
			dump_opt(b, n->rhs, depth);
		} else {
			dump_opt(b, n->cond, depth);
		}
		dump_block(b, "body", &n->body, depth + 1);
		if (n->orelse.len)
			dump_block(b, "else", &n->orelse, depth + 1);
		break;
	case ND_ASSIGN:
		dump_list(b, "targets", &n->items, depth);
		dump_opt(b, n->rhs, depth);
		break;
	case ND_ANNASSIGN:
		dump_opt(b, n->lhs, depth);
		dump_opt(b, n->cond, depth);
		dump_opt(b, n->rhs, depth);
		break;
	case ND_AUGASSIGN: case ND_BINOP:
		buf_printf(b, " %s", ast_op_name(n->op));
		dump_opt(b, n->lhs, depth);
		dump_opt(b, n->rhs, depth);
		break;
	case ND_UNARY:
		buf_printf(b, " %s", ast_op_name(n->op));
		dump_opt(b, n->lhs, depth);
		break;
	case ND_BOOLOP:
		buf_printf(b, " %s", ast_op_name(n->op));
		for (int i = 0; i < n->items.len; i++)
			dump_opt(b, n->items.items[i], depth);
		break;
	case ND_COMPARE:
		dump_opt(b, n->items.items[0], depth);
		for (int i = 1; i < n->items.len; i++) {
			buf_printf(b, " %s", ast_op_name(n->ops[i - 1]));
			dump_opt(b, n->items.items[i], depth);
		}
		break;
	case ND_TUPLE: case ND_LIST: case ND_SET:
		for (int i = 0; i < n->items.len; i++)
			dump_opt(b, n->items.items[i], depth);
		break;
	case ND_DICT:
		for (int i = 0; i < n->items.len; i++) {
			buf_puts(b, " (");
			dump(b, n->items.items[i], depth);
			buf_puts(b, ":");
			dump_opt(b, n->values.items[i], depth);
			buf_putc(b, ')');
		}
		break;
	case ND_CALL:
		dump_opt(b, n->lhs, depth);
		for (int i = 0; i < n->items.len; i++)
			dump_opt(b, n->items.items[i], depth);
		for (int i = 0; i < n->keywords.len; i++)
			dump_opt(b, n->keywords.items[i], depth);
		break;
	case ND_KEYWORD:
		buf_printf(b, " %s", n->name ? n->name : "**");
		dump_opt(b, n->rhs, depth);
		break;
	case ND_ATTR:
		dump_opt(b, n->lhs, depth);
		buf_printf(b, " %s", n->name);
		break;
	case ND_TERNARY:
		dump_opt(b, n->cond, depth);
		dump_opt(b, n->lhs, depth);
		dump_opt(b, n->rhs, depth);
		break;
	case ND_SLICE:
		dump_opt(b, n->lhs, depth);
		dump_opt(b, n->rhs, depth);
		dump_opt(b, n->cond, depth);
		break;
	case ND_LAMBDA:
		dump_list(b, "params", &n->params, depth);
		dump_opt(b, n->lhs, depth);
		break;
	case ND_COMP:
		dump_opt(b, n->lhs, depth);
		if (n->rhs)
			dump_opt(b, n->rhs, depth);
		dump_list(b, "for", &n->items, depth);
		break;
	case ND_ASSERT:
		dump_opt(b, n->cond, depth);
		dump_opt(b, n->rhs, depth);
		break;
	default: /* EXPR_STMT, RETURN, STARRED, SUBSCRIPT */
		dump_opt(b, n->lhs, depth);
		if (n->rhs)
			dump_opt(b, n->rhs, depth);
		break;
	}
	buf_putc(b, ')');
}

void ast_dump(Buf *b, const Node *n)
{
	dump(b, n, 0);
	buf_putc(b, '\n');
}

bool ast_is_str(const Node *n, const char *s)
{
	return n && n->kind == ND_STR && n->str_len == strlen(s) && memcmp(n->str, s, n->str_len) == 0;
}

Node *ast_dict_get(const Node *dict, const char *key)
{
	if (!dict || dict->kind != ND_DICT)
		return NULL;
	for (int i = 0; i < dict->items.len; i++)
		if (ast_is_str(dict->items.items[i], key))
			return dict->values.items[i];
	return NULL;
}

Node *ast_call_kwarg(const Node *call, const char *name)
{
	if (!call || call->kind != ND_CALL)
		return NULL;
	for (int i = 0; i < call->keywords.len; i++) {
		Node *k = call->keywords.items[i];
		if (k->name && strcmp(k->name, name) == 0)
			return k->rhs;
	}
	return NULL;
}

static bool dotted(Buf *b, const Node *n)
{
	if (n->kind == ND_NAME) {
		buf_puts(b, n->name);
		return true;
	}
	if (n->kind == ND_ATTR && dotted(b, n->lhs)) {
		buf_printf(b, ".%s", n->name);
		return true;
	}
	return false;
}

const char *ast_dotted_name(Arena *a, const Node *n)
{
	Buf b = {0};
	const char *res = NULL;
	if (n && dotted(&b, n))
		res = arena_strdup(a, buf_str(&b));
	buf_free(&b);
	return res;
}
