/* names.c: interned identifiers.
 *
 * The lexer gives every identifier an integer id, the same for every
 * occurrence of the same spelling, so rules compare names as integers.
 * The names rules ask about (WC_KNOWN) are interned first and get the ids
 * WK_*. Facts that hold for a whole spelling (does it name a lane? is it an
 * AMD-only macro?) are computed here once, as flags. One table may serve
 * every file a thread checks; per-file facts carry a stamp (wc_stamp). */
#include "warpcheck/warpcheck.h"

#include <stdlib.h>
#include <string.h>

static const char *const known_names[] = {
#define WC_X(n) #n,
	WC_KNOWN(WC_X)
#undef WC_X
};

static uint32_t hash_name(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
}

/* "lane" as a word of the name (lane, lane_id, laneId, srcLane), so that
 * "plane" or "planes" are not lane ids. */
static bool lane_word(const char *s, size_t n)
{
	for (size_t a = 0; a + 4 <= n; a++) {
		bool word = a == 0 || s[a - 1] == '_' || s[a] == 'L';
		if (word && lower(s[a]) == 'l' && memcmp(s + a + 1, "ane", 3) == 0)
			return true;
	}
	return false;
}

/* __GFX9__, __GFX10__ (one per generation) and __gfx90a__ (one per chip). */
static bool target_macro(const char *s, size_t n)
{
	if (n < 8 || memcmp(s, "__", 2) != 0 || memcmp(s + n - 2, "__", 2) != 0)
		return false;
	if (memcmp(s + 2, "GFX", 3) != 0 && memcmp(s + 2, "gfx", 3) != 0)
		return false;
	return s[5] >= '0' && s[5] <= '9';
}

static uint16_t known_flags(uint32_t id)
{
	switch (id) {
	case WK___shfl: case WK___shfl_up: case WK___shfl_down: case WK___shfl_xor:
		return WN_SHUFFLE;
	case WK___shfl_sync: case WK___shfl_up_sync: case WK___shfl_down_sync: case WK___shfl_xor_sync:
		return WN_SHUFFLE | WN_SYNC;
	case WK___ballot: case WK___activemask:
		return WN_BALLOT | WN_VOTE;
	case WK___ballot_sync:
		return WN_BALLOT | WN_SYNC | WN_VOTE;
	case WK___match_any_sync:
		return WN_BALLOT | WN_SYNC;
	case WK___syncwarp:
		return WN_SYNC;
	case WK___any_sync: case WK___all_sync: case WK___match_all_sync:
	case WK___reduce_add_sync: case WK___reduce_min_sync: case WK___reduce_max_sync:
	case WK___reduce_and_sync: case WK___reduce_or_sync: case WK___reduce_xor_sync:
		return WN_SYNC | WN_VOTE;
	case WK___any: case WK___all:
		return WN_VOTE;
	case WK_int: case WK_unsigned: case WK_signed: case WK_long: case WK_short: case WK_char:
	case WK_bool: case WK_float: case WK_double: case WK_void: case WK_auto: case WK_uint32_t:
	case WK_int32_t: case WK_uint: case WK_uint64_t: case WK_size_t:
		return WN_TYPE;
	case WK_WarpReduce: case WK_WarpScan: case WK_WarpExchange: case WK_WarpLoad:
	case WK_WarpStore: case WK_WarpMergeSort:
		return WN_COLLECTIVE;
	case WK_const: case WK_constexpr: case WK_static: case WK_inline: case WK_volatile:
	case WK_extern: case WK_register: case WK___forceinline__: case WK___inline__:
	case WK___noinline__:
		return WN_QUALIFIER;
	default:
		return 0;
	}
}

/* The words name_flags looks for, found in one pass over the name: has()'s
 * (any case) and has_exact()'s, as those tests would answer. */
enum {
	P_WARP = 1 << 0, P_WAVE = 1 << 1, P_SIZE = 1 << 2, P_WIDTH = 1 << 3, P_BITS = 1 << 4,
	P_SHFL = 1 << 5, P_SHUFFLE = 1 << 6,                          /* any case */
	P_NVIDIA = 1 << 7, P_NVCC = 1 << 8, P_CUDA = 1 << 9, P_HIP = 1 << 10, P_ROCM = 1 << 11,
	P_AMD = 1 << 12, P_WAVEFRONT = 1 << 13,                       /* exact */
};

/* part (lower case) at s[a] in any case, within n */
static inline bool at_ci(const char *s, size_t n, size_t a, const char *part, size_t k)
{
	if (a + k > n)
		return false;
	for (size_t b = 1; b < k; b++)
		if (lower(s[a + b]) != part[b])
			return false;
	return true;
}

static inline bool at_exact(const char *s, size_t n, size_t a, const char *part, size_t k)
{
	return a + k <= n && memcmp(s + a, part, k) == 0;
}

static unsigned name_parts(const char *s, size_t n)
{
	unsigned p = 0;
	for (size_t a = 0; a < n; a++) {
		char c = s[a];
		switch (c) {
		case 'N':
			if (at_exact(s, n, a, "NVIDIA", 6))
				p |= P_NVIDIA;
			if (at_exact(s, n, a, "NVCC", 4))
				p |= P_NVCC;
			break;
		case 'C':
			if (at_exact(s, n, a, "CUDA", 4))
				p |= P_CUDA;
			break;
		case 'H':
			if (at_exact(s, n, a, "HIP", 3))
				p |= P_HIP;
			break;
		case 'R':
			if (at_exact(s, n, a, "ROCM", 4))
				p |= P_ROCM;
			break;
		case 'A':
			if (at_exact(s, n, a, "AMD", 3))
				p |= P_AMD;
			break;
		default:
			break;
		}
		if (c == 'W' && at_exact(s, n, a, "WAVEFRONT", 9))
			p |= P_WAVEFRONT;
		switch (lower(c)) {
		case 'w':
			if (at_ci(s, n, a, "warp", 4))
				p |= P_WARP;
			if (at_ci(s, n, a, "wave", 4))
				p |= P_WAVE;
			if (at_ci(s, n, a, "width", 5))
				p |= P_WIDTH;
			break;
		case 's':
			if (at_ci(s, n, a, "size", 4))
				p |= P_SIZE;
			if (at_ci(s, n, a, "shfl", 4))
				p |= P_SHFL;
			if (at_ci(s, n, a, "shuffle", 7))
				p |= P_SHUFFLE;
			break;
		case 'b':
			if (at_ci(s, n, a, "bits", 4))
				p |= P_BITS;
			break;
		default:
			break;
		}
	}
	return p;
}

static uint16_t name_flags(const char *s, size_t n)
{
	uint16_t fl = 0;
	unsigned p = name_parts(s, n);
	if (lane_word(s, n))
		fl |= WN_LANE;
	bool warp = p & P_WARP, wave = p & P_WAVE;
	if (warp && (p & P_SIZE))
		fl |= WN_WARP_SIZE;
	if (warp || wave)
		fl |= WN_WARPISH;
	bool amd = !(p & (P_NVIDIA | P_NVCC | P_CUDA)) && (p & (P_HIP | P_ROCM | P_AMD));  /* amd_macro */
	if (target_macro(s, n))
		fl |= WN_TARGET;
	else if (amd && !(p & P_WAVEFRONT))
		fl |= WN_AMD;
	if (p & (P_WIDTH | P_SIZE | P_BITS))
		fl |= WN_WIDTHISH;
	if ((p & (P_SHFL | P_SHUFFLE)) && !(n > 6 && memcmp(s, "__shfl", 6) == 0))
		fl |= WN_SHFL_WRAP;
	static const struct { const char *s; size_t n; } lib[] = {
#define LIB(x) {x, sizeof x - 1}
		LIB("C10_WARP_SIZE"), LIB("HIPCUB_WARP_THREADS"), LIB("HIPCUB_DEVICE_WARP_THREADS"),
		LIB("warp_size"), LIB("device_warp_size"), LIB("__builtin_amdgcn_wavefrontsize"),
#undef LIB
	};
	for (size_t k = 0; k < TC_COUNT(lib); k++)
		if (lib[k].n == n && memcmp(lib[k].s, s, n) == 0)
			fl |= WN_LIBWIDTH;
	return fl;
}

static void grow_slots(WcNames *nm)
{
	uint32_t size = nm->mask ? (nm->mask + 1) * 2 : 1024;
	free(nm->slot);
	nm->slot = base_calloc(size, sizeof *nm->slot);
	nm->mask = size - 1;
	for (uint32_t id = 0; id < nm->n; id++) {
		uint32_t k = nm->v[id].hash & nm->mask;
		while (nm->slot[k])
			k = (k + 1) & nm->mask;
		nm->slot[k] = (uint64_t)nm->v[id].hash << 32 | (id + 1);
	}
}

static uint32_t add_name(WcNames *nm, const char *s, size_t n, uint32_t h)
{
	if (nm->n == nm->cap) {
		nm->cap = nm->cap ? nm->cap * 2 : 512;
		nm->v = base_realloc(nm->v, nm->cap * sizeof *nm->v);
		nm->fl = base_realloc(nm->fl, nm->cap * sizeof *nm->fl);
	}
	if (nm->nchars + n > nm->ccap) {
		nm->ccap = (nm->ccap + n) * 2;
		nm->chars = base_realloc(nm->chars, nm->ccap);
	}
	memcpy(nm->chars + nm->nchars, s, n);
	uint32_t id = nm->n++;
	WcName *e = &nm->v[id];
	memset(e, 0, sizeof *e);
	e->off = (uint32_t)nm->nchars;
	e->len = (uint32_t)n;
	e->hash = h;
	e->flags = id < WK__COUNT ? known_flags(id) | name_flags(s, n) : name_flags(s, n);
	nm->fl[id] = e->flags;
	nm->nchars += n;
	return id;
}

uint32_t wc_intern(WcNames *nm, const char *s, size_t n)
{
	return wc_intern_hashed(nm, s, n, hash_name(s, n));
}

/* A file names the same few hundred names again and again: a small table
 * of recent lookups, read first, keeps the probe of the slots and the read
 * of the name's entry (two cache misses in a table of 50,000 names) for the
 * first meeting. It only remembers: the id is the one the slots give. */
uint32_t wc_intern_hashed(WcNames *nm, const char *s, size_t n, uint32_t h)
{
	WcNameHit *hit = &nm->hit[(h ^ h >> 11) & (WC_HITS - 1)];
	if (hit->hash == h && hit->len == n && hit->id1 && memcmp(nm->chars + hit->off, s, n) == 0)
		return hit->id1 - 1;
	uint32_t k = h & nm->mask, id;
	for (uint64_t e; (e = nm->slot[k]); k = (k + 1) & nm->mask) {
		if ((uint32_t)(e >> 32) != h)
			continue;
		const WcName *x = &nm->v[(uint32_t)e - 1];
		if (x->len == n && memcmp(nm->chars + x->off, s, n) == 0) {
			id = (uint32_t)e - 1;
			goto found;
		}
	}
	id = add_name(nm, s, n, h);
	if (nm->n * 2 > nm->mask)
		grow_slots(nm);  /* rehashes every name, the new one included */
	else
		nm->slot[k] = (uint64_t)h << 32 | (id + 1);
found:
	*hit = (WcNameHit){.hash = h, .id1 = id + 1, .off = nm->v[id].off, .len = (uint32_t)n};
	return id;
}

void wc_names_init(WcNames *nm)
{
	memset(nm, 0, sizeof *nm);
	nm->hit = base_calloc(WC_HITS, sizeof *nm->hit);
	grow_slots(nm);
	for (size_t i = 0; i < TC_COUNT(known_names); i++)
		wc_intern(nm, known_names[i], strlen(known_names[i]));
}

void wc_names_free(WcNames *nm)
{
	free(nm->v);
	free(nm->fl);
	free(nm->slot);
	free(nm->hit);
	free(nm->chars);
	free(nm->mt);
	free(nm->wm);
	free(nm->touched);
	memset(nm, 0, sizeof *nm);
}

void wc_touch_grow(WcNames *nm)
{
	nm->touched_cap = nm->touched_cap ? nm->touched_cap * 2 : 256;
	nm->touched = base_realloc(nm->touched, nm->touched_cap * sizeof *nm->touched);
}

uint32_t wc_stamp(WcNames *nm)
{
	return ++nm->serial;
}
