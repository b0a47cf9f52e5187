/* warpcheck.h: finds CUDA/HIP code that silently assumes 32-lane warps.
 *
 *   names.c    interned identifiers: one integer id per distinct name, with
 *              per-name facts (flags, #define values, dataflow views)
 *   lex.c      tokens with exact line:col; bad input becomes a diagnostic
 *   pp.c       #if regions (CUDA-only code is exempt), #define constants and
 *              shims, warp widths chosen per platform or per target
 *   cond.c     #if conditions evaluated for each compile of a HIP build: the
 *              host pass and one device pass per chip (gfx90a, gfx1100...)
 *   build.c    a project as its build reads it: -I/-isystem/-D/-U/--target,
 *              compile_commands.json, #include resolution, header cache
 *   funcs.c    function bodies and their kind (host, device, kernel)
 *   dataflow.c per-function views: which locals hold a thread index, a lane,
 *              a warp id, a ballot or a mask
 *   util.c     token helpers shared by the rules, and the one finding maker
 *   rule_*.c   one file per hazard family (ids H1..H13 of the hazard table)
 *   scheme.c   functions that use 32-lane logical warps consistently: their
 *              H1, H3 and H5 findings are notes, not warnings
 *   check.c    the per-file driver: lex, preprocess, analyse, rules, suppress
 *   report.c   text, JSON and SARIF output; --fix edits and diffs; --baseline
 *   cache.c    --cache: reports kept by content, checked again only on change
 *
 * Rules compare tokens as integers: punctuators by WcPunct code, names by
 * interned id (the names rules ask about have fixed ids, WK_*). */
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

/* Punctuators, one code each. */
#define WC_PUNCTS(X) \
	X(LPAREN, "(") X(RPAREN, ")") X(LBRACK, "[") X(RBRACK, "]") X(LBRACE, "{") X(RBRACE, "}") \
	X(SEMI, ";") X(COMMA, ",") X(DOT, ".") X(ARROW, "->") X(QUESTION, "?") X(COLON, ":") \
	X(SCOPE, "::") X(HASH, "#") X(HASHHASH, "##") X(ELLIPSIS, "...") \
	X(ASSIGN, "=") X(EQ, "==") X(NE, "!=") X(LT, "<") X(GT, ">") X(LE, "<=") X(GE, ">=") \
	X(SPACESHIP, "<=>") X(PLUS, "+") X(MINUS, "-") X(STAR, "*") X(SLASH, "/") X(PERCENT, "%") \
	X(AMP, "&") X(PIPE, "|") X(CARET, "^") X(TILDE, "~") X(NOT, "!") X(ANDAND, "&&") \
	X(OROR, "||") X(SHL, "<<") X(SHR, ">>") X(INC, "++") X(DEC, "--") \
	X(PLUS_EQ, "+=") X(MINUS_EQ, "-=") X(STAR_EQ, "*=") X(SLASH_EQ, "/=") X(PERCENT_EQ, "%=") \
	X(AMP_EQ, "&=") X(PIPE_EQ, "|=") X(CARET_EQ, "^=") X(SHL_EQ, "<<=") X(SHR_EQ, ">>=") \
	X(LAUNCH_OPEN, "<<<") X(LAUNCH_CLOSE, ">>>") X(DOT_STAR, ".*") X(ARROW_STAR, "->*") \
	X(OTHER, "?other") /* any other byte: @, a stray backslash */

typedef enum {
	WP_NONE,
#define WC_X(n, s) WP_##n,
	WC_PUNCTS(WC_X)
#undef WC_X
	WP__COUNT
} WcPunct;

/* The names rules ask about. They are interned first, in this order, so
 * WK_threadIdx is the id of "threadIdx" in every table. */
#define WC_KNOWN(X) \
	X(threadIdx) X(blockIdx) X(blockDim) X(gridDim) X(hipThreadIdx_x) X(x) X(y) X(z) \
	X(warpSize) X(tid) X(__lane_id) X(__lanemask_lt) X(__AMDGCN_WAVEFRONT_SIZE) \
	X(__shfl) X(__shfl_up) X(__shfl_down) X(__shfl_xor) \
	X(__shfl_sync) X(__shfl_up_sync) X(__shfl_down_sync) X(__shfl_xor_sync) \
	X(__ballot) X(__ballot_sync) X(__activemask) X(__match_any_sync) X(__match_all_sync) \
	X(__any_sync) X(__all_sync) X(__syncwarp) X(__reduce_add_sync) X(__reduce_min_sync) \
	X(__reduce_max_sync) X(__reduce_and_sync) X(__reduce_or_sync) X(__reduce_xor_sync) \
	X(__any) X(__all) X(__popc) X(__ffs) X(__popcll) X(__ffsll) \
	X(int) X(unsigned) X(signed) X(long) X(short) X(char) X(bool) X(float) X(double) X(void) \
	X(auto) X(uint32_t) X(int32_t) X(uint) X(uint64_t) X(size_t) \
	X(const) X(constexpr) X(static) X(inline) X(volatile) X(extern) X(register) \
	X(__forceinline__) X(__inline__) X(__noinline__) \
	X(__global__) X(__device__) X(__host__) X(__shared__) X(__launch_bounds__) \
	X(if) X(else) X(for) X(while) X(do) X(switch) X(case) X(default) X(return) X(break) \
	X(continue) X(goto) X(sizeof) X(static_assert) X(catch) X(operator) \
	X(struct) X(class) X(union) X(enum) X(namespace) X(template) X(typename) X(typedef) X(using) \
	X(static_cast) X(reinterpret_cast) X(noexcept) X(override) X(final) X(mutable) \
	X(dim3) X(hipLaunchKernelGGL) X(cub) X(hipcub) X(TempStorage) \
	X(WarpReduce) X(WarpScan) X(WarpExchange) X(WarpLoad) X(WarpStore) X(WarpMergeSort) \
	X(defined) X(ifdef) X(ifndef) X(elif) X(endif) X(define) X(include) X(undef)

typedef enum {
#define WC_X(n) WK_##n,
	WC_KNOWN(WC_X)
#undef WC_X
	WK__COUNT
} WcKnown;

/* Facts about a name, computed once when it is interned. */
enum {
	WN_LANE = 1 << 0,      /* "lane" is a word of it: lane, laneId, src_lane */
	WN_WARP_SIZE = 1 << 1, /* has "warp" and "size": WARP_SIZE, kWarpSize */
	WN_WARPISH = 1 << 2,   /* has "warp" or "wave": a width or warp-count name */
	WN_AMD = 1 << 3,       /* a macro defined only for AMD: __HIP_PLATFORM_AMD__, USE_ROCM */
	WN_TARGET = 1 << 4,    /* a per-target device macro: __GFX9__, __gfx90a__ */
	WN_WIDTHISH = 1 << 5,  /* has "width", "size" or "bits" */
	WN_SHUFFLE = 1 << 6,   /* __shfl* */
	WN_BALLOT = 1 << 7,    /* __ballot*, __activemask, __match_any_sync */
	WN_SYNC = 1 << 8,      /* an intrinsic whose first argument is a lane mask */
	WN_TYPE = 1 << 9,      /* a builtin integer or float type word */
	WN_COLLECTIVE = 1 << 10, /* cub/hipcub warp collective: WarpReduce, WarpScan, ... */
	WN_QUALIFIER = 1 << 11,  /* const, static, inline, __forceinline__, ... */
	WN_VOTE = 1 << 12,       /* the same result in every lane: ballots, __any, __all, __reduce_*_sync */
	WN_SHFL_WRAP = 1 << 13,  /* "shfl" or "shuffle" in a name that is no intrinsic: WARP_SHFL, shfl_xor */
	WN_LIBWIDTH = 1 << 14,   /* a library's name for the device's width: C10_WARP_SIZE, rocprim::warp_size() */
};

/* What a value is, as far as warps go (dataflow.c). */
typedef enum {
	WV_NONE,
	WV_TID,      /* thread index within the block: threadIdx.x, tid */
	WV_GTID,     /* global index: blockIdx.x * blockDim.x + threadIdx.x */
	WV_LANE32,   /* lane of a 32-lane group: tid & 31, tid % 32 */
	WV_LANE,     /* lane of the physical warp: tid % warpSize, __lane_id() */
	WV_WARP32,   /* warp id counted in 32s: tid / 32, tid >> 5 */
	WV_WARP,     /* physical warp id: tid / warpSize */
	WV_THREAD,   /* something else computed from a thread index */
	WV_BALLOT,   /* a ballot or active mask: one bit per physical lane */
	WV_MASK,     /* a lane bit or lane mask: 1 << lane, __lanemask_lt() */
	/* helpers while evaluating, never stored on a variable */
	WV_BLOCK,    /* blockIdx.x */
	WV_DIM,      /* blockDim.x, gridDim.x */
	WV_BASE,     /* blockIdx.x * blockDim.x */
	WV_WSIZE,    /* warpSize */
} WcView;

static inline bool wc_view_thread(int v) { return v >= WV_TID && v <= WV_THREAD; }
static inline bool wc_view_lane(int v) { return v == WV_LANE || v == WV_LANE32; }

/* An expression's value as the dataflow sees it. */
typedef struct WcVal {
	WcView view;
	bool known;      /* a compile-time value, in num */
	bool wmask;      /* warpSize - 1 */
	bool varying;    /* may differ between the lanes of one wavefront: a thread
	                    index, a lane, data loaded at a thread's own index */
	bool whole;      /* a multiple of the wavefront's width: of warpSize, or of 64 */
	uint64_t num;
} WcVal;

typedef struct WcTok {
	uint32_t off, len;  /* its line and column: from off (wc_tok_pos) */
	uint32_t id;     /* WT_IDENT: interned name */
	uint8_t kind;    /* WcTokKind */
	uint8_t op;      /* WT_PUNCT: WcPunct */
	uint8_t view;    /* WcView, set by the dataflow */
	bool pp : 1;         /* part of a preprocessor directive */
	bool cuda_only : 1;  /* under a guard that excludes HIP/ROCm */
	bool amd_wide : 1;   /* under a guard that selects every AMD target alike */
	bool num_ok : 1;     /* integer literal whose value is in num */
	bool num_wide : 1;   /* integer literal with an ll/ull suffix */
	bool varying : 1;    /* dataflow: WcVal.varying of the name */
	bool whole : 1;      /* dataflow: WcVal.whole of the name */
	uint64_t num;
} WcTok;             /* 24 bytes: every pass over the tokens is memory-bound */

/* One interned name. The *_stamp fields say which file (or function) a
 * fact belongs to: a fact holds only while its stamp is the current one,
 * so nothing is cleared between files. */
typedef struct WcName {
	/* The fields in an order with no holes (168 bytes, not 192: a first
	 * touch and a cache line each name less); what belongs together is
	 * said where it is. */
	uint32_t off, len, hash;
	uint16_t flags;
	uint8_t macro_nparams;
	bool macro_shuffle;      /* a function-like macro whose body shuffles with no width */
	uint8_t view;            /* dataflow: the view of a local, for var_stamp */
	bool varying, whole;     /* dataflow: WcVal's flags of a local, for var_stamp */
	bool macro_wsize;        /* a function-like macro whose body uses the device's width */
	uint8_t macro_select;    /* a function-like macro whose body is parameter k - 1 (0: not one) */
	bool select_amd;         /* ...defined under a condition about AMD, for the passes select_def */
	uint8_t ret_view;        /* ret_stamp's */
	bool ret_varying;
	uint8_t hdr_kinds;       /* hdr_stamp's: scheme.c's S_* bits */
	bool const_conflict;     /* const_stamp's, with const_value */
	uint8_t cdef;            /* cdef_stamp's: 1: -D NAME, with cdef_value when cdef_num; 2: -U NAME */
	bool cdef_num;
	uint8_t pbound_param, pbound_max;  /* pbound_stamp's */
	uint32_t macro_used;     /* bit i: parameter i appears in the body */
	uint32_t const_stamp, macro_stamp, var_stamp, target_stamp;
	uint32_t wsize_stamp;    /* #define NAME warpSize (or another such name) */
	uint32_t wexpr_stamp;    /* #define NAME (1024 / warpSize): computed from the device's width */
	uint32_t ret_stamp;      /* a function of the file: what it returns, in ret_view, ret_varying */
	uint32_t hdr_stamp;      /* a function of an included header: what its body does, in hdr_kinds */
	uint32_t target_macro;   /* the per-target macro whose branch defined it */
	uint32_t target_off;     /* where the #define the host pass may take is (target_file, when
	                            known), at that file's offset, line and column */
	int target_line, target_col;
	uint32_t tmacro_stamp;   /* #define IS_CDNA (defined(__gfx908__) || ...): a per-target test */
	uint32_t tmacro_target;  /* the first per-target macro its body names */
	uint32_t cdef_stamp;     /* -D/-U on the command line or in the compile database: cdef */
	uint32_t body_stamp;     /* an object-like #define: its body in WcNames.mt */
	uint32_t body_at, body_len;
	uint32_t touch_stamp;    /* the last stamp any fact a header summary keeps was set under (WcNames.touched) */
	uint32_t pbound_stamp;   /* a template whose parameter pbound_param a static_assert bounds by the
	                            device's width: at most pbound_max with 32 lanes (rule_params.c) */
	uint32_t wm_stamp;       /* a template whose parameters are counted in wavefronts: WcNames.wm */
	uint32_t wm_at, wm_len;  /* ...from wm_at, wm_len of them (rule_tmpl.c) */
	uint32_t src_stamp;      /* its facts of this stamp are exactly those of entry src_entry of the
	                            summaries' pool: set by a replay and by nothing since (pp.c) */
	uint32_t src_entry;
	uint64_t select_def;     /* select_amd's passes */
	const char *target_file; /* target_off's file (NULL: not known) */
	uint64_t const_value;
	uint64_t cdef_value;
} WcName;

/* A template parameter that must be whole wavefronts (rule_tmpl.c). */
typedef struct WcWmul {
	uint32_t param;          /* its position */
	uint32_t inner;          /* the template or library collective that needs it (a name id) */
	uint8_t kind;            /* 1: divided by the device's width; 2: a WARP_TRANSPOSE thread count */
} WcWmul;

/* One remembered lookup: the name's hash, id + 1 (0: empty), and where
 * its spelling is in WcNames.chars. */
typedef struct WcNameHit {
	uint32_t hash, id1, off, len;
} WcNameHit;
enum { WC_HITS = 2048 };

typedef struct WcNames {
	WcName *v;
	uint32_t n, cap;
	uint16_t *fl;            /* each name's flags again, dense: what a pass over the tokens reads */
	uint64_t *slot;          /* open addressing: the name's hash << 32 | id + 1, 0 when empty (a
	                            probe compares hashes without reading the name's entry) */
	uint32_t mask;
	struct WcNameHit *hit;   /* WC_HITS recent lookups by hash, direct-mapped: a name met again
	                            is found without the probe of slot and the read of its entry */
	char *chars;
	size_t nchars, ccap;
	uint32_t serial;         /* last stamp handed out */
	struct WcTok *mt;        /* bodies of object-like #defines (for #if), per file */
	uint32_t nmt, mtcap;
	WcWmul *wm;              /* templates' wavefront parameters, per file */
	uint32_t nwm, wmcap;
	uint32_t *touched;       /* ids whose facts were set, each once per stamp (wc_touch): what a
	                            header's summary looks at instead of the whole table; per file */
	uint32_t ntouched, touched_cap;
} WcNames;

void wc_names_init(WcNames *nm);
void wc_names_free(WcNames *nm);
uint32_t wc_intern(WcNames *nm, const char *s, size_t n);
/* h: FNV-1a (32-bit) of the name, as the lexer computes it while scanning */
uint32_t wc_intern_hashed(WcNames *nm, const char *s, size_t n, uint32_t h);
uint32_t wc_stamp(WcNames *nm);   /* a fresh stamp */
void wc_touch_grow(WcNames *nm);
/* A fact a header summary keeps (const, macro, wsize, wexpr, target,
 * tmacro, hdr, pbound, wm, body) is being set on id under stamp. */
static inline void wc_touch(WcNames *nm, uint32_t id, uint32_t stamp)
{
	nm->v[id].src_stamp = 0;  /* no longer as a replay left it */
	if (nm->v[id].touch_stamp == stamp)
		return;
	nm->v[id].touch_stamp = stamp;
	if (nm->ntouched == nm->touched_cap)
		wc_touch_grow(nm);
	nm->touched[nm->ntouched++] = id;
}

typedef struct WcSuppress {
	int line;
	char ids[64];    /* "" suppresses every hazard */
} WcSuppress;

typedef struct WcFinding {
	uint32_t off;
	int line, col;
	const char *id, *name;
	char msg[200];
	const char *fix;     /* a string literal */
	bool note;       /* not a bug: a remark (exit status 0, no rewrite) */
	bool has_edit;   /* a safe textual rewrite exists */
	uint32_t eoff, elen;
	char repl[48];
} WcFinding;

/* The chips a HIP build may target, and the passes its #if conditions are
 * evaluated for: pass 0 is the host, pass k + 1 the device pass of chip k. */
typedef struct WcChip {
	const char *name;   /* gfx90a */
	const char *gen;    /* __GFX9__ */
	int width;          /* 64 (GCN, CDNA) or 32 (RDNA) */
	bool dflt;          /* in the default set (current ROCm targets) */
} WcChip;
extern const WcChip wc_chips[];
extern const int wc_nchips;
typedef uint64_t WcPasses;   /* bit 0: host; bit k + 1: chip k */
#define WC_HOST_PASS ((WcPasses)1)
int wc_chip_find(const char *name, size_t n);   /* index in wc_chips or -1 */

/* How a build reads a file: include paths, macros, targets. One for the
 * command line, one more per compile_commands.json entry. */
typedef struct WcDefine {
	char *name, *value;   /* value NULL: -D NAME (1); for -U, undef */
	bool undef;
} WcDefine;
typedef struct WcTree WcTree;
typedef struct WcConfig {
	char **inc; bool *inc_sys; int ninc, inc_cap;  /* -I (and -iquote), -isystem */
	WcDefine *defs; int ndefs, def_cap;
	WcPasses targets;         /* device passes to evaluate; 0: the default chips */
	bool system_headers;      /* read <...> headers found in -isystem dirs too */
	const WcTree *tree;       /* the headers of the checked tree, by name */
	uint64_t hash;            /* of everything above but the tree: the result cache's key */
} WcConfig;
/* One compiler argument at argv[*i] (-I DIR, -IDIR, -isystem DIR, -D X=1,
 * -U X, --offload-arch=gfx90a, --target gfx90a): 1 taken (and *i moved past
 * its value), 0 not one of them, -1 its value is missing. Relative
 * directories are taken from dir (NULL: as given). */
int wc_config_arg(WcConfig *c, int argc, char **argv, int *i, const char *dir);
void wc_config_copy(WcConfig *dst, const WcConfig *src);
void wc_config_free(WcConfig *c);
void wc_config_finish(WcConfig *c);   /* computes hash */
WcPasses wc_config_passes(const WcConfig *c);  /* host + its device passes */
/* compile_commands.json: each file's flags on top of base. */
typedef struct WcCompileDb {
	char **files;             /* real paths, sorted */
	WcConfig *cfg;            /* one per file */
	int n;
} WcCompileDb;
bool wc_compile_db_load(WcCompileDb *db, const char *path, const WcConfig *base, Diag *d);
const WcConfig *wc_compile_db_find(const WcCompileDb *db, const char *path);  /* NULL: not in it */
void wc_compile_db_free(WcCompileDb *db);
/* The headers of a tree (every file the walk found), found by the path
 * an #include names: "ATen/cuda/Atomic.cuh" finds .../aten/src/ATen/cuda/Atomic.cuh. */
WcTree *wc_tree_new(void);
void wc_tree_add(WcTree *t, const char *path);
void wc_tree_free(WcTree *t);
void wc_tree_prepare(WcTree *t);   /* after the last add, before lookups */
/* The file an #include of name (n bytes, angle for <...>) from the file
 * at from reaches, into out; false when none or a system header skipped. */
bool wc_resolve_include(const WcConfig *c, const char *from, const char *name, size_t n, bool angle, Buf *out);
typedef struct WcWork WcWork;
/* The same, remembering for the thread (w, or none) what each folder and
 * name gave: a header named by hundreds of files is looked for once. */
bool wc_resolve_include_in(WcWork *w, const WcConfig *c, const char *from, const char *name, size_t n, bool angle,
	Buf *out);

/* A stretch of code tokens [from, next region's from) and the passes that
 * certainly (def) or possibly (maybe) compile it. */
typedef struct WcRegion {
	int from;
	WcPasses def, maybe;
	bool amd;                 /* some enclosing condition is about AMD, a chip or the wave size */
	uint32_t target;          /* the innermost per-target macro (or __AMDGCN_WAVEFRONT_SIZE) tested, or UINT32_MAX */
} WcRegion;

typedef enum { WF_HOST, WF_DEVICE, WF_KERNEL, WF_HOST_DEVICE, WF_UNKNOWN } WcFuncKind;

/* A function definition: its body's braces in the code tokens. */
typedef struct WcFunc {
	int name, open, close;
	WcFuncKind kind;
} WcFunc;

/* What one thread keeps from file to file: the name table and the big
 * buffers (text, tokens), so checking a file allocates almost nothing. */
typedef struct WcHeader WcHeader;
typedef struct WcHeaderSum WcHeaderSum;
typedef struct WcSumPool WcSumPool;
typedef struct WcIncl WcIncl;
/* An open-addressed table of pointers by a hash each (util.c): the header
 * cache and the include lookups of build.c, the groups of pp.c. Linear
 * probing from the hash's low bits; it doubles when half full. */
typedef struct WcPtrTab {
	void **v;                /* NULL: an empty slot */
	uint64_t *h;             /* each slot's hash: a probe compares it before the entry */
	uint32_t mask, n;
} WcPtrTab;
/* The entries added under hash h, one a call: *at starts at UINT32_MAX. */
static inline void *wc_ptab_next(const WcPtrTab *t, uint64_t h, uint32_t *at)
{
	if (!t->v)
		return NULL;
	for (uint32_t s = *at == UINT32_MAX ? (uint32_t)h & t->mask : (*at + 1) & t->mask; t->v[s]; s = (s + 1) & t->mask)
		if (t->h[s] == h) {
			*at = s;
			return t->v[s];
		}
	return NULL;
}
void wc_ptab_add(WcPtrTab *t, uint64_t h, void *p, uint32_t first_size);  /* first_size: a power of 2 */
void wc_ptab_clear(WcPtrTab *t);   /* no entry, the same size */
void wc_ptab_free(WcPtrTab *t);    /* the table, not its entries */
struct WcWork {
	WcHeaderSum *sums[256];     /* headers' facts, by path and build flags: replayed, not reread */
	struct WcSumPool *pool;     /* the entries of those sums, each kept once (pp.c) */
	WcHeaderSum **partial; int npartial, partial_cap;  /* those in a cycle of includes the file being
	                               checked has met, oldest first: for it only */
	WcPtrTab groups;            /* the partial summaries each header a file reads first made, after
	                               those made before it (pp.c's WcSumGroup) */
	struct WcSumGroup *last_group;  /* the file's last group made or taken again */
	struct WcSumGroup *local;   /* groups kept for the file being checked only, freed after it */
	size_t group_bytes;         /* what the kept groups' summaries hold */
	bool side_partials;         /* a whole summary made partial ones on the way (pp.c) */
	const char **building; int nbuilding, building_cap;  /* headers being read, outermost first */
	WcNames names;
	const WcConfig *cfg;        /* the build flags of the next file checked */
	WcPtrTab hdr;               /* headers read (WcHeader), by path: read once per thread */
	char *text; size_t text_cap;
	WcTok *all; int all_cap;
	WcTok *t; int t_cap;
	WcPtrTab incl;              /* #include lookups made (WcIncl, wc_resolve_include_in) */
};

void wc_work_init(WcWork *w);
void wc_work_free(WcWork *w);

/* What a file tells the other files of a run (scheme.c): the kernels it
 * defines that do warp-level work on threadIdx.x, and its launches of
 * kernels it does not define, sized for one width; joined once every file
 * is checked (wc_launch_judge). */
typedef struct WcKernelFact {
	char *name;
	int kinds;                  /* scheme.c's S_* bits, with what the kernel calls */
} WcKernelFact;
typedef struct WcLaunchRef {
	char *name;                 /* the kernel launched */
	uint64_t x;                 /* the block's x */
	bool rows;                  /* a y other than 1 */
	uint32_t off;               /* the x's token */
	int line, col;
} WcLaunchRef;

typedef struct WcFile {
	Source src;
	Diag *diag;
	WcNames *names;
	WcWork *work;               /* buffers to borrow and give back, or NULL */
	bool own_names;             /* names made for this file alone */
	size_t text_cap;
	int all_cap, t_cap;
	uint32_t stamp;             /* this file's (and its includes') facts */
	WcTok *all; int nall;       /* every token, directives included */
	WcTok *t; int n;            /* code tokens only, what rules read */
	int *match; int nmatch;     /* each bracket's partner in t, -1 if none (wc_match_table; nmatch == n) */
	int *stmt_next;             /* for wc_stmt_end: from each token, the first ')' ']' '}' or ';' at its
	                               bracket depth (all kinds counted together), -1 if none (wc_match_table) */
	uint16_t tok_flags;         /* the flags of t's names, or-ed, and */
	uint64_t tok_ops;           /* ...bit p: a punctuator p in t (wc_match_table): a rule's pass that
	                               looks only at tokens a file lacks is not made */
	uint64_t tok_kws[3];        /* ...and bit k: the known name k (WK_*) in t (wc_file_has_kw) */
	bool lex_warp_size;         /* the lexer put a warpSize among the code tokens */
	WcSuppress *sup; int nsup;
	WcFinding *finds; int nfinds;
	WcFunc *fns; int nfns;
	int errors;
	int include_depth;          /* > 0 while reading an #include for its #defines */
	const WcConfig *cfg;        /* never NULL once set up */
	WcRegion *regions; int nregions, regions_cap;  /* pass masks of the code, in order */
	struct WcFile *top;         /* while reading a header: the file that includes it */
	uint32_t *seen; int nseen, seen_cap;  /* the top file's headers read (path hashes) */
	Vec hdr_paths;              /* the top file's headers read, for the result cache */
	bool partial;               /* a header it reads includes it, or one it replays is partial */
	WcFinding *hfinds; const char **hpaths; int nhfinds, hfinds_cap;  /* findings in included headers */
	WcKernelFact *kfacts; int nkfacts;   /* for the other files of the run */
	uint32_t *lines; int nlines;  /* where each line starts, for wc_tok_pos (made at its first call) */
	WcLaunchRef *lrefs; int nlrefs;
} WcFile;

/* lex.c */
void wc_lex(WcFile *f);   /* f->src.text[f->src.len] must be a NUL */
/* The line and column (from 1) of the token t of f (of f->t or f->all), as the
 * lexer counts them: lines end at each newline byte, and a byte-order mark is no
 * column. */
void wc_tok_pos(const WcFile *f, const WcTok *t, int *line, int *col);
static inline int wc_tok_line(const WcFile *f, const WcTok *t)
{
	int line, col;
	wc_tok_pos(f, t, &line, &col);
	return line;
}
/* pp.c */
void wc_preprocess(WcFile *f);
/* cond.c: the condition all[from, to) of #if/#elif, for each pass: *t the
 * passes where it is true, *f those where it is false (the rest unknown). */
void wc_cond_eval(const WcFile *f, int from, int to, WcPasses *t, WcPasses *fl);
void wc_cond_ifdef(const WcFile *f, int name, bool negate, WcPasses *t, WcPasses *fl);
/* A width v given at directive token or code token (tok) under passes def:
 * H8 with the chips whose wavefront differs. all: tok indexes f->all. */
void wc_width_passes(WcFile *f, const WcTok *tok, const char *name, int nlen, uint64_t v, WcPasses def);
const WcRegion *wc_region_at(const WcFile *f, int i);   /* the region of code token i */
/* cache.c: --cache DIR, reports kept by content (with the headers read) */
uint64_t wc_cache_key(const char *path, const char *text, size_t len, uint64_t extra);
bool wc_cache_get(const char *dir, uint64_t key, WcWork *w, Buf *out, int *findings, WcFile *refs);  /* refs: kfacts, lrefs */
void wc_cache_put(const char *dir, uint64_t key, const WcFile *f, WcWork *w, const Buf *out, int findings);
/* build.c: the header cache of a thread */
const char *wc_header_text(WcWork *w, const char *path, size_t *len);
void wc_headers_free(WcWork *w);
void wc_includes_free(WcWork *w);
void wc_header_sums_free(WcWork *w);   /* pp.c */
void wc_partial_sums_free(WcWork *w);  /* pp.c: those of the file checked last */
void wc_include_summaries(WcFile *f);  /* pp.c: after wc_lex, before any fact of f's stamp */
void wc_command_line_macros(WcFile *f);  /* check.c: -D/-U of f->cfg under f->stamp */
/* funcs.c */
void wc_functions(WcFile *f);
int wc_func_at(const WcFile *f, int i);             /* function whose body holds token i, or -1 */
/* dataflow.c */
void wc_dataflow(WcFile *f);                        /* sets every token's view */
bool wc_derived(const WcFile *f, int i);            /* token i is thread-derived */
bool wc_operand_derived(const WcFile *f, int end);  /* operand ending at token end */
int wc_operand_start(const WcFile *f, int end);
WcView wc_expr_view(const WcFile *f, int from, int to);
WcVal wc_expr_val(const WcFile *f, int from, int to);
/* util.c */
/* These three are the most called functions of the checker: one unsigned
 * compare for 0 <= i < n (n is never negative). */
static inline bool wc_op(const WcFile *f, int i, WcPunct op)
{
	if ((unsigned)i >= (unsigned)f->n)
		return false;
	const WcTok *t = &f->t[i];
	return t->op == op && t->kind == WT_PUNCT;
}
static inline bool wc_kw(const WcFile *f, int i, WcKnown k)
{
	if ((unsigned)i >= (unsigned)f->n)
		return false;
	const WcTok *t = &f->t[i];
	return t->id == (uint32_t)k && t->kind == WT_IDENT;
}
static inline bool wc_ident(const WcFile *f, int i)
{
	return (unsigned)i < (unsigned)f->n && f->t[i].kind == WT_IDENT;
}
static inline uint16_t wc_flags(const WcFile *f, int i)
{
	return wc_ident(f, i) ? f->names->fl[f->t[i].id] : 0;
}
/* The known name k is one of f's code tokens (set by wc_match_table). */
static inline bool wc_file_has_kw(const WcFile *f, WcKnown k)
{
	return f->tok_kws[k >> 6] >> (k & 63) & 1;
}
static inline bool wc_same_ident(const WcFile *f, int a, int b)
{
	return wc_ident(f, a) && wc_ident(f, b) && f->t[a].id == f->t[b].id;
}
static inline bool wc_is_open(const WcFile *f, int i)   /* ( [ { */
{
	if ((unsigned)i >= (unsigned)f->n || f->t[i].kind != WT_PUNCT)
		return false;
	WcPunct op = (WcPunct)f->t[i].op;
	return op == WP_LPAREN || op == WP_LBRACK || op == WP_LBRACE;
}
static inline bool wc_is_close(const WcFile *f, int i)  /* ) ] } */
{
	if ((unsigned)i >= (unsigned)f->n || f->t[i].kind != WT_PUNCT)
		return false;
	WcPunct op = (WcPunct)f->t[i].op;
	return op == WP_RPAREN || op == WP_RBRACK || op == WP_RBRACE;
}
void wc_match_table(WcFile *f);                      /* fills f->match once the code tokens are final */
int wc_match(const WcFile *f, int open);            /* index of the closing bracket or -1 */
int wc_launched_name(const WcFile *f, int i);    /* the kernel named before the "<<<" at i, or -1 */
int wc_match_back(const WcFile *f, int close);      /* index of the opening bracket or -1 */
int wc_call_args(const WcFile *f, int open, int *starts, int *ends, int max);
/* A literal or a known constant (#define, or a local assigned once). */
static inline bool wc_value(const WcFile *f, int i, uint64_t *v)
{
	if ((unsigned)i >= (unsigned)f->n)
		return false;
	const WcTok *t = &f->t[i];
	if (t->kind == WT_NUMBER && t->num_ok) {
		*v = t->num;
		return true;
	}
	if (t->kind != WT_IDENT)
		return false;
	const WcName *nm = &f->names->v[t->id];
	if (nm->const_stamp != f->stamp || nm->const_conflict)
		return false;
	*v = nm->const_value;
	return true;
}
static inline bool wc_value_is(const WcFile *f, int i, uint64_t v)
{
	uint64_t x;
	return wc_value(f, i, &x) && x == v;
}
/* A library's name for the device's width, where the file gives it no
 * value of its own: PyTorch's C10_WARP_SIZE (warpSize on ROCm), hipCUB's
 * HIPCUB_WARP_THREADS, rocprim::warp_size(), __builtin_amdgcn_wavefrontsize(). */
bool wc_lib_width(const WcFile *f, int i);
/* warpSize, or a macro defined as it: #define C10_WARP_SIZE warpSize. */
static inline bool wc_warp_size_alias(const WcFile *f, int i)
{
	return wc_kw(f, i, WK_warpSize) || (wc_ident(f, i) && (f->names->v[f->t[i].id].wsize_stamp == f->stamp ||
	                                                     ((f->names->v[f->t[i].id].flags & WN_LIBWIDTH) && wc_lib_width(f, i))));
}
/* warpSize, an alias of it, or a macro whose value is computed from it:
 * #define NUM_WARPS (1024 / warpSize). Not a compile-time constant in HIP. */
static inline bool wc_warp_size_expr(const WcFile *f, int i)
{
	return wc_warp_size_alias(f, i) || (wc_ident(f, i) && f->names->v[f->t[i].id].wexpr_stamp == f->stamp);
}
bool wc_full_mask(const WcFile *f, int s, int e, bool *only32); /* all-ones lane mask */
bool wc_mask_dropped(const WcFile *f, int i);       /* call through a shim that ignores the mask */
int wc_stmt_end(const WcFile *f, int start);        /* end of the statement or block at start */
/* Token i of fn lies in an if (or its else) whose condition holds a token
 * for which names(f, token, ctx) is true. */
bool wc_in_if_naming(const WcFile *f, const WcFunc *fn, int i, bool (*names)(const WcFile *, int, const void *),
		     const void *ctx);
WcPunct wc_compound_op(const WcFile *f, int i);     /* "+=" at i gives "+"; WP_NONE if not one */
/* The parts of "for (init; cond; step)" whose "(" is at open, each
 * [x0, x1), and the variable the init assigns (-1 when none); false for a
 * range for or an unbalanced header. */
typedef struct WcFor {
	int init0, init1, cond0, cond1, step0, step1;
	int var;
} WcFor;
bool wc_for_header(const WcFile *f, int open, WcFor *h);
/* How the step of a for loop moves its variable: o /= 2, o >>= 1 halve it;
 * d *= 2, d <<= 1 double it. */
typedef enum { WC_STEP_OTHER, WC_HALVES, WC_DOUBLES } WcStep;
WcStep wc_for_step(const WcFile *f, const WcFor *h);
void wc_set_const(WcFile *f, uint32_t id, uint64_t v, bool conflict);
static inline bool wc_is_shuffle(const WcFile *f, int i) { return wc_flags(f, i) & WN_SHUFFLE; }
/* A call of a project macro that expands to a shuffle with no width:
 * #define SHFL_XOR(v, m) __shfl_xor_sync(0xffffffff, v, m). */
static inline bool wc_is_shuffle_macro(const WcFile *f, int i)
{
	if (!wc_ident(f, i))
		return false;
	const WcName *nm = &f->names->v[f->t[i].id];
	return nm->macro_stamp == f->stamp && nm->macro_shuffle;
}
/* A call, inside a function, of a project's shuffle wrapper: WARP_SHFL(v,
 * lane), faiss::gpu::shfl_xor(v, m, width). Not a member (tile.shfl_xor
 * is a cooperative-groups tile's), not a macro that shuffles with no width
 * (wc_is_shuffle_macro covers those). */
bool wc_is_shuffle_wrapper(const WcFile *f, int i);
/* Its arguments before the width: (v, lane), or (mask, v, lane) for a name
 * that says "sync". */
int wc_wrapper_plain_args(const WcFile *f, int i);
static inline bool wc_is_ballot(const WcFile *f, int i) { return wc_flags(f, i) & WN_BALLOT; }
static inline bool wc_is_sync(const WcFile *f, int i) { return wc_flags(f, i) & WN_SYNC; }  /* first argument: a lane mask */
WcFinding *wc_find(WcFile *f, int i, const char *id, const char *name, const char *fix,
	const char *fmt, ...) TC_PRINTF(6, 7);
WcFinding *wc_vfind(WcFile *f, const WcTok *t, const char *id, const char *name, const char *fix,
	const char *fmt, va_list ap);
WcFinding *wc_find_tok(WcFile *f, const WcTok *t, const char *id, const char *name, const char *fix,
	const char *fmt, ...) TC_PRINTF(6, 7);
void wc_edit(WcFinding *fd, const WcFile *f, int first, int last, const char *repl);
/* rule_*.c */
void wc_rule_loops(WcFile *f);    /* H1 */
void wc_rule_masks(WcFile *f);    /* H2, H13 */
void wc_rule_lanes(WcFile *f);    /* H3 (with "first warp" tests), H5 */
void wc_rule_ballot(WcFile *f);   /* H4 */
void wc_rule_host(WcFile *f);     /* H6, H7, H12 */
/* Token i lies in a branch of an if on the warp size (if (host_warp_size() == 64) {...} else {...}). */
bool wc_under_width_test(const WcFile *f, int i);
void wc_rule_arch(WcFile *f);     /* H8 */
void wc_rule_library(WcFile *f);  /* H9 */
void wc_rule_branch(WcFile *f);   /* H10 */
bool wc_condition_splits(const WcFile *f, int lo, int hi);  /* some lanes of a wavefront take it, others not */
void wc_rule_width(WcFile *f);    /* H11 */
void wc_rule_params(WcFile *f);   /* H14 */
void wc_rule_shims(WcFile *f);    /* H2: mask-dropping shims gated on a HIP version */
void wc_param_bounds(WcFile *f);  /* the templates of f (or of a header) whose width parameter is bounded */
void wc_rule_tmpl(WcFile *f);     /* H15 */
void wc_tmpl_facts(WcFile *f);    /* the templates of f (or of a header) whose parameters are counted in wavefronts */
/* scheme.c: consistent 32-lane logical-warp schemes; run after the rules */
void wc_scheme_notes(WcFile *f);   /* their H1, H3, H5 findings become notes */
void wc_header_kinds(WcFile *sub); /* what the functions of an included header do, by name */
/* A launch with block x (rows: a y other than 1) of kernel kn whose body
 * (with what it calls) does kinds: the H6 launch-width message into msg,
 * or false when the block suits it. */
bool wc_launch_judge(int kinds, uint64_t x, bool rows, const char *kn, int kl, char *msg, size_t cap,
	const char **fix);
void wc_kernel_facts_free(WcKernelFact *k, int n);
void wc_launch_refs_free(WcLaunchRef *l, int n);
/* check.c: returns false when the file could not be checked at all.
 * wc_check_path reuses a thread's WcWork; wc_check_file makes its own. */
bool wc_check_file(WcFile *f, Diag *d, const char *path);
bool wc_check_path(WcFile *f, Diag *d, const char *path, WcWork *w);
void wc_file_free(WcFile *f);
/* report.c */
typedef enum { WC_TEXT, WC_JSON, WC_SARIF } WcFormat;
void wc_report_text(FILE *out, const WcFile *f);
void wc_report_text_buf(Buf *b, const WcFile *f);
void wc_report_json_file(Buf *b, const WcFile *f, bool *first);
void wc_report_sarif_file(Buf *b, const WcFile *f, bool *first);
int wc_warnings(const WcFile *f);  /* findings that are not notes */
/* A finding's identity across edits elsewhere in the file: its hazard, the
 * text of its line (spaces aside) and how many such came before it. */
uint64_t wc_fingerprint(const WcFile *f, int i);
const char *wc_rule_help(const char *id);   /* the hazard's description */
void wc_sarif_rules(Buf *b);                 /* tool.driver.rules */
/* --baseline: the findings of an earlier --format json report. */
typedef struct WcBaseline WcBaseline;
WcBaseline *wc_baseline_load(const char *path, Diag *d);
void wc_baseline_filter(const WcBaseline *b, WcFile *f);   /* drops the findings it holds */
void wc_baseline_free(WcBaseline *b);
char *wc_apply_fixes(const WcFile *f, size_t *len, int *applied);
void wc_unified_diff(FILE *out, const char *path, const char *a, size_t alen, const char *b, size_t blen);
void wc_unified_diff_buf(Buf *out, const char *path, const char *a, size_t alen, const char *b, size_t blen);

#endif
