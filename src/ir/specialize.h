/* specialize.h: from a kernel's AST to tile IR, for one signature and one
 * set of constexpr values. */
#ifndef TC_SPECIALIZE_H
#define TC_SPECIALIZE_H

#include "ir/tir.h"
#include "triton/triton.h"

typedef struct SpecOptions {
	/* Types of the kernel's non-constexpr parameters, in order, comma
	 * separated: "*fp32,*fp32,*fp32,i32,i32". NULL: take them from an
	 * Inductor kernel's triton_meta signature. */
	const char *signature;
	/* Constexpr values, "NAME=VALUE" each (ints, floats, True/False, None, 'quoted strings'). */
	const char **defines;
	int ndefines;
	int num_warps;
	int num_stages;   /* software-pipelining depth of loops with tl.dot; 0: 3, as Triton */
} SpecOptions;

/* How many kernel arguments signature `sig` stands for: one an entry, a
 * tensor descriptor's entry several (its pointer, extents and strides). */
int spec_signature_args(const char *sig);
/* Splits divisibility hints off a signature: "*fp32:16,i32:16,i32" ->
 * "*fp32,i32,i32" in `out` (room for strlen(sig) + 1) and 16 in div[i] for
 * the argument i each hinted entry starts at (others untouched), div
 * holding spec_signature_args(sig), as Triton's tt.divisibility. False
 * when a hint is not ':16': then `bad` is that entry (its text, its number
 * from 1). */
typedef struct SigEntry {
	int number;
	const char *text;
	int len;
} SigEntry;
bool spec_strip_hints(const char *sig, char *out, int64_t *div, SigEntry *bad);

/* Builds the tile IR. Errors are reported to `d` as file:line:col with a
 * caret at the construct; the result is NULL then. */
TKernel *spec_kernel(Arena *a, Diag *d, const Kernel *k, const SpecOptions *opt);

#endif
