/* cond.c: #if conditions evaluated for every compile of a HIP build.
 *
 * hipcc compiles a file once for the host and once per target chip. Each
 * pass defines its own macros: every pass __HIP_PLATFORM_AMD__, __HIPCC__
 * and __HIP__; a device pass __HIP_DEVICE_COMPILE__, its chip (__gfx90a__),
 * its generation (__GFX9__) and __AMDGCN_WAVEFRONT_SIZE; none of them
 * CUDA_VERSION or __NVCC__, which only CUDA's toolchain sets. A condition
 * is evaluated in every pass at once, each value true, false or unknown
 * (a project macro nobody defined on the command line), so a chip list is
 * judged as a whole: which chips take which branch. __CUDA_ARCH__ and
 * __CUDACC__ stay unknown: ports define them, HIPIFY rewrites __CUDACC__.
 *
 * A width chosen in such a region (#define WARP_SIZE 64, constexpr int
 * kWarpSize = 32) is checked against each pass that certainly compiles it:
 * 64 on an RDNA chip or 32 on a CDNA chip is H8, with the chips named. */
#include "warpcheck/warpcheck.h"

#include <string.h>

const WcChip wc_chips[] = {
	{"gfx900", "__GFX9__", 64, false}, {"gfx906", "__GFX9__", 64, false},
	{"gfx908", "__GFX9__", 64, true}, {"gfx90a", "__GFX9__", 64, true},
	{"gfx940", "__GFX9__", 64, true}, {"gfx941", "__GFX9__", 64, true},
	{"gfx942", "__GFX9__", 64, true}, {"gfx950", "__GFX9__", 64, true},
	{"gfx1010", "__GFX10__", 32, true}, {"gfx1011", "__GFX10__", 32, true},
	{"gfx1012", "__GFX10__", 32, true}, {"gfx1030", "__GFX10__", 32, true},
	{"gfx1031", "__GFX10__", 32, true}, {"gfx1032", "__GFX10__", 32, true},
	{"gfx1034", "__GFX10__", 32, true}, {"gfx1035", "__GFX10__", 32, true},
	{"gfx1036", "__GFX10__", 32, true}, {"gfx1100", "__GFX11__", 32, true},
	{"gfx1101", "__GFX11__", 32, true}, {"gfx1102", "__GFX11__", 32, true},
	{"gfx1103", "__GFX11__", 32, true}, {"gfx1150", "__GFX11__", 32, true},
	{"gfx1151", "__GFX11__", 32, true}, {"gfx1152", "__GFX11__", 32, true},
	{"gfx1200", "__GFX12__", 32, true}, {"gfx1201", "__GFX12__", 32, true},
};
const int wc_nchips = (int)TC_COUNT(wc_chips);

int wc_chip_find(const char *name, size_t n)
{
	for (int k = 0; k < wc_nchips; k++)
		if (strlen(wc_chips[k].name) == n && memcmp(wc_chips[k].name, name, n) == 0)
			return k;
	return -1;
}

WcPasses wc_config_passes(const WcConfig *c)
{
	WcPasses p = WC_HOST_PASS;
	if (c && c->targets)
		return p | c->targets;
	for (int k = 0; k < wc_nchips; k++)
		if (wc_chips[k].dflt)
			p |= (WcPasses)1 << (k + 1);
	return p;
}

/* A value in every pass: v[k] where known (bit k of kn). */
typedef struct Val {
	WcPasses kn;
	int64_t v[64];
} Val;

typedef struct Ev {
	const WcFile *f;
	const WcTok *tk;    /* the tokens being read: a condition or a macro body */
	int i, end;
	WcPasses all;       /* the passes of this build */
	int depth;          /* macro expansion depth */
} Ev;

static Val unknown(void)
{
	Val r;
	r.kn = 0;
	return r;
}

static Val constant(WcPasses all, int64_t x)
{
	Val r;
	r.kn = all;
	for (int k = 0; k < 64; k++)
		r.v[k] = x;
	return r;
}

static bool ev_op(const Ev *e, WcPunct op)
{
	return e->i < e->end && e->tk[e->i].kind == WT_PUNCT && e->tk[e->i].op == op;
}

static const char *tok_text(const Ev *e, const WcTok *t, size_t *n)
{
	const WcName *nm = &e->f->names->v[t->id];
	*n = nm->len;
	return e->f->names->chars + nm->off;
}

static bool is_name(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(s, w, n) == 0;
}

/* What "defined(NAME)" is in each pass: *t the passes where it is defined,
 * *fl where it is not. */
static void defined_in(const WcFile *f, uint32_t id, WcPasses all, WcPasses *t, WcPasses *fl)
{
	const WcName *nm = &f->names->v[id];
	const char *s = f->names->chars + nm->off;
	size_t n = nm->len;
	WcPasses dev = all & ~WC_HOST_PASS;
	*t = *fl = 0;
	if (nm->cdef_stamp == f->stamp) {
		*(nm->cdef == 1 ? t : fl) = all;
		return;
	}
	if (is_name(s, n, "__HIP_DEVICE_COMPILE__") || is_name(s, n, "__AMDGCN__") ||
	    is_name(s, n, "__AMDGCN_WAVEFRONT_SIZE") || is_name(s, n, "__AMDGCN_WAVEFRONT_SIZE__") ||
	    is_name(s, n, "__HIP_DEVICE_COMPILE")) {
		*t = dev, *fl = all & WC_HOST_PASS;
		return;
	}
	if (nm->flags & WN_TARGET) {
		for (int k = 0; k < wc_nchips; k++) {
			WcPasses bit = (WcPasses)1 << (k + 1);
			if (!(all & bit))
				continue;
			bool on = (n == strlen(wc_chips[k].name) + 4 && memcmp(s + 2, wc_chips[k].name, n - 4) == 0) ||
			          is_name(s, n, wc_chips[k].gen);
			*(on ? t : fl) |= bit;
		}
		*fl |= all & WC_HOST_PASS;
		return;
	}
	if (is_name(s, n, "CUDA_VERSION") || is_name(s, n, "CUDART_VERSION") || is_name(s, n, "__NVCC__") ||
	    is_name(s, n, "__CUDACC_VER_MAJOR__") || is_name(s, n, "__CUDACC_VER_MINOR__") ||
	    is_name(s, n, "__CUDACC_RTC__") || is_name(s, n, "__NVCOMPILER") || is_name(s, n, "__CUDA_API_VERSION") ||
	    is_name(s, n, "__HIP_PLATFORM_NVIDIA__") || is_name(s, n, "__HIP_PLATFORM_NVCC__") ||
	    is_name(s, n, "__NVCOMPILER_CUDA__")) {
		*fl = all;
		return;
	}
	if (nm->flags & WN_AMD)
		*t = all;
}

static Val expr(Ev *e, int prec);

/* A name in a condition: a macro of the pass, of the command line, a
 * #define'd constant or body, or unknown (0 only where known undefined). */
static Val name_value(Ev *e, uint32_t id)
{
	const WcFile *f = e->f;
	const WcName *nm = &f->names->v[id];
	size_t n;
	const char *s = tok_text(e, &e->tk[e->i - 1], &n);
	if (nm->cdef_stamp == f->stamp) {
		if (nm->cdef == 2)
			return constant(e->all, 0);
		if (!nm->cdef_num)
			return unknown();
		return constant(e->all, (int64_t)nm->cdef_value);
	}
	if (is_name(s, n, "__AMDGCN_WAVEFRONT_SIZE") || is_name(s, n, "__AMDGCN_WAVEFRONT_SIZE__")) {
		Val r = constant(e->all, 0);
		for (int k = 0; k < wc_nchips; k++)
			r.v[k + 1] = wc_chips[k].width;
		return r;
	}
	if (nm->body_stamp == f->stamp && e->depth < 16) {
		if (nm->body_len == 0)   /* an empty body: the table of bodies may still be NULL */
			return unknown();
		Ev sub = {.f = f, .tk = f->names->mt + nm->body_at, .i = 0, .end = (int)nm->body_len, .all = e->all,
		          .depth = e->depth + 1};
		Val r = expr(&sub, 0);
		return sub.i == sub.end ? r : unknown();
	}
	if (nm->const_stamp == f->stamp && !nm->const_conflict)
		return constant(e->all, (int64_t)nm->const_value);
	WcPasses t, fl;
	defined_in(f, id, e->all, &t, &fl);
	Val r = unknown();
	if (fl) {
		r.kn = fl;
		for (int k = 0; k < 64; k++)
			r.v[k] = 0;
	}
	if ((nm->flags & (WN_AMD | WN_TARGET)) || is_name(s, n, "__HIP_DEVICE_COMPILE__")) {
		bool version = false;
		for (size_t a = 0; a + 7 <= n; a++)
			version = version || memcmp(s + a, "VERSION", 7) == 0;
		if (!version) {
			r.kn |= t;
			for (int k = 0; k < 64; k++)
				if (t >> k & 1)
					r.v[k] = 1;
		}
	}
	return r;
}

static Val primary(Ev *e)
{
	if (e->i >= e->end)
		return unknown();
	const WcTok *t = &e->tk[e->i];
	if (t->kind == WT_PUNCT) {
		WcPunct op = (WcPunct)t->op;
		if (op == WP_LPAREN) {
			e->i++;
			Val r = expr(e, 0);
			if (ev_op(e, WP_RPAREN))
				e->i++;
			else
				r = unknown();
			return r;
		}
		if (op == WP_NOT || op == WP_TILDE || op == WP_MINUS || op == WP_PLUS) {
			e->i++;
			Val r = primary(e);
			for (int k = 0; k < 64; k++)
				r.v[k] = op == WP_NOT ? !r.v[k] : op == WP_TILDE ? ~r.v[k] : op == WP_MINUS ? -r.v[k] : r.v[k];
			return r;
		}
		e->i = e->end;
		return unknown();
	}
	if (t->kind == WT_NUMBER) {
		e->i++;
		return t->num_ok ? constant(e->all, (int64_t)t->num) : unknown();
	}
	if (t->kind != WT_IDENT) {
		e->i = e->end;
		return unknown();
	}
	e->i++;
	if (t->id == WK_defined) {
		bool paren = ev_op(e, WP_LPAREN);
		if (paren)
			e->i++;
		if (e->i >= e->end || e->tk[e->i].kind != WT_IDENT) {
			e->i = e->end;
			return unknown();
		}
		uint32_t id = e->tk[e->i++].id;
		if (paren) {
			if (!ev_op(e, WP_RPAREN)) {
				e->i = e->end;
				return unknown();
			}
			e->i++;
		}
		WcPasses tt, ff;
		defined_in(e->f, id, e->all, &tt, &ff);
		const WcName *nm = &e->f->names->v[id];
		/* Defined by this file or its headers: not known per pass. */
		if (nm->cdef_stamp != e->f->stamp && (nm->macro_stamp == e->f->stamp || nm->body_stamp == e->f->stamp ||
		                                      nm->const_stamp == e->f->stamp || nm->wsize_stamp == e->f->stamp))
			tt = ff = 0;
		Val r = unknown();
		r.kn = tt | ff;
		for (int k = 0; k < 64; k++)
			r.v[k] = tt >> k & 1;
		return r;
	}
	if (ev_op(e, WP_LPAREN)) {
		/* A function-like macro (__has_builtin(x), HIP_VERSION_AT_LEAST(6)): unknown. */
		int depth = 0;
		for (; e->i < e->end; e->i++) {
			if (ev_op(e, WP_LPAREN))
				depth++;
			else if (ev_op(e, WP_RPAREN) && --depth == 0) {
				e->i++;
				break;
			}
		}
		return unknown();
	}
	return name_value(e, t->id);
}

static int binary_prec(WcPunct op)
{
	switch (op) {
	case WP_OROR: return 1;
	case WP_ANDAND: return 2;
	case WP_PIPE: return 3;
	case WP_CARET: return 4;
	case WP_AMP: return 5;
	case WP_EQ: case WP_NE: return 6;
	case WP_LT: case WP_GT: case WP_LE: case WP_GE: return 7;
	case WP_SHL: case WP_SHR: return 8;
	case WP_PLUS: case WP_MINUS: return 9;
	case WP_STAR: case WP_SLASH: case WP_PERCENT: return 10;
	default: return 0;
	}
}

static Val binary(WcPunct op, const Val *a, const Val *b)
{
	Val r;
	r.kn = a->kn & b->kn;
	for (int k = 0; k < 64; k++) {
		int64_t x = a->v[k], y = b->v[k], v = 0;
		bool ka = a->kn >> k & 1, kb = b->kn >> k & 1;
		switch (op) {
		case WP_OROR:
			v = (ka && x) || (kb && y);
			if (v || (ka && kb))
				r.kn |= (WcPasses)1 << k;
			break;
		case WP_ANDAND:
			v = ka && kb && x && y;
			if ((ka && !x) || (kb && !y))
				r.kn |= (WcPasses)1 << k, v = 0;
			break;
		case WP_PIPE: v = x | y; break;
		case WP_CARET: v = x ^ y; break;
		case WP_AMP: v = x & y; break;
		case WP_EQ: v = x == y; break;
		case WP_NE: v = x != y; break;
		case WP_LT: v = x < y; break;
		case WP_GT: v = x > y; break;
		case WP_LE: v = x <= y; break;
		case WP_GE: v = x >= y; break;
		case WP_SHL: v = y >= 0 && y < 63 ? (int64_t)((uint64_t)x << y) : 0; break;
		case WP_SHR: v = y >= 0 && y < 63 ? x >> y : 0; break;
		case WP_PLUS: v = (int64_t)((uint64_t)x + (uint64_t)y); break;
		case WP_MINUS: v = (int64_t)((uint64_t)x - (uint64_t)y); break;
		case WP_STAR: v = (int64_t)((uint64_t)x * (uint64_t)y); break;
		case WP_SLASH: case WP_PERCENT:
			if (y == 0 || (y == -1 && x == INT64_MIN))
				r.kn &= ~((WcPasses)1 << k);
			else
				v = op == WP_SLASH ? x / y : x % y;
			break;
		default: break;
		}
		r.v[k] = v;
	}
	return r;
}

static Val expr(Ev *e, int prec)
{
	Val a = primary(e);
	while (e->i < e->end && e->tk[e->i].kind == WT_PUNCT) {
		WcPunct op = (WcPunct)e->tk[e->i].op;
		if (op == WP_QUESTION && prec == 0) {
			e->i++;
			Val b = expr(e, 0);
			if (!ev_op(e, WP_COLON))
				return unknown();
			e->i++;
			Val c = expr(e, 0);
			Val r;
			r.kn = 0;
			for (int k = 0; k < 64; k++) {
				bool ka = a.kn >> k & 1;
				const Val *s = a.v[k] ? &b : &c;
				r.v[k] = s->v[k];
				if (ka && (s->kn >> k & 1))
					r.kn |= (WcPasses)1 << k;
			}
			a = r;
			continue;
		}
		int p = binary_prec(op);
		if (!p || p <= prec)
			break;
		e->i++;
		Val b = expr(e, p);
		a = binary(op, &a, &b);
	}
	return a;
}

void wc_cond_eval(const WcFile *f, int from, int to, WcPasses *t, WcPasses *fl)
{
	Ev e = {.f = f, .tk = f->all, .i = from, .end = to, .all = wc_config_passes(f->cfg)};
	*t = *fl = 0;
	if (from >= to)
		return;
	Val r = expr(&e, 0);
	if (e.i != e.end)
		return;
	for (int k = 0; k < 64; k++) {
		if (!(r.kn >> k & 1) || !(e.all >> k & 1))
			continue;
		*(r.v[k] ? t : fl) |= (WcPasses)1 << k;
	}
}

void wc_cond_ifdef(const WcFile *f, int name, bool negate, WcPasses *t, WcPasses *fl)
{
	*t = *fl = 0;
	if (f->all[name].kind != WT_IDENT)
		return;
	const WcName *nm = &f->names->v[f->all[name].id];
	if (nm->cdef_stamp != f->stamp && (nm->macro_stamp == f->stamp || nm->body_stamp == f->stamp ||
	                                   nm->const_stamp == f->stamp || nm->wsize_stamp == f->stamp))
		return;
	defined_in(f, f->all[name].id, wc_config_passes(f->cfg), t, fl);
	if (negate) {
		WcPasses x = *t;
		*t = *fl;
		*fl = x;
	}
}

const WcRegion *wc_region_at(const WcFile *f, int i)
{
	int lo = 0, hi = f->nregions - 1, best = -1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (f->regions[mid].from <= i)
			best = mid, lo = mid + 1;
		else
			hi = mid - 1;
	}
	return best < 0 ? NULL : &f->regions[best];
}

void wc_width_passes(WcFile *f, const WcTok *tok, const char *name, int nlen, uint64_t v, WcPasses def)
{
	if (v != 32 && v != 64)
		return;
	char chips[160] = "";
	int wrong = 0, right = 0, listed = 0, outside = 0;
	WcPasses all = wc_config_passes(f->cfg);
	for (int k = 0; k < wc_nchips; k++) {
		if (!(def >> (k + 1) & 1)) {
			outside += (int)(all >> (k + 1) & 1);
			continue;
		}
		if ((uint64_t)wc_chips[k].width == v) {
			right++;
			continue;
		}
		if (wrong++ < 6) {
			size_t len = strlen(chips);
			snprintf(chips + len, sizeof chips - len, "%s%s", listed++ ? ", " : "", wc_chips[k].name);
		}
	}
	if (!wrong)
		return;
	if (wrong > 6) {
		size_t len = strlen(chips);
		snprintf(chips + len, sizeof chips - len, " and %d more", wrong - 6);
	}
	const char *where = outside ? "on the chips that take this branch" : "for every AMD target";
	if (v == 64)
		wc_find_tok(f, tok, "H8", "arch-width",
			"pick 64 only where the chip is wave64 (#if __GFX9__ or __AMDGCN_WAVEFRONT_SIZE == 64, device pass); on "
			"the host, query hipDeviceAttributeWarpSize",
			"%.*s is 64 %s, among them %s, which run%s 32-lane wavefronts", nlen, name, where, chips,
			wrong == 1 ? "s" : "");
	else
		wc_find_tok(f, tok, "H8", "arch-width",
			"pick the width per target: 64 under __GFX9__ (every wave64 chip) in the device pass",
			"%.*s is 32 %s, among them %s, which run%s 64-lane wavefronts", nlen, name, where, chips,
			wrong == 1 ? "s" : "");
}
