/* printer.h: what a target's printer supplies to the shared printing code
 * (emit.c): the kernel's head (with the prelude) and tail, and the statements
 * that each machine spells differently. */
#ifndef TC_PRINTER_H
#define TC_PRINTER_H

#include "emit/emit.h"

typedef struct Printer {
	/* The C printer: per-thread state is an array over the block's threads
	 * and every per-thread statement is a loop over them. */
	bool lockstep;
	void (*head)(Buf *b, const SKernel *k);        /* prelude, signature and opening brace */
	void (*tail)(Buf *b, const SKernel *k);        /* closing brace and what follows */
	void (*leaf)(Buf *b, const SKernel *k, const SExpr *e);  /* lane, warp, thread, program ids */
	/* s->shuffled`idx` = s->src`idx` of the partner lane (s->shuffle); idx is "[i]" or "" */
	void (*shuffle)(Buf *b, const SKernel *k, const SStmt *s, const char *idx);
	void (*barrier)(Buf *b);
	/* `words` 32-bit words from `ptr` into the array `w`, with an eviction hint;
	 * only where `guard` holds if it is not NULL (w keeps what it holds elsewhere).
	 * NULL: the target loads element by element. */
	void (*load_words)(Buf *b, int words, EvictionPolicy ev, const char *ptr, const char *guard);
	void (*store_words)(Buf *b, int words, const char *ptr);
	/* An asynchronous copy of `bytes` from ptr to shared dst (zeros where
	 * `mask` is false; mask NULL: none), its group commit and the wait for
	 * all but `pending` groups. NULL: the copy is an ordinary one and the
	 * commit and the wait are nothing. */
	void (*copy_async)(Buf *b, int bytes, const char *dst, const char *ptr, const char *mask);
	/* the first `count` elements of `elem` bytes where mask, the rest zeros */
	void (*copy_async_n)(Buf *b, int bytes, const char *dst, const char *ptr, const char *mask, const char *count,
			     int elem);
	void (*copy_commit)(Buf *b);
	void (*copy_wait)(Buf *b, int pending);
	/* fp32 x / y as a call fdiv(x, y), NULL: the C operator */
	const char *fdiv;
	/* c ? a : b of fp32 values as a call select_f32(c, a, b) that computes both
	 * arms, for arms holding an fdiv call (a volatile asm, which C's ?: would
	 * put behind a branch); NULL: C's operator */
	const char *select_f32;
	/* integer // and % by what may be 0 or -1 as calls tc_div_i32(x, y),
	 * tc_mod_u64(x, y) ... of the prelude, which never trap; false: C's
	 * operators (the GPUs' divisions do not trap) */
	bool safe_int_div;
	const char *shared_qualifier;  /* "__shared__ " or "" */
	const char *align16;           /* what makes an array 16-byte aligned, with a trailing space */
	/* the program fails: `message` is a C string literal; `line` its source line */
	void (*assert_fail)(Buf *b, const SKernel *k, const char *message, int line);
	/* dst = the old value at ptr, which one atomic step s->atomic (with s->sem and s->scope) combines
	 * with value; ATOM_CAS: swaps in value where the old value is `expected`. dst NULL: not kept. */
	void (*atomic)(Buf *b, const SStmt *s, const char *dst, const char *ptr, const char *value, const char *expected);
} Printer;

extern const Printer emit_cuda_printer, emit_hip_printer, emit_c_printer;

/* emit.c, for the printers' heads: "float *in_ptr0, tc_i32 xnumel" */
void emit_params(Buf *b, const SKernel *k);
/* emit.c, what CUDA and HIP spell alike: thread, lane, warp and program
 * ids from threadIdx/blockIdx/gridDim. */
void emit_gpu_leaf(Buf *b, const SKernel *k, const SExpr *e);
/* emit.c: whether some atomic statement of `k` is `op` */
bool emit_uses_atomic(const SKernel *k, AtomicOp op);
bool emit_uses_runtime_shift(const SKernel *k);
/* the C type of argument i */
const char *emit_param_type(const SKernel *k, int i, Arena *scratch);

#endif
