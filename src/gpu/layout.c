/* layout.c: blocked layouts, parametrized by the warp width. */
#include "gpu/layout.h"

#include <stdio.h>
#include <string.h>

static int clamp_pow2(int want, int limit)
{
	int v = 1;
	while (v * 2 <= want && v * 2 <= limit)
		v *= 2;
	return v;
}

/* Spreads `count` units (lanes or warps) over the dimensions, fastest first,
 * giving each no more than it can use; what is left goes to the slowest
 * dimension, where it wraps and replicates. */
static void distribute(int rank, const int *order, const int *room, int count, int *out)
{
	int left = count;
	for (int i = 0; i < rank; i++) {
		int d = order[i];
		out[d] = clamp_pow2(room[d], left);
		left /= out[d];
	}
	out[order[rank - 1]] *= left;
}

Layout layout_blocked(int rank, const int *shape, int elem_bytes, int vector_bytes,
		      int warp_size, int num_warps)
{
	Layout l;
	memset(&l, 0, sizeof l);
	l.kind = LAYOUT_BLOCKED;
	l.rank = rank;
	l.warp_size = warp_size;
	l.num_warps = num_warps;
	for (int d = 0; d < rank; d++) {
		l.shape[d] = shape[d];
		l.order[d] = rank - 1 - d;
		l.size_per_thread[d] = 1;
	}
	int last = rank - 1;
	int vec = vector_bytes / (elem_bytes > 0 ? elem_bytes : 1);
	l.size_per_thread[last] = clamp_pow2(shape[last], vec > 0 ? vec : 1);

	int room[TC_MAX_RANK] = {0};
	for (int d = 0; d < rank; d++)
		room[d] = shape[d] / l.size_per_thread[d];
	distribute(rank, l.order, room, warp_size, l.threads_per_warp);
	for (int d = 0; d < rank; d++) {
		int covered = l.size_per_thread[d] * l.threads_per_warp[d];
		room[d] = shape[d] > covered ? shape[d] / covered : 1;
	}
	distribute(rank, l.order, room, num_warps, l.warps_per_cta);
	return l;
}

Layout layout_collapse(const Layout *l, int dim)
{
	Layout c = *l;
	c.collapsed |= 1u << dim;
	c.shape[dim] = 1;
	return c;
}

static int cta_tile(const Layout *l, int d)
{
	return l->size_per_thread[d] * l->threads_per_warp[d] * l->warps_per_cta[d];
}

int layout_local_extent(const Layout *l, int d)
{
	if (l->collapsed & (1u << d))
		return 1;
	int tile = cta_tile(l, d);
	int reps = (l->shape[d] + tile - 1) / tile;
	return l->size_per_thread[d] * (reps > 0 ? reps : 1);
}

int layout_elems_per_thread(const Layout *l)
{
	int n = 1;
	for (int d = 0; d < l->rank; d++)
		n *= layout_local_extent(l, d);
	return n;
}

int layout_lane_shift(const Layout *l, int dim)
{
	int shift = 0;
	for (int i = 0; i < l->rank && l->order[i] != dim; i++)
		shift += __builtin_ctz((unsigned)l->threads_per_warp[l->order[i]]);
	return shift;
}

int layout_warp_shift(const Layout *l, int dim)
{
	int shift = 0;
	for (int i = 0; i < l->rank && l->order[i] != dim; i++)
		shift += __builtin_ctz((unsigned)l->warps_per_cta[l->order[i]]);
	return shift;
}

unsigned layout_coord(const Layout *l, int lane, int warp, int elem, int *coord)
{
	unsigned wrapped = 0;
	/* Local index along each dimension, row-major over the local extents. */
	int local[TC_MAX_RANK];
	for (int d = l->rank - 1; d >= 0; d--) {
		int n = layout_local_extent(l, d);
		local[d] = elem % n;
		elem /= n;
	}
	for (int d = 0; d < l->rank; d++) {
		int tpw = l->threads_per_warp[d], wpc = l->warps_per_cta[d];
		int lane_d = (lane >> layout_lane_shift(l, d)) & (tpw - 1);
		int warp_d = (warp >> layout_warp_shift(l, d)) & (wpc - 1);
		if (l->collapsed & (1u << d)) {
			/* Every thread holds the single element; one of them owns it. */
			coord[d] = 0;
			if (lane_d != 0 || warp_d != 0)
				wrapped |= 1u << d;
			continue;
		}
		int spt = l->size_per_thread[d];
		int raw = (local[d] / spt) * cta_tile(l, d) + warp_d * spt * tpw + lane_d * spt + local[d] % spt;
		if (raw >= l->shape[d])
			wrapped |= 1u << d;
		coord[d] = raw % l->shape[d];
	}
	return wrapped;
}

int layout_lane_masks(const Layout *l, int dim, int *masks)
{
	int shift = layout_lane_shift(l, dim);
	int bits = __builtin_ctz((unsigned)l->threads_per_warp[dim]);
	for (int b = 0; b < bits; b++)
		masks[b] = 1 << (shift + b);
	return bits;
}

bool layout_equal(const Layout *a, const Layout *b)
{
	if (a->kind != b->kind || a->rank != b->rank || a->collapsed != b->collapsed ||
	    a->warp_size != b->warp_size || a->num_warps != b->num_warps)
		return false;
	for (int d = 0; d < a->rank; d++) {
		if (a->shape[d] != b->shape[d] || a->size_per_thread[d] != b->size_per_thread[d] ||
		    a->threads_per_warp[d] != b->threads_per_warp[d] ||
		    a->warps_per_cta[d] != b->warps_per_cta[d] || a->order[d] != b->order[d])
			return false;
	}
	return true;
}

static int format_list(char *out, int len, const char *name, const int *v, int n)
{
	int k = snprintf(out, (size_t)len, "%s=[", name);
	for (int i = 0; i < n && k < len; i++)
		k += snprintf(out + k, (size_t)(len - k), i ? ",%d" : "%d", v[i]);
	if (k < len)
		k += snprintf(out + k, (size_t)(len - k), "]");
	return k;
}

void layout_format(const Layout *l, char *out, int outlen)
{
	static const char *kind[] = {"blocked", "dot_a", "dot_b", "dot_acc"};
	int k = snprintf(out, (size_t)outlen, "%s<", kind[l->kind]);
	k += format_list(out + k, outlen - k, "spt", l->size_per_thread, l->rank);
	k += format_list(out + k, outlen - k, " tpw", l->threads_per_warp, l->rank);
	k += format_list(out + k, outlen - k, " wpc", l->warps_per_cta, l->rank);
	k += format_list(out + k, outlen - k, " order", l->order, l->rank);
	if (k < outlen)
		k += snprintf(out + k, (size_t)(outlen - k), ">");
	if (k < outlen)
		format_list(out + k, outlen - k, "", l->shape, l->rank);
}
