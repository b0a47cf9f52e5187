/* warpcheck.h: finds CUDA/HIP code that silently assumes 32-lane warps.
 *
 *   lex.c      tokens with exact line:col; bad input becomes a diagnostic
 *   pp.c       #if regions (CUDA-only code is exempt), #define constants and shims
 *   util.c     token helpers shared by the rules
 *   rule_*.c   one file per hazard family (ids H1..H13 of the hazard table)
 *   check.c    the per-file driver: lex, preprocess, run rules, suppress
 *   report.c   text, JSON and SARIF output; --fix edits and diffs
 */
#ifndef WC_WARPCHECK_H
#define WC_WARPCHECK_H

#include "base/base.h"

typedef enum {
	WT_IDENT,   /* identifiers and keywords */
	WT_NUMBER,  /* integer and floating literals, suffix included */
	WT_STRING,  /* "..." and raw strings */
	WT_CHAR,    /* '...' */
	WT_PUNCT,   /* operators and punctuation, longest match */
	WT_EOD,     /* end of a preprocessor directive */
} WcTokKind;

typedef struct WcTok {
	WcTokKind kind;
	uint32_t off, len;
	int line, col;
	bool pp;         /* part of a preprocessor directive */
	bool cuda_only;  /* under a guard that excludes HIP/ROCm */
	bool num_ok;     /* integer literal whose value is in num */
	bool num_wide;   /* integer literal with an ll/ull suffix */
	uint64_t num;
} WcTok;

typedef struct WcConst {
	char name[64];
	uint64_t value;
	bool conflict;   /* defined more than once with different values */
} WcConst;

/* A function-like macro; `used` has bit i set when parameter i appears in
 * the body, so a shim that drops the mask is recognised. */
typedef struct WcMacro {
	char name[64];
	int nparams;
	uint32_t used;
} WcMacro;

typedef struct WcSuppress {
	int line;
	char ids[64];    /* "" suppresses every hazard */
} WcSuppress;

typedef struct WcFinding {
	uint32_t off;
	int line, col;
	const char *id, *name;
	char msg[200];
	char fix[200];
	bool has_edit;   /* a safe textual rewrite exists */
	uint32_t eoff, elen;
	char repl[48];
} WcFinding;

typedef struct WcFile {
	Source src;
	Diag *diag;
	WcTok *all; int nall;       /* every token, directives included */
	WcTok *t; int n;            /* code tokens only, what rules read */
	WcConst *consts; int nconsts;
	WcMacro *macros; int nmacros;
	WcSuppress *sup; int nsup;
	WcFinding *finds; int nfinds;
	Vec derived;     /* names derived from a thread index or lane id (char *) */
	Vec warp32;      /* of those, warp ids computed as tid / 32 or tid >> 5 */
	int errors;
	int include_depth;          /* > 0 while reading an #include for its #defines */
} WcFile;

/* lex.c */
void wc_lex(WcFile *f);
/* pp.c */
void wc_preprocess(WcFile *f);
/* util.c */
bool wc_is(const WcFile *f, int i, const char *s);
bool wc_ident_is(const WcFile *f, int i, const char *s);
bool wc_ident_has(const WcFile *f, int i, const char *part);
int wc_match(const WcFile *f, int open);            /* index of the closing bracket or -1 */
int wc_call_args(const WcFile *f, int open, int *starts, int *ends, int max);
bool wc_value(const WcFile *f, int i, uint64_t *v); /* literal or known constant */
const WcConst *wc_const(const WcFile *f, const char *name, size_t len);
const WcMacro *wc_macro(const WcFile *f, const char *name, size_t len);
bool wc_is_shuffle(const WcFile *f, int i);
bool wc_is_ballot(const WcFile *f, int i);
bool wc_is_sync(const WcFile *f, int i);
WcFinding *wc_find(WcFile *f, int i, const char *id, const char *name, const char *fix,
	const char *fmt, ...) TC_PRINTF(6, 7);
WcFinding *wc_vfind(WcFile *f, const WcTok *t, const char *id, const char *name, const char *fix,
	const char *fmt, va_list ap);
WcFinding *wc_find_tok(WcFile *f, const WcTok *t, const char *id, const char *name, const char *fix,
	const char *fmt, ...) TC_PRINTF(6, 7);
void wc_edit(WcFinding *fd, const WcFile *f, int first, int last, const char *repl);
/* rule_*.c */
void wc_rule_loops(WcFile *f);   /* H1 */
void wc_rule_masks(WcFile *f);   /* H2, H13 */
void wc_rule_lanes(WcFile *f);   /* H3, H5 */
void wc_dataflow(WcFile *f);     /* fills derived and warp32; run first */
bool wc_derived(const WcFile *f, int i);     /* token i is thread-derived */
bool wc_operand_derived(const WcFile *f, int end); /* operand ending at token end */
void wc_rule_ballot(WcFile *f);  /* H4 */
void wc_rule_host(WcFile *f);    /* H6, H7, H12 */
/* check.c: returns false when the file could not be checked at all */
bool wc_check_file(WcFile *f, Diag *d, const char *path);
void wc_file_free(WcFile *f);
/* report.c */
typedef enum { WC_TEXT, WC_JSON, WC_SARIF } WcFormat;
void wc_report_text(FILE *out, const WcFile *f);
void wc_report_json_file(Buf *b, const WcFile *f, bool *first);
void wc_report_sarif_file(Buf *b, const WcFile *f, bool *first);
char *wc_apply_fixes(const WcFile *f, size_t *len, int *applied);
void wc_unified_diff(FILE *out, const char *path, const char *a, size_t alen, const char *b, size_t blen);

#endif
