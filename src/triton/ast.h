/* ast.h: the abstract syntax tree of the Triton kernel language (the
 * Python subset used by @triton.jit kernels and TorchInductor output).
 *
 * Every node lives in an Arena and records the byte offset of its first
 * token in the Source it was parsed from, for diagnostics. */
#ifndef TC_TRITON_AST_H
#define TC_TRITON_AST_H

#include "base/base.h"

typedef struct Node Node;

/* An arena-backed list of nodes. */
typedef struct NodeList {
	Node **items;
	int len;
	int cap;
} NodeList;

typedef enum {
	/* statements and definitions */
	ND_MODULE,      /* body: top-level function defs (other statements are skipped) */
	ND_FUNCDEF,     /* name; params: ND_PARAM list; decorators; body; rhs: return annotation or NULL */
	ND_PARAM,       /* name; lhs: annotation or NULL; rhs: default or NULL; op: 0, '*' or '**' prefix */
	ND_EXPR_STMT,   /* lhs: the expression */
	ND_ASSIGN,      /* items: targets (a = b = v has two); rhs: value */
	ND_ANNASSIGN,   /* lhs: target; cond: annotation; rhs: value or NULL */
	ND_AUGASSIGN,   /* lhs: target; op: the binary operator; rhs: value */
	ND_FOR,         /* lhs: target; rhs: iterable; body; orelse */
	ND_IF,          /* cond; body; orelse (an elif is a nested ND_IF) */
	ND_WHILE,       /* cond; body; orelse */
	ND_RETURN,      /* lhs: value or NULL (a tuple for `return a, b`) */
	ND_ASSERT,      /* cond; rhs: message or NULL */
	ND_PASS,        /* no fields */
	ND_BREAK,       /* no fields */
	ND_CONTINUE,    /* no fields */
	/* expressions */
	ND_NAME,        /* name */
	ND_INT,         /* ival */
	ND_FLOAT,       /* fval */
	ND_STR,         /* str, str_len (escapes processed; adjacent literals joined) */
	ND_TRUE,        /* True */
	ND_FALSE,       /* False */
	ND_NONE,        /* None */
	ND_ELLIPSIS,    /* ... */
	ND_TUPLE,       /* items */
	ND_LIST,        /* items */
	ND_SET,         /* items */
	ND_DICT,        /* items: keys; values: values (same length; key NULL for **x) */
	ND_BINOP,       /* op; lhs; rhs */
	ND_UNARY,       /* op: OP_NEG, OP_POS, OP_INVERT or OP_NOT; lhs */
	ND_BOOLOP,      /* op: OP_AND or OP_OR; items: two or more operands */
	ND_COMPARE,     /* items: operands; ops: one fewer operators (a < b < c) */
	ND_TERNARY,     /* cond; lhs: value if true; rhs: value if false */
	ND_CALL,        /* lhs: callee; items: positional args; keywords: ND_KEYWORD list */
	ND_KEYWORD,     /* name (NULL for **x); rhs: value */
	ND_STARRED,     /* lhs: the value of *x */
	ND_ATTR,        /* lhs: object; name: attribute */
	ND_SUBSCRIPT,   /* lhs: object; rhs: index (ND_TUPLE for x[:, None]) */
	ND_SLICE,       /* lhs: lower, rhs: upper, cond: step; each may be NULL */
	ND_LAMBDA,      /* params: ND_PARAM list (no annotations); lhs: body expression */
	ND_COMP,        /* a comprehension: op OP_NONE list, OP_IN generator, OP_BITOR set, OP_MATMUL dict;
	                   lhs: element (dict: key); rhs: dict value; items: ND_FOR clauses
	                   (lhs target, rhs iterable, body: their `if` conditions) */
} NodeKind;

typedef enum {
	OP_NONE,
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD, OP_POW, OP_MATMUL,
	OP_LSHIFT, OP_RSHIFT, OP_BITAND, OP_BITOR, OP_BITXOR,
	OP_NEG, OP_POS, OP_INVERT, OP_NOT,
	OP_AND, OP_OR,
	OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_IS, OP_ISNOT, OP_IN, OP_NOTIN,
	OP_STAR, OP_STARSTAR, /* parameter prefixes */
} Op;

struct Node {
	NodeKind kind;   /* what this node is */
	Op op;           /* operator of ND_BINOP, ND_UNARY, ND_BOOLOP, ND_AUGASSIGN */
	size_t offset;   /* byte offset of its first token in the Source */
	const char *name;/* identifier: ND_NAME, ND_ATTR, ND_FUNCDEF, ND_PARAM, ND_KEYWORD */
	int64_t ival;    /* ND_INT value */
	double fval;     /* ND_FLOAT value */
	const char *str; /* ND_STR bytes (NUL-terminated; may hold NULs) */
	size_t str_len;  /* ND_STR length */
	Node *lhs;       /* first operand / target / object / callee */
	Node *rhs;       /* second operand / value / index */
	Node *cond;      /* condition, annotation or slice step */
	NodeList items;  /* elements, operands, positional args, targets */
	NodeList values; /* ND_DICT values */
	NodeList keywords; /* ND_CALL keyword args */
	NodeList params; /* ND_FUNCDEF parameters */
	NodeList decorators; /* ND_FUNCDEF decorator expressions */
	NodeList body;   /* statements of a block */
	NodeList orelse; /* else block of ND_IF, ND_FOR, ND_WHILE */
	Op *ops;         /* ND_COMPARE operators (items.len - 1 of them) */
};

void ast_nodelist_push(Arena *a, NodeList *l, Node *n);
Node *ast_new(Arena *a, NodeKind kind, size_t offset);
const char *ast_kind_name(NodeKind kind);
const char *ast_op_name(Op op);            /* "+", "//", "not in", ... */
/* Writes an S-expression form of `n` (and its children) for golden tests. */
void ast_dump(Buf *b, const Node *n);
/* Looks up a string key in an ND_DICT; NULL when absent or not a dict. */
Node *ast_dict_get(const Node *dict, const char *key);
/* Finds keyword argument `name` of an ND_CALL; NULL when absent. */
Node *ast_call_kwarg(const Node *call, const char *name);
/* True for ND_STR equal to s. */
bool ast_is_str(const Node *n, const char *s);
/* Dotted name of an ND_NAME/ND_ATTR chain ("triton.jit") into the arena; NULL otherwise. */
const char *ast_dotted_name(Arena *a, const Node *n);

#endif
