/* rule_tmpl.c: H15, template arguments that give a count of whole
 * wavefronts a value that is not one.
 *
 *   template <int BLOCK_SIZE, int NUM_PER_TH> __global__ void quant(...) {
 *       typedef cub::BlockLoad<T, BLOCK_SIZE / NUM_PER_TH, NUM_PER_TH,
 *                              cub::BLOCK_LOAD_WARP_TRANSPOSE> LoadT;
 *   ...
 *   template __global__ void quant<half, 64, 2>(...);   // 32 threads
 *
 *   template <int NumWarpQ> struct WarpSelect {
 *       static constexpr int kNumWarpQRegisters = NumWarpQ / kWarpSize;
 *   ...
 *   select_kernel<32, 2><<<grid, block>>>(...);   // 0 registers on 64 lanes
 *
 * A template parameter is counted in wavefronts when the template divides
 * it by the device's width (warpSize, a library's name for it, or a
 * warp-size name with no fixed value of 32), gives it to a block
 * collective whose WARP_TRANSPOSE algorithm needs a block of whole warps
 * (cub/hipcub BlockLoad and BlockStore, rocPRIM's block_load and
 * block_store), or passes it on, as it is, to such a parameter of another
 * template (however deep; the other template may be in an included
 * header). A value that is a multiple of 32 but not of 64 is whole warps
 * on NVIDIA and RDNA and not on CDNA.
 *
 * Instantiations are read where the arguments are constants: a launch, a
 * call or a declaration (NAME<32, 2>), and an explicit instantiation, also
 * one a function-like macro of the file stamps out (#define MAKE(T, B, N)
 * template __global__ void quant<T, B, N>(...); MAKE(half, 64, 2)). The
 * finding goes where the value is first written: the argument, when the
 * template passes it on as it is; the collective's thread count, when the
 * template computes it (BLOCK_SIZE / NUM_PER_TH), naming the instantiation.
 * Not in a branch of an if on the warp size, under a per-target #if, in
 * code no HIP pass for a 64-lane chip (nor the host pass) compiles, or in
 * the body of a macro that is no explicit instantiation (a launcher it
 * stamps out is called from code this rule cannot see). */
#include "warpcheck/warpcheck.h"

#include <stdlib.h>
#include <string.h>

enum { K_DIV = 1, K_TRANSPOSE = 2 };

/* A constrained expression in a template's body: [a, b) must be whole
 * wavefronts (kind); inner names the template or collective that needs it. */
typedef struct Site {
	int a, b;
	uint8_t kind;
	uint32_t inner;
	bool reported;
} Site;

typedef struct Tmpl {
	int name;                 /* the template's name token */
	int open, close;          /* its body's braces */
	uint32_t *params; int np;
	Site *sites; int nsites, scap;
} Tmpl;

typedef struct Bind {
	const uint32_t *ids;
	const uint64_t *vals;
	const bool *known;
	int n;
} Bind;

static bool name_is(const WcFile *f, int i, const char *s)
{
	size_t n = strlen(s);
	return wc_ident(f, i) && f->t[i].len == n && memcmp(f->src.text + f->t[i].off, s, n) == 0;
}

static bool name_has(const WcFile *f, int i, const char *s)
{
	size_t n = strlen(s);
	if (!wc_ident(f, i) || f->t[i].len < n)
		return false;
	const char *t = f->src.text + f->t[i].off;
	for (uint32_t k = 0; k + n <= f->t[i].len; k++)
		if (memcmp(t + k, s, n) == 0)
			return true;
	return false;
}

/* The device's width: warpSize, an alias, a library's name for it, or a
 * warp-size name that is not fixed at 32 (kWarpSize = 64 under a HIP
 * condition, 32 in the other branch). */
static bool device_width(const WcFile *f, int i)
{
	if (wc_warp_size_alias(f, i))
		return true;
	if (!(wc_flags(f, i) & WN_WARP_SIZE) || wc_op(f, i + 1, WP_LPAREN))
		return false;
	const WcName *nm = &f->names->v[f->t[i].id];
	return !(nm->const_stamp == f->stamp && !nm->const_conflict && nm->const_value == 32);
}

/* The ">" that closes the template argument or parameter list whose "<"
 * is at lt, or -1. A ">>" closes two levels. */
static int angle_close(const WcFile *f, int lt, int end)
{
	int depth = 0;
	for (int i = lt; i < end; i++) {
		if (wc_op(f, i, WP_LT))
			depth++;
		else if (wc_op(f, i, WP_GT))
			depth--;
		else if (wc_op(f, i, WP_SHR))
			depth -= 2;
		else if (wc_is_open(f, i)) {
			int c = wc_match(f, i);
			if (c < 0)
				return -1;
			i = c;
			continue;
		} else if (wc_op(f, i, WP_SEMI) || wc_op(f, i, WP_LBRACE) || wc_op(f, i, WP_RBRACE) || wc_is_close(f, i))
			return -1;
		if (depth <= 0)
			return depth == 0 || wc_op(f, i, WP_SHR) ? i : -1;
	}
	return -1;
}

/* The arguments of the list <...> from lt to gt, each [s, e), into a
 * growing array; the count. */
static int angle_args(const WcFile *f, int lt, int gt, int **s, int **e, int *cap)
{
	int n = 0, depth = 0, start = lt + 1;
	for (int i = lt + 1; i <= gt; i++) {
		if (i < gt && wc_is_open(f, i)) {
			int c = wc_match(f, i);  /* (DATA_TYPE > 0): no angle in it */
			if (c > i && c < gt) {
				i = c;
				continue;
			}
		}
		if (i < gt && wc_op(f, i, WP_LT))
			depth++;
		else if (i < gt && wc_op(f, i, WP_GT))
			depth--;
		if (i == gt || (depth == 0 && wc_op(f, i, WP_COMMA))) {
			if (i == gt && start == gt && n == 0)
				break;
			if (n == *cap) {
				*cap = *cap ? *cap * 2 : 8;
				*s = base_realloc(*s, (size_t)*cap * sizeof **s);
				*e = base_realloc(*e, (size_t)*cap * sizeof **e);
			}
			(*s)[n] = start, (*e)[n] = i;
			n++;
			start = i + 1;
		}
	}
	return n;
}

/* ---- constant expressions, with the template's parameters bound ---- */

typedef struct Ev {
	const WcFile *f;
	int i, end;
	const Bind *bind;
	bool ok;
} Ev;

static int64_t ev_shift(Ev *e);

static int64_t ev_primary(Ev *e)
{
	const WcFile *f = e->f;
	if (e->i >= e->end) {
		e->ok = false;
		return 0;
	}
	if (wc_op(f, e->i, WP_LPAREN)) {
		int c = wc_match(f, e->i);
		if (c < 0 || c >= e->end) {
			e->ok = false;
			return 0;
		}
		Ev in = {f, e->i + 1, c, e->bind, true};
		int64_t v = ev_shift(&in);
		e->ok = e->ok && in.ok && in.i == c;
		e->i = c + 1;
		return v;
	}
	if (wc_op(f, e->i, WP_MINUS)) {
		e->i++;
		return -ev_primary(e);
	}
	int at = e->i;
	while (wc_ident(f, at) && wc_op(f, at + 1, WP_SCOPE) && at + 2 < e->end)
		at += 2;  /* ns::name: the name */
	if (wc_op(f, at, WP_SCOPE) && at + 1 < e->end)
		at++;
	uint64_t v;
	if (wc_ident(f, at) && e->bind) {
		for (int k = 0; k < e->bind->n; k++)
			if (e->bind->ids[k] == f->t[at].id && at == e->i) {
				e->i = at + 1;
				if (!e->bind->known[k])
					e->ok = false;
				return (int64_t)e->bind->vals[k];
			}
	}
	if ((f->t[at].kind == WT_NUMBER || wc_ident(f, at)) && wc_value(f, at, &v) && !wc_op(f, at + 1, WP_LPAREN)) {
		e->i = at + 1;
		return (int64_t)v;
	}
	e->ok = false;
	return 0;
}

static int64_t ev_mul(Ev *e)
{
	int64_t v = ev_primary(e);
	while (e->ok && e->i < e->end &&
	       (wc_op(e->f, e->i, WP_STAR) || wc_op(e->f, e->i, WP_SLASH) || wc_op(e->f, e->i, WP_PERCENT))) {
		WcPunct op = (WcPunct)e->f->t[e->i++].op;
		int64_t r = ev_primary(e);
		if (op == WP_STAR)
			v *= r;
		else if (r == 0)
			e->ok = false;
		else
			v = op == WP_SLASH ? v / r : v % r;
	}
	return v;
}

static int64_t ev_add(Ev *e)
{
	int64_t v = ev_mul(e);
	while (e->ok && e->i < e->end && (wc_op(e->f, e->i, WP_PLUS) || wc_op(e->f, e->i, WP_MINUS))) {
		bool plus = wc_op(e->f, e->i++, WP_PLUS);
		int64_t r = ev_mul(e);
		v = plus ? v + r : v - r;
	}
	return v;
}

static int64_t ev_shift(Ev *e)
{
	int64_t v = ev_add(e);
	while (e->ok && e->i < e->end && (wc_op(e->f, e->i, WP_SHL) || wc_op(e->f, e->i, WP_SHR))) {
		bool left = wc_op(e->f, e->i++, WP_SHL);
		int64_t r = ev_add(e);
		if (r < 0 || r > 62)
			e->ok = false;
		else
			v = left ? v << r : v >> r;
	}
	return v;
}

/* [a, b) as a constant, the parameters bound as bind says (NULL: none). */
static bool eval(const WcFile *f, int a, int b, const Bind *bind, uint64_t *out)
{
	if (a >= b)
		return false;
	Ev e = {f, a, b, bind, true};
	int64_t v = ev_shift(&e);
	if (!e.ok || e.i != b || v < 0)
		return false;
	*out = (uint64_t)v;
	return true;
}

/* Whole warps of 32 lanes, not of 64. */
static bool half_wave(uint64_t v)
{
	return v > 0 && v % 32 == 0 && v % 64 != 0;
}

/* ---- the templates of a file and what their parameters are ---- */

static int param_of(const Tmpl *t, const WcFile *f, int i)
{
	if (!wc_ident(f, i))
		return -1;
	for (int k = 0; k < t->np; k++)
		if (t->params[k] && t->params[k] == f->t[i].id)
			return k;
	return -1;
}

static bool add_site(Tmpl *t, int a, int b, uint8_t kind, uint32_t inner)
{
	for (int k = 0; k < t->nsites; k++)
		if (t->sites[k].a == a && t->sites[k].kind == kind)
			return false;
	if (t->nsites == t->scap) {
		t->scap = t->scap ? t->scap * 2 : 4;
		t->sites = base_realloc(t->sites, (size_t)t->scap * sizeof *t->sites);
	}
	t->sites[t->nsites++] = (Site){a, b, kind, inner, false};
	return true;
}

/* The parameter names of the list <...> [lt, gt]: the last identifier of
 * each before any default ("int N = 4"); 0 for one with none. */
static int param_names(const WcFile *f, int lt, int gt, uint32_t **ids)
{
	int *s = NULL, *e = NULL, cap = 0;
	int n = angle_args(f, lt, gt, &s, &e, &cap);
	*ids = base_calloc((size_t)(n ? n : 1), sizeof **ids);
	for (int k = 0; k < n; k++) {
		int last = -1;
		for (int i = s[k]; i < e[k] && !wc_op(f, i, WP_ASSIGN); i++)
			if (wc_ident(f, i) && f->t[i].id >= WK__COUNT)
				last = i;
		(*ids)[k] = last >= 0 ? f->t[last].id : 0;
	}
	free(s);
	free(e);
	return n;
}

/* The "template" keyword whose declaration the name at i is: walked back
 * over the declaration's qualifiers and the template header. *lt, *gt:
 * the header's brackets. */
static int template_before(const WcFile *f, int i, int *lt, int *gt)
{
	for (int k = i - 1; k >= 0; k--) {
		if (wc_op(f, k, WP_SEMI) || wc_op(f, k, WP_LBRACE) || wc_op(f, k, WP_RBRACE))
			return -1;
		if (wc_is_close(f, k)) {
			int o = wc_match_back(f, k);
			if (o < 0)
				return -1;
			k = o;
			continue;
		}
		if (wc_op(f, k, WP_GT) || wc_op(f, k, WP_SHR)) {
			/* the header's ">": find its "template <" */
			int depth = 0;
			for (int j = k; j >= 0; j--) {
				if (wc_op(f, j, WP_GT))
					depth++;
				else if (wc_op(f, j, WP_SHR))
					depth += 2;
				else if (wc_op(f, j, WP_LT) && --depth == 0) {
					if (wc_kw(f, j - 1, WK_template)) {
						*lt = j, *gt = k;
						return j - 1;
					}
					k = j;
					break;
				} else if (wc_op(f, j, WP_SEMI) || wc_op(f, j, WP_LBRACE) || wc_op(f, j, WP_RBRACE)) {
					return -1;
				}
				if (j == 0)
					return -1;
			}
		}
	}
	return -1;
}

/* Templates of f with a body: function templates and class templates
 * (not specializations, whose parameters are not the positional ones). */
static Tmpl *collect(const WcFile *f, int *nt)
{
	Tmpl *ts = NULL;
	int n = 0, cap = 0;
	for (int k = 0; k < f->nfns; k++) {
		const WcFunc *fn = &f->fns[k];
		int lt, gt;
		if (f->t[fn->name].cuda_only || template_before(f, fn->name, &lt, &gt) < 0)
			continue;
		if (n == cap)
			ts = base_realloc(ts, (size_t)(cap = cap ? cap * 2 : 16) * sizeof *ts);
		ts[n] = (Tmpl){.name = fn->name, .open = fn->open, .close = fn->close};
		ts[n].np = param_names(f, lt, gt, &ts[n].params);
		n++;
	}
	for (int i = 0; i + 1 < f->n; i++) {
		if (!wc_kw(f, i, WK_template) || !wc_op(f, i + 1, WP_LT) || f->t[i].cuda_only)
			continue;
		int gt = angle_close(f, i + 1, f->n);
		if (gt < 0 || !(wc_kw(f, gt + 1, WK_struct) || wc_kw(f, gt + 1, WK_class)) || !wc_ident(f, gt + 2))
			continue;
		int name = gt + 2;
		while (wc_ident(f, name + 1) && !wc_kw(f, name + 1, WK_final))
			name++;  /* struct __attribute_like_macro NAME */
		if (wc_op(f, name + 1, WP_LT))
			continue;  /* a specialization */
		int open = -1;
		for (int j = name + 1; j < f->n && open < 0; j++) {
			if (wc_op(f, j, WP_SEMI) || wc_op(f, j, WP_RBRACE))
				break;
			if (wc_op(f, j, WP_LBRACE))
				open = j;
		}
		int close = open >= 0 ? wc_match(f, open) : -1;
		if (close < 0)
			continue;
		if (n == cap)
			ts = base_realloc(ts, (size_t)(cap = cap ? cap * 2 : 16) * sizeof *ts);
		ts[n] = (Tmpl){.name = name, .open = open, .close = close};
		ts[n].np = param_names(f, i + 1, gt, &ts[n].params);
		n++;
	}
	*nt = n;
	return ts;
}

static void free_tmpls(Tmpl *ts, int n)
{
	for (int k = 0; k < n; k++) {
		free(ts[k].params);
		free(ts[k].sites);
	}
	free(ts);
}

/* A block collective whose algorithm needs whole warps: BlockLoad<T, X,
 * N, BLOCK_LOAD_WARP_TRANSPOSE> (and BlockStore, rocPRIM's block_load /
 * block_store). *x: the thread count's argument [s, e). */
static bool transpose_collective(const WcFile *f, int i, int **s, int **e, int *cap, int *xa, int *xb, int *gt)
{
	if (!wc_op(f, i + 1, WP_LT) || !wc_ident(f, i) || (f->src.text[f->t[i].off] | 32) != 'b' ||
	    !(name_is(f, i, "BlockLoad") || name_is(f, i, "BlockStore") || name_is(f, i, "block_load") ||
	      name_is(f, i, "block_store")))
		return false;
	int close = angle_close(f, i + 1, f->n);
	if (close < 0)
		return false;
	int n = angle_args(f, i + 1, close, s, e, cap);
	if (n < 4)
		return false;
	bool transpose = false;
	for (int k = (*s)[3]; k < (*e)[3]; k++)
		transpose = transpose || name_has(f, k, "WARP_TRANSPOSE") || name_has(f, k, "warp_transpose");
	if (!transpose)
		return false;
	/* BLOCK_DIM_Y, BLOCK_DIM_Z: only 1 keeps the thread count x */
	for (int a = 4; a < n && a < 6; a++) {
		uint64_t v;
		if (!eval(f, (*s)[a], (*e)[a], NULL, &v) || v != 1)
			return false;
	}
	*xa = (*s)[1], *xb = (*e)[1], *gt = close;
	return true;
}

/* Code some HIP pass for a 64-lane chip, or the host pass, may compile,
 * not chosen per target. */
static bool wide_code(const WcFile *f, int i)
{
	if (f->t[i].cuda_only)
		return false;
	const WcRegion *r = wc_region_at(f, i);
	if (!r)
		return true;
	if (r->target != UINT32_MAX)
		return false;
	WcPasses m = WC_HOST_PASS;
	for (int k = 0; k < wc_nchips; k++)
		if (wc_chips[k].width == 64)
			m |= (WcPasses)1 << (k + 1);
	return ((r->def | r->maybe) & m & wc_config_passes(f->cfg)) != 0;
}

/* Code the host pass may compile and no 64-lane chip's pass does. */
static bool host_only(const WcFile *f, int i)
{
	const WcRegion *r = wc_region_at(f, i);
	if (!r || !((r->def | r->maybe) & WC_HOST_PASS))
		return false;
	WcPasses m = 0;
	for (int k = 0; k < wc_nchips; k++)
		if (wc_chips[k].width == 64)
			m |= (WcPasses)1 << (k + 1);
	return ((r->def | r->maybe) & m & wc_config_passes(f->cfg)) == 0;
}

/* ---- the facts, by template name ---- */

static const WcWmul *facts_of(const WcFile *f, uint32_t id, int *n)
{
	const WcName *nm = &f->names->v[id];
	if (nm->wm_stamp != f->stamp) {
		*n = 0;
		return NULL;
	}
	*n = (int)nm->wm_len;
	return f->names->wm + nm->wm_at;
}

/* Adds a fact to the template named id; false when it was known. */
static bool publish(WcFile *f, uint32_t id, WcWmul x)
{
	WcNames *nt = f->names;
	WcName *nm = &nt->v[id];
	nm->src_stamp = 0;  /* a change, with no wc_touch below when the name has parameters (pp.c's replays) */
	if (nm->wm_stamp != f->stamp)
		wc_touch(nt, id, f->stamp), nm->wm_stamp = f->stamp, nm->wm_at = nt->nwm, nm->wm_len = 0;
	for (uint32_t k = 0; k < nm->wm_len; k++)
		if (nt->wm[nm->wm_at + k].param == x.param && nt->wm[nm->wm_at + k].kind == x.kind)
			return false;
	if (nt->nwm + nm->wm_len + 1 > nt->wmcap) {
		nt->wmcap = (nt->nwm + nm->wm_len + 1) * 2 + 16;
		nt->wm = base_realloc(nt->wm, (size_t)nt->wmcap * sizeof *nt->wm);
	}
	if (nm->wm_at + nm->wm_len != nt->nwm) {  /* not last: move the name's facts to the end */
		memmove(nt->wm + nt->nwm, nt->wm + nm->wm_at, (size_t)nm->wm_len * sizeof *nt->wm);
		nm->wm_at = nt->nwm;
		nt->nwm += nm->wm_len;
	}
	nt->wm[nt->nwm++] = x;
	nm->wm_len++;
	return true;
}

/* [a, b) names some parameter of t. */
static bool uses_param(const WcFile *f, const Tmpl *t, int a, int b)
{
	for (int i = a; i < b; i++)
		if (param_of(t, f, i) >= 0)
			return true;
	return false;
}

/* The statement around the division P / W at i (W at w) compares P
 * with the width: (P > W) ? P / W : 1 counts whole warps only where
 * there are some. */
static bool compared(const WcFile *f, const Tmpl *t, int i, int w)
{
	int a = i, b = i;
	while (a > t->open + 1 && !wc_op(f, a - 1, WP_SEMI) && !wc_op(f, a - 1, WP_LBRACE) && !wc_op(f, a - 1, WP_RBRACE))
		a--;
	while (b < t->close && !wc_op(f, b, WP_SEMI) && !wc_op(f, b, WP_LBRACE) && !wc_op(f, b, WP_RBRACE))
		b++;
	for (int k = a + 1; k + 1 < b; k++) {
		if (!(wc_op(f, k, WP_LT) || wc_op(f, k, WP_LE) || wc_op(f, k, WP_GT) || wc_op(f, k, WP_GE)))
			continue;
		if ((wc_same_ident(f, k - 1, i) && wc_same_ident(f, k + 1, w)) ||
		    (wc_same_ident(f, k - 1, w) && wc_same_ident(f, k + 1, i)))
			return true;
	}
	return false;
}

/* One round over the bodies of the templates; true when a fact or site
 * was added. */
static bool analyse_round(WcFile *f, Tmpl *ts, int nt)
{
	bool changed = false;
	int *s = NULL, *e = NULL, cap = 0;
	for (int k = 0; k < nt; k++) {
		Tmpl *t = &ts[k];
		uint32_t self = f->t[t->name].id;
		for (int i = t->open + 1; i < t->close; i++) {
			if (!wc_ident(f, i) || f->t[i].cuda_only)
				continue;
			int p = param_of(t, f, i);
			if (p >= 0 && wc_op(f, i + 1, WP_SLASH) && !wc_op(f, i - 1, WP_DOT) && !wc_op(f, i - 1, WP_ARROW) &&
			    !wc_op(f, i - 1, WP_SCOPE)) {
				int j = i + 2;
				while (wc_ident(f, j) && wc_op(f, j + 1, WP_SCOPE))
					j += 2;
				if (device_width(f, j) && !compared(f, t, i, j))
					changed |= publish(f, self, (WcWmul){(uint32_t)p, self, K_DIV});
				continue;
			}
			int xa, xb, gt;
			if (transpose_collective(f, i, &s, &e, &cap, &xa, &xb, &gt)) {
				int q = xb == xa + 1 ? param_of(t, f, xa) : -1;
				if (q >= 0)
					changed |= publish(f, self, (WcWmul){(uint32_t)q, f->t[i].id, K_TRANSPOSE});
				else if (uses_param(f, t, xa, xb))
					changed |= add_site(t, xa, xb, K_TRANSPOSE, f->t[i].id);
				continue;
			}
			int nf;
			const WcWmul *fs = wc_op(f, i + 1, WP_LT) ? facts_of(f, f->t[i].id, &nf) : NULL;
			if (!fs || i == t->name)
				continue;
			int close = angle_close(f, i + 1, t->close);
			if (close < 0)
				continue;
			int na = angle_args(f, i + 1, close, &s, &e, &cap);
			/* copied: publishing may move the facts */
			WcWmul *copy = base_malloc((size_t)nf * sizeof *copy);
			memcpy(copy, fs, (size_t)nf * sizeof *copy);
			for (int m = 0; m < nf; m++) {
				if ((int)copy[m].param >= na)
					continue;
				int a = s[copy[m].param], b = e[copy[m].param];
				int q = b == a + 1 ? param_of(t, f, a) : -1;
				if (q >= 0)
					changed |= publish(f, self, (WcWmul){(uint32_t)q, copy[m].inner, copy[m].kind});
				else if (uses_param(f, t, a, b))
					changed |= add_site(t, a, b, copy[m].kind, copy[m].inner);
			}
			free(copy);
		}
	}
	free(s);
	free(e);
	return changed;
}

static Tmpl *analyse(WcFile *f, int *nt)
{
	Tmpl *ts = collect(f, nt);
	while (*nt && analyse_round(f, ts, *nt))
		;  /* facts and sites only grow, and are finite: this ends */
	return ts;
}

void wc_tmpl_facts(WcFile *f)
{
	int nt = 0;
	Tmpl *ts = analyse(f, &nt);
	free_tmpls(ts, nt);
}

/* ---- instantiations ---- */

/* A function-like macro of the file whose body is an explicit
 * instantiation: #define MAKE(T, B) template __global__ void k<T, B>(...); */
typedef struct Macro {
	uint32_t id;
	uint32_t *params; int np;
	int name;                /* the instantiated template's name, in f->all */
	int *targ; int ntarg;    /* each template argument: the macro parameter it is (>= 0), a literal (-1 - its index in all) or unknown (INT32_MIN) */
} Macro;

static void free_macros(Macro *ms, int n)
{
	for (int k = 0; k < n; k++) {
		free(ms[k].params);
		free(ms[k].targ);
	}
	free(ms);
}

static bool all_op(const WcFile *f, int i, WcPunct op)
{
	return (unsigned)i < (unsigned)f->nall && f->all[i].kind == WT_PUNCT && f->all[i].op == op;
}

static Macro *instantiating_macros(const WcFile *f, int *nm)
{
	Macro *ms = NULL;
	int n = 0, cap = 0;
	for (int i = 0; i + 3 < f->nall; i++) {
		if (!all_op(f, i, WP_HASH) || f->all[i + 1].kind != WT_IDENT || f->all[i + 1].id != WK_define ||
		    f->all[i + 2].kind != WT_IDENT || !all_op(f, i + 3, WP_LPAREN) ||
		    f->all[i + 3].off != f->all[i + 2].off + f->all[i + 2].len)
			continue;
		int eod = i + 4;
		while (eod < f->nall && f->all[eod].kind != WT_EOD)
			eod++;
		int k = i + 4, np = 0;
		uint32_t *params = NULL;
		for (; k < eod && !all_op(f, k, WP_RPAREN); k++)
			if (f->all[k].kind == WT_IDENT) {
				params = base_realloc(params, (size_t)(np + 1) * sizeof *params);
				params[np++] = f->all[k].id;
			}
		/* template [qualifiers and type] NAME < args > ( */
		int name = -1;
		for (int j = k + 1; j + 1 < eod && name < 0; j++) {
			if (f->all[j].kind != WT_IDENT || f->all[j].id != WK_template || all_op(f, j + 1, WP_LT))
				continue;
			for (int m = j + 1; m + 1 < eod && !all_op(f, m, WP_SEMI) && !all_op(f, m, WP_LPAREN); m++)
				if (f->all[m].kind == WT_IDENT && all_op(f, m + 1, WP_LT)) {
					name = m;
					break;
				}
		}
		if (name < 0) {
			free(params);
			i = eod;
			continue;
		}
		Macro mc = {.id = f->all[i + 2].id, .params = params, .np = np, .name = name};
		int depth = 0, start = name + 2;
		for (int j = name + 1; j < eod; j++) {
			if (all_op(f, j, WP_LT) || all_op(f, j, WP_LPAREN))
				depth++;
			else if (all_op(f, j, WP_GT) || all_op(f, j, WP_RPAREN))
				depth--;
			if ((depth == 1 && all_op(f, j, WP_COMMA)) || depth == 0) {
				int v = INT32_MIN;
				if (j == start + 1 && f->all[start].kind == WT_IDENT) {
					for (int q = 0; q < np; q++)
						if (params[q] == f->all[start].id)
							v = q;
				} else if (j == start + 1 && f->all[start].kind == WT_NUMBER && f->all[start].num_ok) {
					v = -1 - start;
				}
				mc.targ = base_realloc(mc.targ, (size_t)(mc.ntarg + 1) * sizeof *mc.targ);
				mc.targ[mc.ntarg++] = v;
				start = j + 1;
			}
			if (depth == 0)
				break;
		}
		if (n == cap)
			ms = base_realloc(ms, (size_t)(cap = cap ? cap * 2 : 8) * sizeof *ms);
		ms[n++] = mc;
		i = eod;
	}
	*nm = n;
	return ms;
}

static bool reported_at(const WcFile *f, int i)
{
	for (int k = f->nfinds - 1; k >= 0; k--)
		if (f->finds[k].off == f->t[i].off && strcmp(f->finds[k].id, "H15") == 0)
			return true;
	return false;
}

static const char fix_text[] = "give the collective or count whole wavefronts (a multiple of 64, or of the queried "
                               "warp size), or choose the value in an if constexpr on the warp size";

static int name_len(const WcFile *f, uint32_t id)
{
	return (int)f->names->v[id].len;
}

static const char *name_text(const WcFile *f, uint32_t id)
{
	return f->names->chars + f->names->v[id].off;
}

/* One instantiation of the template named id, at token at (its name, or
 * the macro call that stamps it out; what the message shows is the text
 * [at, end]), with n arguments: vals where known, each written at
 * arg_tok (-1: not in the code). */
static void instantiate(WcFile *f, Tmpl *ts, int nt, uint32_t id, int at, int end, int n, const uint64_t *vals,
	const bool *known, const int *arg_tok)
{
	int nf;
	const WcWmul *fs = facts_of(f, id, &nf);
	/* under an #if the host pass takes and no 64-lane chip's does: CDNA has no such kernel */
	const char *why = host_only(f, at) ? "; the host pass compiles it, CDNA's passes do not" : "";
	int shown = (int)(f->t[end].off + f->t[end].len - f->t[at].off);
	if (shown > 48)
		shown = 48;
	for (int m = 0; m < nf; m++) {
		int q = (int)fs[m].param;
		if (q >= n || !known[q] || !half_wave(vals[q]) || arg_tok[q] < 0 || reported_at(f, arg_tok[q]))
			continue;
		uint32_t inner = fs[m].inner;
		if (fs[m].kind == K_DIV)
			wc_find(f, arg_tok[q], "H15", "wavefront-multiple", fix_text,
				"%.*s: %llu reaches %.*s, which divides it by the device's width: %llu / 64 is %llu on "
				"CDNA, a partial wavefront", shown, f->src.text + f->t[at].off, (unsigned long long)vals[q],
				name_len(f, inner), name_text(f, inner), (unsigned long long)vals[q],
				(unsigned long long)(vals[q] / 64));
		else
			wc_find(f, arg_tok[q], "H15", "wavefront-multiple", fix_text,
				"%.*s: %llu threads reach %.*s with WARP_TRANSPOSE, which needs a multiple of 64 "
				"threads on CDNA", shown, f->src.text + f->t[at].off, (unsigned long long)vals[q],
				name_len(f, inner), name_text(f, inner));
	}
	for (int k = 0; k < nt; k++) {
		Tmpl *t = &ts[k];
		if (f->t[t->name].id != id || !t->nsites)
			continue;
		Bind b = {t->params, vals, known, n < t->np ? n : t->np};
		for (int m = 0; m < t->nsites; m++) {
			Site *st = &t->sites[m];
			uint64_t v;
			if (st->reported || !eval(f, st->a, st->b, &b, &v) || !half_wave(v) || reported_at(f, st->a))
				continue;
			st->reported = true;
			int span = (int)(f->t[st->b - 1].off + f->t[st->b - 1].len - f->t[st->a].off);
			if (st->kind == K_DIV)
				wc_find(f, st->a, "H15", "wavefront-multiple", fix_text,
					"%.*s is %llu for %.*s (line %d): %.*s divides it by the device's width (%llu / 64 is %llu "
					"on CDNA)", span > 40 ? 40 : span, f->src.text + f->t[st->a].off, (unsigned long long)v, shown,
					f->src.text + f->t[at].off, wc_tok_line(f, &f->t[at]), name_len(f, st->inner), name_text(f, st->inner),
					(unsigned long long)v, (unsigned long long)(v / 64));
			else
				wc_find(f, st->a, "H15", "wavefront-multiple", fix_text,
					"%.*s is %llu for %.*s (line %d): %.*s with WARP_TRANSPOSE needs a multiple of 64 threads on "
					"CDNA%s", span > 40 ? 40 : span, f->src.text + f->t[st->a].off, (unsigned long long)v, shown,
					f->src.text + f->t[at].off, wc_tok_line(f, &f->t[at]), name_len(f, st->inner), name_text(f, st->inner), why);
		}
	}
}

/* Whether the template named id has anything to check. */
static bool wanted(const WcFile *f, const Tmpl *ts, int nt, uint32_t id)
{
	int nf;
	if (facts_of(f, id, &nf) && nf)
		return true;
	for (int k = 0; k < nt; k++)
		if (f->t[ts[k].name].id == id && ts[k].nsites)
			return true;
	return false;
}

/* Instantiations at i may count: code a wide pass compiles, not in a
 * branch on the warp size. A per-target #if counts only around a kernel
 * instantiated at namespace scope that the host pass compiles (the host
 * then launches a kernel the chip's pass has not built, or the chip's pass
 * fails). */
static bool counts_here(const WcFile *f, int i)
{
	if (f->t[i].cuda_only || wc_under_width_test(f, i))
		return false;
	const WcRegion *r = wc_region_at(f, i);
	if (r && r->target != UINT32_MAX) {
		if (wc_func_at(f, i) >= 0 || !((r->def | r->maybe) & WC_HOST_PASS))
			return false;
		return true;
	}
	return wide_code(f, i);
}

void wc_rule_tmpl(WcFile *f)
{
	int nt;
	Tmpl *ts = analyse(f, &nt);
	int nm;
	Macro *ms = instantiating_macros(f, &nm);
	int *s = NULL, *e = NULL, cap = 0;
	uint64_t *vals = NULL;
	bool *known = NULL;
	int *toks = NULL, vcap = 0;
	for (int i = 0; i + 1 < f->n; i++) {
		if (!wc_ident(f, i) || f->t[i].id < WK__COUNT)
			continue;
		int xa, xb, gt;
		uint64_t v;
		if (transpose_collective(f, i, &s, &e, &cap, &xa, &xb, &gt)) {
			if (eval(f, xa, xb, NULL, &v) && half_wave(v) && counts_here(f, i) && !reported_at(f, xa))
				wc_find(f, xa, "H15", "wavefront-multiple", fix_text,
					"%.*s of %llu threads with WARP_TRANSPOSE, which needs a multiple of 64 threads on "
					"CDNA", (int)f->t[i].len, f->src.text + f->t[i].off, (unsigned long long)v);
			continue;
		}
		uint32_t id = f->t[i].id;
		int n = 0;
		int close = -1;
		if (wc_op(f, i + 1, WP_LT)) {
			if (wc_kw(f, i - 1, WK_struct) || wc_kw(f, i - 1, WK_class) || !wanted(f, ts, nt, id))
				continue;
			bool definition = false;
			for (int k = 0; k < f->nfns && !definition; k++)
				definition = f->fns[k].name == i;
			close = definition ? -1 : angle_close(f, i + 1, f->n);
			if (close < 0)
				continue;
			n = angle_args(f, i + 1, close, &s, &e, &cap);
			if (n > vcap) {
				vcap = n * 2;
				vals = base_realloc(vals, (size_t)vcap * sizeof *vals);
				known = base_realloc(known, (size_t)vcap * sizeof *known);
				toks = base_realloc(toks, (size_t)vcap * sizeof *toks);
			}
			bool any = false;
			for (int a = 0; a < n; a++) {
				known[a] = eval(f, s[a], e[a], NULL, &vals[a]);
				toks[a] = s[a];
				any = any || known[a];
			}
			if (any && counts_here(f, i))
				instantiate(f, ts, nt, id, i, close, n, vals, known, toks);
			continue;
		}
		if (nm == 0 || !wc_op(f, i + 1, WP_LPAREN) || wc_func_at(f, i) >= 0)
			continue;
		const Macro *mc = NULL;
		for (int k = 0; k < nm && !mc; k++)
			if (ms[k].id == id)
				mc = &ms[k];
		if (!mc || !wanted(f, ts, nt, f->all[mc->name].id))
			continue;
		close = wc_match(f, i + 1);
		if (close < 0)
			continue;
		int *as = NULL, *ae = NULL, acap = 0, na = 0;
		{
			/* the call's arguments */
			int depth = 0, start = i + 2;
			for (int k = i + 2; k <= close; k++) {
				if (k < close && wc_is_open(f, k))
					depth++;
				else if (k < close && wc_is_close(f, k))
					depth--;
				if (k == close || (depth == 0 && wc_op(f, k, WP_COMMA))) {
					if (na == acap) {
						acap = acap ? acap * 2 : 8;
						as = base_realloc(as, (size_t)acap * sizeof *as);
						ae = base_realloc(ae, (size_t)acap * sizeof *ae);
					}
					as[na] = start, ae[na] = k;
					na++;
					start = k + 1;
				}
			}
		}
		n = mc->ntarg;
		if (n > vcap) {
			vcap = n * 2;
			vals = base_realloc(vals, (size_t)vcap * sizeof *vals);
			known = base_realloc(known, (size_t)vcap * sizeof *known);
			toks = base_realloc(toks, (size_t)vcap * sizeof *toks);
		}
		bool any = false;
		for (int a = 0; a < n; a++) {
			int tg = mc->targ[a];
			known[a] = false, toks[a] = -1, vals[a] = 0;
			if (tg >= 0 && tg < na) {
				known[a] = eval(f, as[tg], ae[tg], NULL, &vals[a]);
				toks[a] = as[tg];
			} else if (tg != INT32_MIN && tg < 0) {
				known[a] = true;
				vals[a] = f->all[-1 - tg].num;
			}
			any = any || known[a];
		}
		free(as);
		free(ae);
		if (any && counts_here(f, i))
			instantiate(f, ts, nt, f->all[mc->name].id, i, close, n, vals, known, toks);
	}
	free(vals);
	free(known);
	free(toks);
	free(s);
	free(e);
	free_macros(ms, nm);
	free_tmpls(ts, nt);
}
