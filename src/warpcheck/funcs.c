/* funcs.c: function definitions, so facts are per function, not per file.
 *
 * A function body is a "{" whose declarator ends in ")" (after optional
 * const, noexcept, override, a trailing return type or a constructor's
 * initialiser list) and whose name is not a control keyword. Class,
 * namespace and extern "C" braces are walked into; lambdas and blocks
 * inside a body belong to that body. The kind comes from the qualifiers
 * before the name: __global__ (kernel), __device__, __host__ __device__,
 * none (host), or an unknown all-capitals macro (unknown). */
#include "warpcheck/warpcheck.h"

#include <stdlib.h>
#include <string.h>

static bool control_word(const WcFile *f, int i)
{
	return wc_kw(f, i, WK_if) || wc_kw(f, i, WK_for) || wc_kw(f, i, WK_while) ||
	       wc_kw(f, i, WK_switch) || wc_kw(f, i, WK_catch) || wc_kw(f, i, WK_return) ||
	       wc_kw(f, i, WK_sizeof) || wc_kw(f, i, WK_static_assert);
}

/* Steps back from the token before "{" over what may follow a
 * declarator's ")": const, noexcept(...), override, -> T, : a(x), b{y}. */
static int declarator_close(const WcFile *f, int i)
{
	for (int guard = 0; i >= 0 && guard < 64; guard++) {
		if (wc_kw(f, i, WK_const) || wc_kw(f, i, WK_noexcept) || wc_kw(f, i, WK_override) ||
		    wc_kw(f, i, WK_final) || wc_kw(f, i, WK_mutable) || wc_kw(f, i, WK_volatile)) {
			i--;
		} else if (wc_op(f, i, WP_RPAREN)) {
			int open = wc_match_back(f, i);
			if (open <= 0)
				return -1;
			/* noexcept(...) or a member initialiser "b(y)" after a ":" */
			if (wc_kw(f, open - 1, WK_noexcept)) {
				i = open - 2;
				continue;
			}
			int k = open - 1;
			while (k > 0 && (wc_ident(f, k) || wc_op(f, k, WP_SCOPE)) && !wc_op(f, k - 1, WP_COMMA) &&
			       !wc_op(f, k - 1, WP_COLON))
				k--;
			if (k > 0 && (wc_op(f, k - 1, WP_COMMA) || wc_op(f, k - 1, WP_COLON)) && wc_ident(f, k)) {
				i = k - 2;  /* skip "b(y)" and the separator before it */
				continue;
			}
			return i;
		} else {
			return -1;
		}
	}
	return -1;
}

/* The kind from the qualifiers in [from, name). */
static WcFuncKind kind_of(const WcFile *f, int from, int name)
{
	bool global = false, device = false, host = false, unknown = false;
	int angle = 0;  /* inside template <...>: parameter names, not qualifiers */
	for (int i = from; i < name; i++) {
		angle += wc_op(f, i, WP_LT) - wc_op(f, i, WP_GT) - 2 * wc_op(f, i, WP_SHR);
		if (angle > 0)
			continue;
		global = global || wc_kw(f, i, WK___global__);
		device = device || wc_kw(f, i, WK___device__);
		host = host || wc_kw(f, i, WK___host__);
		if (wc_ident(f, i) && f->t[i].id >= WK__COUNT && f->t[i].len > 2) {
			const char *s = f->src.text + f->t[i].off;
			bool caps = true;
			for (uint32_t k = 0; k < f->t[i].len && caps; k++)
				caps = (s[k] >= 'A' && s[k] <= 'Z') || s[k] == '_' || (s[k] >= '0' && s[k] <= '9');
			unknown = unknown || caps;
		}
	}
	if (global)
		return WF_KERNEL;
	if (device)
		return host ? WF_HOST_DEVICE : WF_DEVICE;
	return unknown ? WF_UNKNOWN : WF_HOST;
}

/* Start of the declaration that ends at `name`: after the last ; { } or
 * access-specifier ":" (template<...> and qualifiers included). */
static int decl_start(const WcFile *f, int name)
{
	int i = name - 1;
	while (i >= 0 && !wc_op(f, i, WP_SEMI) && !wc_op(f, i, WP_LBRACE) && !wc_op(f, i, WP_RBRACE) &&
	       !wc_op(f, i, WP_COLON) && name - i < 64)
		i--;
	return i + 1;
}

/* Is the "{" at i a function body? Returns its name token, or -1. */
static int body_name(const WcFile *f, int i)
{
	int close = declarator_close(f, i - 1);
	if (close < 0)
		return -1;
	int open = wc_match_back(f, close);
	if (open <= 0)
		return -1;
	int name = open - 1;
	/* operator()(...), operator[](...), operator+(...): the name is "operator" */
	for (int k = 1; k <= 3 && !wc_ident(f, name); k++)
		if (wc_kw(f, open - k, WK_operator))
			return open - k;
	if (wc_op(f, name, WP_RBRACK) || wc_op(f, name, WP_GT))
		return -1;  /* a lambda, or something templated we do not follow */
	if (!wc_ident(f, name) || control_word(f, name))
		return -1;
	return name;
}

static void add_fn(WcFile *f, int name, int open, int close, int *cap)
{
	if (f->nfns == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		f->fns = base_realloc(f->fns, (size_t)*cap * sizeof *f->fns);
	}
	f->fns[f->nfns++] = (WcFunc){name, open, close, kind_of(f, decl_start(f, name), name)};
}

void wc_functions(WcFile *f)
{
	int cap = 0;
	for (int i = 0; i < f->n; i++) {
		if (!wc_op(f, i, WP_LBRACE))
			continue;
		int name = body_name(f, i);
		if (name < 0)
			continue;  /* a class, namespace or initialiser: look inside */
		int close = wc_match(f, i);
		if (close < 0)
			close = f->n - 1;
		add_fn(f, name, i, close, &cap);
		i = close;
	}
}

int wc_func_at(const WcFile *f, int i)
{
	int lo = 0, hi = f->nfns - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (i < f->fns[mid].open)
			hi = mid - 1;
		else if (i > f->fns[mid].close)
			lo = mid + 1;
		else
			return mid;
	}
	return -1;
}
