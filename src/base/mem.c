/* mem.c: allocation helpers, the arena, growable buffers and vectors. */
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS */
#include "base.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void base_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("internal error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

/* No memory is no internal error: the tools say so and exit with status 1
 * (never abort, which reads as a crash). */
static TC_NORETURN void out_of_memory(size_t n)
{
	fprintf(stderr, "error: out of memory (%zu bytes more were needed)\n", n);
	exit(1);
}

void *base_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

void *base_calloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory(size && count > SIZE_MAX / size ? SIZE_MAX : count * size);
	return p;
}

void *base_realloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

char *base_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(base_malloc(n), s, n);
}

/* ---- arena ---- */

struct ArenaBlock {
	ArenaBlock *next;
	size_t used;
	size_t cap;
	size_t mapped;   /* the length of its own mapping, or 0: from calloc */
	size_t ready;    /* of a mapping: bytes of data[] whose pages are in place */
	size_t dirty;    /* bytes of data[] written before the block was recycled: cleared as handed out */
	_Alignas(16) unsigned char data[];
};

/* A new block holds as much as the arena holds already (64 KiB at first,
 * 8 MiB at most), so a large compile takes few blocks; calloc's memory is
 * zero already (fresh pages from the system are not written twice), and
 * no byte of a block is handed out twice, so nothing needs clearing.
 * Blocks of 2 MiB and up are mappings of their own, with no request for
 * huge pages: where the system compacts memory for those on demand, the
 * zeroing and compaction of 2 MiB pages took a quarter of a 100000-line
 * compile's processor time (3.0 s against 2.25 s without). */
enum { ARENA_FIRST = 65536, ARENA_MAX = 8 << 20, HUGE = 2 << 20 };

/* A mapping's pages are asked for ahead of the bump pointer, PREFAULT bytes
 * at a time (where the system can): one request instead of a fault for each
 * 4 KiB page, which on a virtual machine cost a quarter of a 100000-line
 * compile's processor time, and few enough pages at once that they are
 * still in the cache when first written. A large allocation (the
 * placement's tables by value id: 30 MB a round for 300000 values) is
 * asked for whole, with PREFAULT bytes more; one made by arena_alloc_lazy
 * (room that may stay unused, such as the lexer's guess of its tokens) is
 * left to fault as it is touched, so room it never uses costs nothing. */
enum { PREFAULT = 1 << 20 };

/* LeakSanitizer reads the heap, not mappings of a program's own: where it
 * runs, every block comes from calloc, so that a pointer held in a large
 * block (the next block of a chain, a recycled block's contents) is seen
 * when a compile stops at no memory and its arena is never freed. */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_SANITIZED 1
#endif
#endif
#ifndef ARENA_SANITIZED
#define ARENA_SANITIZED 0
#endif

static void prefault(ArenaBlock *b, size_t n, bool lazy)
{
	if (n > PREFAULT && lazy) {
		b->ready = b->used;
		return;
	}
#if defined(MADV_POPULATE_WRITE)
	/* from the page the data reaches to, past the new allocation and
	 * PREFAULT bytes on */
	uintptr_t from = ((uintptr_t)(b->data + b->ready) + 4095) & ~(uintptr_t)4095;
	uintptr_t end = (uintptr_t)b + b->mapped;
	uintptr_t want = (uintptr_t)(b->data + b->used) + PREFAULT;
	uintptr_t to = want < end ? want : end;
	if (from < to)   /* where it fails (an older system, no memory now) pages come as they are touched */
		(void)madvise((void *)from, to - from, MADV_POPULATE_WRITE);
	b->ready = (size_t)(to - (uintptr_t)b->data);
#else
	b->ready = b->used;
#endif
}

static ArenaBlock *arena_grow(Arena *a, size_t n)
{
	for (ArenaBlock **at = &a->spare; *at; at = &(*at)->next)
		if ((*at)->cap >= n) {   /* a recycled block first */
			ArenaBlock *b = *at;
			*at = b->next;
			b->next = a->head;
			a->head = b;
			a->reserved += b->cap;
			return b;
		}
	size_t cap = a->reserved < ARENA_FIRST ? ARENA_FIRST : a->reserved > ARENA_MAX ? ARENA_MAX : a->reserved;
	if (cap < n)
		cap = n;
	if (cap > SIZE_MAX - sizeof(ArenaBlock) - HUGE)
		out_of_memory(SIZE_MAX);
	ArenaBlock *b = NULL;
#if defined(MAP_ANONYMOUS) && !ARENA_SANITIZED
	if (cap + sizeof(ArenaBlock) >= HUGE) {
		size_t len = (cap + sizeof(ArenaBlock) + HUGE - 1) & ~(size_t)(HUGE - 1);
		void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			out_of_memory(len);
		b = p;
		b->mapped = len;
		b->ready = 0;
		cap = len - sizeof(ArenaBlock);
	}
#endif
	if (!b)
		b = base_calloc(1, sizeof(ArenaBlock) + cap);
	b->next = a->head;
	b->used = 0;
	b->cap = cap;
	a->head = b;
	a->reserved += cap;
	return b;
}

static void *alloc(Arena *a, size_t n, bool lazy)
{
	if (n > SIZE_MAX - 15)
		out_of_memory(n);
	n = (n + 15) & ~(size_t)15;
	ArenaBlock *b = a->head;
	if (!b || b->cap - b->used < n)
		b = arena_grow(a, n);
	void *p = b->data + b->used;
	if (b->used < b->dirty)   /* recycled: what the block held before is cleared */
		memset(p, 0, b->dirty - b->used < n ? b->dirty - b->used : n);
	b->used += n;
	if (b->mapped && b->used > b->ready)
		prefault(b, n, lazy);
	return p;
}

void *arena_alloc(Arena *a, size_t n)
{
	return alloc(a, n, false);
}

void *arena_alloc_lazy(Arena *a, size_t n)
{
	return alloc(a, n, true);
}

void *arena_run_alloc(Arena *a, ArenaRun *r, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	if ((size_t)(r->end - r->at) < n) {
		if (n > ARENA_RUN)
			return alloc(a, n, false);
		r->at = alloc(a, ARENA_RUN, false);
		r->end = r->at + ARENA_RUN;
	}
	void *p = r->at;
	r->at += n;
	return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(Arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
	Buf b = {0};
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	char *s = arena_strndup(a, buf_str(&b), b.len);
	buf_free(&b);
	return s;
}

static void free_blocks(ArenaBlock *b)
{
	while (b) {
		ArenaBlock *next = b->next;
		if (b->mapped)
			munmap(b, b->mapped);
		else
			free(b);
		b = next;
	}
}

void arena_free(Arena *a)
{
	free_blocks(a->head);
	free_blocks(a->spare);
	a->head = a->spare = NULL;
	a->reserved = 0;
}

void arena_recycle(Arena *to, Arena *from)
{
	for (ArenaBlock *b = from->head, *next; b; b = next) {
		next = b->next;
		if (b->used > b->dirty)
			b->dirty = b->used;
		b->used = 0;
		b->next = to->spare;
		to->spare = b;
	}
	for (ArenaBlock *b = from->spare, *next; b; b = next) {
		next = b->next;
		b->next = to->spare;
		to->spare = b;
	}
	from->head = from->spare = NULL;
	from->reserved = 0;
}

void arena_adopt(Arena *to, Arena *from)
{
	ArenaBlock **tail = to->head ? &to->head->next : &to->head;   /* behind the block allocations go on in */
	for (ArenaBlock *b = from->head, *next; b; b = next) {
		next = b->next;
		b->next = *tail;
		*tail = b;
		tail = &b->next;
	}
	for (ArenaBlock *b = from->spare, *next; b; b = next) {
		next = b->next;
		b->next = to->spare;
		to->spare = b;
	}
	to->reserved += from->reserved;
	from->head = from->spare = NULL;
	from->reserved = 0;
}

/* ---- buf ---- */

static void buf_reserve(Buf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap * 2 : 256;
	while (cap < b->len + extra + 1)
		cap *= 2;
	b->data = base_realloc(b->data, cap);
	b->cap = cap;
}

void buf_putn(Buf *b, const char *s, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void buf_putc(Buf *b, char c)
{
	buf_reserve(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

void buf_puts(Buf *b, const char *s)
{
	buf_putn(b, s, strlen(s));
}

void buf_vprintf(Buf *b, const char *fmt, va_list ap)
{
	/* Printed once where it fits in the room left (most calls: a few
	 * bytes), else measured by that try and printed again. */
	if (b->cap - b->len < 64)
		buf_reserve(b, 64);
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		base_die("bad format string '%s'", fmt);
	if ((size_t)n >= b->cap - b->len) {
		buf_reserve(b, (size_t)n);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

void buf_printf(Buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void buf_indent(Buf *b, int depth)
{
	if (depth <= 0)
		return;
	buf_reserve(b, (size_t)depth);
	memset(b->data + b->len, '\t', (size_t)depth);
	b->len += (size_t)depth;
	b->data[b->len] = '\0';
}

void buf_put_int(Buf *b, long long v)
{
	char digits[24], *at = digits + sizeof digits;
	unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
	do
		*--at = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--at = '-';
	buf_putn(b, at, (size_t)(digits + sizeof digits - at));
}

const char *buf_str(Buf *b)
{
	return b->data ? b->data : "";
}

char *buf_detach(Buf *b)
{
	char *s = b->data ? b->data : base_strdup("");
	b->data = NULL;
	b->len = b->cap = 0;
	return s;
}

void buf_free(Buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

/* ---- vec ---- */

void vec_push(Vec *v, void *item)
{
	if (v->len == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 8;
		v->data = base_realloc(v->data, sizeof(void *) * (size_t)v->cap);
	}
	v->data[v->len++] = item;
}

void *vec_pop(Vec *v)
{
	return v->len ? v->data[--v->len] : NULL;
}

void *vec_last(Vec *v)
{
	return v->len ? v->data[v->len - 1] : NULL;
}

void vec_free(Vec *v)
{
	free(v->data);
	v->data = NULL;
	v->len = v->cap = 0;
}

/* ---- numbers and hashing ---- */

int base_ilog2(int64_t x)
{
	int n = -1;
	while (x > 0) {
		x >>= 1;
		n++;
	}
	return n;
}

uint64_t base_hash_fnv1a(const void *data, size_t len, uint64_t seed)
{
	const unsigned char *p = data;
	uint64_t h = seed;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}
