/* test_frontend.c: the Triton front end (lexer, parser, discovery).
 * Runs from the repository root; prints "PASS name" or "FAIL name: why". */
#include "triton/triton.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void pass(const char *name) { printf("PASS %s\n", name); }

static void fail(const char *name, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("FAIL %s: ", name);
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	failures++;
}

static Source mem_source(const char *name, const char *text)
{
	Source s = {name, text, strlen(text), 0, 0};
	return s;
}

/* First line of the diagnostics text. */
static char *first_line(const char *s)
{
	size_t n = strcspn(s, "\n");
	char *r = base_malloc(n + 1);
	memcpy(r, s, n);
	r[n] = '\0';
	return r;
}

/* ---- lexer ---- */

static void test_lexer(void)
{
	const char *text = "x = 0x1F + 1_000 * 1e-06 // .5 ** 4096.0\n"
	                   "s = r'a\\n' \"b\" '''c\nd''' \n"
	                   "if (a <=\n b): y >>= 2 -> z\n";
	Source src = mem_source("lex.py", text);
	Arena a = {0};
	Diag d = {0};
	int n;
	Token *t = lex_source(&a, &d, &src, &n);
	if (!t) {
		fail("lex.tokens", "%s", buf_str(&d.text));
		return;
	}
	Buf b = {0};
	for (int i = 0; i < n; i++) {
		switch (t[i].kind) {
		case TK_INT: buf_printf(&b, "I%lld ", (long long)t[i].ival); break;
		case TK_FLOAT: buf_printf(&b, "F%g ", t[i].fval); break;
		case TK_STR: buf_printf(&b, "S<%s> ", t[i].s->str); break;
		case TK_NEWLINE: buf_puts(&b, "NL "); break;
		case TK_EOF: buf_puts(&b, "EOF"); break;
		default: buf_printf(&b, "%.*s ", (int)t[i].len, text + t[i].offset); break;
		}
	}
	const char *want = "x = I31 + I1000 * F1e-06 // F0.5 ** F4096 NL "
	                   "s = S<a\\n> S<b> S<c\nd> NL if ( a <= b ) : y >>= I2 -> z NL EOF";
	if (strcmp(buf_str(&b), want) != 0)
		fail("lex.tokens", "got '%s'", buf_str(&b));
	else if (t[2].offset != 4 || t[6].offset != 19)
		fail("lex.tokens", "bad offsets %zu %zu", t[2].offset, t[6].offset);
	else
		pass("lex.tokens");
	buf_free(&b);

	const char *ind = "def f():\n    if a:\n        b\n\n    # c\n    c\nd\n";
	src = mem_source("ind.py", ind);
	t = lex_source(&a, &d, &src, &n);
	int indents = 0, dedents = 0;
	for (int i = 0; t && i < n; i++) {
		indents += t[i].kind == TK_INDENT;
		dedents += t[i].kind == TK_DEDENT;
	}
	if (!t || indents != 2 || dedents != 2)
		fail("lex.indent", "indents %d dedents %d", indents, dedents);
	else
		pass("lex.indent");
	arena_free(&a);
	buf_free(&d.text);
}

/* ---- parser golden tests ---- */

static void check_expr(const char *name, const char *text, const char *want)
{
	Source src = mem_source(name, text);
	Arena a = {0};
	Diag d = {0};
	Node *n = parse_expression(&a, &d, &src);
	Buf b = {0};
	if (n)
		ast_dump(&b, n);
	if (!n)
		fail(name, "%s", buf_str(&d.text));
	else if (strcmp(buf_str(&b), want) != 0)
		fail(name, "got '%s' want '%s'", buf_str(&b), want);
	else
		pass(name);
	buf_free(&b);
	buf_free(&d.text);
	arena_free(&a);
}

static void test_exprs(void)
{
	check_expr("parse.precedence", "a + b * c ** -d // e",
	           "(binop + a (binop // (binop * b (binop ** c (unary - d))) e))\n");
	check_expr("parse.bitwise", "a | b ^ c & d << 1 >> 2",
	           "(binop | a (binop ^ b (binop & c (binop >> (binop << d 1) 2))))\n");
	check_expr("parse.ternary", "x if c and not d or e else y",
	           "(ternary (boolop or (boolop and c (unary not d)) e) x y)\n");
	check_expr("parse.compare_chain", "a < b <= c != d is not e not in f",
	           "(compare a < b <= c != d is not e not in f)\n");
	check_expr("parse.slices", "x[:, None] + y[None, :] + z[:] + w[1:2:3]",
	           "(binop + (binop + (binop + (subscript x (tuple (slice _ _ _) None)) "
	           "(subscript y (tuple None (slice _ _ _)))) (subscript z (slice _ _ _))) "
	           "(subscript w (slice 1 2 3)))\n");
	check_expr("parse.call_kwargs", "tl.load(p + x, mask=m, other=0.0)",
	           "(call (attr tl load) (binop + p x) (kw mask m) (kw other 0f))\n");
	check_expr("parse.literals", "{'a': [1, 2], (0,): {3}, 'b': (True, False, None)}",
	           "(dict ('a': (list 1 2)) ((tuple 0): (set 3)) ('b': (tuple True False None)))\n");
	check_expr("parse.tuple", "a, b", "(tuple a b)\n");
	check_expr("parse.lambda", "lambda args, k=1: args['n'] % k == 0",
	           "(lambda (params (param args) (param k _ 1)) (compare (binop % (subscript args 'n') k) == 0))\n");
	check_expr("parse.strings", "r'a\\d' 'b' \"\"\"c\"\"\"", "'a\\\\dbc'\n");
	check_expr("parse.floats", "1e-06 + 4096.0 + .5", "(binop + (binop + 1e-06f 4096f) 0.5f)\n");
}

static void check_module(const char *name, const char *text, const char *want)
{
	Source src = mem_source(name, text);
	Arena a = {0};
	Diag d = {0};
	Node *n = parse_module(&a, &d, &src);
	Buf b = {0};
	if (n)
		ast_dump(&b, n);
	if (!n)
		fail(name, "%s", buf_str(&d.text));
	else if (strcmp(buf_str(&b), want) != 0)
		fail(name, "got:\n%s\nwant:\n%s", buf_str(&b), want);
	else
		pass(name);
	buf_free(&b);
	buf_free(&d.text);
	arena_free(&a);
}

static void test_stmts(void)
{
	check_module("parse.module",
	             "import triton\nfrom x import y\nclass C:\n    def f(self): return lambda: 1\n"
	             "@triton.jit\n"
	             "def k(x_ptr, n, XBLOCK : tl.constexpr, R: tl.constexpr = 4):\n"
	             "    RBLOCK: tl.constexpr = 4096\n"
	             "    a, b = f(x)\n"
	             "    a += 1; b //= 2\n"
	             "    for i in tl.range(0, n, 2):\n"
	             "        if i < 3:\n            continue\n"
	             "        elif i:\n            break\n"
	             "        else:\n            pass\n"
	             "    while a: a -= 1\n"
	             "    return a, b\n",
	             "(module\n"
	             "\t(body\n"
	             "\t\t(def k (decorators (attr triton jit)) (params (param x_ptr) (param n) "
	             "(param XBLOCK (attr tl constexpr) _) (param R (attr tl constexpr) 4))\n"
	             "\t\t\t(body\n"
	             "\t\t\t\t(annassign RBLOCK (attr tl constexpr) 4096)\n"
	             "\t\t\t\t(assign (targets (tuple a b)) (call f x))\n"
	             "\t\t\t\t(augassign + a 1)\n"
	             "\t\t\t\t(augassign // b 2)\n"
	             "\t\t\t\t(for i (call (attr tl range) 0 n 2)\n"
	             "\t\t\t\t\t(body\n"
	             "\t\t\t\t\t\t(if (compare i < 3)\n"
	             "\t\t\t\t\t\t\t(body\n\t\t\t\t\t\t\t\tcontinue)\n"
	             "\t\t\t\t\t\t\t(else\n"
	             "\t\t\t\t\t\t\t\t(if i\n"
	             "\t\t\t\t\t\t\t\t\t(body\n\t\t\t\t\t\t\t\t\t\tbreak)\n"
	             "\t\t\t\t\t\t\t\t\t(else\n\t\t\t\t\t\t\t\t\t\tpass))))))\n"
	             "\t\t\t\t(while a\n\t\t\t\t\t(body\n\t\t\t\t\t\t(augassign - a 1)))\n"
	             "\t\t\t\t(return (tuple a b))))))\n");
}

/* ---- corpus ---- */

static char *read_file(const char *path, size_t *len)
{
	char *t = file_read(path, len);
	if (!t)
		fail(path, "cannot read");
	return t;
}

/* The kernel names an Inductor file declares, found by plain text search
 * (independent of the lexer), or the names after "@triton.jit\ndef ". */
static int expected_names(const char *text, char names[][128], int max)
{
	int n = 0;
	const char *pat = "= async_compile.triton('";
	for (const char *p = strstr(text, pat); p && n < max; p = strstr(p + 1, pat)) {
		p += strlen(pat);
		size_t k = strcspn(p, "'");
		snprintf(names[n++], 128, "%.*s", (int)k, p);
	}
	if (n > 0)
		return n;
	pat = "@triton.jit\ndef ";
	for (const char *p = strstr(text, pat); p && n < max; p = strstr(p + 1, pat)) {
		p += strlen(pat);
		size_t k = strcspn(p, "(");
		snprintf(names[n++], 128, "%.*s", (int)k, p);
	}
	return n;
}

static void test_corpus_file(const char *dir, const char *file)
{
	char path[512], name[600];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	snprintf(name, sizeof name, "corpus.%s", file);
	size_t len;
	char *text = read_file(path, &len);
	if (!text)
		return;
	Source src = {file, text, len, 0, 0};
	Arena a = {0};
	Diag d = {0};
	KernelList kl = {0};
	int n = discover_kernels(&a, &d, &src, &kl);
	char want[16][128];
	int nwant = expected_names(text, want, 16);
	bool inductor = strstr(text, "async_compile.triton(") != NULL;
	if (n < 0) {
		fail(name, "%s", first_line(buf_str(&d.text)));
	} else if (n == 0 || n != nwant) {
		fail(name, "found %d kernels, expected %d", n, nwant);
	} else {
		bool ok = true;
		for (int i = 0; i < n && ok; i++) {
			Kernel *k = kl.items[i];
			if (strcmp(k->name, want[i]) != 0) {
				fail(name, "kernel %d is '%s', expected '%s'", i, k->name, want[i]);
				ok = false;
			} else if (inductor && (!k->signature || k->decor == KDEC_JIT || !k->size_hints)) {
				fail(name, "kernel '%s' lacks signature/heuristics", k->name);
				ok = false;
			} else if (inductor) {
				/* every parameter has a signature entry */
				for (int j = 0; j < k->func->params.len && ok; j++) {
					if (!discover_sig_type(k, k->func->params.items[j]->name)) {
						fail(name, "no signature type for '%s'", k->func->params.items[j]->name);
						ok = false;
					}
				}
			}
		}
		if (ok)
			pass(name);
	}
	free(text);
	buf_free(&d.text);
	arena_free(&a);
}

static void test_corpus(void)
{
	DIR *dir = opendir("tests/corpus");
	if (!dir) {
		fail("corpus", "cannot open tests/corpus");
		return;
	}
	struct dirent *e;
	int count = 0;
	while ((e = readdir(dir))) {
		size_t n = strlen(e->d_name);
		if (n > 3 && strcmp(e->d_name + n - 3, ".py") == 0) {
			test_corpus_file("tests/corpus", e->d_name);
			count++;
		}
	}
	closedir(dir);
	if (count < 5)
		fail("corpus", "only %d files", count);
}

/* Details of one Inductor kernel: signature, heuristics, line mapping. */
static void test_inductor_details(void)
{
	const char *name = "inductor.rmsnorm_details";
	size_t len;
	char *text = read_file("tests/corpus/rmsnorm_f32_4096.py", &len);
	if (!text)
		return;
	Source src = {"rmsnorm_f32_4096.py", text, len, 0, 0};
	Arena a = {0};
	Diag d = {0};
	KernelList kl = {0};
	int n = discover_kernels(&a, &d, &src, &kl);
	Kernel *k = n == 1 ? kl.items[0] : NULL;
	/* line of "def triton_red..." in the original file */
	const char *def = strstr(text, "\ndef triton_red_fused_add_mean_mul_pow_rsqrt_0(");
	int want_line = 2;
	for (const char *p = text; def && p < def; p++)
		want_line += *p == '\n';
	int line = 0, col = 0;
	if (k)
		diag_source_linecol(k->src, k->func->offset, &line, &col);
	Node *x = k ? ast_dict_get(k->size_hints, "x") : NULL;
	if (!k)
		fail(name, "found %d kernels", n);
	else if (k->decor != KDEC_REDUCTION)
		fail(name, "decorator %s", discover_decor_name(k->decor));
	else if (!discover_sig_type(k, "in_ptr0") || strcmp(discover_sig_type(k, "in_ptr0"), "*fp32") ||
	         strcmp(discover_sig_type(k, "XBLOCK"), "constexpr") || strcmp(discover_sig_type(k, "xnumel"), "i32"))
		fail(name, "bad signature");
	else if (!x || x->kind != ND_INT || x->ival != 8192)
		fail(name, "bad size_hints");
	else if (!k->configs || k->configs->kind != ND_LIST)
		fail(name, "no configs");
	else if (line != want_line || col != 1)
		fail(name, "def at %d:%d, expected %d:1", line, col, want_line);
	else
		pass(name);
	free(text);
	buf_free(&d.text);
	arena_free(&a);
}

/* Plain files: several kernels, helpers, autotune configs, continuation lines. */
static void test_plain_module(void)
{
	const char *name = "discover.plain_helpers";
	const char *text =
		"import triton\n"
		"import triton.language as tl\n"
		"@triton.jit\n"
		"def helper(x):\n"
		"    return x * 2 + \\\n"
		"        1\n"
		"def not_a_kernel(y):\n"
		"    with open(y) as f: return [z for z in f]\n"
		"@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_warps=4)], key=['n'])\n"
		"@triton.jit\n"
		"def kern(x_ptr, n, BLOCK: tl.constexpr):\n"
		"    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
		"    tl.store(x_ptr + i, helper(tl.load(x_ptr + i, mask=i < n)), mask=i < n)\n";
	Source src = mem_source("plain.py", text);
	Arena a = {0};
	Diag d = {0};
	KernelList kl = {0};
	int n = discover_kernels(&a, &d, &src, &kl);
	if (n != 2)
		fail(name, "found %d kernels: %s", n, buf_str(&d.text));
	else if (strcmp(kl.items[0]->name, "helper") || strcmp(kl.items[1]->name, "kern"))
		fail(name, "names %s %s", kl.items[0]->name, kl.items[1]->name);
	else if (kl.items[1]->module->body.len != 2 || kl.items[1]->module != kl.items[0]->module ||
	         kl.items[1]->module->body.items[0] != kl.items[0]->func)
		fail(name, "helpers wrong");
	else if (!kl.items[1]->configs || kl.items[1]->configs->kind != ND_LIST ||
	         kl.items[1]->func->decorators.len != 2 || kl.items[1]->decor != KDEC_JIT)
		fail(name, "autotune configs/decorators wrong");
	else
		pass(name);
	buf_free(&d.text);
	arena_free(&a);
}

/* ---- golden AST dumps: tests/frontend/golden/NAME.ast for tests/corpus/NAME.py ---- */

static void test_golden_file(const char *file)
{
	char path[512], gold[512], name[600];
	size_t stem = strlen(file) - 4;
	snprintf(path, sizeof path, "tests/corpus/%.*s.py", (int)stem, file);
	snprintf(gold, sizeof gold, "tests/frontend/golden/%s", file);
	snprintf(name, sizeof name, "golden.%.*s", (int)stem, file);
	size_t len, glen;
	char *text = read_file(path, &len);
	char *want = read_file(gold, &glen);
	if (!text || !want) {
		free(text);
		free(want);
		return;
	}
	const char *base = strrchr(path, '/') + 1;
	Source src = {base, text, len, 0, 0};
	Arena a = {0};
	Diag d = {0};
	KernelList kl = {0};
	int n = discover_kernels(&a, &d, &src, &kl);
	Buf b = {0};
	for (int i = 0; i < n; i++) {
		Kernel *k = kl.items[i];
		int line, col;
		diag_source_linecol(k->src, k->func->offset, &line, &col);
		buf_printf(&b, "; kernel %s %s at %d:%d, %d helpers\n", k->name,
		           discover_decor_name(k->decor), line, col, k->module->body.len - 1);
		ast_dump(&b, k->func);
	}
	if (n < 0) {
		fail(name, "%s", buf_str(&d.text));
	} else if (strcmp(buf_str(&b), want) != 0) {
		size_t i = 0;
		while (b.data[i] && b.data[i] == want[i])
			i++;
		fail(name, "dump differs at byte %zu", i);
	} else {
		pass(name);
	}
	buf_free(&b);
	free(text);
	free(want);
	buf_free(&d.text);
	arena_free(&a);
}

static void test_golden(void)
{
	DIR *dir = opendir("tests/frontend/golden");
	if (!dir) {
		fail("golden", "cannot open tests/frontend/golden");
		return;
	}
	struct dirent *e;
	while ((e = readdir(dir))) {
		size_t n = strlen(e->d_name);
		if (n > 4 && strcmp(e->d_name + n - 4, ".ast") == 0)
			test_golden_file(e->d_name);
	}
	closedir(dir);
}

/* ---- error inputs: tests/frontend/errors/NAME.py and NAME.err ---- */

static void test_error_file(const char *file)
{
	char path[512], errpath[512], name[600];
	snprintf(path, sizeof path, "tests/frontend/errors/%s", file);
	snprintf(errpath, sizeof errpath, "%.*s.err", (int)(strlen(path) - 3), path);
	snprintf(name, sizeof name, "error.%s", file);
	size_t len, elen;
	char *text = read_file(path, &len);
	char *want = read_file(errpath, &elen);
	if (!text || !want) {
		free(text);
		free(want);
		return;
	}
	Source src = {file, text, len, 0, 0};
	Arena a = {0};
	Diag d = {0};
	KernelList kl = {0};
	int n = discover_kernels(&a, &d, &src, &kl);
	char *got = first_line(buf_str(&d.text));
	char *w = first_line(want);
	if (n >= 0)
		fail(name, "no error reported");
	else if (strcmp(got, w) != 0)
		fail(name, "got '%s', expected '%s'", got, w);
	else if (d.errors != 1)
		fail(name, "%d errors", d.errors);
	else
		pass(name);
	free(got);
	free(w);
	free(text);
	free(want);
	buf_free(&d.text);
	arena_free(&a);
}

static void test_errors(void)
{
	DIR *dir = opendir("tests/frontend/errors");
	if (!dir) {
		fail("errors", "cannot open tests/frontend/errors");
		return;
	}
	struct dirent *e;
	while ((e = readdir(dir))) {
		size_t n = strlen(e->d_name);
		if (n > 3 && strcmp(e->d_name + n - 3, ".py") == 0)
			test_error_file(e->d_name);
	}
	closedir(dir);
}

/* ---- robustness: truncations and byte mutations never crash ---- */

static void test_mutations(void)
{
	size_t len;
	char *text = read_file("tests/corpus/layernorm_f32_1024.py", &len);
	if (!text)
		return;
	char *copy = base_malloc(len + 1);
	uint64_t rng = 12345;
	int runs = 0, ok = 0;
	for (size_t cut = 0; cut < len; cut += 61, runs++) {
		memcpy(copy, text, len + 1);
		copy[cut] = '\0';
		Source src = {"cut.py", copy, cut, 0, 0};
		Arena a = {0};
		Diag d = {0};
		KernelList kl = {0};
		ok += discover_kernels(&a, &d, &src, &kl) >= 0;
		buf_free(&d.text);
		arena_free(&a);
	}
	static const char bytes[] = "()[]{}:,.=\n\t '\"\\#@*-x0\x80";
	for (int r = 0; r < 400; r++, runs++) {
		memcpy(copy, text, len + 1);
		for (int m = 0; m < 3; m++) {
			rng = rng * 6364136223846793005ull + 1442695040888963407ull;
			copy[(rng >> 33) % len] = bytes[(rng >> 20) % (sizeof bytes - 1)];
		}
		Source src = {"mut.py", copy, len, 0, 0};
		Arena a = {0};
		Diag d = {0};
		KernelList kl = {0};
		ok += discover_kernels(&a, &d, &src, &kl) >= 0;
		buf_free(&d.text);
		arena_free(&a);
	}
	printf("PASS robust.mutations (%d runs, %d parsed)\n", runs, ok);
	free(copy);
	free(text);
}

int main(void)
{
	test_lexer();
	test_exprs();
	test_stmts();
	test_corpus();
	test_inductor_details();
	test_plain_module();
	test_golden();
	test_errors();
	test_mutations();
	return failures ? 1 : 0;
}
