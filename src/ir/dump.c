/* dump.c: the tile IR as text, one op a line:
 *
 *   %12 = load %11, %9, %10 evict_last : fp32[1,4096]   ; line 17 x
 *
 * Blocks are indented under their op, their params listed first:
 *
 *   %20 = for %17, %18, %19, %12 (%21 k: i32, %22 acc: fp32[16,16]) {
 *     ...
 *     yield %30
 *   }
 *   %23 = result.0 %20 : fp32[16,16]   ; line 9 acc
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
	[TOP_LOAD] = "load", [TOP_STORE] = "store", [TOP_ATOMIC] = "atomic", [TOP_REDUCE] = "reduce",
	[TOP_SCAN] = "scan", [TOP_DOT] = "dot", [TOP_FOR] = "for", [TOP_IF] = "if", [TOP_YIELD] = "yield",
	[TOP_ASSERT] = "assert", [TOP_BARRIER] = "barrier", [TOP_RESULT] = "result", [TOP_PARAM] = "param",
	[TOP_HINT] = "hint", [TOP_PHILOX] = "philox", [TOP_CONVERT] = "convert_layout",
	[TOP_WHILE] = "while", [TOP_CONDITION] = "condition", [TOP_GATHER] = "gather", [TOP_PRINT] = "print", [TOP_ASM] = "inline_asm",
};

static const char *cmp_names[] = {"lt", "le", "gt", "ge", "eq", "ne"};
static const char *reduce_names[] = {"sum", "max", "min", "prod", "argmax", "argmin", "any", "combine"};
static const char *evict_names[] = {"", " evict_first", " evict_last"};
static const char *sem_names[] = {"acq_rel", "relaxed", "acquire", "release"};
static const char *scope_names[] = {"gpu", "cta", "sys"};
static const char *atomic_names[] = {"add", "xchg", "max", "min", "and", "or", "xor", "cas"};
static const char *precision_names[] = {"tf32", "tf32x3", "ieee"};
static const char *hint_names[] = {"multiple_of", "max_contiguous", "max_constancy"};
static const char *math_names[] = {
	"exp", "exp2", "log", "log2", "log1p", "sqrt", "rsqrt", "abs", "sin", "cos", "tanh", "erf",
	"floor", "ceil", "sigmoid", "expm1", "log10", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh",
	"acosh", "atanh", "erfc", "erfinv", "lgamma", "cbrt", "trunc", "rint", "round", "signbit", "ilogb",
	"isnan", "isinf", "isfinite", "pow", "atan2", "hypot", "copysign", "nextafter", "ldexp", "fma",
};
_Static_assert(TC_COUNT(math_names) == MATH_FMA + 1, "a name for every MathFn");

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

static bool has_value(TOp op)
{
	return op != TOP_STORE && op != TOP_ASSERT && op != TOP_BARRIER && op != TOP_YIELD && op != TOP_CONDITION &&
	       op != TOP_PRINT;
}

static void dump_block(Buf *b, const TBlock *blk, int depth, bool axis);

/* What follows the op's name: its kind and attributes. */
static void dump_attrs(Buf *b, const TValue *v)
{
	switch (v->op) {
	case TOP_SCAN:
		if (v->iconst >= 0)
			buf_printf(b, ".%s", reduce_names[v->iconst]);  /* the combine recognized */
		buf_printf(b, " axis=%d%s", v->aux, v->aux2 ? " reverse" : "");
		break;
	case TOP_ATOMIC:
		buf_printf(b, "_%s %s %s", atomic_names[v->iconst], sem_names[v->aux], scope_names[v->aux2]);
		break;
	case TOP_DOT: buf_printf(b, " %s", precision_names[v->aux]); break;
	case TOP_RESULT: buf_printf(b, ".%d", v->aux); break;
	case TOP_HINT: {
		buf_printf(b, ".%s [", hint_names[v->aux]);
		int n = v->type.rank ? v->type.rank : 1;
		for (int d = 0; d < n; d++)
			buf_printf(b, d ? ",%lld" : "%lld", (long long)v->hint[d]);
		buf_putc(b, ']');
		break;
	}
	case TOP_PHILOX: buf_printf(b, " rounds=%d word=%d", v->aux, v->aux2); break;
	case TOP_TRANS:
		buf_puts(b, " perm=[");
		for (int d = 0; d < v->type.rank; d++)
			buf_printf(b, d ? ",%d" : "%d", v->perm[d]);
		buf_putc(b, ']');
		break;
	case TOP_FOR:
		if (v->aux)
			buf_printf(b, " num_stages=%d", v->aux);
		if (v->aux2)
			buf_printf(b, " unroll=%d", v->aux2);
		break;
	default: break;
	}
}

/* " {contig=1,4 const=1,1 div=16,16}", " dead" before the brace for a
 * value tir_dce marked; a scalar has one dim. */
static void dump_axis(Buf *b, const TValue *v)
{
	int rank = v->type.rank ? v->type.rank : 1;
	const AxisInfo *a = v->axis;
	buf_puts(b, " {contig=");
	for (int d = 0; d < rank; d++)
		buf_printf(b, d ? ",%d" : "%d", a->contiguity[d]);
	buf_puts(b, " const=");
	for (int d = 0; d < rank; d++)
		buf_printf(b, d ? ",%d" : "%d", a->constancy[d]);
	buf_puts(b, " div=");
	for (int d = 0; d < rank; d++)
		buf_printf(b, d ? ",%lld" : "%lld", (long long)a->divisibility[d]);
	buf_puts(b, v->dead ? " dead}" : "}");
}

static void dump_params(Buf *b, const TBlock *blk)
{
	if (!blk->nparams)
		return;
	buf_puts(b, " (");
	for (int i = 0; i < blk->nparams; i++) {
		const TValue *p = blk->params[i];
		buf_printf(b, "%s%%%d", i ? ", " : "", p->id);
		if (p->name)
			buf_printf(b, " %s", p->name);
		buf_puts(b, ": ");
		tir_format_type(b, &p->type);
	}
	buf_putc(b, ')');
}

static void dump_value(Buf *b, const TValue *v, int depth, bool axis)
{
	for (int i = 0; i < depth; i++)
		buf_puts(b, "  ");
	if (has_value(v->op))
		buf_printf(b, "%%%d = ", v->id);
	buf_puts(b, op_names[v->op]);
	dump_attrs(b, v);
	switch (v->op) {
	case TOP_CMP: buf_printf(b, ".%s", cmp_names[v->aux]); break;
	case TOP_MATH: buf_printf(b, ".%s%s", math_names[v->aux], v->aux == MATH_EXP2 && v->aux2 ? ".approx" : ""); break;
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
	if (v->op == TOP_ASSERT)
		buf_printf(b, " \"%s\"", v->text ? v->text : "");
	bool blocks = v->op == TOP_FOR || v->op == TOP_WHILE || v->op == TOP_IF || v->op == TOP_SCAN ||
		      (v->op == TOP_REDUCE && v->body);
	if (has_value(v->op) && v->op != TOP_FOR && v->op != TOP_WHILE && v->op != TOP_IF) {
		buf_puts(b, " : ");
		tir_format_type(b, &v->type);
		if (axis)
			dump_axis(b, v);
	}
	if (blocks) {
		dump_params(b, v->body);
		buf_puts(b, " {");
	}
	if (v->line || v->name) {
		buf_puts(b, "   ;");
		if (v->line)
			buf_printf(b, " line %d", v->line);
		if (v->name)
			buf_printf(b, " %s", v->name);
	}
	buf_putc(b, '\n');
	if (blocks) {
		dump_block(b, v->body, depth + 1, axis);
		if (v->op == TOP_IF) {
			for (int i = 0; i < depth; i++)
				buf_puts(b, "  ");
			buf_puts(b, "} else {\n");
			dump_block(b, v->orelse, depth + 1, axis);
		}
		for (int i = 0; i < depth; i++)
			buf_puts(b, "  ");
		buf_puts(b, "}\n");
	}
}

static void dump_block(Buf *b, const TBlock *blk, int depth, bool axis)
{
	for (const TValue *v = blk->first; v; v = v->next)
		if (v->op != TOP_ARG)
			dump_value(b, v, depth, axis);
}

static void dump_kernel(Buf *b, const TKernel *k, bool axis)
{
	buf_printf(b, "kernel %s(", k->name);
	for (int i = 0; i < k->nargs; i++) {
		buf_printf(b, "%s%s: ", i ? ", " : "", k->args[i]->name);
		tir_format_type(b, &k->args[i]->type);
	}
	buf_printf(b, ") num_warps=%d {\n", k->num_warps);
	dump_block(b, k->body, 1, axis);
	buf_puts(b, "}\n");
}

void tir_dump(Buf *b, const TKernel *k)
{
	dump_kernel(b, k, false);
}

void tir_dump_axis(Buf *b, const TKernel *k)
{
	dump_kernel(b, k, true);
}

const char *tir_op_name(TOp op)
{
	if ((int)op < 0 || (size_t)op >= sizeof op_names / sizeof op_names[0] || !op_names[op])
		return "?";
	return op_names[op];
}
