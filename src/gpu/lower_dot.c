/* lower_dot.c: tl.dot, by one of two strategies chosen per dot.
 *
 * Matrix units (mma.sync on NVIDIA, MFMA on AMD CDNA; the C target models
 * either, following its warp width): the frame of the dot's result takes
 * the instruction's accumulator layout, which is a blocked layout
 * (lanes and registers of one instruction tile spread as below), so every
 * other op in that frame (the accumulator's initial zeros, the epilogue,
 * the store) is lowered as usual. Both operands go to shared memory as
 * 16-bit patterns, in rows whose 16-byte chunks are permuted by a xor with
 * the row (no bank conflicts when eight lanes read eight rows); each warp
 * then reads its fragments (ldmatrix on NVIDIA) and issues one instruction
 * per 16x8 (16x16 on AMD) tile of its part of the result.
 *
 *   mma.sync m16n8k16, 32 lanes:   spt [1, 2]  tpw [8, 4]   CTA tile [8 wm, 8 wn]
 *   MFMA 16x16x16, 64 lanes:       spt [4, 1]  tpw [4, 16]  CTA tile [16 wm, 16 wn]
 *
 * Row r of an instruction tile is not a contiguous row of the warp's
 * registers: the mma tile (mi, ni) holds rows mi*16wm + warp_m*8 + g and
 * the same + 8wm, that is local rows 2mi and 2mi+1. What the instruction
 * calls row g is any row, as long as the operand A's fragment is read
 * from the same rows: the fragment addresses below follow the layout.
 *
 * tf32 (fp32 operands, input_precision="tf32") and int8 (int32
 * accumulators) take mma.sync m16n8k8 / m16n8k32, whose fragments, counted
 * in 32-bit words, are m16n8k16's: the same layout and rows, the operands
 * kept as they are in shared memory, each fragment element read by a
 * plain load (plain_fragment). Not on wgmma yet.
 *
 * On MFMA, fp32 dots of every input_precision take v_mfma_f32_16x16x4f32
 * (exact fp32 products, as Triton lowers them on AMD), except tf32 ones on
 * gfx94x, which take v_mfma_f32_16x16x8_xf32 as Triton's do there; tf32
 * operands are truncated to tf32 as they are read into the fragments (the
 * interpreter's and mma.sync's tf32), so that neither instruction has
 * anything left to round. int8 dots take v_mfma_i32_16x16x16i8 (gfx908,
 * gfx90a) or v_mfma_i32_16x16x32_i8 (gfx94x, which has no 16x16x16i8).
 * Their lanes hold 16x16x16's rows and columns with K / 4 consecutive k
 * each, one register an element (mfma_plain_fragment).
 *
 * FMA: anything else (fp32 in full precision on NVIDIA, tiles smaller
 * than one instruction per warp, K not a multiple of the instruction's,
 * targets without matrix units): both operands through shared memory,
 * each thread computes its own elements with a loop over K. Correct for
 * every layout. */
#include "gpu/lower_ops.h"

#include <string.h>

/* ---- the plan ---- */

typedef struct Shape {
	int m, n;          /* the instruction's tile of the result */
	int threads[2];    /* lanes along rows and columns */
	int per_thread[2]; /* consecutive elements a lane holds along each */
} Shape;

static bool unit_shape(MatrixUnit u, Shape *s)
{
	if (u == MATRIX_MMA || u == MATRIX_WGMMA)   /* wgmma's warps hold mma.sync's layout */
		*s = (Shape){16, 8, {8, 4}, {1, 2}};
	else if (u == MATRIX_MFMA)
		*s = (Shape){16, 16, {4, 16}, {4, 1}};
	else
		return false;
	return true;
}

/* The matrix unit the lowered code uses: the target's, if its warp width
 * is the one the instruction is made for. */
static MatrixUnit unit_of(const Lower *L)
{
	switch (L->target->matrix) {
	case MATRIX_MMA:
		return L->k->warp_size == 32 ? MATRIX_MMA : MATRIX_NONE;
	case MATRIX_WGMMA:
		return L->k->warp_size == 32 ? MATRIX_WGMMA : MATRIX_NONE;
	case MATRIX_MFMA:
		return L->k->warp_size == 64 ? MATRIX_MFMA : MATRIX_NONE;
	default:
		return MATRIX_NONE;
	}
}

static bool is_16bit_float(DType dt)
{
	return dt == DT_F16 || dt == DT_BF16;
}

/* Warps wm x wn over an M x N result, each warp a whole number of
 * instruction tiles; the warp's part kept square-ish, rows first. */
static bool arrange_warps(int M, int N, const Shape *s, int warps, int *wm, int *wn)
{
	*wm = *wn = 1;
	while (*wm * *wn < warps) {
		bool can_m = M % (s->m * *wm * 2) == 0, can_n = N % (s->n * *wn * 2) == 0;
		if (!can_m && !can_n)
			return false;
		if (can_m && (!can_n || M / *wm >= N / *wn))
			*wm *= 2;
		else
			*wn *= 2;
	}
	return true;
}

/* wgmma: warpgroups of 4 warps one above the other, each instruction 64
 * rows and the whole N; every warp holds an even number of 8-row blocks
 * (the instruction's rows g and g + 8). */
static bool arrange_wgmma(int M, int N, int warps, int *wm, int *wn)
{
	*wm = warps;
	*wn = 1;
	return warps % 4 == 0 && M % (16 * warps) == 0 && N % 8 == 0 && N <= 256;
}

/* Operands of a dot that neither ldmatrix nor wgmma take (fp32 and int8):
 * each element read from shared memory by a plain assignment. */
static bool plain_operand(DType dt)
{
	return dt == DT_F32 || dt == DT_I8;
}

/* The instruction a dot takes on unit u, but for wgmma (lower_dot_wgmma):
 * the others of a wgmma frame take mma.sync's. */
static MatrixOp dot_op(const Lower *L, MatrixUnit u, const TValue *v)
{
	DType dt = v->args[0]->type.dtype;
	bool cdna3 = L->target->cdna3;
	if (u == MATRIX_MFMA) {
		if (dt == DT_F32)
			return cdna3 && v->aux == DOT_TF32 ? MFMA_16X16X8_XF32 : MFMA_16X16X4_F32;
		return dt == DT_I8 ? (cdna3 ? MFMA_16X16X32_I8 : MFMA_16X16X16_I8) : MFMA_16X16X16;
	}
	return dt == DT_F32 ? MMA_M16N8K8_TF32 : dt == DT_I8 ? MMA_M16N8K32_S8 : MMA_M16N8K16;
}

/* The K of one instruction. */
static int op_k(MatrixOp op)
{
	switch (op) {
	case MMA_M16N8K8_TF32: case MFMA_16X16X8_XF32: return 8;
	case MMA_M16N8K32_S8: case MFMA_16X16X32_I8: return 32;
	case MFMA_16X16X4_F32: return 4;
	default: return 16;
	}
}

/* fp16 or bf16 operands and an fp32 accumulator; fp32 operands and an fp32
 * one (on mma.sync taken as tf32: input_precision "tf32", Triton's
 * default, or "tf32x3"; MFMA takes every precision); int8 and an int32
 * one. */
static bool matrix_dtypes(const TValue *v, MatrixUnit u)
{
	DType a = v->args[0]->type.dtype, b = v->args[1]->type.dtype, c = v->type.dtype;
	if (is_16bit_float(a))
		return c == DT_F32;
	if (a != b)
		return false;
	if (a == DT_F32)
		return c == DT_F32 && (u == MATRIX_MFMA || v->aux == DOT_TF32 || v->aux == DOT_TF32X3);
	return a == DT_I8 && c == DT_I32;
}

static bool fits_unit(const Lower *L, const TValue *v, const Shape *s, MatrixUnit u)
{
	const TValue *a = v->args[0];
	if (v->type.rank != 2 || !matrix_dtypes(v, u))
		return false;
	const ValuePlan *p = &L->vp[v->id];
	if (p->map[0] != 0 || p->map[1] != 1)
		return false;
	int M = v->type.shape[0], N = v->type.shape[1], K = a->type.shape[1];
	return M % s->m == 0 && N % s->n == 0 && K % op_k(dot_op(L, u, v)) == 0 && K % 16 == 0;
}

static Layout unit_layout(const Frame *fr, const Shape *s, int warp_size, int num_warps)
{
	Layout l;
	memset(&l, 0, sizeof l);
	l.kind = LAYOUT_BLOCKED;
	l.rank = 2;
	l.warp_size = warp_size;
	l.num_warps = num_warps;
	for (int d = 0; d < 2; d++) {
		l.shape[d] = fr->shape[d];
		l.size_per_thread[d] = s->per_thread[d];
		l.threads_per_warp[d] = s->threads[d];
		l.order[d] = 1 - d;
	}
	l.warps_per_cta[0] = fr->wm;
	l.warps_per_cta[1] = fr->wn;
	return l;
}

static void plan_block(Lower *L, const TBlock *b, MatrixUnit unit, const Shape *s)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		plan_block(L, v->body, unit, s);
		if (v->op == TOP_IF)
			plan_block(L, v->orelse, unit, s);
		if (v->op != TOP_DOT || !fits_unit(L, v, s, unit))
			continue;
		Frame *fr = &L->frames[L->vp[v->id].frame];
		int wm, wn, M = v->type.shape[0], N = v->type.shape[1];
		MatrixUnit u = unit;
		bool plain = plain_operand(v->args[0]->type.dtype);
		if (u == MATRIX_WGMMA && (plain || !arrange_wgmma(M, N, L->k->num_warps, &wm, &wn)))
			u = MATRIX_MMA;
		if (u != MATRIX_WGMMA && !arrange_warps(M, N, s, L->k->num_warps, &wm, &wn))
			continue;
		if (fr->unit == MATRIX_NONE) {
			fr->unit = u;
			fr->wm = wm;
			fr->wn = wn;
			fr->layout = unit_layout(fr, s, L->k->warp_size, L->k->num_warps);
		}
		L->vp[v->id].matrix = fr->wm == wm && fr->wn == wn;
	}
}

/* Whether block b has a scan whose value lies in frame f. */
static bool scans_in(const Lower *L, const TBlock *b, int f)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		if (scans_in(L, v->body, f) || (v->op == TOP_IF && scans_in(L, v->orelse, f)))
			return true;
		if (v->op == TOP_SCAN && L->vp[v->id].frame == f)
			return true;
	}
	return false;
}

void lower_plan_dots(Lower *L)
{
	MatrixUnit unit = unit_of(L);
	Shape s;
	if (!unit_shape(unit, &s))
		return;
	plan_block(L, L->tk->body, unit, &s);
	for (int f = 0; f < L->nframes; f++) {
		Frame *fr = &L->frames[f];
		fr->wgmma_rows = fr->unit == MATRIX_WGMMA && fr->wm % 4 == 0 && !scans_in(L, L->tk->body, f);
	}
}

/* ---- shared memory ---- */

/* (x >> shift) & mask */
static SExpr *bits(Lower *L, SExpr *x, int shift, int mask)
{
	return lower_ibin(L, TOP_AND, lower_ibin(L, TOP_SHR, x, lower_ic(L, shift)), lower_ic(L, mask));
}

static SExpr *ixor(Lower *L, SExpr *a, SExpr *b)
{
	if (lower_is_int_const(b, 0))
		return a;
	if (a->kind == SE_INT && b->kind == SE_INT)
		return lower_ic(L, a->ival ^ b->ival);
	return lower_index_op(simt_binary(L->k, TOP_XOR, DT_I32, a, b));
}

/* The index of element (row, col) of a packed tile with rows of `width`
 * elements: 16-byte chunks (8 elements) of a row are permuted by a xor
 * with the row's phase, so that the same chunk of eight consecutive rows
 * lies in eight different groups of banks. Rows narrower than 128 bytes
 * share a 128-byte line: the phase changes every 8 / chunks rows then. */
static SExpr *swizzled_chunks(Lower *L, SExpr *row, SExpr *col, int width, int ce)
{
	int chunks = width / ce, lce = ce == 4 ? 2 : ce == 16 ? 4 : 3;
	SExpr *base = lower_imul(L, row, lower_ic(L, width));
	if (chunks <= 1)
		return lower_iadd(L, base, col);
	int per_line = chunks >= 8 ? 1 : 8 / chunks, phases = chunks >= 8 ? 8 : chunks;
	SExpr *phase = lower_ibin(L, TOP_AND, lower_ibin(L, TOP_IDIV, row, lower_ic(L, per_line)), lower_ic(L, phases - 1));
	SExpr *chunk = ixor(L, lower_ibin(L, TOP_SHR, col, lower_ic(L, lce)), phase);
	return lower_iadd(L, lower_iadd(L, base, lower_imul(L, chunk, lower_ic(L, ce))), lower_ibin(L, TOP_AND, col, lower_ic(L, ce - 1)));
}

static SExpr *swizzled(Lower *L, SExpr *row, SExpr *col, int width)
{
	return swizzled_chunks(L, row, col, width, 8);
}

/* wgmma's layout: rows of more than 64 elements cut into blocks of 64,
 * each block a tile of 128-byte rows. */
static SExpr *wgmma_index(Lower *L, const Operand *o, SExpr *row, SExpr *col)
{
	if (o->width <= 64)
		return swizzled(L, row, col, o->width);
	int rows = o->elems / o->width;
	SExpr *block = lower_ibin(L, TOP_SHR, col, lower_ic(L, 6));
	return lower_iadd(L, lower_imul(L, block, lower_ic(L, rows * 64)), swizzled(L, row, lower_ibin(L, TOP_AND, col, lower_ic(L, 63)), 64));
}

/* The row of operand A that wgmma reads for the result's row m. The
 * result's layout puts row m = 8 wm rep + 8 warp + g in warp `warp` (wm
 * warps along rows); wgmma gives warp w % 4 of warpgroup G = w / 4 the rows
 * 16 (w % 4) + g and + 8 of the 64 its instruction reads. Warpgroup G's
 * instruction t reads rows 64 (G + wm/4 t) on, so that row m is row
 * 64 (G + wm/4 (rep / 2)) + 16 (w % 4) + 8 (rep % 2) + g of A. A bit
 * permutation that keeps g: copies of 8 elements along m stay whole. */
static SExpr *wgmma_row(Lower *L, SExpr *m, int wm)
{
	int lw = 0;
	while (1 << lw < wm)
		lw++;
	SExpr *g = lower_ibin(L, TOP_AND, m, lower_ic(L, 7)), *w = bits(L, m, 3, wm - 1), *rep = lower_ibin(L, TOP_SHR, m, lower_ic(L, 3 + lw));
	SExpr *p = lower_iadd(L, g, lower_imul(L, lower_ibin(L, TOP_AND, rep, lower_ic(L, 1)), lower_ic(L, 8)));
	p = lower_iadd(L, p, lower_imul(L, lower_ibin(L, TOP_AND, w, lower_ic(L, 3)), lower_ic(L, 16)));
	p = lower_iadd(L, p, lower_imul(L, lower_ibin(L, TOP_SHR, w, lower_ic(L, 2)), lower_ic(L, 64)));
	return lower_iadd(L, p, lower_imul(L, lower_ibin(L, TOP_SHR, rep, lower_ic(L, 1)), lower_ic(L, 16 * wm)));
}

/* The index of (row, col) of slot `slot` (NULL: the only one). */
static SExpr *stored_index(Lower *L, const Operand *o, SExpr *slot, SExpr *row, SExpr *col)
{
	/* 16-byte chunks: 8 16-bit elements, 4 fp32, 16 int8 */
	SExpr *at = o->wgmma ? wgmma_index(L, o, row, col)
			     : swizzled_chunks(L, row, col, o->width, 16 / dtype_bytes(o->tile->type.dtype));
	if (!slot)
		return at;
	return lower_iadd(L, lower_index_op(simt_binary(L->k, TOP_MUL, DT_I32, slot, lower_ic(L, o->elems))), at);
}

/* The slot the dots read now. */
static SExpr *use_slot(Lower *L, const Operand *o)
{
	return o->pipe ? simt_ref(L->k, L->pipe_regs[o->pipe->id].use_slot, NULL) : NULL;
}

/* Element (i, j) of the operand tile sits at row (inner ? i : j), column
 * (inner ? j : i). */
static SExpr *operand_index(Lower *L, const Operand *o, SExpr *slot, SExpr *i, SExpr *j)
{
	if (o->m_warps)
		i = wgmma_row(L, i, o->m_warps);
	return o->inner ? stored_index(L, o, slot, i, j) : stored_index(L, o, slot, j, i);
}

/* Writes the registers of tile x to operand o's packed shared tile
 * L->operand_smem[o->id] (one slot), each element once. */
static void write_packed(Lower *L, int line, const TValue *x, const Operand *o)
{
	unsigned present = L->vp[x->id].present;
	Nest n = lower_nest_over(L, present, 1);
	SExpr *at[2];
	for (int k = 0; k < 2; k++) {
		int d = L->vp[x->id].map[k];
		at[k] = d >= 0 ? lower_coord(L, d, lower_local_index(L, &n, d)) : lower_ic(L, 0);
	}
	SStmt *s = simt_stmt(L->k, SS_ASSIGN, line);
	lower_set_loops(L, s, &n);
	s->dst = simt_ref(L->k, L->operand_smem[o->id], operand_index(L, o, NULL, at[0], at[1]));
	s->value = lower_read_value(L, &n, x);
	s->guard = lower_write_guard(L, &n, present, NULL);
}

/* Writes the registers of tile x to operand o's packed shared tile (one
 * slot), each element once. */
static void stage_packed(Lower *L, const TValue *dot, const TValue *x, const Operand *o)
{
	lower_use_frame(L, L->vp[x->id].frame);
	SReg *smem = simt_reg(L->k, SR_SHARED, x->type.dtype, x->type.dtype, o->elems, o->name);
	smem->packed = true;
	smem->local = true;
	L->operand_smem[o->id] = smem;
	write_packed(L, dot->line, x, o);
}

/* An operand of a pipelined loop's wgmma dots that the pipeline does not
 * copy (Operand.loop): tile x written by the threads, then published to
 * wgmma (the async proxy) and to the block. */
static void stage_for_wgmma(Lower *L, int line, const TValue *x, const Operand *o)
{
	lower_use_frame(L, L->vp[x->id].frame);
	write_packed(L, line, x, o);
	simt_stmt(L->k, SS_MMA_FENCE, line)->uniform = true;   /* src NULL: the proxy fence */
	simt_stmt(L->k, SS_BARRIER, line);
}

void lower_stage_once(Lower *L, const Pipeline *pp)
{
	for (int i = 0; i < L->plan->noperands; i++) {
		const Operand *o = L->plan->operands[i];
		if (o->loop != pp || !o->once || o->same)
			continue;   /* (same: written before an earlier loop) */
		if (L->loop_depth)   /* every warpgroup's wgmma of the loop's last run has read it */
			simt_stmt(L->k, SS_BARRIER, pp->loop->line);
		stage_for_wgmma(L, pp->loop->line, o->tile, o);
	}
}

/* ---- fragments ---- */

typedef struct Warp {
	const Frame *fr;
	Shape s;
	MatrixOp op;              /* the instruction (dot_op) */
	SExpr *lane, *wm, *wn;    /* this warp's place along rows and columns */
	int tiles_m, tiles_n;     /* instruction tiles per warp */
} Warp;

/* Rows of tile mi (a loop variable times one) of this warp: for mma.sync
 * the instruction's row r (r < 8) of half h; for MFMA row r < 16. */
static SExpr *row_of(Lower *L, const Warp *w, SExpr *mi, int h, SExpr *r)
{
	int wm = w->fr->wm;
	if (w->fr->wgmma_rows) {   /* g + 8 h + 16 (w % 4) + 64 (w / 4) + 16 wm mi (Frame.wgmma_rows) */
		SExpr *wq = lower_iadd(L, lower_imul(L, lower_ibin(L, TOP_AND, w->wm, lower_ic(L, 3)), lower_ic(L, 16)),
				       lower_imul(L, lower_ibin(L, TOP_SHR, w->wm, lower_ic(L, 2)), lower_ic(L, 64)));
		return lower_iadd(L, lower_iadd(L, lower_imul(L, mi, lower_ic(L, 16 * wm)), wq), lower_iadd(L, lower_ic(L, h * 8), r));
	}
	if (w->fr->unit != MATRIX_MFMA)
		return lower_iadd(L, lower_iadd(L, lower_imul(L, mi, lower_ic(L, 16 * wm)), lower_imul(L, w->wm, lower_ic(L, 8))), lower_iadd(L, lower_ic(L, h * 8 * wm), r));
	return lower_iadd(L, lower_iadd(L, lower_imul(L, mi, lower_ic(L, 16 * wm)), lower_imul(L, w->wm, lower_ic(L, 16))), r);
}

static SExpr *col_of(Lower *L, const Warp *w, SExpr *ni, SExpr *c)
{
	int step = w->s.n;
	return lower_iadd(L, lower_iadd(L, lower_imul(L, ni, lower_ic(L, step * w->fr->wn)), lower_imul(L, w->wn, lower_ic(L, step))), c);
}

static SExpr *loop_var(Lower *L, int i)
{
	return simt_leaf(L->k, SE_LOOP, DT_I32, i);
}

static SStmt *warp_stmt(Lower *L, const TValue *v, SStmtKind kind, int extent)
{
	SStmt *s = simt_stmt(L->k, kind, v->line);
	s->nloops = 1;
	s->extent[0] = extent;
	return s;
}

/* ldmatrix: each lane's row address, then the load of `nmat` matrices into
 * frag[loop * nmat ...]. Matrix j of lane l is j = l / 8, its row l % 8. */
static void ldmatrix(Lower *L, const TValue *v, const Operand *o, SReg *frag, int extent, int nmat, bool trans,
		     SExpr *row, SExpr *col)
{
	SReg *addr = simt_reg(L->k, SR_THREAD, DT_I32, DT_I32, extent, arena_printf(L->arena, "%s_row", frag->name));
	SStmt *s = warp_stmt(L, v, SS_ASSIGN, extent);
	s->dst = simt_ref(L->k, addr, loop_var(L, 0));
	s->value = stored_index(L, o, use_slot(L, o), row, col);
	s = warp_stmt(L, v, SS_FRAGMENT, extent);
	s->dst = simt_ref(L->k, frag, lower_imul(L, loop_var(L, 0), lower_ic(L, nmat)));
	s->src = L->operand_smem[o->id];
	s->ptr = simt_ref(L->k, addr, loop_var(L, 0));
	s->nmat = nmat;
	s->trans = trans;
	s->uniform = true;   /* a whole warp's instruction: the printers spell the lanes */
}

/* mma.sync's A fragments of k step kk: per tile mi, four 8x8 matrices:
 * (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15). */
static void mma_fragment_a(Lower *L, const TValue *v, const Warp *w, const Operand *o, SReg *fa, int kk)
{
	SExpr *j = bits(L, w->lane, 3, 3), *r = lower_ibin(L, TOP_AND, w->lane, lower_ic(L, 7));
	SExpr *mi = loop_var(L, 0);
	SExpr *half = lower_ibin(L, TOP_AND, j, lower_ic(L, 1)), *kblock = lower_ibin(L, TOP_SHR, j, lower_ic(L, 1));
	/* row_of with a run-time half: both halves' rows differ by 8 wm */
	int half_rows = w->fr->wgmma_rows ? 8 : 8 * w->fr->wm;
	SExpr *m = lower_iadd(L, row_of(L, w, mi, 0, r), lower_imul(L, half, lower_ic(L, half_rows)));
	SExpr *k = lower_iadd(L, lower_ic(L, kk * 16), lower_imul(L, kblock, lower_ic(L, 8)));
	if (o->inner)
		ldmatrix(L, v, o, fa, w->tiles_m, 4, false, m, k);
	else
		ldmatrix(L, v, o, fa, w->tiles_m, 4, true, lower_iadd(L, k, r), lower_iadd(L, row_of(L, w, mi, 0, lower_ic(L, 0)), lower_imul(L, half, lower_ic(L, half_rows))));
}

/* mma.sync's B fragments: per pair of tiles (ni, ni + 1) four matrices
 * (k 0-7, ni), (k 8-15, ni), (k 0-7, ni+1), (k 8-15, ni+1); per tile two
 * when the warp has an odd number of them. */
static void mma_fragment_b(Lower *L, const TValue *v, const Warp *w, const Operand *o, SReg *fb, int kk)
{
	int nmat = w->tiles_n % 2 ? 2 : 4;
	SExpr *j = bits(L, w->lane, 3, nmat - 1), *r = lower_ibin(L, TOP_AND, w->lane, lower_ic(L, 7));
	SExpr *kblock = lower_ibin(L, TOP_AND, j, lower_ic(L, 1)), *next = lower_ibin(L, TOP_SHR, j, lower_ic(L, 1));
	SExpr *ni = lower_iadd(L, lower_imul(L, loop_var(L, 0), lower_ic(L, nmat / 2)), next);
	SExpr *k = lower_iadd(L, lower_ic(L, kk * 16), lower_imul(L, kblock, lower_ic(L, 8)));
	int extent = w->tiles_n * 2 / nmat;
	if (o->inner)
		ldmatrix(L, v, o, fb, extent, nmat, true, lower_iadd(L, k, r), col_of(L, w, ni, lower_ic(L, 0)));
	else
		ldmatrix(L, v, o, fb, extent, nmat, false, col_of(L, w, ni, r), k);
}

/* MFMA fragments: lane l reads four consecutive k of row (or column) l % 16,
 * from k = 4 (l / 16), as two words. */
static void mfma_fragment(Lower *L, const TValue *v, const Warp *w, const Operand *o, SReg *frag, int kk, bool is_a)
{
	SExpr *t = loop_var(L, 0), *word = loop_var(L, 1);
	SExpr *rc = lower_ibin(L, TOP_AND, w->lane, lower_ic(L, 15));
	SExpr *k0 = lower_iadd(L, lower_iadd(L, lower_ic(L, kk * 16), lower_imul(L, bits(L, w->lane, 4, 3), lower_ic(L, 4))), lower_imul(L, word, lower_ic(L, 2)));
	SExpr *mn = is_a ? row_of(L, w, t, 0, rc) : col_of(L, w, t, rc);
	SExpr *at[2];
	for (int e = 0; e < 2; e++) {
		SExpr *k = lower_iadd(L, k0, lower_ic(L, e));
		at[e] = is_a ? operand_index(L, o, use_slot(L, o), mn, k) : operand_index(L, o, use_slot(L, o), k, mn);
	}
	SStmt *s = simt_stmt(L->k, SS_FRAGMENT, v->line);
	s->nloops = 2;
	s->extent[0] = is_a ? w->tiles_m : w->tiles_n;
	s->extent[1] = 2;
	s->dst = simt_ref(L->k, frag, lower_iadd(L, lower_imul(L, t, lower_ic(L, 2)), word));
	s->src = L->operand_smem[o->id];
	s->ptr = at[0];
	s->value = at[1];
}

/* tf32 and int8 fragments (MMA_M16N8K8_TF32, MMA_M16N8K32_S8), element by
 * element from shared memory: word w of a tile holds `per` (4 / bytes)
 * elements, k consecutive, at word column c + 4 (w / 2) of A's row g + 8 (w
 * % 2), or at word row c + 4 w of B's column g (lane 4 g + c). */
static void plain_fragment(Lower *L, const TValue *v, const Warp *w, const Operand *o, SReg *frag, int kk, bool is_a)
{
	int per = 4 / dtype_bytes(o->tile->type.dtype), words = is_a ? 4 : 2;
	SExpr *g = lower_ibin(L, TOP_SHR, w->lane, lower_ic(L, 2)), *c = lower_ibin(L, TOP_AND, w->lane, lower_ic(L, 3));
	SExpr *t = loop_var(L, 0);
	for (int wd = 0; wd < words; wd++)
		for (int j = 0; j < per; j++) {
			int kw = is_a ? 4 * (wd / 2) : 4 * wd;
			SExpr *k = lower_iadd(L, lower_imul(L, lower_iadd(L, c, lower_ic(L, kk * 8 + kw)), lower_ic(L, per)), lower_ic(L, j));
			SExpr *at = is_a ? operand_index(L, o, use_slot(L, o), row_of(L, w, t, wd % 2, g), k)
					 : operand_index(L, o, use_slot(L, o), k, col_of(L, w, t, g));
			SStmt *s = warp_stmt(L, v, SS_ASSIGN, is_a ? w->tiles_m : w->tiles_n);
			s->dst = simt_ref(L->k, frag, lower_iadd(L, lower_imul(L, t, lower_ic(L, words * per)), lower_ic(L, wd * per + j)));
			s->value = simt_ref(L->k, L->operand_smem[o->id], at);
		}
}

/* MFMA fragments of fp32 and int8 operands (MFMA_16X16X4_F32 ..): lane l
 * holds kb = K / 4 consecutive k of row (or column) l % 16 from k = kb (l /
 * 16), one register each (register t kb + e of tile t); tf32: truncated. */
static void mfma_plain_fragment(Lower *L, const TValue *v, const Warp *w, const Operand *o, SReg *frag, int kk, bool is_a)
{
	int kb = op_k(w->op) / 4;
	bool tf32 = o->tile->type.dtype == DT_F32 && v->aux == DOT_TF32;
	SExpr *t = loop_var(L, 0), *rc = lower_ibin(L, TOP_AND, w->lane, lower_ic(L, 15));
	SExpr *k0 = lower_iadd(L, lower_ic(L, kk * 4 * kb), lower_imul(L, bits(L, w->lane, 4, 3), lower_ic(L, kb)));
	for (int e = 0; e < kb; e++) {
		SExpr *k = lower_iadd(L, k0, lower_ic(L, e));
		SExpr *at = is_a ? operand_index(L, o, use_slot(L, o), row_of(L, w, t, 0, rc), k)
				 : operand_index(L, o, use_slot(L, o), k, col_of(L, w, t, rc));
		SExpr *value = simt_ref(L->k, L->operand_smem[o->id], at);
		if (tf32) {
			SExpr *x = simt_leaf(L->k, SE_MATH, DT_F32, MATH_TF32);
			x->from = DT_F32;
			x->a[0] = value;
			value = x;
		}
		SStmt *s = warp_stmt(L, v, SS_ASSIGN, is_a ? w->tiles_m : w->tiles_n);
		s->dst = simt_ref(L->k, frag, lower_iadd(L, lower_imul(L, t, lower_ic(L, kb)), lower_ic(L, e)));
		s->value = value;
	}
}

/* One instruction per tile (mi, ni) of the warp; acc holds the result's
 * registers, row-major over the frame's local extents (lr, lc). */
static void issue(Lower *L, const TValue *v, const Warp *w, SReg *acc, SReg *fa, SReg *fb, DType operand)
{
	SExpr *mi = loop_var(L, 0), *ni = loop_var(L, 1);
	int lc = lower_extent_of(L, 1);
	SStmt *s = simt_stmt(L->k, SS_MMA, v->line);
	s->nloops = 2;
	s->extent[0] = w->tiles_m;
	s->extent[1] = w->tiles_n;
	s->uniform = true;
	s->operand = operand;
	s->mop = w->op;
	if (w->fr->unit != MATRIX_MFMA) {
		int per = plain_operand(operand) ? 4 / dtype_bytes(operand) : 1;   /* fragment registers a word */
		SExpr *c0 = lower_iadd(L, lower_imul(L, mi, lower_ic(L, 2 * lc)), lower_imul(L, ni, lower_ic(L, 2)));
		SExpr *at[4] = {c0, lower_iadd(L, c0, lower_ic(L, 1)), lower_iadd(L, c0, lower_ic(L, lc)), lower_iadd(L, c0, lower_ic(L, lc + 1))};
		for (int i = 0; i < 4; i++)
			s->acc[i] = simt_ref(L->k, acc, at[i]);
		s->frag_a = simt_ref(L->k, fa, lower_imul(L, mi, lower_ic(L, 4 * per)));
		s->frag_b = simt_ref(L->k, fb, lower_imul(L, ni, lower_ic(L, 2 * per)));
	} else {
		int per = plain_operand(operand) ? op_k(w->op) / 4 : 2;   /* fragment registers a tile */
		SExpr *c0 = lower_iadd(L, lower_imul(L, mi, lower_ic(L, 4 * lc)), ni);
		for (int i = 0; i < 4; i++)
			s->acc[i] = simt_ref(L->k, acc, lower_iadd(L, c0, lower_ic(L, i * lc)));
		s->frag_a = simt_ref(L->k, fa, lower_imul(L, mi, lower_ic(L, per)));
		s->frag_b = simt_ref(L->k, fb, lower_imul(L, ni, lower_ic(L, per)));
	}
}

static SExpr *warp_along(Lower *L, const Layout *f, int d)
{
	int wpc = f->warps_per_cta[d];
	if (wpc == 1)
		return lower_ic(L, 0);
	return bits(L, simt_ref(L->k, L->warp, NULL), layout_warp_shift(f, d), wpc - 1);
}

/* The result's registers, first a copy of the accumulator's (or the
 * accumulator's own). */
static SReg *result_regs(Lower *L, const TValue *v)
{
	const TValue *acc = v->args[2];
	lower_use_frame(L, L->vp[v->id].frame);
	if (L->vp[v->id].in_place)
		return L->place[acc->id].reg;
	unsigned present = L->vp[v->id].present;
	SReg *r = simt_reg(L->k, SR_THREAD, v->type.dtype, v->type.dtype, lower_count_of(L, present), v->name);
	Nest n = lower_nest_over(L, present, 1);
	lower_assign_value(L, v, &n, r, present, lower_read_value(L, &n, acc))->uniform = false;
	return r;
}

static const char *dot_name(Lower *L, const TValue *v, const char *what)
{
	return arena_printf(L->arena, "%s_%s", v->name ? v->name : "dot", what);
}

/* ---- wgmma: a warpgroup's instruction, operands read from shared memory ---- */

/* The descriptor of an operand whose K runs along its rows (k_major: A
 * stored m by k, B n by k) or down them. */
static WgmmaDesc wgmma_desc(const Operand *o, bool k_major)
{
	if (k_major) {
		int row_bytes = imin(o->width, 64) * 2;
		return (WgmmaDesc){.lbo = 0, .sbo = 8 * row_bytes, .swizzle = row_bytes, .trans = false};
	}
	int rows = o->elems / o->width;
	return (WgmmaDesc){.lbo = rows * 128, .sbo = 1024, .swizzle = 128, .trans = true};
}

/* The index of the first element an instruction reads: k from k0, m (or n)
 * from mn0 (a multiple of 64). */
static SExpr *wgmma_start(Lower *L, const Operand *o, bool k_major, SExpr *mn0, int k0)
{
	int rows = o->elems / o->width;
	SExpr *at;
	if (k_major) {
		int w = imin(o->width, 64);
		at = lower_iadd(L, lower_imul(L, mn0, lower_ic(L, w)), lower_ic(L, k0 / w * rows * w + k0 % w));
	} else {
		at = lower_iadd(L, lower_imul(L, lower_ibin(L, TOP_SHR, mn0, lower_ic(L, 6)), lower_ic(L, rows * 64)), lower_ic(L, k0 * 64));
	}
	SExpr *slot = use_slot(L, o);
	return slot ? lower_iadd(L, lower_index_op(simt_binary(L->k, TOP_MUL, DT_I32, slot, lower_ic(L, o->elems))), at) : at;
}

SStmt *lower_mma_group_stmt(Lower *L, SStmtKind kind, int line, SReg *acc, int pending)
{
	SStmt *s = lower_uniform_stmt(L, kind, line);
	s->src = acc;
	s->vec = pending;
	return s;
}

/* The tile the A registers are packed from: x, or the fp32 tile x rounds
 * to 16 bits (`p.to(fp16)`: the pack rounds, and rounding twice is
 * rounding once), when that one is spread as x is. */
static const TValue *packed_source(Lower *L, const TValue *x)
{
	const TValue *y = x->op == TOP_CAST ? x->args[0] : x;
	const ValuePlan *px = &L->vp[x->id], *py = &L->vp[y->id];
	if (y != x && y->type.dtype == DT_F32 && py->frame == px->frame && py->present == px->present &&
	    py->map[0] == px->map[0] && py->map[1] == px->map[1])
		return y;
	return x;
}

/* wgmma's A registers of operand o (Operand.regs), for all k steps: word
 * (kk tiles + t) 4 + h + 2 q holds the elements (local row 2 t + h, local
 * columns 4 kk + 2 q, + 1) of the tile, two 16-bit floats, the lower
 * column in the low half (regs_feed says why these are the ones wgmma
 * reads from the thread). Every word is written before the dot's fence
 * and read by its wgmma only: the group is waited for before the next
 * iteration writes them again. */
static SReg *pack_a(Lower *L, const TValue *v, const Operand *o, int tiles)
{
	const TValue *x = packed_source(L, o->tile);
	int K = o->tile->type.shape[1];
	lower_use_frame(L, L->vp[x->id].frame);
	SReg *fa = simt_reg(L->k, SR_THREAD, DT_U32, DT_U32, K / 16 * tiles * 4, dot_name(L, v, "fa"));
	Nest n = lower_nest_over(L, 3u, 2);   /* rows, pairs of columns */
	SExpr *lo = lower_read_value(L, &n, x), *hi = lo;
	if (lo->kind == SE_REF && (L->place[x->id].regs_vary & 2u))
		hi = simt_ref(L->k, lo->reg, lower_iadd(L, lo->index, lower_ic(L, 1)));
	SExpr *r = loop_var(L, 0), *c2 = loop_var(L, 1);
	SExpr *word = lower_iadd(L, lower_imul(L, lower_ibin(L, TOP_SHR, c2, lower_ic(L, 1)), lower_ic(L, tiles)), lower_ibin(L, TOP_SHR, r, lower_ic(L, 1)));
	word = lower_iadd(L, lower_imul(L, word, lower_ic(L, 4)), lower_ibin(L, TOP_AND, r, lower_ic(L, 1)));
	word = lower_iadd(L, word, lower_imul(L, lower_ibin(L, TOP_AND, c2, lower_ic(L, 1)), lower_ic(L, 2)));
	SExpr *pack = simt_leaf(L->k, SE_MATH, DT_U32, o->tile->type.dtype == DT_BF16 ? MATH_PACK_BF16X2 : MATH_PACK_F16X2);
	pack->from = DT_F32;
	pack->a[0] = lo;
	pack->a[1] = hi;
	SStmt *s = simt_stmt(L->k, SS_ASSIGN, v->line);
	lower_set_loops(L, s, &n);
	s->dst = simt_ref(L->k, fa, word);
	s->value = pack;
	return fa;
}

/* Per k step, each warpgroup's instructions t = 0, 1, ... over rows 64 (G +
 * groups t) of A, all of B's columns; then the group is committed and the
 * one before waited for (in place, pipelined: this one stays in flight
 * while the copies go on). */
static void lower_dot_wgmma(Lower *L, const TValue *v)
{
	const TValue *a = v->args[0];
	const Operand *oa = L->vp[v->id].staged, *ob = L->vp[v->id].staged_b;
	int M = v->type.shape[0], N = v->type.shape[1], K = a->type.shape[1];
	int groups = L->frames[L->vp[v->id].frame].wm / 4, tiles = M / (64 * groups);
	bool here = false;   /* an operand the consumer writes every iteration */
	for (int i = 0; i < 2; i++) {
		const Operand *o = i ? ob : oa;
		if (o->pipe || !o->loop || o->once || o->regs)
			continue;
		simt_stmt(L->k, SS_BARRIER, v->line);   /* the wgmma of the iteration before has read it (waited for) */
		stage_for_wgmma(L, v->line, o->tile, o);
		here = true;
	}
	SReg *fa = oa->regs ? pack_a(L, v, oa, tiles) : NULL;
	SReg *acc = result_regs(L, v);
	int lc = lower_extent_of(L, 1);
	bool a_k = oa->inner, b_k = !ob->inner;
	SExpr *group = lower_ibin(L, TOP_SHR, simt_ref(L->k, L->warp, NULL), lower_ic(L, 2));
	SReg *da = fa ? NULL : simt_reg(L->k, SR_THREAD, DT_I32, DT_I32, tiles, dot_name(L, v, "a_at"));
	SReg *db = simt_reg(L->k, SR_THREAD, DT_I32, DT_I32, 1, dot_name(L, v, "b_at"));
	for (int i = 0; i < 2; i++) {   /* elements to 16-byte units: 16 / bytes = 2^shift */
		SReg *r = i ? db : da;
		const SReg *arr = L->operand_smem[(i ? ob : oa)->id];
		if (r && arr)
			for (int e = 16 / dtype_bytes(arr->dtype); e > 1; e >>= 1)
				r->desc_shift++;
	}
	lower_mma_group_stmt(L, SS_MMA_FENCE, v->line, acc, 0)->frag_regs = fa;
	for (int kk = 0; kk < K / 16; kk++) {
		SExpr *t = loop_var(L, 0);
		SStmt *s;
		if (!fa) {
			s = warp_stmt(L, v, SS_ASSIGN, tiles);
			s->dst = simt_ref(L->k, da, t);
			s->value = wgmma_start(L, oa, a_k, lower_iadd(L, lower_imul(L, t, lower_ic(L, 64 * groups)), lower_imul(L, group, lower_ic(L, 64))), kk * 16);
		}
		s = simt_stmt(L->k, SS_ASSIGN, v->line);
		s->dst = simt_ref(L->k, db, NULL);
		s->value = wgmma_start(L, ob, b_k, lower_ic(L, 0), kk * 16);
		s = warp_stmt(L, v, SS_MMA, tiles);
		s->uniform = true;
		s->mop = WGMMA_M64K16;
		s->operand = a->type.dtype;
		s->n = N;
		s->frag_a = fa ? simt_ref(L->k, fa, lower_imul(L, lower_iadd(L, lower_ic(L, kk * tiles), t), lower_ic(L, 4)))
			       : simt_ref(L->k, da, t);
		s->frag_b = simt_ref(L->k, db, NULL);
		s->smem[0] = fa ? NULL : L->operand_smem[oa->id];
		s->smem[1] = L->operand_smem[ob->id];
		s->desc[0] = wgmma_desc(oa, a_k);
		s->desc[1] = wgmma_desc(ob, b_k);
		s->acc[0] = simt_ref(L->k, acc, lower_imul(L, t, lower_ic(L, 2 * lc)));
		s->acc[1] = simt_ref(L->k, acc, lower_iadd(L, lower_imul(L, t, lower_ic(L, 2 * lc)), lower_ic(L, lc)));
	}
	lower_mma_group_stmt(L, SS_MMA_COMMIT, v->line, acc, 0);
	const Pipeline *pp = oa->pipe ? oa->pipe : ob->pipe;
	bool carried = false;   /* the result is in a carried value's own registers */
	for (int i = 0; i < pp->nacc; i++)
		carried |= L->place[pp->acc[i]->id].reg == acc;
	bool overlap = L->vp[v->id].in_place && carried && pp->stages > 1 && !here;
	SStmt *w = lower_mma_group_stmt(L, SS_MMA_WAIT, v->line, acc, overlap ? 1 : 0);
	for (int i = 0; !overlap && i < pp->nacc; i++) {
		/* the accumulators left in flight by the iteration before are
		 * done too: fenced, so that no use of them moves above the wait */
		SReg *r = L->place[pp->acc[i]->id].reg;
		if (r == acc || !r)
			continue;
		if (!w->frag_regs)
			w->frag_regs = r;
		else
			lower_mma_group_stmt(L, SS_MMA_WAIT, v->line, r, 0);
	}
	lower_set_reg(L, v, acc, L->vp[v->id].present);
}

static void lower_dot_matrix_chunks(Lower *L, const TValue *v, int kc);

/* The fragment registers of one k step: 32-bit words (16-bit operands),
 * or one register an element (fp32, int8: plain_fragment,
 * mfma_plain_fragment). */
static void fragment_regs(Lower *L, const TValue *v, const Warp *w, SReg **fa, SReg **fb)
{
	DType dt = v->args[0]->type.dtype;
	bool plain = plain_operand(dt);
	int per = plain ? 4 / dtype_bytes(dt) : 1, na = 4 * per, nb = 2 * per;   /* mma.sync: words of A and B */
	if (w->fr->unit == MATRIX_MFMA)
		na = nb = plain ? op_k(w->op) / 4 : 2;
	DType rt = plain ? dt : DT_U32;
	*fa = simt_reg(L->k, SR_THREAD, rt, rt, w->tiles_m * na, dot_name(L, v, "fa"));
	*fb = simt_reg(L->k, SR_THREAD, rt, rt, w->tiles_n * nb, dot_name(L, v, "fb"));
}

/* One k step of the instructions: the fragments, then one instruction per tile. */
static void step(Lower *L, const TValue *v, const Warp *w, const Operand *oa, const Operand *ob, SReg *acc, SReg *fa,
		 SReg *fb, int kk)
{
	DType dt = v->args[0]->type.dtype;
	bool mfma = w->fr->unit == MATRIX_MFMA;
	if (dt == DT_F32 && v->aux == DOT_TF32X3 && !mfma) {   /* (MFMA: exact fp32 products) */
		/* tf32x3: x = hi + lo, hi its tf32 part (x with its low 13
		 * mantissa bits cleared, so that the unit reads it exactly however
		 * it reads the bits of an fp32), lo = x - hi (exact in fp32; the
		 * unit reads its leading 11 bits); a b ~ a_lo b_hi + a_hi b_lo +
		 * a_hi b_hi, the small products first */
		plain_fragment(L, v, w, oa, fa, kk, true);
		plain_fragment(L, v, w, ob, fb, kk, false);
		SReg *lo[2];
		for (int i = 0; i < 2; i++) {
			SReg *f = i ? fb : fa;
			lo[i] = simt_reg(L->k, SR_THREAD, DT_F32, DT_F32, f->count, dot_name(L, v, i ? "fb_lo" : "fa_lo"));
			SExpr *hi[2];
			for (int h = 0; h < 2; h++) {
				hi[h] = simt_leaf(L->k, SE_MATH, DT_F32, MATH_TF32);
				hi[h]->from = DT_F32;
				hi[h]->a[0] = simt_ref(L->k, f, loop_var(L, 0));
			}
			SStmt *s = warp_stmt(L, v, SS_ASSIGN, f->count);
			s->dst = simt_ref(L->k, lo[i], loop_var(L, 0));
			s->value = simt_binary(L->k, TOP_SUB, DT_F32, simt_ref(L->k, f, loop_var(L, 0)), hi[0]);
			s = warp_stmt(L, v, SS_ASSIGN, f->count);
			s->dst = simt_ref(L->k, f, loop_var(L, 0));
			s->value = hi[1];
		}
		issue(L, v, w, acc, lo[0], fb, dt);
		issue(L, v, w, acc, fa, lo[1], dt);
		issue(L, v, w, acc, fa, fb, dt);
		return;
	}
	if (plain_operand(dt) && mfma) {
		mfma_plain_fragment(L, v, w, oa, fa, kk, true);
		mfma_plain_fragment(L, v, w, ob, fb, kk, false);
	} else if (plain_operand(dt)) {
		plain_fragment(L, v, w, oa, fa, kk, true);
		plain_fragment(L, v, w, ob, fb, kk, false);
	} else if (!mfma) {
		mma_fragment_a(L, v, w, oa, fa, kk);
		mma_fragment_b(L, v, w, ob, fb, kk);
	} else {
		mfma_fragment(L, v, w, oa, fa, kk, true);
		mfma_fragment(L, v, w, ob, fb, kk, false);
	}
	issue(L, v, w, acc, fa, fb, dt);
}

static void lower_dot_matrix(Lower *L, const TValue *v)
{
	const TValue *a = v->args[0], *b = v->args[1];
	int K = a->type.shape[1];
	const Operand *oa = L->vp[v->id].staged, *ob = L->vp[v->id].staged_b;
	if (!oa->pipe && !oa->loop && lower_dot_k_chunk(L, v) < K) {
		lower_dot_matrix_chunks(L, v, lower_dot_k_chunk(L, v));
		return;
	}
	if (!oa->pipe) {   /* else copied ahead; the pipeline waits for them */
		if (L->loop_depth)   /* the previous iteration's fragment reads are done */
			simt_stmt(L->k, SS_BARRIER, v->line);
		stage_packed(L, v, a, oa);
		stage_packed(L, v, b, ob);
		simt_stmt(L->k, SS_BARRIER, v->line);
	}

	SReg *acc = result_regs(L, v);
	const Frame *fr = &L->frames[L->cur];
	Warp w = {.fr = fr, .lane = simt_ref(L->k, L->lane, NULL), .op = dot_op(L, fr->unit, v)};
	unit_shape(fr->unit, &w.s);
	w.wm = warp_along(L, &fr->layout, 0);
	w.wn = warp_along(L, &fr->layout, 1);
	w.tiles_m = v->type.shape[0] / (16 * fr->wm);
	w.tiles_n = v->type.shape[1] / (w.s.n * fr->wn);
	SReg *fa, *fb;
	fragment_regs(L, v, &w, &fa, &fb);
	for (int kk = 0; kk < K / op_k(w.op); kk++)
		step(L, v, &w, oa, ob, acc, fa, fb, kk);
	lower_set_reg(L, v, acc, L->vp[v->id].present);
}

/* ---- K in chunks ----
 *
 * A dot whose operands the threads stage (no pipeline copies them) with a
 * K so large that A [M, K] and B [K, N] side by side do not fit the
 * target's block (tutorial 10's block-scaled dots on AMD: 192 KiB of bf16
 * operands, the block has 64): the dot runs over K in chunks of kc, each
 * chunk staged in turn (A [M, kc], B [kc, N]: every thread writes its
 * elements of the chunk), the accumulator carried from chunk to chunk.
 * kc is K halved until the pair takes at most half the block (the rest
 * for the arrays live beside it), not below 16 (one matrix instruction's
 * K). Kernels whose operands fit are lowered as before. */

static int staged_elem_bytes(const Lower *L, const TValue *v, DType dt)
{
	if (L->vp[v->id].matrix)
		return dtype_bytes(dt);   /* packed 16-bit patterns; tf32 and int8 as they are */
	return dt == DT_F16 || dt == DT_BF16 || dtype_is_fp8(dt) ? 4 : dtype_bytes(dt);   /* as simt_shared_elem_bytes */
}

int lower_dot_k_chunk(const Lower *L, const TValue *v)
{
	const TValue *a = v->args[0], *b = v->args[1];
	if (v->op != TOP_DOT || a->type.rank != 2 || b->type.rank != 2)
		return 0;
	int M = a->type.shape[0], K = a->type.shape[1], N = b->type.shape[1];
	int64_t per_k = (int64_t)M * staged_elem_bytes(L, v, a->type.dtype) + (int64_t)N * staged_elem_bytes(L, v, b->type.dtype);
	int64_t block = L->target->shared_bytes;
	if (per_k * K <= block)
		return K;
	/* not below one instruction's K (int8 on FMA: mma.sync's, as before) */
	const ValuePlan *vp = &L->vp[v->id];
	int step_k = vp->matrix ? op_k(dot_op(L, L->frames[vp->frame].unit, v)) : a->type.dtype == DT_I8 ? 32 : 16;
	int kc = K, kmin = imax(16, step_k);
	while (kc > kmin && kc % (2 * kmin) == 0 && per_k * kc > block / 2)
		kc /= 2;
	return kc;
}

/* Whether coordinate c lies in [k0, k0 + kc), and its place in the chunk. */
static SExpr *chunk_guard(Lower *L, SExpr *guard, SExpr *c, int k0, int kc)
{
	SExpr *in = simt_and(L->k, simt_cmp(L->k, CMP_GE, DT_I32, c, lower_ic(L, k0)),
			     simt_cmp(L->k, CMP_LT, DT_I32, c, lower_ic(L, k0 + kc)));
	return simt_and(L->k, guard, in);
}

/* Writes the elements of tile x whose coordinate along dim `kdim` lies in
 * chunk [k0, k0 + kc) to the shared tile `smem`: packed operand o (its
 * rows the chunk's), or (o NULL) row-major with rows of `cols`. */
static void write_chunk(Lower *L, int line, const TValue *dot, const TValue *x, const Operand *o, SReg *smem,
			int kdim, int k0, int kc, int cols)
{
	lower_use_frame(L, L->vp[x->id].frame);
	unsigned present = L->vp[x->id].present;
	Nest n = lower_nest_over(L, present, 1);
	SExpr *at[2];
	for (int k = 0; k < 2; k++) {
		int d = L->vp[x->id].map[k];
		at[k] = d >= 0 ? lower_coord(L, d, lower_local_index(L, &n, d)) : lower_ic(L, 0);
	}
	SExpr *guard = chunk_guard(L, lower_write_guard(L, &n, present, NULL), at[kdim], k0, kc);
	at[kdim] = lower_iadd(L, at[kdim], lower_ic(L, -k0));
	SExpr *value = lower_read_value(L, &n, x);
	if (!o && x->type.dtype == DT_F32 && dot->aux == DOT_TF32) {
		SExpr *t = simt_leaf(L->k, SE_MATH, DT_F32, MATH_TF32);
		t->from = DT_F32;
		t->a[0] = value;
		value = t;
	}
	SStmt *s = simt_stmt(L->k, SS_ASSIGN, line);
	lower_set_loops(L, s, &n);
	s->dst = simt_ref(L->k, smem, o ? operand_index(L, o, NULL, at[0], at[1])
				      : lower_iadd(L, lower_imul(L, at[0], lower_ic(L, cols)), at[1]));
	s->value = value;
	s->guard = guard;
}

/* The matrix instructions over K in chunks of kc (the plan's operands
 * hold one chunk: A's rows kc wide, B kc rows). */
static void lower_dot_matrix_chunks(Lower *L, const TValue *v, int kc)
{
	const TValue *a = v->args[0], *b = v->args[1];
	int K = a->type.shape[1];
	const Operand *oa = L->vp[v->id].staged, *ob = L->vp[v->id].staged_b;
	SReg *sa = simt_reg(L->k, SR_SHARED, a->type.dtype, a->type.dtype, oa->elems, oa->name);
	SReg *sb = simt_reg(L->k, SR_SHARED, b->type.dtype, b->type.dtype, ob->elems, ob->name);
	sa->packed = sb->packed = true;
	sa->local = sb->local = true;
	L->operand_smem[oa->id] = sa;
	L->operand_smem[ob->id] = sb;
	SReg *acc = result_regs(L, v);
	int cur = L->cur;
	const Frame *fr = &L->frames[cur];
	Warp w = {.fr = fr, .lane = simt_ref(L->k, L->lane, NULL), .op = dot_op(L, fr->unit, v)};
	unit_shape(fr->unit, &w.s);
	w.tiles_m = v->type.shape[0] / (16 * fr->wm);
	w.tiles_n = v->type.shape[1] / (w.s.n * fr->wn);
	SReg *fa, *fb;
	fragment_regs(L, v, &w, &fa, &fb);
	for (int k0 = 0; k0 < K; k0 += kc) {
		if (L->loop_depth || k0 > 0)   /* every fragment read of the chunk before is done */
			simt_stmt(L->k, SS_BARRIER, v->line);
		write_chunk(L, v->line, v, a, oa, sa, 1, k0, kc, 0);
		write_chunk(L, v->line, v, b, ob, sb, 0, k0, kc, 0);
		simt_stmt(L->k, SS_BARRIER, v->line);
		lower_use_frame(L, cur);
		w.wm = warp_along(L, &fr->layout, 0);
		w.wn = warp_along(L, &fr->layout, 1);
		for (int kk = 0; kk < kc / op_k(w.op); kk++)
			step(L, v, &w, oa, ob, acc, fa, fb, kk);
	}
	lower_set_reg(L, v, acc, L->vp[v->id].present);
}

/* ---- pipelines: operands copied num_stages - 1 iterations ahead ----
 *
 * A loop's body splits into the producer (everything but the dots and what
 * depends on them: pointer updates, masks, the operand loads) and the
 * consumer (the dots, the accumulators, what is computed from them). The
 * loop runs num_stages - 1 extra iterations: iteration i runs the producer
 * of iteration i, whose loads become asynchronous copies into slot
 * i % num_stages, and the consumer of iteration i - (num_stages - 1), once
 * its copies have landed. The split holds when the consumer reads nothing
 * of the producer but the copied operands, and the producer nothing of the
 * consumer. */

static bool in_block(const TBlock *b, const TValue *x)
{
	for (const TValue *v = b->first; v; v = v->next)
		if (v == x)
			return true;
	return false;
}

static bool is_param(const TBlock *b, const TValue *x)
{
	for (int i = 0; i < b->nparams; i++)
		if (b->params[i] == x)
			return true;
	return false;
}

static bool zero_const(const TValue *x)
{
	while (x->op == TOP_SPLAT || x->op == TOP_BROADCAST)
		x = x->args[0];
	return x->op == TOP_CONST && (dtype_is_float(x->type.dtype) ? x->fconst == 0 : x->iconst == 0);
}

/* Elements a thread copies at a time along the frame's last dim (either
 * of the tile's): the load's copy width (plan.c, plan_access_width). A
 * mask true on a prefix of each copy does not narrow it: such a copy takes
 * that many elements and zeros after them (the source size of cp.async);
 * *x and *n, when given, get the compare x < n that cuts it (NULL: the
 * mask is constant over each copy). */
static int copy_width_split(Lower *L, const TValue *v, const TValue **x, const TValue **n)
{
	const ValuePlan *vp = &L->vp[v->id];
	lower_use_frame(L, vp->frame);
	if (x) {
		*x = vp->cut_x;
		*n = vp->cut_n;
	}
	return vp->copy_vector;
}

static int copy_width(Lower *L, const TValue *x)
{
	return copy_width_split(L, x, NULL, NULL);
}

/* A load the dot can take by asynchronous copy: only the dot reads it, it
 * is filled with zeros where masked, its elements are 16-bit (or the fp32
 * and int8 operands of matrix dots) and each thread copies at least 4
 * bytes at a time along one of its dims. */
/* The load a dot operand `x` copies: x itself, or the load under x =
 * tl.trans(load) (tutorial 09's `a @ b.T` of descriptor blocks), which
 * only x reads; the copy then writes the tile with its dims swapped. */
static const TValue *copied_load(Lower *L, const TBlock *body, const TValue *x)
{
	if (x->op == TOP_TRANS && x->type.rank == 2 && x->perm[0] == 1 && in_block(body, x) && L->uses &&
	    L->uses[x->id] == 1 && L->vp[x->id].frame == L->vp[x->args[0]->id].frame)
		return x->args[0];
	return x;
}

/* How many of the body's matrix dots read load x as operand B, itself or
 * through copied_load's transpose; when that is every read of x, one copy
 * serves them all (Operand.same). */
static int read_as_b(Lower *L, const TBlock *body, const TValue *x)
{
	int n = 0;
	for (const TValue *v = body->first; v; v = v->next)
		n += v->op == TOP_DOT && L->vp[v->id].matrix && copied_load(L, body, v->args[1]) == x;
	return n;
}

/* Whether dot v is the first of the body to read its operand B's load. */
static bool first_b_reader(Lower *L, const TBlock *body, const TValue *v)
{
	const TValue *x = copied_load(L, body, v->args[1]);
	for (const TValue *u = body->first; u && u != v; u = u->next)
		if (u->op == TOP_DOT && L->vp[u->id].matrix && copied_load(L, body, u->args[1]) == x)
			return false;
	return true;
}

static bool copyable(Lower *L, const TBlock *body, const TValue *x)
{
	DType dt = x->type.dtype;
	if (x->op != TOP_LOAD || !in_block(body, x) || !L->uses || !(is_16bit_float(dt) || plain_operand(dt)) ||
	    (L->uses[x->id] != 1 && L->uses[x->id] != read_as_b(L, body, x)))
		return false;
	const TValue *ptr = x->args[0], *other = x->nargs > 2 ? x->args[2] : NULL;
	if (other && !zero_const(other))
		return false;
	unsigned present = L->vp[x->id].present;
	if (x->type.rank != 2 || present != 3u || L->vp[ptr->id].present != present)
		return false;
	int width = copy_width(L, x);   /* (uses x's frame) */
	int last = L->rank - 1;   /* along a row of the copy: either of its dims */
	return (L->vp[x->id].map[1] == last || L->vp[x->id].map[0] == last) && width * dtype_bytes(dt) >= 4 &&
	       (!plain_operand(dt) || width * dtype_bytes(dt) <= 16);
}

static bool is_consumer(Lower *L, const TValue *x)
{
	return L->vp[x->id].part == PART_CONSUMER;
}

/* A pure value of the loop's body that reads nothing the loop carries
 * but its induction variable (the zeros a dot starts from, the columns
 * `start_n + offs_n` a softmax masks): the consumer may compute it for
 * its own iteration. */
static bool invariant(const TBlock *body, const TValue *v)
{
	if (!tir_pure(v) || v->op == TOP_LOAD || v->body)
		return false;
	for (int i = 0; i < v->nargs; i++) {
		const TValue *x = v->args[i];
		if ((is_param(body, x) && x != body->params[0]) || (in_block(body, x) && !invariant(body, x)))
			return false;
	}
	return true;
}

/* Whether the consumer alone reads body value x. */
static bool read_by_consumer_alone(Lower *L, const TBlock *body, const TValue *x)
{
	bool read = false;
	for (const TValue *v = body->first; v; v = v->next)
		for (int i = 0; i < v->nargs; i++)
			if (v->args[i] == x) {
				if (v->op == TOP_YIELD || !is_consumer(L, v))
					return false;
				read = true;
			}
	return read;
}

/* Marks the consumer: the planned dots, what reads a consumer value,
 * invariant values only the consumer reads, and the carried values the
 * consumer yields. False when the parts mix. */
static bool check_split(Lower *L, const TBlock *body, const TValue *yield);

static bool split_body(Lower *L, const TBlock *body, const TValue *yield)
{
	for (bool changed = true; changed;) {
		changed = false;
		for (const TValue *v = body->first; v && v != yield; v = v->next) {
			bool c = v->op == TOP_DOT && L->vp[v->id].staged;
			for (int i = 0; i < v->nargs && !c; i++)
				c = is_consumer(L, v->args[i]);
			c = c || (invariant(body, v) && read_by_consumer_alone(L, body, v));
			if (c && !is_consumer(L, v)) {
				L->vp[v->id].part = PART_CONSUMER;
				changed = true;
			}
		}
		for (int i = 0; yield && i < yield->nargs; i++) {
			const TValue *p = body->params[i + 1];
			if (is_consumer(L, yield->args[i]) && !is_consumer(L, p)) {
				L->vp[p->id].part = PART_CONSUMER;
				changed = true;
			}
		}
	}
	return check_split(L, body, yield);
}

/* Whether the parts split_body or split_by_copies marked hold together:
 * the producer reads no consumer value, the consumer no producer value of
 * the body but the induction variable and the dots' copied operands, and
 * each carried value is one part's. Unmarked values are the producer's. */
static bool check_split(Lower *L, const TBlock *body, const TValue *yield)
{
	for (int i = 0; i < body->nparams; i++)
		if (!is_consumer(L, body->params[i]) && L->vp[body->params[i]->id].part != PART_BOTH)
			L->vp[body->params[i]->id].part = PART_PRODUCER;
	for (const TValue *v = body->first; v && v != yield; v = v->next) {
		bool consumer = is_consumer(L, v), both = L->vp[v->id].part == PART_BOTH;
		if (!consumer && !both)
			L->vp[v->id].part = PART_PRODUCER;
		for (int i = 0; i < v->nargs; i++) {
			const TValue *x = v->args[i];
			bool inside = in_block(body, x) || is_param(body, x), x_both = L->vp[x->id].part == PART_BOTH;
			if (!consumer && is_consumer(L, x))
				return false;   /* the producer would wait for a dot */
			if (both && inside && !x_both && x != body->params[0])
				return false;   /* made twice from a value made once */
			if (consumer && inside && !is_consumer(L, x) && !x_both && x != body->params[0] &&
			    !(v->op == TOP_DOT && i < 2 && L->vp[x->id].staged))
				return false;   /* the consumer would read a value of another iteration */
		}
	}
	for (int i = 0; yield && i < yield->nargs; i++) {   /* a carried value is one part's, or both's */
		const TValue *x = yield->args[i], *p = body->params[i + 1];
		if (is_consumer(L, x) != is_consumer(L, p) || (L->vp[x->id].part == PART_BOTH) != (L->vp[p->id].part == PART_BOTH))
			return false;
	}
	return true;
}

/* The other split, tried where split_body's does not hold: the producer
 * is what the copies need (the copied loads, their transposes, the values
 * their addresses and masks are made of, and the carried values among
 * those with their updates), the consumer everything else. That lets the
 * consumer load what only it reads at its own iteration, from offsets it
 * carries itself: attention backward's m and Di, read by the softmax, at
 * the rows curr_m advances over. Its other loads keep their order: the
 * body has no loop or if, and the producer no load but the copies'. */
static bool split_by_copies(Lower *L, const TBlock *body, const TValue *yield)
{
	for (int i = 0; i < body->nparams; i++)
		L->vp[body->params[i]->id].part = PART_NONE;
	for (const TValue *v = body->first; v && v != yield; v = v->next)
		L->vp[v->id].part = v->op != TOP_DOT && L->vp[v->id].staged ? PART_PRODUCER : PART_NONE;
	for (bool changed = true; changed;) {
		changed = false;
		for (const TValue *v = body->first; v; v = v->next) {
			bool producer = L->vp[v->id].part == PART_PRODUCER;
			for (int i = 0; v->op == TOP_YIELD && i < v->nargs; i++)
				producer = producer || L->vp[body->params[i + 1]->id].part == PART_PRODUCER;
			if (!producer)
				continue;
			for (int i = 0; i < v->nargs; i++) {
				const TValue *x = v->args[i];
				if (v->op == TOP_YIELD && L->vp[body->params[i + 1]->id].part != PART_PRODUCER)
					continue;
				if ((in_block(body, x) || is_param(body, x)) && L->vp[x->id].part != PART_PRODUCER) {
					L->vp[x->id].part = PART_PRODUCER;
					changed = true;
				}
			}
		}
	}
	for (int i = 0; i < body->nparams; i++)
		if (L->vp[body->params[i]->id].part != PART_PRODUCER && i > 0)
			L->vp[body->params[i]->id].part = PART_CONSUMER;
	for (const TValue *v = body->first; v && v != yield; v = v->next)
		if (L->vp[v->id].part != PART_PRODUCER)
			L->vp[v->id].part = PART_CONSUMER;
	/* What the consumer reads of the producer's values it computes again
	 * for its own iteration (PART_BOTH), and what those read: pure values
	 * and carried ones, made of the induction variable, values from before
	 * the loop and each other (a copy's mask and the softmax both reading
	 * the rows `row0 + arange`, row0 carried by both parts). */
	for (bool changed = true; changed;) {
		changed = false;
		for (const TValue *v = body->first; v; v = v->next) {
			int pv = L->vp[v->id].part;
			for (int i = 0; i < v->nargs; i++) {
				const TValue *x = v->args[i];
				bool need = v->op == TOP_YIELD ? L->vp[body->params[i + 1]->id].part == PART_BOTH
							       : pv == PART_CONSUMER || pv == PART_BOTH;
				if (!need || x == body->params[0] || !(in_block(body, x) || is_param(body, x)) ||
				    L->vp[x->id].part != PART_PRODUCER || (v->op == TOP_DOT && i < 2 && L->vp[x->id].staged))
					continue;   /* (a dot reads its copied operands where the copies put them) */
				if (!is_param(body, x) && (!tir_pure(x) || x->op == TOP_LOAD || x->op == TOP_DOT || x->body ||
							   L->vp[x->id].staged))
					return false;   /* a load or an effect: once */
				L->vp[x->id].part = PART_BOTH;
				changed = true;
			}
		}
	}
	return check_split(L, body, yield);
}

static void unplan(Lower *L, const TBlock *body)
{
	for (int i = 0; i < body->nparams; i++)
		L->vp[body->params[i]->id].part = PART_NONE;
	for (const TValue *v = body->first; v; v = v->next) {
		ValuePlan *p = &L->vp[v->id];
		p->part = PART_NONE;
		p->staged = p->staged_b = NULL;
		p->wgmma = p->in_place = false;
	}
}

/* 1 when the tile's second dimension runs along the rows of its copy. */
static int inner_of(Lower *L, const TValue *x)
{
	lower_use_frame(L, L->vp[x->id].frame);
	return L->vp[x->id].map[1] == L->rank - 1 ? 1 : 0;
}

/* wgmma reads K-major rows of 16, 32 or 64n elements, MN-major ones of 64n. */
static bool wgmma_operand(Lower *L, const TValue *x, bool is_a)
{
	int inner = inner_of(L, x), width = x->type.shape[inner];
	bool k_major = is_a ? inner : !inner;
	return k_major ? width == 16 || width == 32 || width % 64 == 0 : width % 64 == 0;
}

/* A new operand of the plan (in program order: its id). */
static Operand *new_operand(Lower *L, const TValue *x, const char *name)
{
	Plan *p = L->plan;
	if (p->noperands % 16 == 0) {
		Operand **grown = arena_alloc(L->arena, sizeof *grown * (size_t)(p->noperands + 16));
		if (p->noperands)
			memcpy(grown, p->operands, sizeof *grown * (size_t)p->noperands);
		p->operands = grown;
	}
	Operand *o = arena_alloc(L->arena, sizeof *o);
	o->id = p->noperands;
	o->tile = x;
	o->name = name;
	p->operands[p->noperands++] = o;
	return o;
}

/* An operand of a wgmma dot (wgmma), its rows permuted for a result with
 * m_warps warps along its rows (wgmma_row; 0: in their own order). */
static Operand *copy_target(Lower *L, const TValue *x, Pipeline *pp, const char *name, bool wgmma, int m_warps)
{
	Operand *o = new_operand(L, x, name);
	o->inner = inner_of(L, x);
	o->width = x->type.shape[o->inner];
	o->elems = x->type.shape[0] * x->type.shape[1];
	o->pipe = pp;
	o->wgmma = wgmma;
	o->m_warps = m_warps;
	return o;
}

/* The dot adds to its loop-carried accumulator, which nothing else reads,
 * and yields the sum back to it: it may accumulate in place (the carried
 * value's registers span every dimension of its tile, as the dot's). */
static bool accumulates_in_place(Lower *L, const TBlock *body, const TValue *yield, const TValue *v)
{
	const TValue *acc = v->args[2];
	if (!yield || !L->uses || L->uses[acc->id] != 1 || L->uses[v->id] != 1)
		return false;
	for (int i = 1; i < body->nparams; i++)
		if (body->params[i] == acc)
			return i - 1 < yield->nargs && yield->args[i - 1] == v &&
			       L->vp[acc->id].present == L->vp[v->id].present;
	return false;
}

/* The dot adds to `carried * s` (attention's `acc * alpha[:, None]`, the
 * online softmax's rescale), carried a loop-carried value only that
 * product reads, the product read by the dot alone, the sum yielded back
 * to carried, all spread alike: the product may be computed in carried's
 * registers and the dot accumulate there too (in place). Marks the
 * product; returns carried, or NULL. */
static const TValue *rescaled_in_place(Lower *L, const TBlock *body, const TValue *yield, const TValue *v)
{
	const TValue *c = v->args[2];
	if (!yield || !L->uses || c->op != TOP_MUL || c->nargs != 2 || !in_block(body, c) || L->uses[c->id] != 1 ||
	    L->uses[v->id] != 1)
		return NULL;
	const ValuePlan *pv = &L->vp[v->id], *pc = &L->vp[c->id];
	for (int k = 0; k < 2; k++) {
		const TValue *acc = c->args[k];
		if (!is_param(body, acc) || acc == body->params[0] || L->uses[acc->id] != 1 || c->args[1 - k] == acc)
			continue;
		const ValuePlan *pa = &L->vp[acc->id];
		if (pa->frame != pv->frame || pc->frame != pv->frame || pa->present != pv->present ||
		    pc->present != pv->present || pa->map[0] != pv->map[0] || pa->map[1] != pv->map[1] ||
		    acc->type.dtype != v->type.dtype)
			continue;
		for (int i = 1; i < body->nparams; i++)
			if (body->params[i] == acc && i - 1 < yield->nargs && yield->args[i - 1] == v) {
				L->vp[c->id].in_place = true;
				L->vp[c->id].in_place_arg = (int8_t)k;
				return acc;
			}
	}
	return NULL;
}

/* How a pipelined loop's dot gets operand i: streamed by asynchronous
 * copies (copyable), or, for a wgmma dot only, not copied (Operand.loop):
 * a 16-bit tile made before the loop, written once before it (`once`:
 * attention's q), or one of the loop's own values, written by the consumer
 * before the dot every iteration (`here`), or, when that value is A and
 * already in the dot's result layout, packed from its registers into
 * wgmma's A registers (`regs`: attention's p = softmax(q k).to(fp16)). */
typedef enum { FEED_COPY, FEED_ONCE, FEED_HERE, FEED_REGS, FEED_NONE } Feed;

/* Whether A = x of wgmma dot v can come from the threads' registers: x's
 * frame is the blocked layout of wgmma's result (spt [1, 2], tpw [8, 4])
 * with the dot's warps along its rows, its rows the dot's M and its
 * columns K. Then thread (warp w, lane 4 g + c) holds, for each 16 k, the
 * elements of A that wgmma reads from it: rows 16 (w % 4) + g and + 8 of
 * each instruction's 64 are the thread's local rows 2 t and 2 t + 1, as
 * in the result, and the k 2 c, 2 c + 1 and + 8 are local columns 4 kk ..
 * 4 kk + 3 (docs/lowering.md section 7). */
static bool regs_feed(Lower *L, const TValue *v, const TValue *x)
{
	const ValuePlan *px = &L->vp[x->id];
	const Frame *fx = &L->frames[px->frame], *fv = &L->frames[L->vp[v->id].frame];
	const Layout *l = &fx->layout;
	return fx->unit == MATRIX_WGMMA && fx->wm == fv->wm && fx->wn == 1 && px->present == 3u && px->map[0] == 0 &&
	       px->map[1] == 1 && fx->rank == 2 && fx->shape[0] == x->type.shape[0] && fx->shape[1] == x->type.shape[1] &&
	       x->type.shape[0] == v->type.shape[0] && x->type.shape[1] % 16 == 0 && l->kind == LAYOUT_BLOCKED &&
	       l->size_per_thread[0] == 1 && l->size_per_thread[1] == 2 && l->threads_per_warp[0] == 8 &&
	       l->threads_per_warp[1] == 4 && l->warps_per_cta[0] == fv->wm && l->warps_per_cta[1] == 1 &&
	       l->order[0] == 1 && L->k->warp_size == 32;
}

static Feed feed_of(Lower *L, const TBlock *body, const TValue *v, int i, bool wgmma)
{
	const TValue *x = v->args[i];
	if (copyable(L, body, copied_load(L, body, x)))
		return FEED_COPY;
	if (!wgmma || x->type.rank != 2 || !is_16bit_float(x->type.dtype) || L->vp[x->id].present != 3u)
		return FEED_NONE;
	if (!in_block(body, x))
		return is_param(body, x) ? FEED_NONE : FEED_ONCE;
	return i == 0 && regs_feed(L, v, x) ? FEED_REGS : FEED_HERE;
}

/* Whether dot v may go on wgmma, its operands in wgmma's layouts. */
static bool wgmma_dot(Lower *L, const TValue *v)
{
	return L->frames[L->vp[v->id].frame].unit == MATRIX_WGMMA && v->args[0]->type.dtype == v->args[1]->type.dtype &&
	       wgmma_operand(L, v->args[0], true) && wgmma_operand(L, v->args[1], false);
}


/* ---- the bulk tensor copy engine (sm_90a) ----
 *
 * A pipeline whose streamed operands are all blocks of host descriptors
 * (TValue.desc) copies them with cp.async.bulk.tensor: one thread arrives
 * on the stage's mbarrier expecting the stage's bytes and issues the
 * copies, each box landing in wgmma's swizzled layout as the hardware
 * swizzles it (16-byte chunk c of row r of a box at chunk c ^ (r % 8) for
 * 128-byte rows; 64- and 32-byte rows as swizzled() has them), zeros
 * outside the view (the masks' meaning). Where operand A's rows are
 * permuted (wgmma_row, a frame without Frame.wgmma_rows), which keeps
 * groups of 8 rows, it could be copied as boxes of 8 rows, each to its
 * place (tma_permuted_rows). Rows wider than 64 elements are blocks of 64
 * columns, a box each. The host encodes one tensor map per descriptor and
 * box shape (cuTensorMapEncodeTiled, src/runtime/cuda.c). */

/* The row of A the result's row m reads (wgmma_row, on a number). */
static int wgmma_row_of(int m, int wm)
{
	int lw = 0;
	while (1 << lw < wm)
		lw++;
	int g = m & 7, w = (m >> 3) & (wm - 1), rep = m >> (3 + lw);
	return g + 8 * (rep & 1) + 16 * (w & 3) + 64 * (w >> 2) + 16 * wm * (rep >> 1);
}

static int tmap_of(Lower *L, const TDescLoad *d, int box_rows, int box_cols, DType elem)
{
	STensorMap m = {.base = (int)d->base->iconst, .shape = {(int)d->shape[0]->iconst, (int)d->shape[1]->iconst},
			.stride = (int)d->stride[0]->iconst, .elem = elem, .box_rows = box_rows, .box_cols = box_cols,
			.swizzle = 2 * box_cols};
	Plan *p = L->plan;
	for (int i = 0; i < p->ntmaps; i++)
		if (!memcmp(&p->tmaps[i], &m, sizeof m))
			return i;
	if (p->ntmaps % 8 == 0) {
		STensorMap *grown = arena_alloc(L->arena, sizeof *grown * (size_t)(p->ntmaps + 8));
		if (p->ntmaps)
			memcpy(grown, p->tmaps, sizeof *grown * (size_t)p->ntmaps);
		p->tmaps = grown;
	}
	p->tmaps[p->ntmaps] = m;
	return p->ntmaps++;
}

/* Whether operand o's load x can be copied by tensor map boxes. */
static bool tma_copyable(const Operand *o, const TValue *x)
{
	const TDescLoad *d = x->desc;
	if (!o->wgmma || !d || d->rank != 2 || x->type.rank != 2 || !is_16bit_float(x->type.dtype))
		return false;
	int rows = x->type.shape[0], cols = x->type.shape[1];
	if (d->block[0] != rows || d->block[1] != cols || rows > 256 || rows % 8 || !(cols == 16 || cols == 32 || cols % 64 == 0))
		return false;
	/* A's rows permuted: only when they are the load's rows */
	return !o->m_warps || (o->inner && o->tile == x);
}

/* Value x is read once less; a pure value nothing reads any more is
 * dropped (-1: not lowered), and what it reads read once less. */
static void unuse(Lower *L, const TValue *x)
{
	if (!L->uses || L->uses[x->id] <= 0 || --L->uses[x->id] || !lower_pure(x))
		return;
	L->uses[x->id] = -1;
	for (int i = 0; i < x->nargs; i++)
		unuse(L, x->args[i]);
}

/* A block the copy engine copies, or its transpose read by the dot. */
static bool tma_value(Lower *L, const TValue *v)
{
	const Operand *o = L->vp[v->id].staged;
	return (v->op == TOP_LOAD || v->op == TOP_TRANS) && o && o->tma;
}

/* Whether some value of frame f other than the copy engine's blocks is
 * lowered (then the frame's thread coordinates are needed). */
static bool frame_used(Lower *L, const TBlock *b, int f)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		if (frame_used(L, v->body, f) || (v->op == TOP_IF && frame_used(L, v->orelse, f)))
			return true;
		if (L->vp[v->id].frame == f && !tma_value(L, v) && (!lower_pure(v) || (L->uses && L->uses[v->id] > 0)))
			return true;
	}
	return false;
}

/* Whether operand A, its rows permuted for the result's layout, goes as
 * 8-row boxes; otherwise A goes by cp.async and the other operands by the
 * copy engine, both kinds of completion in one pipeline. On the H200 the
 * boxes were slower (09's matmul_kernel_tma 0.2443 ms against 0.2316 with
 * A by cp.async, gemm_tiles.py's blocks at 4000^3 0.3266 against 0.2750;
 * bench/gemm/RESULTS.md): sixteen 1 KiB copies a stage cost more than
 * every thread's cp.async of A. */
static const bool tma_permuted_rows = false;

static void plan_tma(Lower *L, const TBlock *body, Pipeline *pp)
{
	if (L->target->matrix != MATRIX_WGMMA || !pp->wgmma || L->target->no_tensor_maps)
		return;
	bool some = false;
	for (int i = 0; i < L->plan->noperands; i++) {
		const Operand *o = L->plan->operands[i];
		if (o->pipe == pp && tma_copyable(o, copied_load(L, body, o->tile)) && (tma_permuted_rows || !o->m_warps))
			some = true;
	}
	if (!some)
		return;
	pp->tma = true;
	for (int i = 0; i < L->plan->noperands; i++) {
		Operand *o = L->plan->operands[i];
		if (o->pipe != pp)
			continue;
		if (o->same) {   /* after its copy's operand (ids in program order) */
			o->tma = o->same->tma;
			o->tmap = o->same->tmap;
			continue;
		}
		const TValue *x = copied_load(L, body, o->tile);
		if (!tma_copyable(o, x) || (!tma_permuted_rows && o->m_warps)) {
			pp->cp_async = true;
			continue;
		}
		int rows = x->type.shape[0], cols = x->type.shape[1];
		o->tma = true;
		o->tmap = tmap_of(L, x->desc, o->m_warps ? 8 : rows, imin(cols, 64), x->type.dtype);
		pp->tx_bytes += rows * cols * dtype_bytes(x->type.dtype);
		/* the copies read the offsets, not the pointer tile, the mask and `other` */
		for (int k = 0; L->uses && k < 2; k++)
			if (x->desc->offset[k] && L->uses[x->desc->offset[k]->id] >= 0)
				L->uses[x->desc->offset[k]->id]++;
		for (int k = 0; k < x->nargs; k++)
			unuse(L, x->args[k]);
	}
	/* a frame of copied blocks alone computes no thread coordinates */
	for (int i = 0; i < L->plan->noperands; i++) {
		const Operand *o = L->plan->operands[i];
		int f = L->vp[copied_load(L, body, o->tile)->id].frame;
		if (o->pipe == pp && o->tma && L->frames[f].live && !frame_used(L, L->tk->body, f))
			L->frames[f].live = false;
	}
}

/* The operand an earlier pipeline writes once from the same tile, in the
 * same layout, where both loops are of the kernel's own block (so the
 * earlier write has happened): this loop's dots read it where it is, and
 * the tile's registers need not live on to be written again (attention
 * backward's k and v, read by the masked loop and then the other). */
static const Operand *written_before(Lower *L, const TValue *loop, const Operand *o)
{
	if (!in_block(L->tk->body, loop))
		return NULL;
	for (int i = 0; i < L->plan->noperands; i++) {
		const Operand *e = L->plan->operands[i];
		if (e != o && e->once && !e->same && e->tile == o->tile && e->loop && e->loop->loop != loop &&
		    in_block(L->tk->body, e->loop->loop) && e->inner == o->inner && e->width == o->width &&
		    e->elems == o->elems && e->wgmma == o->wgmma && e->m_warps == o->m_warps)
			return e;
	}
	return NULL;
}

Pipeline *lower_plan_pipeline(Lower *L, const TValue *loop, int room)
{
	int stages = loop->aux > 0 ? loop->aux : L->tk->num_stages;
	const TBlock *body = loop->body;
	if (stages < 1)
		return NULL;
	const TValue *yield = NULL;
	int dots = 0;
	for (const TValue *v = body->first; v; v = v->next) {
		if (v->op == TOP_FOR || v->op == TOP_WHILE || v->op == TOP_IF)
			return NULL;
		if (v->op == TOP_YIELD)
			yield = v;
		dots += v->op == TOP_DOT && L->vp[v->id].matrix;
	}
	if (!dots)
		return NULL;
	/* the streamed operands' bytes a stage, the others' once; as many
	 * stages as the block's shared memory holds (64 KiB on AMD) */
	int per_stage = 0, fixed = 0;
	for (const TValue *v = body->first; v; v = v->next) {
		if (v->op != TOP_DOT || !L->vp[v->id].matrix)
			continue;
		bool wg = wgmma_dot(L, v);
		Feed fa = feed_of(L, body, v, 0, wg), fb = feed_of(L, body, v, 1, wg);
		if (fa == FEED_NONE || fb == FEED_NONE || (fa != FEED_COPY && fb != FEED_COPY))
			return NULL;   /* (each dot streams at least one operand) */
		for (int i = 0; i < 2; i++) {
			int bytes = dtype_bytes(v->args[i]->type.dtype) * v->args[i]->type.shape[0] * v->args[i]->type.shape[1];
			Feed f = i ? fb : fa;
			if (f == FEED_COPY && i && !first_b_reader(L, body, v))
				continue;   /* an earlier dot's copy (Operand.same) */
			*(f == FEED_COPY ? &per_stage : &fixed) += f == FEED_REGS ? 0 : bytes;
		}
	}
	if (per_stage * stages + fixed > room)
		stages = (room - fixed) / per_stage;
	if (stages < 1)
		return NULL;
	Pipeline *pp = arena_alloc(L->arena, sizeof *pp);
	pp->loop = loop;
	pp->stages = stages;
	pp->bytes = per_stage * stages + fixed;
	int first_operand = L->plan->noperands;
	bool mixed = false;   /* a shared copy read by a wgmma dot and an mma.sync one, or in two layouts */
	for (const TValue *v = body->first; v; v = v->next) {
		if (v->op != TOP_DOT || !L->vp[v->id].matrix)
			continue;
		ValuePlan *p = &L->vp[v->id];
		const Frame *fr = &L->frames[p->frame];
		p->wgmma = wgmma_dot(L, v);
		Feed fa = feed_of(L, body, v, 0, p->wgmma), fb = feed_of(L, body, v, 1, p->wgmma);
		pp->wgmma |= p->wgmma;
		int wm = p->wgmma && !fr->wgmma_rows ? fr->wm : 0;
		Operand *prev_b = L->vp[copied_load(L, body, v->args[1])->id].staged;   /* an earlier dot's copy */
		prev_b = prev_b && prev_b->pipe == pp ? prev_b : NULL;
		p->staged = L->vp[v->args[0]->id].staged = copy_target(L, v->args[0], fa == FEED_COPY ? pp : NULL, dot_name(L, v, "a"), p->wgmma, wm);
		p->staged_b = L->vp[v->args[1]->id].staged = copy_target(L, v->args[1], fb == FEED_COPY ? pp : NULL, dot_name(L, v, "b"), p->wgmma, 0);
		for (int i = 0; i < 2; i++) {
			Operand *o = i ? p->staged_b : p->staged;
			Feed f = i ? fb : fa;
			if (f == FEED_COPY) {
				ValuePlan *lp = &L->vp[copied_load(L, body, v->args[i])->id];
				if (i && prev_b) {   /* read as B before: one copy */
					o->same = prev_b;
					mixed |= prev_b->wgmma != o->wgmma || prev_b->width != o->width || prev_b->elems != o->elems;
				}
				lp->staged = prev_b && i ? prev_b : o;
			} else {
				L->vp[v->args[i]->id].staged = NULL;   /* lowered as it is; the dot writes it */
				o->loop = pp;
				o->once = f == FEED_ONCE;
				o->regs = f == FEED_REGS;
				if (o->once)
					o->same = written_before(L, loop, o);
			}
		}
	}
	if (mixed || (!split_body(L, body, yield) && !split_by_copies(L, body, yield))) {
		unplan(L, body);
		L->plan->noperands = first_operand;
		return NULL;
	}
	for (const TValue *v = body->first; v; v = v->next) {
		ValuePlan *p = &L->vp[v->id];
		const TValue *x = v->op == TOP_DOT && p->staged && p->staged->regs ? v->args[0] : NULL;
		if (x && L->uses && L->uses[x->id] == 1 && packed_source(L, x) != x)
			L->uses[x->id] = 0;   /* the rounded tile: the dot packs from its operand */
		if (v->op != TOP_DOT || !p->wgmma || pp->nacc == 4)
			continue;
		const TValue *carried = accumulates_in_place(L, body, yield, v) ? v->args[2] : rescaled_in_place(L, body, yield, v);
		if (!carried)
			continue;
		p->in_place = true;
		pp->acc[pp->nacc++] = carried;
	}
	plan_tma(L, body, pp);
	Plan *plan = L->plan;
	if (plan->npipes % 8 == 0) {
		Pipeline **grown = arena_alloc(L->arena, sizeof *grown * (size_t)(plan->npipes + 8));
		if (plan->npipes)
			memcpy(grown, plan->pipes, sizeof *grown * (size_t)plan->npipes);
		plan->pipes = grown;
	}
	pp->id = plan->npipes;
	plan->pipes[plan->npipes++] = pp;
	L->vp[loop->id].pipe = pp;
	return pp;
}

void lower_plan_operands(Lower *L, const TBlock *b)
{
	for (const TValue *v = b ? b->first : NULL; v; v = v->next) {
		lower_plan_operands(L, v->body);
		if (v->op == TOP_IF)
			lower_plan_operands(L, v->orelse);
		ValuePlan *p = &L->vp[v->id];
		if (v->op != TOP_DOT || !p->matrix || p->staged || (L->uses && L->uses[v->id] < 0))
			continue;
		for (int i = 0; i < 2; i++) {
			const TValue *x = v->args[i];
			Operand *o = new_operand(L, x, dot_name(L, v, i ? "b" : "a"));
			o->inner = 1;
			o->width = x->type.shape[1];
			o->elems = x->type.shape[0] * x->type.shape[1];
			int kc = lower_dot_k_chunk(L, v);
			if (kc < x->type.shape[1 - i]) {   /* one chunk of K (K in chunks) */
				o->width = i ? o->width : kc;
				o->elems = o->elems / x->type.shape[1 - i] * kc;
			}
			*(i ? &p->staged_b : &p->staged) = o;
		}
	}
}

static SReg *slot_reg(Lower *L, const char *name, int line)
{
	SReg *r = simt_reg(L->k, SR_UNIFORM, DT_I32, DT_I32, 1, name);
	SStmt *s = simt_stmt(L->k, SS_ASSIGN, line);
	s->uniform = true;
	s->dst = simt_ref(L->k, r, NULL);
	s->value = lower_ic(L, 0);
	return r;
}

void lower_pipeline_regs(Lower *L, const Pipeline *pp)
{
	for (int i = 0; i < L->plan->noperands; i++) {
		const Operand *o = L->plan->operands[i];
		if ((o->pipe != pp && o->loop != pp) || o->regs)
			continue;
		if (o->same) {
			L->operand_smem[o->id] = L->operand_smem[o->same->id];
			continue;
		}
		const TValue *x = o->tile;
		SReg *r = simt_reg(L->k, SR_SHARED, x->type.dtype, x->type.dtype, o->elems * (o->pipe ? pp->stages : 1), o->name);
		r->packed = true;
		r->align = o->wgmma ? 1024 : 0;   /* the swizzle is of address bits 4-9 */
		L->operand_smem[o->id] = r;
	}
	PipeRegs *pr = &L->pipe_regs[pp->id];
	pr->load_slot = slot_reg(L, "load_slot", pp->loop->line);
	pr->use_slot = slot_reg(L, "use_slot", pp->loop->line);
	pr->before = L->k->last;
	if (!pp->tma)
		return;
	/* an mbarrier a slot, each expecting one arrival (the issuing thread's) */
	pr->bars = simt_reg(L->k, SR_SHARED, DT_U64, DT_U64, pp->stages, "tma_bar");
	pr->use_phase = slot_reg(L, "use_phase", pp->loop->line);
	SStmt *s = lower_uniform_stmt(L, SS_MBAR_INIT, pp->loop->line);
	s->src = pr->bars;
	s->vec = pp->stages;
	simt_stmt(L->k, SS_BARRIER, pp->loop->line);
	pr->before = L->k->last;
}

/* Bulk tensor copies: the issuing thread arrives on the slot's mbarrier,
 * expecting the stage's bytes, before the copies (lower_copy_tma). */
void lower_tma_expect(Lower *L, const Pipeline *pp)
{
	const PipeRegs *pr = &L->pipe_regs[pp->id];
	SStmt *s = lower_uniform_stmt(L, SS_MBAR_EXPECT, pp->loop->line);
	s->bar = simt_ref(L->k, pr->bars, simt_ref(L->k, pr->load_slot, NULL));
	s->vec = pp->tx_bytes;
}

/* The consumer waits for its slot's copies: the phase of parity use_phase
 * of the slot's mbarrier. */
void lower_tma_wait(Lower *L, const Pipeline *pp)
{
	const PipeRegs *pr = &L->pipe_regs[pp->id];
	SStmt *s = lower_uniform_stmt(L, SS_MBAR_WAIT, pp->loop->line);
	s->bar = simt_ref(L->k, pr->bars, simt_ref(L->k, pr->use_slot, NULL));
	s->value = simt_ref(L->k, pr->use_phase, NULL);
}

/* After use_slot moved on: the parity flips each time it wraps to 0. */
void lower_tma_next_phase(Lower *L, const Pipeline *pp)
{
	const PipeRegs *pr = &L->pipe_regs[pp->id];
	SExpr *phase = simt_ref(L->k, pr->use_phase, NULL);
	SExpr *sel = simt_leaf(L->k, SE_SELECT, DT_I32, 0);
	sel->a[0] = simt_cmp(L->k, CMP_EQ, DT_I32, simt_ref(L->k, pr->use_slot, NULL), lower_ic(L, 0));
	sel->a[1] = lower_index_op(simt_binary(L->k, TOP_XOR, DT_I32, phase, lower_ic(L, 1)));
	sel->a[2] = phase;
	SStmt *s = lower_uniform_stmt(L, SS_ASSIGN, pp->loop->line);
	s->dst = simt_ref(L->k, pr->use_phase, NULL);
	s->value = sel;
}

/* The copies of a host descriptor's block (Operand.tma) into slot
 * load_slot, on that slot's mbarrier. */
static void lower_copy_tma(Lower *L, const TValue *v, const Operand *o)
{
	const TDescLoad *d = v->desc;
	const STensorMap *m = &L->plan->tmaps[o->tmap];
	const PipeRegs *pr = &L->pipe_regs[o->pipe->id];
	SExpr *at[2];
	for (int k = 0; k < 2; k++) {
		if (!d->offset[k]) {
			at[k] = lower_ic(L, d->offset_const[k]);
			continue;
		}
		Nest none = {0};
		SExpr *x = lower_read_value(L, &none, d->offset[k]);
		DType dt = d->offset[k]->type.dtype;
		at[k] = dt == DT_I32 ? x : simt_cast(L->k, dt, DT_I32, x);
	}
	int rows = v->type.shape[0], cols = v->type.shape[1], blocks = cols > 64 ? cols / 64 : 1;
	SExpr *slot = simt_ref(L->k, pr->load_slot, NULL);
	SExpr *base = lower_index_op(simt_binary(L->k, TOP_MUL, DT_I32, slot, lower_ic(L, o->elems)));
	for (int j = 0; j < blocks; j++)
		for (int r = 0; r < rows; r += m->box_rows) {
			int row = o->m_warps ? wgmma_row_of(r, o->m_warps) : r;
			SStmt *s = lower_uniform_stmt(L, SS_TMA_LOAD, v->line);
			s->dst = simt_ref(L->k, L->operand_smem[o->id],
					  lower_iadd(L, base, lower_ic(L, j * rows * 64 + row * m->box_cols)));
			s->tmap = o->tmap;
			s->coord[0] = lower_iadd(L, at[1], lower_ic(L, 64 * j));
			s->coord[1] = lower_iadd(L, at[0], lower_ic(L, r));
			s->bar = simt_ref(L->k, pr->bars, slot);
		}
	L->place[v->id].lowered = true;
}

/* ---- a copy's place, split into the thread's and the copy's parts ---- */

/* The thread and copy an index expression is evaluated for. */
typedef struct {
	int64_t lane, warp;
	const int *loops;   /* the statement's loop variables */
	int nloops;
} IndexAt;

static const SExpr *first_def(const Lower *L, const SReg *r)
{
	for (int fi = 0; fi < L->nframes; fi++)
		for (int d = 0; d < TC_MAX_RANK; d++)
			if (L->firsts[fi][d] == r)
				return L->first_defs[fi][d];
	return NULL;
}

/* The value of integer index expression e at `at`; false where e reads
 * anything but constants, loop variables, the lane, the warp and the
 * frames' first coordinates (of those), or leaves 32 bits. */
static bool eval_index(const Lower *L, const SExpr *e, const IndexAt *at, int64_t *out)
{
	int64_t x, y;
	switch (e->kind) {
	case SE_INT: *out = e->ival; return true;
	case SE_LOOP:
		if (e->aux >= at->nloops)
			return false;
		*out = at->loops[e->aux];
		return true;
	case SE_LANE: *out = at->lane; return true;
	case SE_WARP: *out = at->warp; return true;
	case SE_REF: {
		if (e->index)
			return false;
		if (e->reg == L->lane || e->reg == L->warp) {
			*out = e->reg == L->lane ? at->lane : at->warp;
			return true;
		}
		const SExpr *def = first_def(L, e->reg);
		return def && eval_index(L, def, at, out);
	}
	case SE_BINARY:
		if (e->dtype != DT_I32 || !eval_index(L, e->a[0], at, &x) || !eval_index(L, e->a[1], at, &y))
			return false;
		switch (e->aux) {
		case TOP_ADD: x += y; break;
		case TOP_SUB: x -= y; break;
		case TOP_MUL: x *= y; break;
		case TOP_AND: x &= y; break;
		case TOP_OR: x |= y; break;
		case TOP_XOR: x ^= y; break;
		case TOP_SHL: if (y < 0 || y > 31) return false; x *= (int64_t)1 << y; break;
		case TOP_SHR: if (y < 0 || y > 31 || x < 0) return false; x >>= y; break;
		case TOP_IDIV: if (y == 0) return false; x /= y; break;
		case TOP_MOD: if (y == 0) return false; x %= y; break;
		default: return false;
		}
		if (x < INT32_MIN || x > INT32_MAX)
			return false;
		*out = x;
		return true;
	default: return false;
	}
}

/* e with the loop variables in `loops` (a bit each) and, if `thread`, the
 * thread's parts (lane, warp, first coordinates) as 0, folded. */
static SExpr *zeroed(Lower *L, SExpr *e, unsigned loops, bool thread)
{
	switch (e->kind) {
	case SE_LOOP: return loops & (1u << e->aux) ? lower_ic(L, 0) : e;
	case SE_LANE: case SE_WARP: return thread ? lower_ic(L, 0) : e;
	case SE_REF:
		if (thread && !e->index && (e->reg == L->lane || e->reg == L->warp || first_def(L, e->reg)))
			return lower_ic(L, 0);
		return e;
	case SE_BINARY: {
		if (e->dtype != DT_I32)
			return e;
		SExpr *a = zeroed(L, e->a[0], loops, thread), *b = zeroed(L, e->a[1], loops, thread);
		switch (e->aux) {
		case TOP_ADD: return lower_iadd(L, a, b);
		case TOP_MUL: return lower_imul(L, a, b);
		case TOP_XOR: return ixor(L, a, b);
		case TOP_AND:
			if (lower_is_int_const(a, 0) || lower_is_int_const(b, 0))
				return lower_ic(L, 0);
			return lower_ibin(L, TOP_AND, a, b);
		case TOP_SHR: case TOP_IDIV:
			if (lower_is_int_const(a, 0))
				return lower_ic(L, 0);
			return lower_ibin(L, e->aux, a, b);
		default: return lower_index_op(simt_binary(L->k, e->aux, DT_I32, a, b));
		}
	}
	default: return e;
	}
}

/* Whether place(thread, copy) = place(thread, first copy) + d[copy] for
 * every thread of the block and each of the statement's copies (numbered
 * as their loops run), d the same for all threads: tried on them all (a
 * block has at most a few thousand threads, a statement here 16 copies).
 * `base`, if given, must give each thread's place at the first copy too. */
static bool place_splits(Lower *L, const SStmt *s, const SExpr *place, const SExpr *base, int64_t d[16])
{
	int count = 1, loops[SIMT_MAX_LOOPS] = {0};
	for (int i = 0; i < s->nloops; i++)
		count *= s->extent[i];
	IndexAt at = {.loops = loops, .nloops = s->nloops};
	int lanes = L->target->warp_size, warps = L->k->num_warps > 0 ? L->k->num_warps : 1;
	for (int t = 0; t < lanes * warps; t++) {
		at.lane = t % lanes;
		at.warp = t / lanes;
		int64_t first, p;
		memset(loops, 0, sizeof loops);
		if (!eval_index(L, place, &at, &first))
			return false;
		if (base && (!eval_index(L, base, &at, &p) || p != first))
			return false;
		for (int c = 0; c < count; c++) {
			for (int i = s->nloops - 1, rest = c; i >= 0; i--) {
				loops[i] = rest % s->extent[i];
				rest /= s->extent[i];
			}
			if (!eval_index(L, place, &at, &p))
				return false;
			if (t == 0)
				d[c] = p - first;
			else if (d[c] != p - first)
				return false;
		}
	}
	return true;
}

/* The offset d[copy] of place_splits as an expression of the statement's
 * loop variables: where d adds a constant for each bit of each loop
 * variable (of extents that are powers of two), the sum of those (a
 * multiple of the variable where they double bit by bit); else the place
 * of lane 0 of warp 0 less its first one (the loop variables of extent 1,
 * in `single`, as 0), constants once the copies are unrolled. NULL if
 * that place cannot be evaluated. */
static SExpr *copy_offset(Lower *L, const SStmt *s, SExpr *place, const int64_t d[16], unsigned single)
{
	int count = 1, stride[SIMT_MAX_LOOPS], nbits[SIMT_MAX_LOOPS];
	bool by_bits = true;
	for (int i = s->nloops - 1; i >= 0; i--) {
		stride[i] = count;
		count *= s->extent[i];
		nbits[i] = 0;
		while (1 << nbits[i] < s->extent[i])
			nbits[i]++;
		by_bits &= 1 << nbits[i] == s->extent[i];
	}
	for (int c = 0; c < count && by_bits; c++) {
		int64_t sum = 0;
		for (int i = 0; i < s->nloops; i++)
			for (int b = 0; b < nbits[i]; b++)
				if ((c / stride[i] % s->extent[i]) >> b & 1)
					sum += d[stride[i] << b];
		by_bits = sum == d[c];
	}
	if (by_bits) {
		SExpr *e = lower_ic(L, 0);
		for (int i = 0; i < s->nloops; i++) {
			bool doubling = true;
			for (int b = 1; b < nbits[i]; b++)
				doubling &= d[stride[i] << b] == 2 * d[stride[i] << (b - 1)];
			SExpr *v = loop_var(L, i);
			if (doubling && nbits[i]) {
				e = lower_iadd(L, e, lower_imul(L, v, lower_ic(L, d[stride[i]])));
				continue;
			}
			for (int b = 0; b < nbits[i]; b++) {
				if (!d[stride[i] << b])
					continue;
				SExpr *bit = lower_ibin(L, TOP_SHR, v, lower_ic(L, b));
				if (b < nbits[i] - 1)
					bit = lower_ibin(L, TOP_AND, bit, lower_ic(L, 1));
				e = lower_iadd(L, e, lower_imul(L, bit, lower_ic(L, d[stride[i] << b])));
			}
		}
		return e;
	}
	IndexAt none = {.loops = NULL, .nloops = 0};
	int64_t c0 = 0;
	if (!eval_index(L, zeroed(L, place, (1u << s->nloops) - 1, true), &none, &c0))
		return NULL;
	return lower_iadd(L, zeroed(L, place, single, true), lower_ic(L, -c0));
}

/* Where copy statement `s` (its loops made, `at` its element's coordinates)
 * puts its element in a slot of operand o, computed before the pipelined
 * loop (the swizzled place depends on the thread and the copy alone; the
 * loop adds the slot's start). Where the place is the thread's place at
 * its first copy plus an offset the same in every thread, that is one
 * register and the offsets are constants once the copies are unrolled
 * (addresses `[r + immediate]`); else a register a copy. NULL where a copy
 * has too many elements for registers of their own (each one a register
 * the whole loop long), or where there is no place before the loop. */
static SExpr *copy_place(Lower *L, const Operand *o, const SStmt *s, SExpr *at[2])
{
	PipeRegs *pr = &L->pipe_regs[o->pipe->id];
	int count = 1;
	for (int i = 0; i < s->nloops; i++)
		count *= s->extent[i];
	if (!pr->before || count > 16)
		return NULL;
	SExpr *place = operand_index(L, o, NULL, at[0], at[1]);
	SReg *r = L->copy_at[o->id];
	SExpr *base = L->copy_base[o->id];
	int64_t d[16];
	unsigned all = (1u << s->nloops) - 1, single = 0;
	for (int i = 0; i < s->nloops; i++)
		single |= s->extent[i] == 1 ? 1u << i : 0;
	if (r && base) {
		if (!place_splits(L, s, place, base, d))
			return NULL;
	} else if (!r && place_splits(L, s, place, NULL, d)) {
		base = zeroed(L, place, all, false);
		r = simt_reg(L->k, SR_THREAD, DT_I32, DT_I32, 1, arena_printf(L->arena, "%s_place", o->name));
		r->kept = true;   /* else nvcc sinks its swizzle into the loop, 30 instructions an iteration */
		L->copy_at[o->id] = r;
		L->copy_base[o->id] = base;
		SStmt *pre = simt_stmt_after(L->k, pr->before, SS_ASSIGN, s->line);
		pr->before = pre;
		pre->dst = simt_ref(L->k, r, NULL);
		pre->value = base;
	}
	if (r && base) {
		SExpr *off = copy_offset(L, s, place, d, single);
		return off ? lower_iadd(L, simt_ref(L->k, r, NULL), off) : NULL;
	}
	SExpr *lin = lower_ic(L, 0);
	for (int i = 0; i < s->nloops; i++)
		lin = lower_iadd(L, lower_imul(L, lin, lower_ic(L, s->extent[i])), loop_var(L, i));
	if (r && r->count == count)
		return simt_ref(L->k, r, lin);
	if (r)
		return NULL;
	r = simt_reg(L->k, SR_THREAD, DT_I32, DT_I32, count, arena_printf(L->arena, "%s_place", o->name));
	L->copy_at[o->id] = r;
	SStmt *pre = simt_stmt_after(L->k, pr->before, SS_ASSIGN, s->line);
	pr->before = pre;
	pre->nloops = s->nloops;
	for (int i = 0; i < s->nloops; i++)
		pre->extent[i] = s->extent[i];
	pre->dst = simt_ref(L->k, r, lin);
	pre->value = place;
	return simt_ref(L->k, r, lin);
}

void lower_copy_async(Lower *L, const TValue *v)
{
	const Operand *o = L->vp[v->id].staged;
	if (o->tma) {
		lower_copy_tma(L, v, o);
		return;
	}
	const TValue *ptr = v->args[0], *mask = v->nargs > 1 ? v->args[1] : NULL;
	unsigned present = L->vp[v->id].present;
	const TValue *px, *pn;
	int vec = copy_width_split(L, v, &px, &pn);
	Nest n = lower_nest_over(L, present, vec);
	SExpr *at[2];
	for (int k = 0; k < 2; k++) {
		int d = L->vp[v->id].map[k];
		at[k] = lower_coord(L, d, lower_local_index(L, &n, d));
	}
	if (o->tile != v) {   /* the operand is tl.trans of this load */
		SExpr *t = at[0];
		at[0] = at[1];
		at[1] = t;
	}
	SStmt *s = simt_stmt(L->k, SS_COPY_ASYNC, v->line);
	lower_set_loops(L, s, &n);
	SExpr *slot = simt_ref(L->k, L->pipe_regs[o->pipe->id].load_slot, NULL);
	SExpr *in_slot = copy_place(L, o, s, at);
	s->dst = simt_ref(L->k, L->operand_smem[o->id],
			  in_slot ? lower_iadd(L, lower_index_op(simt_binary(L->k, TOP_MUL, DT_I32, slot, lower_ic(L, o->elems))), in_slot)
				  : operand_index(L, o, slot, at[0], at[1]));
	s->ptr = lower_read_value(L, &n, ptr);
	s->mask = mask ? lower_read_value(L, &n, mask) : NULL;
	if (px) {   /* where the mask holds at the first element, min(n - x, vec) of them */
		DType dt = px->type.dtype;
		SExpr *left = simt_binary(L->k, TOP_SUB, dt, lower_read_value(L, &n, pn), lower_read_value(L, &n, px));
		SExpr *cnt = simt_binary(L->k, TOP_MINIMUM, dt, left, simt_cast(L->k, DT_I32, dt, lower_ic(L, vec)));
		s->other = dt == DT_I32 ? cnt : simt_cast(L->k, dt, DT_I32, cnt);
	}
	s->guard = lower_write_guard(L, &n, present, NULL);
	s->vec = vec;
	L->place[v->id].lowered = true;
}

/* ---- FMA: through shared memory, one multiply-add at a time ---- */

/* Writes tile x (rows x cols, in its own frame) to shared memory, row-major,
 * each element once; fp32 operands of a tf32 dot lose their low 13
 * mantissa bits as the tensor cores drop them. */
static SReg *stage_operand(Lower *L, const TValue *dot, const TValue *x, const char *name)
{
	lower_use_frame(L, L->vp[x->id].frame);
	int rows = x->type.shape[0], cols = x->type.shape[1];
	DType dt = x->type.dtype;
	SReg *smem = simt_reg(L->k, SR_SHARED, dt, dt, rows * cols, name);
	smem->local = true;
	unsigned present = L->vp[x->id].present;
	Nest n = lower_nest_over(L, present, 1);
	SExpr *coord_of[2];
	for (int k = 0; k < 2; k++) {
		int d = L->vp[x->id].map[k];
		coord_of[k] = d >= 0 ? lower_coord(L, d, lower_local_index(L, &n, d)) : lower_ic(L, 0);
	}
	SExpr *value = lower_read_value(L, &n, x);
	if (dt == DT_F32 && dot->aux == DOT_TF32) {
		SExpr *t = simt_leaf(L->k, SE_MATH, DT_F32, MATH_TF32);
		t->from = DT_F32;
		t->a[0] = value;
		value = t;
	}
	SStmt *s = simt_stmt(L->k, SS_ASSIGN, dot->line);
	lower_set_loops(L, s, &n);
	s->dst = simt_ref(L->k, smem, lower_iadd(L, lower_imul(L, coord_of[0], lower_ic(L, cols)), coord_of[1]));
	s->value = value;
	s->guard = lower_write_guard(L, &n, present, NULL);
	return smem;
}

/* acc[M,N] + a[M,K] b[K,N]: each thread computes its own elements of the
 * result with a loop over K. */
static void lower_dot_fma_chunks(Lower *L, const TValue *v, int kc);

static void lower_dot_fma(Lower *L, const TValue *v)
{
	const TValue *a = v->args[0], *b = v->args[1];
	int K = a->type.shape[1], N = b->type.shape[1];
	if (lower_dot_k_chunk(L, v) < K) {
		lower_dot_fma_chunks(L, v, lower_dot_k_chunk(L, v));
		return;
	}
	if (L->loop_depth)   /* the previous iteration's reads of the staged operands are done */
		simt_stmt(L->k, SS_BARRIER, v->line);
	SReg *sa = stage_operand(L, v, a, dot_name(L, v, "a"));
	SReg *sb = stage_operand(L, v, b, dot_name(L, v, "b"));
	simt_stmt(L->k, SS_BARRIER, v->line);

	SReg *r = result_regs(L, v);
	unsigned present = L->vp[v->id].present;
	Nest n = lower_nest_over(L, present, 1);
	SExpr *row = lower_ic(L, 0), *col = lower_ic(L, 0);
	int dm = L->vp[v->id].map[0], dn = L->vp[v->id].map[1];
	if (dm >= 0)
		row = lower_coord(L, dm, lower_local_index(L, &n, dm));
	if (dn >= 0)
		col = lower_coord(L, dn, lower_local_index(L, &n, dn));
	SExpr *k = loop_var(L, n.n);   /* the loop over K, innermost */
	SExpr *x = simt_ref(L->k, sa, lower_iadd(L, lower_imul(L, row, lower_ic(L, K)), k));
	SExpr *y = simt_ref(L->k, sb, lower_iadd(L, lower_index_op(simt_binary(L->k, TOP_MUL, DT_I32, k, lower_ic(L, N))), col));
	DType dt = v->type.dtype;
	SExpr *prod = simt_binary(L->k, TOP_MUL, dt, simt_cast(L->k, a->type.dtype, dt, x), simt_cast(L->k, b->type.dtype, dt, y));
	SExpr *sum = simt_binary(L->k, TOP_ADD, dt, simt_ref(L->k, r, lower_index_in(L, &n, present)), prod);
	SStmt *s = lower_assign_value(L, v, &n, r, present, sum);
	s->uniform = false;
	s->extent[s->nloops++] = K;
	lower_set_reg(L, v, r, present);
}

/* The multiply-adds over K in chunks of kc (K in chunks): A [M, kc] and
 * B [kc, N] staged row-major for each chunk in turn. */
static void lower_dot_fma_chunks(Lower *L, const TValue *v, int kc)
{
	const TValue *a = v->args[0], *b = v->args[1];
	int K = a->type.shape[1], M = a->type.shape[0], N = b->type.shape[1];
	SReg *sa = simt_reg(L->k, SR_SHARED, a->type.dtype, a->type.dtype, M * kc, dot_name(L, v, "a"));
	SReg *sb = simt_reg(L->k, SR_SHARED, b->type.dtype, b->type.dtype, kc * N, dot_name(L, v, "b"));
	sa->local = sb->local = true;
	SReg *r = result_regs(L, v);
	int cur = L->cur;
	unsigned present = L->vp[v->id].present;
	DType dt = v->type.dtype;
	for (int k0 = 0; k0 < K; k0 += kc) {
		if (L->loop_depth || k0 > 0)   /* every read of the chunk before is done */
			simt_stmt(L->k, SS_BARRIER, v->line);
		write_chunk(L, v->line, v, a, NULL, sa, 1, k0, kc, kc);
		write_chunk(L, v->line, v, b, NULL, sb, 0, k0, kc, N);
		simt_stmt(L->k, SS_BARRIER, v->line);
		lower_use_frame(L, cur);
		Nest n = lower_nest_over(L, present, 1);
		SExpr *row = lower_ic(L, 0), *col = lower_ic(L, 0);
		int dm = L->vp[v->id].map[0], dn = L->vp[v->id].map[1];
		if (dm >= 0)
			row = lower_coord(L, dm, lower_local_index(L, &n, dm));
		if (dn >= 0)
			col = lower_coord(L, dn, lower_local_index(L, &n, dn));
		SExpr *k = loop_var(L, n.n);   /* the loop over the chunk's K, innermost */
		SExpr *x = simt_ref(L->k, sa, lower_iadd(L, lower_imul(L, row, lower_ic(L, kc)), k));
		SExpr *y = simt_ref(L->k, sb, lower_iadd(L, lower_index_op(simt_binary(L->k, TOP_MUL, DT_I32, k, lower_ic(L, N))), col));
		SExpr *prod = simt_binary(L->k, TOP_MUL, dt, simt_cast(L->k, a->type.dtype, dt, x), simt_cast(L->k, b->type.dtype, dt, y));
		SExpr *sum = simt_binary(L->k, TOP_ADD, dt, simt_ref(L->k, r, lower_index_in(L, &n, present)), prod);
		SStmt *s = lower_assign_value(L, v, &n, r, present, sum);
		s->uniform = false;
		s->extent[s->nloops++] = kc;
	}
	lower_set_reg(L, v, r, present);
}

void lower_dot(Lower *L, const TValue *v)
{
	if (v->type.rank != 2 || !(dtype_is_float(v->type.dtype) || (v->type.dtype == DT_I32 && v->args[0]->type.dtype == DT_I8)))
		lower_error(L, v, "only 2-D floating-point and int8 tl.dot is lowered yet");
	if (L->vp[v->id].wgmma)
		lower_dot_wgmma(L, v);
	else if (L->vp[v->id].matrix)
		lower_dot_matrix(L, v);
	else
		lower_dot_fma(L, v);
}
