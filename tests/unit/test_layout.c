/* test_layout.c: blocked layouts for 32- and 64-lane warps.
 *
 * Checks that every layout covers its tile exactly once (wrapped copies are
 * marked out of range), and runs the reduction scheme the lowering uses,
 * simulated thread by thread: fold in-thread, xor butterfly over the lane
 * bits of the reduced axis, then across warps. The reduction lowered for one
 * warp width and run at another must come out wrong: the width is data the
 * lowering depends on, not an accident. */
#include "base/base.h"
#include "gpu/layout.h"
#include "gpu/target.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


/* Every element of the tile is held in range by exactly one (thread, slot). */
static bool covers_once(const Layout *l)
{
	int total = 1;
	for (int d = 0; d < l->rank; d++)
		total *= l->shape[d];
	int *seen = calloc((size_t)total, sizeof *seen);
	int per = layout_elems_per_thread(l);
	for (int t = 0; t < l->warp_size * l->num_warps; t++) {
		for (int e = 0; e < per; e++) {
			int c[TC_MAX_RANK];
			bool in = layout_coord(l, t % l->warp_size, t / l->warp_size, e, c) == 0;
			int flat = 0;
			for (int d = 0; d < l->rank; d++) {
				if (c[d] < 0 || c[d] >= l->shape[d]) {
					free(seen);
					return false;
				}
				flat = flat * l->shape[d] + c[d];
			}
			seen[flat] += in;
		}
	}
	bool ok = true;
	for (int i = 0; i < total; i++)
		ok = ok && seen[i] == 1;
	free(seen);
	return ok;
}

static bool products_match(const Layout *l)
{
	int lanes = 1, warps = 1;
	for (int d = 0; d < l->rank; d++) {
		lanes *= l->threads_per_warp[d];
		warps *= l->warps_per_cta[d];
	}
	return lanes == l->warp_size && warps == l->num_warps;
}

static double input(int row, int col)
{
	uint32_t h = (uint32_t)(row * 7919 + col * 104729 + 17);
	h ^= h >> 16;
	h *= 0x85EBCA6Bu;
	h ^= h >> 13;
	return (double)(h >> 8) / (1 << 23) - 1.0;
}

/* Row sums of a [rows, cols] tile laid out by `l`, computed the way the
 * lowering computes them, with `run_width` lanes per hardware warp. Writes
 * the sum every thread ends with for each row into `out` (rows entries)
 * and returns false when two threads disagree on a row. */
static bool simulate_row_sum(const Layout *l, int run_width, double *out)
{
	int rows = l->shape[0];
	int threads = l->warp_size * l->num_warps;
	int local_rows = layout_local_extent(l, 0);
	int local_cols = layout_local_extent(l, 1);
	double *part = calloc((size_t)(threads * local_rows), sizeof *part);
	double *next = calloc((size_t)(threads * local_rows), sizeof *next);

	/* 1. Fold in-thread; wrapped copies count as zero. */
	for (int t = 0; t < threads; t++) {
		for (int i = 0; i < local_rows; i++) {
			for (int j = 0; j < local_cols; j++) {
				int c[TC_MAX_RANK];
				unsigned wrapped = layout_coord(l, t % run_width, t / run_width, i * local_cols + j, c);
				if (!(wrapped & 2u))
					part[t * local_rows + i] += input(c[0], c[1]);
			}
		}
	}
	/* 2. Butterfly over the lanes of the reduced axis, within a hardware warp. */
	int masks[8];
	int steps = layout_lane_masks(l, 1, masks);
	for (int s = 0; s < steps; s++) {
		for (int t = 0; t < threads; t++) {
			int base = t - t % run_width, partner = base + ((t % run_width) ^ masks[s]);
			for (int i = 0; i < local_rows; i++)
				next[t * local_rows + i] = part[t * local_rows + i] + part[partner * local_rows + i];
		}
		memcpy(part, next, sizeof *part * (size_t)(threads * local_rows));
	}
	/* 3. Across the warps that split the reduced axis (through shared memory). */
	int wshift = layout_warp_shift(l, 1), wcount = l->warps_per_cta[1];
	for (int t = 0; t < threads; t++) {
		int lane = t % run_width, warp = t / run_width;
		for (int i = 0; i < local_rows; i++) {
			double sum = 0;
			for (int k = 0; k < wcount; k++) {
				int w = (warp & ~((wcount - 1) << wshift)) | (k << wshift);
				int u = w * run_width + lane;
				sum += u < threads ? part[u * local_rows + i] : 0;
			}
			next[t * local_rows + i] = sum;
		}
	}
	/* Every thread's copy of a row must agree. */
	bool agree = true;
	for (int r = 0; r < rows; r++)
		out[r] = NAN;
	for (int t = 0; t < threads; t++) {
		for (int i = 0; i < local_rows; i++) {
			int c[TC_MAX_RANK];
			layout_coord(l, t % run_width, t / run_width, i * local_cols, c);
			double v = next[t * local_rows + i];
			if (isnan(out[c[0]]))
				out[c[0]] = v;
			else if (fabs(out[c[0]] - v) > 1e-9)
				agree = false;
		}
	}
	free(part);
	free(next);
	return agree;
}

static bool row_sums_right(const Layout *l, int run_width)
{
	int rows = l->shape[0], cols = l->shape[1];
	double *got = malloc(sizeof *got * (size_t)rows);
	bool ok = simulate_row_sum(l, run_width, got);
	for (int r = 0; r < rows && ok; r++) {
		double want = 0;
		for (int c = 0; c < cols; c++)
			want += input(r, c);
		ok = !isnan(got[r]) && fabs(got[r] - want) <= 1e-9 * (1 + fabs(want));
	}
	free(got);
	return ok;
}

static void test_default_layouts(void)
{
	int shape[2] = {1, 4096};
	Layout l = layout_blocked(2, shape, 4, 16, 32, 8);
	char text[160];
	layout_format(&l, text, sizeof text);
	CHECK("rmsnorm fp32 layout w32",
	      !strcmp(text, "blocked<spt=[1,4] tpw=[1,32] wpc=[1,8] order=[1,0]>=[1,4096]"));
	Layout l64 = layout_blocked(2, shape, 4, 16, 64, 8);
	CHECK("rmsnorm layout w64 lanes", l64.threads_per_warp[1] == 64 && l64.size_per_thread[1] == 4);
	int shape_bf16[2] = {2, 4096};
	Layout lb = layout_blocked(2, shape_bf16, 2, 16, 32, 4);
	CHECK("bf16 vector of 8", lb.size_per_thread[1] == 8 && layout_elems_per_thread(&lb) == 2 * 32);
	int masks[8];
	CHECK("butterfly steps = log2(W) at 32", layout_lane_masks(&l, 1, masks) == 5 && masks[4] == 16);
	CHECK("butterfly steps = log2(W) at 64", layout_lane_masks(&l64, 1, masks) == 6 && masks[5] == 32);
}

static void test_random_layouts(void)
{
	int bad_cover = 0, bad_prod = 0, bad_sum = 0, tried = 0;
	srand(12345);
	static const int widths[] = {32, 64};
	static const int warps[] = {1, 2, 4, 8, 16};
	static const int elem[] = {1, 2, 4, 8};
	for (int iter = 0; iter < 300; iter++) {
		int shape[2] = {1 << (rand() % 6), 1 << (rand() % 12)};
		int w = widths[rand() % 2], nw = warps[rand() % 5], eb = elem[rand() % 4];
		Layout l = layout_blocked(2, shape, eb, 16, w, nw);
		tried++;
		bad_prod += !products_match(&l);
		bad_cover += !covers_once(&l);
		bad_sum += !row_sums_right(&l, w);
		Layout r = layout_collapse(&l, 1);
		bad_cover += !covers_once(&r);
	}
	for (int n = 1; n <= 4096; n *= 2) {
		int shape[1] = {n};
		for (int w = 32; w <= 64; w *= 2) {
			Layout l = layout_blocked(1, shape, 4, 16, w, 4);
			bad_prod += !products_match(&l);
			bad_cover += !covers_once(&l);
		}
	}
	printf("# %d random 2-D layouts\n", tried);
	CHECK("lane and warp products equal W and num_warps", bad_prod == 0);
	CHECK("every element held in range exactly once", bad_cover == 0);
	CHECK("butterfly row sums match at W=32 and W=64", bad_sum == 0);
}

static void test_width_matters(void)
{
	/* Lowered for 32 lanes, run on 64-lane hardware warps: wrong sums.
	 * (One 32-lane warp is half a wavefront and stays right, so the cases
	 * start at two warps; layouts whose warps are copies of each other are
	 * left out, since there the upper lanes only duplicate work.) */
	int wrong = 0, cases = 0;
	static const int warps[] = {2, 4, 8, 16};
	for (int i = 0; i < 4; i++) {
		for (int rows = 1; rows <= 4; rows *= 2) {
			int shape[2] = {rows, 1024};
			Layout l32 = layout_blocked(2, shape, 4, 16, 32, warps[i]);
			Layout l64 = layout_blocked(2, shape, 4, 16, 64, warps[i]);
			if (l32.threads_per_warp[0] * l32.warps_per_cta[0] > rows)
				continue; /* whole warps hold copies: the extra lanes only duplicate */
			cases++;
			wrong += !row_sums_right(&l32, 64);
			if (!row_sums_right(&l64, 64) || !row_sums_right(&l32, 32))
				wrong = -1000;
		}
	}
	printf("# %d mismatched-width cases\n", cases);
	CHECK("a reduction lowered for 32 lanes fails when run at 64", cases >= 8 && wrong == cases);
}

static void test_targets(void)
{
	Target t;
	char err[200];
	CHECK("cuda:sm_90", target_parse("cuda:sm_90", &t, err, sizeof err) && t.warp_size == 32 && t.matrix == MATRIX_MMA);
	CHECK("cuda:sm_90a", target_parse("cuda:sm_90a", &t, err, sizeof err) && t.matrix == MATRIX_WGMMA);
	CHECK("hip:gfx90a wave64", target_parse("hip:gfx90a", &t, err, sizeof err) && t.warp_size == 64);
	CHECK("hip:gfx940 wave64", target_parse("hip:gfx940", &t, err, sizeof err) && t.warp_size == 64);
	CHECK("hip:gfx1030 wave32", target_parse("hip:gfx1030", &t, err, sizeof err) && t.warp_size == 32);
	CHECK("c:wave64", target_parse("c:wave64", &t, err, sizeof err) && t.kind == TARGET_C && t.warp_size == 64);
	CHECK("bad target", !target_parse("hip:gfx999", &t, err, sizeof err) && strstr(err, "gfx999"));
	CHECK("bad cuda arch", !target_parse("cuda:sm_5", &t, err, sizeof err));
}

int main(void)
{
	test_default_layouts();
	test_random_layouts();
	test_width_matters();
	test_targets();
	return failures ? 1 : 0;
}
