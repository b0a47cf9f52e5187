/* triton.h: the front end for the Triton kernel language.
 *
 *   lex       Python tokens with INDENT/DEDENT/NEWLINE
 *   parse     tokens to an AST (ast.h)
 *   discover  finds @triton.jit kernels in plain .py files and kernels
 *             embedded in TorchInductor output (async_compile.triton)
 *
 * Public entry points set d->jump themselves: on a syntax error they
 * report one diagnostic to `d` and return NULL / -1. All memory comes
 * from the Arena given. */
#ifndef TC_TRITON_H
#define TC_TRITON_H

#include "base/base.h"
#include "triton/ast.h"

/* ---- lexer ---- */
typedef enum {
	TK_IDENT,    /* a name */
	TK_KEYWORD,  /* a reserved word: def, if, for, True, ... */
	TK_PUNCT,    /* an operator or delimiter */
	TK_INT,      /* ival (overflow set when it does not fit in int64) */
	TK_FLOAT,    /* fval */
	TK_STR,      /* s: the decoded text and where it lies between the quotes */
	TK_NEWLINE,  /* end of a logical line */
	TK_INDENT,   /* indentation increased */
	TK_DEDENT,   /* indentation decreased by one level */
	TK_EOF,      /* end of input */
} TokenKind;

/* A string literal's text, beside its token (few tokens are strings). */
typedef struct TokenStr {
	const char *str;     /* decoded contents, NUL-terminated (may hold NULs) */
	size_t len;
	size_t raw_offset;   /* offset of the first byte between the quotes */
	size_t raw_len;      /* bytes between the quotes */
	bool triple;         /* ''' or """ */
} TokenStr;

typedef struct Token {
	TokenKind kind;
	bool overflow;       /* TK_INT: the literal does not fit in int64 */
	size_t offset;       /* byte offset into the Source */
	size_t len;          /* length of the token's text in the Source */
	union {
		int64_t ival;            /* TK_INT */
		double fval;             /* TK_FLOAT */
		const TokenStr *s;       /* TK_STR */
	};
} Token;

/* Tokenizes the whole source. Returns the tokens (ending with TK_EOF) and
 * their count in *count, or NULL after reporting an error. */
Token *lex_source(Arena *a, Diag *d, const Source *src, int *count);
/* True when tok is a keyword or punctuator spelled s. */
bool lex_equal(const Source *src, const Token *tok, const char *s);
const char *lex_kind_name(TokenKind kind);

/* ---- parser ---- */
/* Parses a module: function definitions with a triton decorator
 * (@triton.jit, @triton.autotune, @triton_heuristics.X, @jit) are parsed
 * fully; imports and every other top-level statement, with its block,
 * are skipped (the tokens must still lex).
 * Returns an ND_MODULE or NULL after reporting an error. */
Node *parse_module(Arena *a, Diag *d, const Source *src);
/* Parses one expression (the whole source), for tests and tools. */
Node *parse_expression(Arena *a, Diag *d, const Source *src);

/* ---- discovery ---- */
typedef enum {
	KDEC_JIT,                  /* plain @triton.jit */
	KDEC_POINTWISE,            /* @triton_heuristics.pointwise */
	KDEC_REDUCTION,            /* @triton_heuristics.reduction */
	KDEC_PERSISTENT_REDUCTION, /* @triton_heuristics.persistent_reduction */
	KDEC_TEMPLATE,             /* @triton_heuristics.template */
	KDEC_SPLIT_SCAN,           /* @triton_heuristics.split_scan */
	KDEC_OTHER,                /* another triton_heuristics decorator */
} KernelDecor;

typedef struct Kernel {
	const char *name;      /* the kernel's function name */
	Node *func;            /* its ND_FUNCDEF (decorators in func->decorators) */
	Node *module;          /* the ND_MODULE it was parsed from: its other functions are
	                          the kernel's helpers (a list per kernel was quadratic in
	                          a module of many kernels) */
	const Source *src;     /* the Source its offsets refer to */
	bool inductor;         /* embedded in an Inductor async_compile.triton call */
	KernelDecor decor;     /* the heuristics decorator kind */
	Node *heuristics;      /* the ND_CALL of @triton_heuristics.X(...) or NULL */
	Node *triton_meta;     /* ND_DICT or NULL */
	Node *inductor_meta;   /* ND_DICT or NULL */
	Node *signature;       /* triton_meta['signature'] ND_DICT or NULL */
	Node *size_hints;      /* size_hints= ND_DICT or NULL */
	Node *configs;         /* configs= of triton_heuristics.X or triton.autotune,
	                          else triton_meta['configs'], or NULL */
} Kernel;

typedef struct KernelList {
	Kernel **items;
	int len;
	int cap;
} KernelList;

/* Finds the kernels of a file's text. Inductor output modules are
 * recognised by `name = async_compile.triton('name', '''...''', ...)`;
 * the embedded text is parsed with a Source whose line_base/col_base map
 * diagnostics to the original file. Any other file yields its top-level
 * @triton.jit functions (when a file has async_compile.triton kernels,
 * only those are returned). Returns the number of kernels, or -1 after
 * reporting an error. */
int discover_kernels(Arena *a, Diag *d, const Source *src, KernelList *out);
/* The same with the syntax trees (their nodes, lists and strings) in
 * `trees` and the rest (the kernels, the list, embedded sources) in `a`:
 * a caller done with the trees can give their memory to later stages
 * (arena_recycle) while the sources stay. */
int discover_kernels_in(Arena *a, Arena *trees, Diag *d, const Source *src, KernelList *out);
/* The signature type string of parameter `param` ("*fp32", "i32",
 * "constexpr"), or NULL when unknown. */
const char *discover_sig_type(const Kernel *k, const char *param);
const char *discover_decor_name(KernelDecor k);

#endif
