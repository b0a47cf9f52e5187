/* target.c: the target descriptors. */
#include "gpu/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct AmdArch {
	const char *name;
	int warp_size;
	MatrixUnit matrix;
	bool cdna3;   /* gfx94x's matrix instructions */
} AmdArch;

/* gfx9 (CDNA) runs 64-lane wavefronts; gfx10 and later (RDNA) default to 32. */
static const AmdArch amd_archs[] = {
	{"gfx908", 64, MATRIX_MFMA, false},
	{"gfx90a", 64, MATRIX_MFMA, false},
	{"gfx940", 64, MATRIX_MFMA, true},
	{"gfx941", 64, MATRIX_MFMA, true},
	{"gfx942", 64, MATRIX_MFMA, true},
	{"gfx1030", 32, MATRIX_NONE, false},
	{"gfx1100", 32, MATRIX_NONE, false},
};

static bool parse_cuda(const char *arch, Target *t, char *err, size_t errlen)
{
	int sm = 0;
	char tail = 0;
	if (!*arch)
		arch = "sm_80";
	if (sscanf(arch, "sm_%d%c", &sm, &tail) < 1 || (tail && tail != 'a') || sm < 70) {
		snprintf(err, errlen, "unknown CUDA architecture '%s' (expected sm_70 or later, e.g. sm_90)", arch);
		return false;
	}
	t->kind = TARGET_CUDA;
	t->arch = arch;
	t->warp_size = 32;
	t->max_vector_bytes = 16;
	t->max_threads = 1024;
	/* what a block may opt in to (the runtime does, past 48 KiB) */
	t->shared_bytes = sm >= 90 ? 227 * 1024 : sm == 80 || sm == 87 ? 163 * 1024 : sm >= 86 ? 99 * 1024 : 48 * 1024;
	t->static_shared_bytes = 48 * 1024;
	t->static_shared_align = 16;
	/* wgmma is sm_90a's own (later chips have other instructions) */
	t->matrix = sm == 90 && tail == 'a' ? MATRIX_WGMMA : sm >= 80 ? MATRIX_MMA : MATRIX_NONE;
	return true;
}

static bool parse_hip(const char *arch, Target *t, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof amd_archs / sizeof amd_archs[0]; i++) {
		if (strcmp(arch, amd_archs[i].name) == 0) {
			t->kind = TARGET_HIP;
			t->arch = amd_archs[i].name;
			t->warp_size = amd_archs[i].warp_size;
			t->max_vector_bytes = 16;
			t->max_threads = 1024;
			t->shared_bytes = 64 * 1024;
			t->matrix = amd_archs[i].matrix;
			t->cdna3 = amd_archs[i].cdna3;
			return true;
		}
	}
	snprintf(err, errlen, "unknown AMD architecture '%s' (known: gfx908, gfx90a, gfx940, gfx941, gfx942, gfx1030, gfx1100)",
		 arch);
	return false;
}

static bool parse_c(const char *arch, Target *t, char *err, size_t errlen)
{
	int w = 32;
	bool wgmma = !strcmp(arch, "wgmma");
	/* wave32-64k / wave64-64k: a block of 64 KiB of shared memory, as AMD's
	 * (the layouts that make a kernel fit there run on the CPU too);
	 * cdna3: 64 lanes and 64 KiB with gfx94x's matrix instructions (wave64
	 * models gfx908/gfx90a's) */
	bool cdna3 = !strcmp(arch, "cdna3");
	bool small = !strcmp(arch, "wave32-64k") || !strcmp(arch, "wave64-64k") || cdna3;
	if (!strcmp(arch, "wave64") || !strcmp(arch, "wave64-64k") || cdna3)
		w = 64;
	else if (*arch && strcmp(arch, "wave32") && !wgmma && !small) {
		snprintf(err, errlen,
			 "unknown C target option '%s' (expected wave32, wave64, wgmma, wave32-64k, wave64-64k or cdna3)", arch);
		return false;
	}
	t->kind = TARGET_C;
	t->arch = cdna3 ? "cdna3" : w == 64 ? "wave64" : wgmma ? "wgmma" : "wave32";
	t->cdna3 = cdna3;
	t->warp_size = w;
	t->max_vector_bytes = 16;
	t->max_threads = 1024;
	t->shared_bytes = small ? 64 * 1024 : 227 * 1024;   /* the most a GPU block may have */
	/* the CPU runs the matrix instructions of the GPUs of its warp width,
	 * lane by lane, so that their fragment layouts are tested here (c:wgmma:
	 * wgmma, its operands read through its descriptors as the GPU reads them) */
	t->matrix = w == 64 ? MATRIX_MFMA : wgmma ? MATRIX_WGMMA : MATRIX_MMA;
	return true;
}

bool target_parse(const char *spec, Target *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	t->spec = spec;
	const char *colon = strchr(spec, ':');
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
	const char *arch = colon ? colon + 1 : "";
	if (n == 4 && !strncmp(spec, "cuda", 4))
		return parse_cuda(arch, t, err, errlen);
	if (n == 3 && !strncmp(spec, "hip", 3)) {
		if (!*arch) {
			snprintf(err, errlen, "target 'hip' needs an architecture, e.g. hip:gfx90a");
			return false;
		}
		return parse_hip(arch, t, err, errlen);
	}
	if (n == 1 && spec[0] == 'c')
		return parse_c(arch, t, err, errlen);
	if (n == 6 && !strncmp(spec, "interp", 6) && !colon) {
		t->kind = TARGET_INTERP;
		t->arch = "";
		return true;
	}
	snprintf(err, errlen, "unknown target '%s' (expected cuda:sm_NN, hip:gfxNNN, c, c:wave64, c:wgmma, c:cdna3 or interp)", spec);
	return false;
}
