/* internal.h: shared between the front end's files; not public. */
#ifndef TC_TRITON_INTERNAL_H
#define TC_TRITON_INTERNAL_H

#include "triton/triton.h"

/* Like the public entry points, but call diag_fatal on error. */
Token *lex_run(Arena *a, Diag *d, const Source *src, int *count);
Node *parse_run(Arena *a, Diag *d, const Source *src, const Token *toks, int ntoks);

#endif
