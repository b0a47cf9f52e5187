/* dump.c: the tile IR as text, one op a line:
 *
 *   %12 = load %11, %9, %10 evict_last : fp32[1,4096]   ; line 17 x
 */
#include "ir/tir.h"

static const char *op_names[] = {
	[TOP_ARG] = "arg", [TOP_CONST] = "const", [TOP_PROGRAM_ID] = "program_id",
	[TOP_NUM_PROGRAMS] = "num_programs", [TOP_ARANGE] = "arange", [TOP_SPLAT] = "splat",
	[TOP_BROADCAST] = "broadcast", [TOP_EXPAND] = "expand_dims", [TOP_RESHAPE] = "reshape",
	[TOP_TRANS] = "trans", [TOP_ADD] = "add", [TOP_SUB] = "sub", [TOP_MUL] = "mul", [TOP_DIV] = "div",
	[TOP_IDIV] = "idiv", [TOP_MOD] = "mod", [TOP_FMOD] = "fmod", [TOP_AND] = "and", [TOP_OR] = "or",
	[TOP_XOR] = "xor", [TOP_SHL] = "shl", [TOP_SHR] = "shr", [TOP_NEG] = "neg", [TOP_NOT] = "not",
	[TOP_CMP] = "cmp", [TOP_WHERE] = "where", [TOP_CAST] = "cast", [TOP_BITCAST] = "bitcast",
	[TOP_MATH] = "math", [TOP_MAXIMUM] = "maximum", [TOP_MINIMUM] = "minimum", [TOP_PTR_ADD] = "ptr_add",
	[TOP_LOAD] = "load", [TOP_STORE] = "store", [TOP_ATOMIC_ADD] = "atomic_add", [TOP_REDUCE] = "reduce",
	[TOP_SCAN] = "scan", [TOP_DOT] = "dot", [TOP_FOR] = "for", [TOP_IF] = "if", [TOP_YIELD] = "yield",
	[TOP_ASSERT] = "assert",
};

static const char *cmp_names[] = {"lt", "le", "gt", "ge", "eq", "ne"};
static const char *reduce_names[] = {"sum", "max", "min", "prod", "argmax", "argmin", "any"};
static const char *evict_names[] = {"", " evict_first", " evict_last"};
static const char *math_names[] = {
	"exp", "exp2", "log", "log2", "log1p", "sqrt", "rsqrt", "abs", "sin", "cos", "tanh", "erf",
	"floor", "ceil", "sigmoid",
};

void tir_format_type(Buf *b, const Type *t)
{
	if (t->dtype == DT_PTR)
		buf_printf(b, "*%s", dtype_name(t->elem));
	else
		buf_puts(b, dtype_name(t->dtype));
	if (t->rank) {
		buf_putc(b, '[');
		for (int d = 0; d < t->rank; d++)
			buf_printf(b, d ? ",%d" : "%d", t->shape[d]);
		buf_putc(b, ']');
	}
}

static void dump_value(Buf *b, const TValue *v)
{
	if (v->op != TOP_STORE)
		buf_printf(b, "  %%%d = ", v->id);
	else
		buf_puts(b, "  ");
	buf_puts(b, op_names[v->op]);
	switch (v->op) {
	case TOP_CMP: buf_printf(b, ".%s", cmp_names[v->aux]); break;
	case TOP_MATH: buf_printf(b, ".%s", math_names[v->aux]); break;
	case TOP_REDUCE: buf_printf(b, ".%s axis=%d", reduce_names[v->aux], v->aux2); break;
	case TOP_PROGRAM_ID: case TOP_NUM_PROGRAMS: case TOP_EXPAND: buf_printf(b, " %d", v->aux); break;
	case TOP_ARG: buf_printf(b, " %lld", (long long)v->iconst); break;
	case TOP_ARANGE: buf_printf(b, " %lld", (long long)v->iconst); break;
	case TOP_CONST:
		if (dtype_is_float(v->type.dtype))
			buf_printf(b, " %.9g", v->fconst);
		else
			buf_printf(b, " %lld", (long long)v->iconst);
		break;
	default: break;
	}
	for (int i = 0; i < v->nargs; i++)
		buf_printf(b, "%s%%%d", i ? ", " : " ", v->args[i]->id);
	if (v->op == TOP_LOAD)
		buf_puts(b, evict_names[v->aux]);
	if (v->op != TOP_STORE) {
		buf_puts(b, " : ");
		tir_format_type(b, &v->type);
	}
	if (v->line || v->name) {
		buf_puts(b, "   ;");
		if (v->line)
			buf_printf(b, " line %d", v->line);
		if (v->name)
			buf_printf(b, " %s", v->name);
	}
	buf_putc(b, '\n');
}

void tir_dump(Buf *b, const TKernel *k)
{
	buf_printf(b, "kernel %s(", k->name);
	for (int i = 0; i < k->nargs; i++) {
		buf_printf(b, "%s%s: ", i ? ", " : "", k->args[i]->name);
		tir_format_type(b, &k->args[i]->type);
	}
	buf_printf(b, ") num_warps=%d {\n", k->num_warps);
	for (const TValue *v = k->body->first; v; v = v->next)
		if (v->op != TOP_ARG)
			dump_value(b, v);
	buf_puts(b, "}\n");
}

const char *tir_op_name(TOp op)
{
	if ((int)op < 0 || (size_t)op >= sizeof op_names / sizeof op_names[0] || !op_names[op])
		return "?";
	return op_names[op];
}
