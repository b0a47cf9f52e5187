/* layout.h: how a tile is spread over a block's registers, lanes and warps.
 *
 * A blocked layout follows Triton's model. Along each dimension d a thread
 * holds `size_per_thread[d]` consecutive elements; `threads_per_warp[d]`
 * lanes and `warps_per_cta[d]` warps tile the dimension next to each other;
 * the product of threads_per_warp is the target's warp width W and that of
 * warps_per_cta is num_warps. `order` lists the dimensions from the fastest
 * varying (most contiguous in memory) to the slowest; the fastest dimension
 * takes the low lane bits.
 *
 * When the tile is longer than one pass of the block (the "CTA tile",
 * spt * tpw * wpc) each thread holds several repetitions; when it is shorter,
 * the coordinates wrap and several threads hold copies of one element. Those
 * copies are "out of range" for stores and reductions: a store writes an
 * element once, a reduction counts it once. That guard is what keeps a
 * reduction right for any W, whatever the tile's extent.
 *
 * A dimension in `collapsed` has extent 1 in this value although the parent
 * layout spreads threads over it: the layout a reduction leaves (Triton's
 * slice layout) and the one `x[:, None]` broadcasts from. Every thread that
 * differs only along a collapsed dimension holds the same element. */
#ifndef TC_LAYOUT_H
#define TC_LAYOUT_H

#include <stdbool.h>

#define TC_MAX_RANK 8   /* dims of a tile, as Triton's shape operations allow */

typedef enum {
	LAYOUT_BLOCKED,    /* the general distributed layout above */
	LAYOUT_DOT_A,      /* tl.dot's left operand, in the matrix unit's fragment order */
	LAYOUT_DOT_B,      /* tl.dot's right operand */
	LAYOUT_DOT_ACC,    /* tl.dot's accumulator and result */
} LayoutKind;

typedef struct Layout {
	LayoutKind kind;
	int rank;
	int shape[TC_MAX_RANK];              /* the tile's extents (1 where collapsed) */
	int size_per_thread[TC_MAX_RANK];
	int threads_per_warp[TC_MAX_RANK];
	int warps_per_cta[TC_MAX_RANK];
	int order[TC_MAX_RANK];              /* fastest dimension first */
	unsigned collapsed;                  /* bit d: dimension d is collapsed */
	int warp_size;                       /* product of threads_per_warp */
	int num_warps;                       /* product of warps_per_cta */
} Layout;

/* Triton's default blocked layout for a tile of `shape` whose elements are
 * `elem_bytes` wide: up to `vector_bytes` per thread along the last
 * dimension, lanes filling the fastest dimension first, warps likewise. */
Layout layout_blocked(int rank, const int *shape, int elem_bytes, int vector_bytes,
		      int warp_size, int num_warps);

/* The same distribution with dimension `dim` collapsed: what a reduction
 * along `dim` leaves, or the operand `x[:, None]`-style broadcasting reads. */
Layout layout_collapse(const Layout *l, int dim);

/* Elements one thread holds along dimension d, and in all. */
int layout_local_extent(const Layout *l, int dim);
int layout_elems_per_thread(const Layout *l);

/* The tile coordinate of a thread's local element `elem` (row-major over the
 * local extents). Returns the dimensions along which this is a wrapped copy
 * (bit d set): an element the thread holds only because the block is wider
 * than the tile along d. A store writes only elements with no bit set; a
 * reduction along d counts only elements without bit d. */
unsigned layout_coord(const Layout *l, int lane, int warp, int elem, int *coord);

/* The xor masks of the lane bits that move along dimension `dim`, lowest
 * first: the steps of a butterfly reduction along it. log2(tpw[dim]) masks. */
int layout_lane_masks(const Layout *l, int dim, int *masks);

/* The first lane bit and the first warp bit of dimension `dim`. */
int layout_lane_shift(const Layout *l, int dim);
int layout_warp_shift(const Layout *l, int dim);

/* True when two layouts place every element in the same registers. */
bool layout_equal(const Layout *a, const Layout *b);

/* "blocked<spt=[1,4] tpw=[1,32] wpc=[1,8] order=[1,0]>[1,4096]" */
void layout_format(const Layout *l, char *out, int outlen);

#endif
