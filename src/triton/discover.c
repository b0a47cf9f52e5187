/* discover.c: finds Triton kernels in a file's text.
 *
 * An Inductor output module holds each kernel as a string:
 *
 *   triton_poi_fused_add_0 = async_compile.triton('triton_poi_fused_add_0', '''
 *   ...kernel module...
 *   ''', device_str='cuda')
 *
 * The string's text is parsed as a module of its own, with a Source whose
 * line_base/col_base make diagnostics point into the original file. Any
 * other file yields its top-level @triton.jit functions. */
#include "triton/internal.h"

#include <string.h>

const char *discover_decor_name(KernelDecor k)
{
	static const char *names[] = {
		[KDEC_JIT] = "jit", [KDEC_POINTWISE] = "pointwise", [KDEC_REDUCTION] = "reduction",
		[KDEC_PERSISTENT_REDUCTION] = "persistent_reduction", [KDEC_TEMPLATE] = "template",
		[KDEC_SPLIT_SCAN] = "split_scan", [KDEC_OTHER] = "other",
	};
	return (unsigned)k < TC_COUNT(names) ? names[k] : "?";
}

static void push_kernel(Arena *a, KernelList *l, Kernel *k)
{
	if (l->len == l->cap) {
		int cap = l->cap ? l->cap * 2 : 8;
		Kernel **items = arena_alloc(a, sizeof(Kernel *) * (size_t)cap);
		if (l->len)
			memcpy(items, l->items, sizeof(Kernel *) * (size_t)l->len);
		l->items = items;
		l->cap = cap;
	}
	l->items[l->len++] = k;
}

/* Reads the @triton_heuristics.X(...) decorator of a kernel, if any. */
static void read_heuristics(Arena *a, Kernel *k)
{
	static const struct { const char *s; KernelDecor k; } kinds[] = {
		{"pointwise", KDEC_POINTWISE}, {"reduction", KDEC_REDUCTION},
		{"persistent_reduction", KDEC_PERSISTENT_REDUCTION}, {"template", KDEC_TEMPLATE},
		{"split_scan", KDEC_SPLIT_SCAN},
	};
	k->decor = KDEC_JIT;
	for (int i = 0; i < k->func->decorators.len; i++) {
		Node *d = k->func->decorators.items[i];
		if (d->kind != ND_CALL)
			continue;
		const char *name = ast_dotted_name(a, d->lhs);
		if (name && strcmp(name, "triton.autotune") == 0)
			k->configs = ast_call_kwarg(d, "configs");
		if (!name || strncmp(name, "triton_heuristics.", 18) != 0)
			continue;
		k->heuristics = d;
		k->decor = KDEC_OTHER;
		for (size_t j = 0; j < TC_COUNT(kinds); j++)
			if (strcmp(name + 18, kinds[j].s) == 0)
				k->decor = kinds[j].k;
		k->size_hints = ast_call_kwarg(d, "size_hints");
		k->triton_meta = ast_call_kwarg(d, "triton_meta");
		k->inductor_meta = ast_call_kwarg(d, "inductor_meta");
		k->signature = ast_dict_get(k->triton_meta, "signature");
		k->configs = ast_call_kwarg(d, "configs");
		if (!k->configs)
			k->configs = ast_dict_get(k->triton_meta, "configs");
	}
}

static Kernel *new_kernel(Arena *a, Node *module, Node *func, const Source *src, bool inductor)
{
	Kernel *k = arena_alloc(a, sizeof(Kernel));
	k->name = func->name;
	k->func = func;
	k->module = module;
	k->src = src;
	k->inductor = inductor;
	read_heuristics(a, k);
	return k;
}

/* True when toks[i..] reads NAME '=' async_compile '.' triton '(' STR ',' STR
 * at the start of a logical line. */
static bool is_async_compile(const Source *src, const Token *t, int i, int n)
{
	if (i + 8 >= n)
		return false;
	if (i > 0 && t[i - 1].kind != TK_NEWLINE && t[i - 1].kind != TK_INDENT && t[i - 1].kind != TK_DEDENT)
		return false;
	const char *p = src->text;
	return t[i].kind == TK_IDENT && lex_equal(src, &t[i + 1], "=") &&
	       t[i + 2].kind == TK_IDENT && t[i + 2].len == 13 && memcmp(p + t[i + 2].offset, "async_compile", 13) == 0 &&
	       lex_equal(src, &t[i + 3], ".") &&
	       t[i + 4].kind == TK_IDENT && t[i + 4].len == 6 && memcmp(p + t[i + 4].offset, "triton", 6) == 0 &&
	       lex_equal(src, &t[i + 5], "(") && t[i + 6].kind == TK_STR &&
	       lex_equal(src, &t[i + 7], ",") && t[i + 8].kind == TK_STR;
}

/* Parses one embedded kernel module and adds its kernel. */
static void embedded(Arena *a, Arena *trees, Arena *toks_arena, Diag *d, LineTable *lines, const Token *name, const Token *body,
		     KernelList *out)
{
	const Source *src = lines->src;
	Source *inner = arena_alloc(a, sizeof(Source));
	int line, col;
	base_line_table_linecol(lines, body->s->raw_offset, &line, &col);
	inner->name = src->name;
	inner->text = arena_strndup(a, src->text + body->s->raw_offset, body->s->raw_len);
	inner->len = body->s->raw_len;
	inner->line_base = line - 1;
	inner->col_base = col - 1;
	int ntoks;
	Token *toks = lex_run(toks_arena, d, inner, &ntoks);
	Node *module = parse_run(trees, d, inner, toks, ntoks);
	for (int i = 0; i < module->body.len; i++) {
		Node *f = module->body.items[i];
		if (strlen(f->name) == name->s->len && memcmp(f->name, name->s->str, name->s->len) == 0) {
			push_kernel(a, out, new_kernel(a, module, f, inner, true));
			return;
		}
	}
	diag_fatal(d, src, name->offset, "kernel '%s' is not defined in its source", name->s->str);
}

static int discover_run(Arena *a, Arena *trees, Arena *toks_arena, Diag *d, const Source *src, KernelList *out)
{
	int ntoks;
	Token *toks = lex_run(toks_arena, d, src, &ntoks);
	LineTable *lines = NULL;   /* made at the first embedded module */
	for (int i = 0; i < ntoks; i++) {
		if (is_async_compile(src, toks, i, ntoks)) {
			if (!lines)
				lines = base_line_table(a, src);
			embedded(a, trees, toks_arena, d, lines, &toks[i + 6], &toks[i + 8], out);
		}
	}
	if (lines)
		return out->len;
	Node *module = parse_run(trees, d, src, toks, ntoks);
	for (int i = 0; i < module->body.len; i++)
		push_kernel(a, out, new_kernel(a, module, module->body.items[i], src, false));
	return out->len;
}

int discover_kernels(Arena *a, Diag *d, const Source *src, KernelList *out)
{
	return discover_kernels_in(a, a, d, src, out);
}

int discover_kernels_in(Arena *a, Arena *trees, Diag *d, const Source *src, KernelList *out)
{
	jmp_buf jb;
	jmp_buf *saved = d->jump;
	volatile int res = -1;
	/* the tokens (and their strings) are read by the parser alone: their
	 * memory goes to the arena once the trees are made */
	Arena *toks = arena_alloc(a, sizeof *toks);   /* held in `a`, so what it holds is never lost */
	d->jump = &jb;
	if (setjmp(jb) == 0)
		res = discover_run(a, trees, toks, d, src, out);
	d->jump = saved;
	arena_recycle(a, toks);
	return res;
}

const char *discover_sig_type(const Kernel *k, const char *param)
{
	Node *v = ast_dict_get(k->signature, param);
	return v && v->kind == ND_STR ? v->str : NULL;
}
