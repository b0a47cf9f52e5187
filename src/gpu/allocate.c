/* allocate.c: shared memory after emission (plan.h, simt_allocate).
 *
 * Runs on the emitted statements, as Triton's AllocateSharedMemory runs
 * after its pipeliner and before its per-op lowering. */
#include "gpu/plan.h"

/* Beyond 48 KiB (or when an array must be aligned beyond 16 bytes) a CUDA
 * kernel takes its shared memory dynamically: the arrays are laid out one
 * after another, each aligned as it asks, from a base rounded up to the
 * largest alignment (the slack is part of the block). */
static int dynamic_layout(SKernel *k)
{
	int total = 0;
	for (int i = 0; i < k->nregs; i++) {
		const SReg *r = k->regs[i];
		if (r->kind != SR_SHARED)
			continue;
		int align = simt_shared_align(r);
		total = (total + align - 1) / align * align + r->count * simt_shared_elem_bytes(r);
	}
	total = (total + 15) / 16 * 16;
	return k->shared_align > 16 ? total + k->shared_align - 16 : total;
}

bool simt_allocate(Diag *diag, SKernel *k)
{
	const Target *t = &k->target;
	k->shared_bytes = simt_shared_bytes(k);
	if (k->shared_bytes > t->shared_bytes) {
		diag_plain(diag, DIAG_ERROR, "%s: the kernel needs %d bytes of shared memory, more than %s gives a block (%d)",
			   k->name, k->shared_bytes, t->spec, t->shared_bytes);
		return false;
	}
	for (int i = 0; i < k->nregs; i++)
		if (k->regs[i]->kind == SR_SHARED)
			k->shared_align = imax(k->shared_align, simt_shared_align(k->regs[i]));
	if (t->static_shared_bytes && (k->shared_bytes > t->static_shared_bytes || k->shared_align > t->static_shared_align))
		k->dynamic_bytes = dynamic_layout(k);
	return true;
}
