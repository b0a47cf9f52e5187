/* spec_builtins.c: the Python inside a kernel that is not Triton's
 * library: the builtins min, max, abs, len, isinstance, int, bool; the
 * other spellings of Triton's modules (tl.math, triton.language,
 * tl.extra.cuda, tl.extra.cuda.libdevice); and -D values given as Python
 * expressions (strings, dtypes, None, tuples).
 *
 * Triton maps the builtins min and max to tl.minimum and tl.maximum; on
 * compile-time numbers they are Python's own (a constexpr stays one). */
#include "ir/spec.h"

#include <math.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

/* ---- min, max, abs, len, int, bool ---- */

static SVal *min_max(Spec *s, const Node *call, bool is_max)
{
	int n = call->items.len;
	SVal **vals = arena_alloc(s->a, sizeof *vals * (size_t)(n + 1));
	for (int i = 0; i < n; i++)
		vals[i] = spec_eval(s, call->items.items[i]);
	if (n == 1 && vals[0]->kind == SV_TUPLE) {   /* min((a, b, c)) */
		n = vals[0]->nitems;
		vals = vals[0]->items;
	}
	if (n == 0)
		spec_error(s, call, "%s() needs at least one argument", is_max ? "max" : "min");
	SVal *acc = vals[0];
	for (int i = 1; i < n; i++) {
		SVal *y = vals[i];
		if (spec_is_const(acc) && spec_is_const(y)) {
			double a = acc->kind == SV_INT ? (double)acc->i : acc->f, b = y->kind == SV_INT ? (double)y->i : y->f;
			bool take_y = is_max ? b > a : b < a;
			if (acc->kind == SV_INT && y->kind == SV_INT)
				take_y = is_max ? y->i > acc->i : y->i < acc->i;
			acc = take_y ? y : acc;
			continue;
		}
		if (!spec_is_const(acc) && acc->kind != SV_VALUE)
			spec_error(s, call, "%s() of a value that is neither a number nor a tensor", is_max ? "max" : "min");
		if (!spec_is_const(y) && y->kind != SV_VALUE)
			spec_error(s, call, "%s() of a value that is neither a number nor a tensor", is_max ? "max" : "min");
		TValue *tx, *ty;
		spec_weak_operands(s, call, acc, y, false, &tx, &ty);
		acc = spec_sv_value(s, call, tir_binary(&s->b, is_max ? TOP_MAXIMUM : TOP_MINIMUM, tx, ty));
	}
	return acc;
}

static SVal *builtin_abs(Spec *s, const Node *call)
{
	SVal *x = spec_need_arg(s, call, 0, "x");
	if (x->kind == SV_INT)
		return spec_sv_int(s, x->i < 0 ? -x->i : x->i);
	if (x->kind == SV_FLOAT)
		return spec_sv_float(s, fabs(x->f));
	SVal *r = spec_call_math(s, call, "abs");
	if (!r)
		spec_error(s, call, "abs() of this value is not supported");
	return r;
}

static SVal *builtin_len(Spec *s, const Node *call)
{
	SVal *x = spec_need_arg(s, call, 0, "obj");
	if (x->kind == SV_TUPLE)
		return spec_sv_int(s, x->nitems);
	if (x->kind == SV_STR)
		return spec_sv_int(s, (int64_t)strlen(x->str));
	if (x->kind == SV_VALUE && x->v->type.rank > 0)
		return spec_sv_int(s, x->v->type.shape[0]);
	spec_error(s, call, "len() of a value with no length");
}

static SVal *builtin_int_bool(Spec *s, const Node *call, bool to_bool)
{
	SVal *x = spec_need_arg(s, call, 0, "x");
	if (x->kind == SV_INT)
		return to_bool ? spec_sv_int(s, x->i != 0) : x;
	if (x->kind == SV_FLOAT)
		return to_bool ? spec_sv_int(s, x->f != 0) : spec_sv_int(s, (int64_t)x->f);
	if (x->kind == SV_NONE && to_bool)
		return spec_sv_int(s, 0);
	if (x->kind == SV_VALUE && x->v->type.rank == 0)
		return spec_sv_value(s, call, tir_cast(&s->b, x->v, to_bool ? DT_I1 : DT_I32));
	spec_error(s, call, "%s() needs a number or a scalar", to_bool ? "bool" : "int");
}

/* ---- isinstance ---- */

/* Whether `v` is an instance of the class the AST node `cls` names. */
static bool instance_of(Spec *s, const Node *call, SVal *v, const Node *cls)
{
	if (cls->kind == ND_TUPLE) {
		for (int i = 0; i < cls->items.len; i++)
			if (instance_of(s, call, v, cls->items.items[i]))
				return true;
		return false;
	}
	const char *name = ast_dotted_name(s->a, cls);
	if (!name)
		spec_error(s, cls, "isinstance() needs a class name here");
	const char *dot = strrchr(name, '.');
	const char *last = dot ? dot + 1 : name;
	if (dot && strncmp(name, "tl.", 3) && strncmp(name, "triton.language.", 16))
		spec_error(s, cls, "isinstance() with class '%s' is not supported", name);
	if (!strcmp(last, "tensor_descriptor") || !strcmp(last, "tensor_descriptor_base"))
		return v->kind == SV_DESC;
	if (!strcmp(last, "tensor"))
		return v->kind == SV_VALUE;
	if (!strcmp(last, "constexpr"))
		return v->kind != SV_VALUE && v->kind != SV_DESC;
	if (!strcmp(last, "dtype"))
		return v->kind == SV_DTYPE;
	if (!strcmp(last, "tuple") || !strcmp(last, "list"))
		return v->kind == SV_TUPLE;
	if (!dot && !strcmp(last, "int"))
		return v->kind == SV_INT;
	if (!dot && !strcmp(last, "bool"))
		return v->kind == SV_INT && spec_arg_node(call, 0, "obj") &&
		       (spec_arg_node(call, 0, "obj")->kind == ND_TRUE || spec_arg_node(call, 0, "obj")->kind == ND_FALSE);
	if (!dot && !strcmp(last, "float"))
		return v->kind == SV_FLOAT;
	if (!dot && !strcmp(last, "str"))
		return v->kind == SV_STR;
	spec_error(s, cls, "isinstance() with class '%s' is not supported", name);
}

static SVal *builtin_isinstance(Spec *s, const Node *call)
{
	SVal *v = spec_need_arg(s, call, 0, "obj");
	const Node *cls = spec_arg_node(call, 1, "class_or_tuple");
	if (!cls)
		spec_error(s, call, "missing argument 'class_or_tuple'");
	return spec_sv_int(s, instance_of(s, call, v, cls));
}

SVal *spec_call_builtin(Spec *s, const Node *call, const char *name)
{
	if (!strcmp(name, "min") || !strcmp(name, "max"))
		return min_max(s, call, name[1] == 'a');
	if (!strcmp(name, "abs"))
		return builtin_abs(s, call);
	if (!strcmp(name, "len"))
		return builtin_len(s, call);
	if (!strcmp(name, "int") || !strcmp(name, "bool"))
		return builtin_int_bool(s, call, name[0] == 'b');
	if (!strcmp(name, "isinstance"))
		return builtin_isinstance(s, call);
	if (!strcmp(name, "print"))
		return spec_device_print(s, call, "");
	return NULL;
}

/* ---- modules under other names ---- */

static SVal *module(Spec *s, const char *name)
{
	SVal *m = spec_sv_new(s, SV_MODULE);
	m->str = name;
	return m;
}

SVal *spec_module_attr(Spec *s, const SVal *mod, const char *name)
{
	static const struct { const char *mod, *attr, *to; } subs[] = {
		{"triton", "language", "tl"},
		{"tl", "math", "tl_math"},
		{"tl", "extra", "tl.extra"},
		{"tl", "core", "tl"},
		{"tl", "standard", "tl"},
		{"tl.extra", "cuda", "tl.extra.cuda"},
		{"tl.extra", "hip", "tl.extra.hip"},
		{"tl.extra", "libdevice", "libdevice"},
		{"tl.extra.cuda", "libdevice", "libdevice"},
		{"tl.extra.hip", "libdevice", "libdevice"},
	};
	for (size_t i = 0; i < TC_COUNT(subs); i++)
		if (!strcmp(mod->str, subs[i].mod) && !strcmp(name, subs[i].attr))
			return module(s, subs[i].to);
	return NULL;
}

/* tl.extra.cuda's functions. gdc_wait / gdc_launch_dependents order a
 * kernel after the one launched before it when both are launched with
 * programmatic dependent launch; tritonc launches every grid after the
 * previous one has finished, so the wait has nothing to wait for and the
 * hint nothing to start: both are empty on every target. */
SVal *spec_call_extra_cuda(Spec *s, const Node *call, const char *fn)
{
	if (!strcmp(fn, "gdc_wait") || !strcmp(fn, "gdc_launch_dependents")) {
		if (call->items.len || call->keywords.len)
			spec_error(s, call, "tl.extra.cuda.%s takes no arguments", fn);
		return spec_sv_new(s, SV_NONE);
	}
	return NULL;
}

/* ---- -D values ---- */

/* A -D value: True/False, an int, a float, or any Python expression of
 * constants ('"leaky_relu"', tl.float16, None, (64, 128)). NULL when the
 * text is none of these (the diagnostic is already reported for a syntax
 * error in it). */
SVal *spec_parse_define(Spec *s, const char *name, const char *text)
{
	char *end;
	if (!strcmp(text, "True") || !strcmp(text, "False"))
		return spec_sv_int(s, text[0] == 'T');
	errno = 0;
	long long i = strtoll(text, &end, 0);
	if (*text && !*end && errno == ERANGE)   /* past 64 bits */
		return NULL;
	if (*text && !*end)
		return spec_sv_int(s, i);
	double f = strtod(text, &end);
	if (*text && !*end)
		return spec_sv_float(s, f);
	if (!*text)
		return NULL;
	Source *src = arena_alloc(s->a, sizeof *src);
	src->name = arena_printf(s->a, "-D %s", name);
	src->text = arena_strdup(s->a, text);
	src->len = strlen(text);
	DType dt;
	if (dtype_parse(text, &dt) && dt != DT_PTR) {   /* -D T=fp16 */
		SVal *v = spec_sv_new(s, SV_DTYPE);
		v->dtype = dt;
		return v;
	}
	Node *e = parse_expression(s->a, s->d, src);
	if (!e || e->kind == ND_NAME)   /* a bare word is no constant (quote a string) */
		return NULL;
	const Source *saved = s->src;
	s->src = src;
	SVal *v = spec_eval(s, e);
	s->src = saved;
	if (v->kind == SV_VALUE || v->kind == SV_DESC)
		return NULL;
	return v;
}

/* print(prefix, *values) and tl.device_print(prefix, *values, hex=False)
 * print from every program at run time (TOP_PRINT), as Triton 3.6 maps
 * Python's print: the prefix a string, made to start with a space and end
 * with ": " when there are values. */
SVal *spec_device_print(Spec *s, const Node *call, const char *unused)
{
	(void)unused;
	SVal *p = call->items.len ? spec_eval(s, call->items.items[0]) : spec_arg(s, call, -1, "prefix");
	if (!p || p->kind != SV_STR)
		spec_error(s, call, "print() / tl.device_print: the first argument must be a string (the prefix)");
	int n = call->items.len ? call->items.len - 1 : 0;
	TValue **vals = arena_alloc(s->a, sizeof *vals * (size_t)(n + 1));
	for (int i = 0; i < n; i++)
		vals[i] = spec_to_value(s, call->items.items[i + 1], spec_eval(s, call->items.items[i + 1]));
	Buf b = {0};
	buf_puts(&b, p->str);
	if (n) {
		size_t len = strlen(buf_str(&b));
		if (!len || buf_str(&b)[len - 1] != ' ')
			buf_putc(&b, ' ');
		len = strlen(buf_str(&b));
		if (len < 2 || strcmp(buf_str(&b) + len - 2, ": ")) {
			char *t = buf_detach(&b);
			t[strlen(t) - 1] = 0;
			buf_printf(&b, "%s: ", t);
			free(t);
		}
	}
	char *text = buf_detach(&b);
	if (!text)
		text = base_strdup("");
	const char *prefix = strlen(text) > 2 && text[0] != ' ' ? arena_printf(s->a, " %s", text) : arena_strdup(s->a, text);
	free(text);
	SVal *hex = spec_arg(s, call, -1, "hex");
	spec_checked(s, call, tir_print(&s->b, n, vals, prefix, hex && hex->kind == SV_INT && hex->i));
	return spec_sv_new(s, SV_NONE);
}
