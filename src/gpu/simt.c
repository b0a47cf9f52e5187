/* simt.c: building SIMT IR and printing it as text (`--dump simt`). */
#include "gpu/simt.h"

#include <string.h>

/* Names the printers use themselves (loop and thread variables, C keywords,
 * the tc_ prefix of the preludes) and the names already given. */
static bool name_taken(const SKernel *k, const char *name)
{
	static const char *const reserved[] = {
		"t", "i0", "i1", "i2", "i3", "i4", "j", "p", "w", "args", "grid", "first", "count",
		"auto", "bool", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
		"enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict",
		"return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
		"unsigned", "void", "volatile", "while", "true", "false", "threadIdx", "blockIdx", "gridDim",
		"blockDim", "warpSize", "new", "delete", "class", "template", "this", "namespace", "operator",
	};
	if (strncmp(name, "tc_", 3) == 0 || strncmp(name, "__", 2) == 0)
		return true;
	for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
		if (reserved[i][0] == name[0] && strcmp(reserved[i], name) == 0)
			return true;
	for (int i = 0; k->tile && i < k->tile->nargs; i++)
		if (strcmp(k->tile->args[i]->name, name) == 0)
			return true;
	if (!k->names_cap)
		return false;
	size_t mask = (size_t)k->names_cap - 1;
	for (size_t h = (size_t)base_hash_fnv1a(name, strlen(name), 0xcbf29ce484222325ull) & mask; k->names[h];
	     h = (h + 1) & mask)
		if (strcmp(k->names[h], name) == 0)
			return true;
	return false;
}

/* Adds a register's name to the set name_taken reads (a scan of every
 * register was quadratic in a long kernel). */
static void name_add(SKernel *k, const char *name)
{
	if (2 * (k->nregs + 1) > k->names_cap) {
		const char **old = k->names;
		int n = k->names_cap;
		k->names_cap = n ? 2 * n : 128;
		k->names = arena_alloc(k->arena, sizeof *k->names * (size_t)k->names_cap);
		for (int i = 0; i < n; i++)
			if (old[i])
				name_add(k, old[i]);
	}
	size_t mask = (size_t)k->names_cap - 1;
	size_t h = (size_t)base_hash_fnv1a(name, strlen(name), 0xcbf29ce484222325ull) & mask;
	while (k->names[h])
		h = (h + 1) & mask;
	k->names[h] = name;
}

SReg *simt_reg(SKernel *k, SRegKind kind, DType dt, DType elem, int count, const char *name)
{
	SReg *r = arena_alloc(k->arena, sizeof *r);
	r->id = k->nregs;
	r->kind = kind;
	r->dtype = dt;
	r->elem = elem;
	r->count = count;
	/* Names stay readable: the Triton variable's name, made unique; the
	 * specializer's hidden names ("<go@1483>") keep their letters and digits. */
	char *clean = arena_strdup(k->arena, name ? name : "");
	int n = 0;
	for (const char *c = clean; *c; c++)
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '_' || (n && *c >= '0' && *c <= '9'))
			clean[n++] = *c;
	clean[n] = 0;
	name = n ? clean : NULL;
	const char *base = name ? name : "t";
	if (!name || name_taken(k, base)) {   /* base and the id: a printf of its own cost a malloc */
		size_t len = strlen(base);
		char *numbered = arena_alloc(k->arena, len + 12);
		memcpy(numbered, base, len);
		snprintf(numbered + len, 12, "%d", r->id);
		r->name = numbered;
	} else {
		r->name = name;   /* the cleaned copy */
	}
	if (k->nregs == k->cap_regs) {
		k->cap_regs = k->cap_regs ? 2 * k->cap_regs : 64;
		SReg **grown = arena_alloc(k->arena, (size_t)k->cap_regs * sizeof *grown);
		if (k->nregs)
			memcpy(grown, k->regs, (size_t)k->nregs * sizeof *grown);
		k->regs = grown;
	}
	name_add(k, r->name);
	k->regs[k->nregs++] = r;
	return r;
}

static SExpr *expr(SKernel *k, SExprKind kind, DType dt)
{
	SExpr *e = arena_run_alloc(k->arena, &k->exprs, sizeof *e);
	e->kind = kind;
	e->dtype = dt;
	return e;
}

SExpr *simt_ref(SKernel *k, SReg *r, SExpr *index)
{
	SExpr *e = expr(k, SE_REF, r->dtype);
	e->reg = r;
	e->index = r->count > 1 || r->kind == SR_SHARED ? index : NULL;
	return e;
}

/* Constants are shared (a long kernel made millions of index constants,
 * most of them 0 and 1). */
SExpr *simt_int(SKernel *k, DType dt, int64_t v)
{
	uint64_t h = ((uint64_t)v * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)dt * 0xff51afd7ed558ccdull);
	SExpr **slot = &k->ints[(h >> 56) & 255];
	if (*slot && (*slot)->dtype == dt && (*slot)->ival == v)
		return *slot;
	SExpr *e = expr(k, SE_INT, dt);
	e->ival = v;
	*slot = e;
	return e;
}

SExpr *simt_float(SKernel *k, DType dt, double v)
{
	SExpr *e = expr(k, SE_FLOAT, dt);
	e->fval = v;
	return e;
}

SExpr *simt_leaf(SKernel *k, SExprKind kind, DType dt, int aux)
{
	/* the thread's coordinates and the arguments are shared as constants
	 * are; the other kinds get their operands after this */
	bool share = kind >= SE_LOOP && kind <= SE_ARG;
	SExpr **slot = NULL;
	if (share) {
		uint64_t h = ((uint64_t)aux * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)kind * 0xc2b2ae3d27d4eb4full) ^
			     ((uint64_t)dt * 0xff51afd7ed558ccdull);
		slot = &k->leaves[(h >> 58) & 63];
		if (*slot && (*slot)->kind == kind && (*slot)->dtype == dt && (*slot)->aux == aux)
			return *slot;
	}
	SExpr *e = expr(k, kind, dt);
	e->aux = aux;
	if (slot)
		*slot = e;
	return e;
}

SExpr *simt_binary(SKernel *k, TOp op, DType dt, SExpr *x, SExpr *y)
{
	SExpr *e = expr(k, SE_BINARY, dt);
	e->aux = op;
	e->a[0] = x;
	e->a[1] = y;
	return e;
}

SExpr *simt_cmp(SKernel *k, CmpKind c, DType operand, SExpr *x, SExpr *y)
{
	SExpr *e = expr(k, SE_CMP, DT_I1);
	e->aux = c;
	e->from = operand;
	e->a[0] = x;
	e->a[1] = y;
	return e;
}

SExpr *simt_cast(SKernel *k, DType from, DType to, SExpr *x)
{
	if (from == to)
		return x;
	SExpr *e = expr(k, SE_CAST, to);
	e->from = from;
	e->a[0] = x;
	return e;
}

SExpr *simt_and(SKernel *k, SExpr *x, SExpr *y)
{
	if (!x)
		return y;
	if (!y)
		return x;
	SExpr *e = expr(k, SE_LOGIC_AND, DT_I1);
	e->a[0] = x;
	e->a[1] = y;
	return e;
}

SStmt *simt_stmt(SKernel *k, SStmtKind kind, int line)
{
	SStmt *s = arena_run_alloc(k->arena, &k->stmts, sizeof *s);
	s->kind = kind;
	s->line = line;
	s->vec = 1;
	k->kinds |= 1u << kind;
	if (k->last)
		k->last->next = s;
	else
		k->first = s;
	k->last = s;
	return s;
}

SStmt *simt_stmt_after(SKernel *k, SStmt *after, SStmtKind kind, int line)
{
	SStmt *s = arena_run_alloc(k->arena, &k->stmts, sizeof *s);
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->line = line;
	s->vec = 1;
	k->kinds |= 1u << kind;
	SStmt **at = after ? &after->next : &k->first;
	s->next = *at;
	*at = s;
	if (k->last == after)
		k->last = s;
	return s;
}

SStmt *simt_also(SKernel *k, SStmt *head)
{
	SStmt *s = arena_run_alloc(k->arena, &k->stmts, sizeof *s);
	s->kind = SS_ASSIGN;
	s->line = head->line;
	s->vec = 1;
	k->kinds |= 1u << SS_ASSIGN;
	SStmt **tail = &head->also;
	while (*tail)
		tail = &(*tail)->also;
	*tail = s;
	return s;
}

const char *simt_reg_ctype(DType dt)
{
	switch (dt) {
	case DT_I1: return "bool";
	case DT_I8: return "tc_i8";
	case DT_I16: return "tc_i16";
	case DT_I32: return "tc_i32";
	case DT_I64: return "tc_i64";
	case DT_U8: return "tc_u8";
	case DT_U16: return "tc_u16";
	case DT_U32: return "tc_u32";
	case DT_U64: return "tc_u64";
	case DT_F16: case DT_BF16: case DT_F32: return "float";
	case DT_F8E4NV: case DT_F8E5: case DT_F8E4B15: case DT_F8E4B8: case DT_F8E5B16: return "float";
	case DT_F64: return "double";
	case DT_PTR: return "void *";
	}
	return "?";
}

const char *simt_mem_ctype(DType dt)
{
	switch (dt) {
	case DT_I1: return "tc_i8";
	case DT_F16: case DT_BF16: return "tc_u16";
	case DT_F8E4NV: case DT_F8E5: case DT_F8E4B15: case DT_F8E4B8: case DT_F8E5B16: return "tc_u8";
	default: return simt_reg_ctype(dt);
	}
}

const char *simt_atomic_name(AtomicOp op)
{
	static const char *const names[] = {"add", "xchg", "max", "min", "and", "or", "xor", "cas"};
	return (unsigned)op < sizeof names / sizeof names[0] ? names[op] : "?";
}

const char *simt_sem_name(MemSem sem)
{
	static const char *const names[] = {"acq_rel", "relaxed", "acquire", "release"};
	return (unsigned)sem < sizeof names / sizeof names[0] ? names[sem] : "?";
}

const char *simt_scope_name(MemScope scope)
{
	static const char *const names[] = {"gpu", "cta", "sys"};
	return (unsigned)scope < sizeof names / sizeof names[0] ? names[scope] : "?";
}

/* ---- the text form ---- */

static const char *binary_name(int op)
{
	switch ((TOp)op) {
	case TOP_ADD: return "+";
	case TOP_SUB: return "-";
	case TOP_MUL: return "*";
	case TOP_DIV: return "/";
	case TOP_IDIV: return "div";
	case TOP_MOD: return "mod";
	case TOP_FMOD: return "fmod";
	case TOP_AND: return "&";
	case TOP_OR: return "|";
	case TOP_XOR: return "^";
	case TOP_SHL: return "<<";
	case TOP_SHR: return ">>";
	case TOP_MAXIMUM: return "max";
	case TOP_MINIMUM: return "min";
	case TOP_PTR_ADD: return "+ptr";
	default: return "?";
	}
}

static void dump_expr(Buf *b, const SExpr *e)
{
	static const char *const cmp[] = {"<", "<=", ">", ">=", "==", "!="};
	switch (e->kind) {
	case SE_REF:
		buf_puts(b, e->reg->name);
		if (e->index) {
			buf_putc(b, '[');
			dump_expr(b, e->index);
			buf_putc(b, ']');
		}
		return;
	case SE_INT: buf_printf(b, "%lld", (long long)e->ival); return;
	case SE_FLOAT: buf_printf(b, "%.9g", e->fval); return;
	case SE_LOOP: buf_printf(b, "i%d", e->aux); return;
	case SE_LANE: buf_puts(b, "lane"); return;
	case SE_WARP: buf_puts(b, "warp"); return;
	case SE_THREAD: buf_puts(b, "thread"); return;
	case SE_PROGRAM_ID: buf_printf(b, "program_id(%d)", e->aux); return;
	case SE_NUM_PROGRAMS: buf_printf(b, "num_programs(%d)", e->aux); return;
	case SE_ARG: buf_printf(b, "arg%d", e->aux); return;
	case SE_BINARY:
		buf_putc(b, '(');
		dump_expr(b, e->a[0]);
		buf_printf(b, " %s ", binary_name(e->aux));
		dump_expr(b, e->a[1]);
		buf_putc(b, ')');
		return;
	case SE_UNARY:
		buf_puts(b, e->aux == TOP_NEG ? "-" : "~");
		dump_expr(b, e->a[0]);
		return;
	case SE_CMP:
		buf_putc(b, '(');
		dump_expr(b, e->a[0]);
		buf_printf(b, " %s ", cmp[e->aux]);
		dump_expr(b, e->a[1]);
		buf_putc(b, ')');
		return;
	case SE_SELECT:
		buf_putc(b, '(');
		dump_expr(b, e->a[0]);
		buf_puts(b, " ? ");
		dump_expr(b, e->a[1]);
		buf_puts(b, " : ");
		dump_expr(b, e->a[2]);
		buf_putc(b, ')');
		return;
	case SE_CAST:
		buf_printf(b, "%s(", dtype_name(e->dtype));
		dump_expr(b, e->a[0]);
		buf_putc(b, ')');
		return;
	case SE_ASM:
		buf_printf(b, "asm%lld.%d(", (long long)e->origin->iconst, e->origin->aux2);
		for (const SExpr *x = e->a[0]; x; x = x->a[1]) {
			dump_expr(b, x->a[0]);
			buf_puts(b, x->a[1] ? ", " : "");
		}
		buf_putc(b, ')');
		return;
	case SE_ASM_ARG:
		dump_expr(b, e->a[0]);
		return;
	case SE_MATH:
		buf_printf(b, "math%d(", e->aux);
		for (int i = 0; i < 3 && e->a[i]; i++) {
			buf_puts(b, i ? ", " : "");
			dump_expr(b, e->a[i]);
		}
		buf_putc(b, ')');
		return;
	case SE_LOGIC_AND:
		buf_putc(b, '(');
		dump_expr(b, e->a[0]);
		buf_puts(b, " && ");
		dump_expr(b, e->a[1]);
		buf_putc(b, ')');
		return;
	case SE_PHILOX:
		buf_puts(b, "philox(");
		for (int i = 0; i < 3; i++) {
			dump_expr(b, e->a[i]);
			buf_puts(b, ", ");
		}
		buf_printf(b, "rounds=%d, word=%lld)", e->aux, (long long)e->ival);
		return;
	case SE_BITCAST:
		buf_printf(b, "bitcast<%s%s>(", dtype_name(e->dtype == DT_PTR ? (DType)e->aux : e->dtype),
			   e->dtype == DT_PTR ? "*" : "");
		dump_expr(b, e->a[0]);
		buf_putc(b, ')');
		return;
	}
}

static const char *mma_op_name(MatrixOp op)
{
	static const char *const names[] = {
		[MMA_M16N8K16] = "mma.m16n8k16", [MFMA_16X16X16] = "mfma.16x16x16", [WGMMA_M64K16] = "wgmma",
		[MMA_M16N8K8_TF32] = "mma.m16n8k8", [MMA_M16N8K32_S8] = "mma.m16n8k32", [MFMA_16X16X4_F32] = "mfma.16x16x4",
		[MFMA_16X16X8_XF32] = "mfma.16x16x8.xf32", [MFMA_16X16X16_I8] = "mfma.16x16x16", [MFMA_16X16X32_I8] = "mfma.16x16x32",
	};
	return names[op];
}

static void dump_stmt(Buf *b, const SStmt *s)
{
	if (s->kind == SS_COMMENT) {
		buf_printf(b, "  // %s\n", s->text);
		return;
	}
	buf_puts(b, s->uniform ? "  uniform" : "  thread ");
	for (int i = 0; i < s->nloops; i++)
		buf_printf(b, " for i%d<%d", i, s->extent[i]);
	buf_puts(b, ": ");
	if (s->kind == SS_IF) {
		buf_puts(b, "if ");
		dump_expr(b, s->guard);
		buf_putc(b, ' ');
	}
	if (s->guard && s->kind != SS_LOAD && s->kind != SS_IF && s->kind != SS_ATOMIC && s->kind != SS_COPY_ASYNC) {
		buf_puts(b, "if ");
		dump_expr(b, s->guard);
		buf_puts(b, ": ");
	}
	switch (s->kind) {
	case SS_ASSIGN:
		dump_expr(b, s->dst);
		buf_puts(b, " = ");
		dump_expr(b, s->value);
		for (const SStmt *a = s->also; a; a = a->also) {
			buf_puts(b, "; ");
			dump_expr(b, a->dst);
			buf_puts(b, " = ");
			dump_expr(b, a->value);
		}
		break;
	case SS_LOAD:
		dump_expr(b, s->dst);
		buf_printf(b, " = load.v%d%s ", s->vec,
			   s->evict == EVICT_LAST ? ".evict_last" : s->evict == EVICT_FIRST ? ".evict_first" : "");
		dump_expr(b, s->ptr);
		if (s->guard) {
			buf_puts(b, " if ");
			dump_expr(b, s->guard);
		}
		if (s->other) {
			buf_puts(b, " else ");
			dump_expr(b, s->other);
		}
		break;
	case SS_STORE:
		buf_printf(b, "store.v%d ", s->vec);
		dump_expr(b, s->ptr);
		buf_puts(b, ", ");
		dump_expr(b, s->value);
		break;
	case SS_SHUFFLE:
		if (s->shuffle == SHUFFLE_XOR)
			buf_printf(b, "%s = shuffle_xor %s, %d", s->shuffled->name, s->src->name, s->lane_xor);
		else
			buf_printf(b, "%s = shuffle_%s %s, %d", s->shuffled->name, s->shuffle == SHUFFLE_UP ? "up" : "down",
				   s->src->name, s->lane_delta);
		break;
	case SS_BARRIER:
		buf_puts(b, "barrier");
		break;
	case SS_ASSERT:
		buf_printf(b, "assert failed: \"%s\"", s->text);
		break;
	case SS_ATOMIC:
		if (s->dst) {
			dump_expr(b, s->dst);
			buf_puts(b, " = ");
		}
		buf_printf(b, "atomic_%s.%s.%s ", simt_atomic_name(s->atomic), simt_sem_name(s->sem),
			   simt_scope_name(s->scope));
		dump_expr(b, s->ptr);
		if (s->expected) {
			buf_puts(b, ", ");
			dump_expr(b, s->expected);
		}
		buf_puts(b, ", ");
		dump_expr(b, s->value);
		if (s->guard) {
			buf_puts(b, " if ");
			dump_expr(b, s->guard);
		}
		break;
	case SS_FRAGMENT:
		dump_expr(b, s->dst);
		if (s->nmat) {
			buf_printf(b, " = ldmatrix.x%d%s %s[", s->nmat, s->trans ? ".trans" : "", s->src->name);
			dump_expr(b, s->ptr);
			buf_puts(b, "]");
		} else {
			buf_printf(b, " = pack %s[", s->src->name);
			dump_expr(b, s->ptr);
			buf_printf(b, "], %s[", s->src->name);
			dump_expr(b, s->value);
			buf_puts(b, "]");
		}
		break;
	case SS_MMA:
		if (s->mop == WGMMA_M64K16) {
			buf_printf(b, "wgmma.m64n%dk16.%s {", s->n, dtype_name(s->operand));
			dump_expr(b, s->acc[0]);
			buf_puts(b, ", ");
			dump_expr(b, s->acc[1]);
			for (int i = 0; i < 2; i++) {
				const WgmmaDesc *d = &s->desc[i];
				if (!s->smem[i]) {   /* A from registers */
					buf_printf(b, "} += %s[", s->frag_a->reg->name);
					dump_expr(b, s->frag_a->index);
					buf_puts(b, " ..+3] (registers)");
					continue;
				}
				buf_printf(b, i ? " * %s[" : "} += %s[", s->smem[i]->name);
				dump_expr(b, i ? s->frag_b : s->frag_a);
				buf_printf(b, "] (%s, swizzle %d, lbo %d, sbo %d)", d->trans ? "mn-major" : "k-major", d->swizzle,
					   d->lbo, d->sbo);
			}
			break;
		}
		buf_printf(b, "%s.%s {", mma_op_name(s->mop), dtype_name(s->operand));
		for (int i = 0; i < 4; i++) {
			buf_puts(b, i ? ", " : "");
			dump_expr(b, s->acc[i]);
		}
		buf_puts(b, "} += ");
		dump_expr(b, s->frag_a);
		buf_puts(b, " * ");
		dump_expr(b, s->frag_b);
		break;
	case SS_COPY_ASYNC:
		dump_expr(b, s->dst);
		buf_printf(b, " = copy_async.v%d ", s->vec);
		dump_expr(b, s->ptr);
		if (s->mask) {
			buf_puts(b, " where ");
			dump_expr(b, s->mask);
		}
		if (s->other) {
			buf_puts(b, " first ");
			dump_expr(b, s->other);
		}
		if (s->guard) {
			buf_puts(b, " if ");
			dump_expr(b, s->guard);
		}
		break;
	case SS_COPY_COMMIT:
		buf_puts(b, "copy_commit");
		break;
	case SS_COPY_WAIT:
		buf_printf(b, "copy_wait %d", s->vec);
		break;
	case SS_MMA_FENCE:
		buf_printf(b, "mma_fence %s%s%s", s->src ? s->src->name : "shared", s->frag_regs ? " " : "",
			   s->frag_regs ? s->frag_regs->name : "");
		break;
	case SS_MMA_COMMIT:
		buf_puts(b, "mma_commit");
		break;
	case SS_MBAR_INIT:
		buf_printf(b, "mbarrier_init %s[0..%d)", s->src->name, s->vec);
		break;
	case SS_MBAR_EXPECT:
		buf_puts(b, "mbarrier_expect_tx ");
		dump_expr(b, s->bar);
		buf_printf(b, " %d bytes", s->vec);
		break;
	case SS_TMA_LOAD:
		dump_expr(b, s->dst);
		buf_printf(b, " = tma_load tmap%d (", s->tmap);
		dump_expr(b, s->coord[0]);
		buf_puts(b, ", ");
		dump_expr(b, s->coord[1]);
		buf_puts(b, ") on ");
		dump_expr(b, s->bar);
		break;
	case SS_MBAR_WAIT:
		buf_puts(b, "mbarrier_wait ");
		dump_expr(b, s->bar);
		buf_puts(b, " parity ");
		dump_expr(b, s->value);
		break;
	case SS_MMA_WAIT:
		buf_printf(b, "mma_wait %d %s%s%s", s->vec, s->src->name, s->frag_regs ? " " : "", s->frag_regs ? s->frag_regs->name : "");
		break;
	case SS_FOR:
		buf_printf(b, "for %s = ", s->iv->name);
		if (s->lo)
			dump_expr(b, s->lo);
		else
			buf_printf(b, "%s", s->iv->name);
		buf_puts(b, " to ");
		dump_expr(b, s->hi);
		buf_puts(b, " step ");
		dump_expr(b, s->step);
		buf_puts(b, " {");
		break;
	case SS_IF:
		buf_puts(b, "{");
		break;
	case SS_ELSE:
		buf_puts(b, "} else {");
		break;
	case SS_END:
		buf_puts(b, "}");
		break;
	case SS_WHILE:
		buf_puts(b, "while {");
		break;
	case SS_BREAK:
		buf_puts(b, "break");
		break;
	case SS_PRINT:
		buf_printf(b, "print %d values", s->nitems);
		break;
	case SS_COMMENT:
		break;
	}
	buf_putc(b, '\n');
}

int simt_shared_elem_bytes(const SReg *r)
{
	if (r->packed)
		return dtype_bytes(r->dtype);   /* 2; fp32 and int8 matrix operands as they are */
	return r->dtype == DT_F16 || r->dtype == DT_BF16 || dtype_is_fp8(r->dtype) ? 4 : dtype_bytes(r->dtype);
}

int simt_shared_align(const SReg *r)
{
	return r->align > 16 ? r->align : 16;
}

int simt_shared_bytes(const SKernel *k)
{
	int total = 0;
	for (int i = 0; i < k->nregs; i++) {
		const SReg *r = k->regs[i];
		if (r->kind == SR_SHARED)
			total += r->count * simt_shared_elem_bytes(r);
	}
	return total;
}

_Static_assert(SS_MBAR_WAIT < 32, "SKernel.kinds has a bit for each kind of statement");

bool simt_uses(const SKernel *k, SStmtKind kind)
{
	if (!(k->kinds >> kind & 1))
		return false;
	for (const SStmt *s = k->first; s; s = s->next)
		if (s->kind == kind)
			return true;
	return false;
}

bool simt_uses_mma(const SKernel *k, MatrixOp op)
{
	if (!(k->kinds >> SS_MMA & 1))
		return false;
	for (const SStmt *s = k->first; s; s = s->next)
		if (s->kind == SS_MMA && s->mop == op)
			return true;
	return false;
}

void simt_dump(Buf *b, const SKernel *k)
{
	buf_printf(b, "simt %s W=%d warps=%d threads=%d shared=%d {\n", k->name, k->warp_size, k->num_warps,
		   k->threads, k->shared_bytes);
	for (int i = 0; i < k->nregs; i++) {
		const SReg *r = k->regs[i];
		static const char *const kinds[] = {"thread", "uniform", "shared"};
		buf_printf(b, "  %s %s %s[%d]%s\n", kinds[r->kind], r->dtype == DT_PTR ? "ptr" : dtype_name(r->dtype),
			   r->name, r->count, r->packed ? " packed" : "");
	}
	for (const SStmt *s = k->first; s; s = s->next)
		dump_stmt(b, s);
	buf_puts(b, "}\n");
}
