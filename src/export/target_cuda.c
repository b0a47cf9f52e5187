/* target_cuda.c: the cuda target (not yet: the next commits). */
#include "export/internal.h"

int export_target_cuda(const ExKernel *k, const int *ts, int nts, const char *dir, FILE *errors)
{
	fputs("tritonc: error: export for cuda is not built yet\n", errors);
	return 1;
}

int export_target_hip(const ExKernel *k, const int *ts, int nts, const char *dir, FILE *errors)
{
	fputs("tritonc: error: export for hip is not built yet\n", errors);
	return 1;
}
