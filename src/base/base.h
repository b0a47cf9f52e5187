/* base.h: the pieces every other module stands on.
 *
 *   arena   bump allocation for compiler data that lives as long as one compile
 *   buf     a growable byte string with printf-style appends
 *   vec     a growable array of pointers
 *   source  a file's text with a line table, for diagnostics
 *   diag    "file:line:col: error: msg", the source line and a caret
 *   files   reading a whole file, writing one atomically
 *   hash    FNV-1a, for hash maps and cache keys
 *
 * Depends on libc alone. */
#ifndef TC_BASE_H
#define TC_BASE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#if defined(__GNUC__)
#define TC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define TC_NORETURN __attribute__((noreturn))
#else
#define TC_PRINTF(f, a)
#define TC_NORETURN
#endif

#define TC_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Internal errors: a bug in this program, never the user's input. */
TC_NORETURN void base_die(const char *fmt, ...) TC_PRINTF(1, 2);
void *base_malloc(size_t n);
void *base_calloc(size_t count, size_t size);
void *base_realloc(void *p, size_t n);
char *base_strdup(const char *s);

/* ---- arena ---- */
typedef struct ArenaBlock ArenaBlock;
typedef struct Arena {
	ArenaBlock *head;
	size_t reserved;   /* bytes of all its blocks */
	ArenaBlock *spare; /* blocks given by arena_recycle, used before fresh ones */
} Arena;

void *arena_alloc(Arena *a, size_t n);            /* zeroed, 16-byte aligned */
/* The same, for room that may stay unused: a large one's pages are mapped
 * only as they are touched (arena_alloc asks for them at once). */
void *arena_alloc_lazy(Arena *a, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) TC_PRINTF(2, 3);
void arena_free(Arena *a);
/* Gives all of `from`'s memory to `to`, whose later allocations take it
 * (cleared as handed out) before they ask the system for more; `from` is
 * left empty, and nothing allocated from it may be used again. Memory once
 * touched is cheap to touch again, where a fresh page costs a fault (on a
 * virtual machine, microseconds): a stage's scratch (the tokens, the
 * specializer's values) becomes the next stage's. */
void arena_recycle(Arena *to, Arena *from);
/* Gives all of `from`'s memory to `to`, freed with it but never handed out
 * again (what `from` holds stays valid as long as `to`); `from` is left
 * empty. */
void arena_adopt(Arena *to, Arena *from);
/* Records of one kind taken from the arena a run of 64 KiB at a time, so
 * that those made one after another lie one after another in memory (a
 * walk of them reads memory in order, as the processor fetches ahead)
 * rather than between whatever else was made meanwhile. Zeroed and 8-byte
 * aligned (records of pointers, 64-bit integers and doubles: a 168-byte
 * value takes 168 bytes, not 176); `n` at most ARENA_RUN. */
enum { ARENA_RUN = 65536 };
typedef struct ArenaRun {
	unsigned char *at, *end;
} ArenaRun;
void *arena_run_alloc(Arena *a, ArenaRun *r, size_t n);

/* ---- buf ---- */
typedef struct Buf {
	char *data;     /* always NUL-terminated when len > 0 or after any append */
	size_t len;
	size_t cap;
} Buf;

void buf_putc(Buf *b, char c);
void buf_puts(Buf *b, const char *s);
void buf_putn(Buf *b, const char *s, size_t n);
void buf_printf(Buf *b, const char *fmt, ...) TC_PRINTF(2, 3);
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
void buf_indent(Buf *b, int depth);               /* depth tabs */
void buf_put_int(Buf *b, long long v);            /* v as %lld prints it, without printf */
const char *buf_str(Buf *b);                      /* "" when empty */
char *buf_detach(Buf *b);                         /* caller frees */
void buf_free(Buf *b);

/* ---- vec: a growable array of pointers ---- */
typedef struct Vec {
	void **data;
	int len;
	int cap;
} Vec;

void vec_push(Vec *v, void *item);
void *vec_pop(Vec *v);
void *vec_last(Vec *v);
void vec_free(Vec *v);

/* ---- source files and diagnostics ---- */
typedef struct Source {
	const char *name;     /* as given by the user */
	const char *text;     /* NUL-terminated; may contain other NULs for binary files */
	size_t len;
	int line_base;        /* added to every reported line (embedded sources) */
	int col_base;         /* added to columns on the first line (embedded sources) */
} Source;

/* A diagnostic sink. Errors are counted; `jump`, when set, is where a
 * fatal error returns to (each public entry point sets it). */
typedef struct Diag {
	FILE *out;            /* NULL: keep messages in `text` only */
	Buf text;             /* every message, for the library API */
	int errors;
	int warnings;
	jmp_buf *jump;
	bool color;
	const char *prog;     /* when set, a message with no location starts "PROG: " */
} Diag;

typedef enum {
	DIAG_ERROR,
	DIAG_WARNING,
	DIAG_NOTE,
} DiagKind;

/* Reports at a 0-based byte offset of `src` (line and column are derived). */
void diag_at(Diag *d, DiagKind kind, const Source *src, size_t offset, const char *fmt, ...)
	TC_PRINTF(5, 6);
void diag_vat(Diag *d, DiagKind kind, const Source *src, size_t offset, const char *fmt, va_list ap);
/* Reports an error without a location ("tritonc: error: ..."). */
void diag_plain(Diag *d, DiagKind kind, const char *fmt, ...) TC_PRINTF(3, 4);
/* Reports an error at `offset` and returns to d->jump (dies when none is set). */
TC_NORETURN void diag_fatal(Diag *d, const Source *src, size_t offset, const char *fmt, ...)
	TC_PRINTF(4, 5);
TC_NORETURN void diag_vfatal(Diag *d, const Source *src, size_t offset, const char *fmt, va_list ap);
/* Appends "   12 | <the source line>" and a caret line under `offset`;
 * `line` is the number to show. */
void diag_show_line(Buf *b, const Source *src, size_t offset, int line);
/* 1-based line and column of a byte offset, with the source's bases applied. */
void diag_source_linecol(const Source *src, size_t offset, int *line, int *col);
/* The offsets where a source's lines start, for lookups in O(log n) where
 * many are made (the specializer asks for every node's line). */
typedef struct LineTable {
	const Source *src;
	size_t *starts;
	size_t n;
	size_t last;    /* the line found last: most lookups are of it or the next */
} LineTable;
LineTable *base_line_table(Arena *a, const Source *src);
void base_line_table_linecol(LineTable *t, size_t offset, int *line, int *col);
/* Where reported line `line` starts (the source's end past its last line). */
size_t base_line_table_start(const LineTable *t, int line);

/* ---- files ---- */
/* Reads a whole regular file of at most FILE_READ_MAX bytes; NULL and
 * errno set on failure (EISDIR, ENOTSUP for a FIFO, device or socket, which
 * are never read, EFBIG past the limit). The text is NUL-terminated. */
#define FILE_READ_MAX ((off_t)64 << 20)
char *file_read(const char *path, size_t *len);
/* strerror, with words for file_read's ENOTSUP and EFBIG. */
const char *file_strerror(int err);
/* Writes `data` to `path` without ever losing what was there: symbolic
 * links are followed (the file they name is written; the link stays); a
 * new file or one with a single link is written beside and renamed into
 * place with its old mode and owner; one with other hard links is
 * rewritten in place (the old text goes back on a failure); a character
 * device or FIFO is written through, never replaced; a directory, a block
 * device, a socket, a file without write permission bits (also for root)
 * and, when `input` is not NULL, the file `input` names, are refused. 0 on
 * success; -1 with errno set and, when `why` is not NULL, the reason in
 * words ("it is the input file", "it is read-only (mode 0444)"). */
int file_write_safe(const char *path, const char *data, size_t len, const char *input, char *why, size_t whylen);
/* file_write_safe with no input and no reason. */
int file_write_atomic(const char *path, const char *data, size_t len);
bool file_exists(const char *path);

/* ---- stack (stack.c) ---- */
/* Runs fn(arg) on a thread with a 1 GiB stack (address space, touched as
 * used) and returns its result; on the calling thread when none can be
 * made. Every entry point of the tools runs its work this way. */
int base_run_on_big_stack(int (*fn)(void *), void *arg);
/* True when less than an eighth of this thread's stack is left: deep
 * recursions check it and report an error instead of overflowing. */
bool base_stack_nearly_full(void);

/* ---- hash ---- */
uint64_t base_hash_fnv1a(const void *data, size_t len, uint64_t seed);
#define HASH_SEED 0xcbf29ce484222325ull

/* ---- small numeric helpers ---- */
static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }
static inline bool is_pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }
int base_ilog2(int64_t x);                             /* floor(log2(x)), x > 0 */

#endif
