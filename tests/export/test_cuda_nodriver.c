/* An exported CUDA launcher where libcuda cannot be loaded (built with a
 * library name that does not exist): TRITONC_ERROR_NO_DRIVER, every time. */
#include "check.h"
#include "triton_per_fused_mul_pow_rsqrt_0.h"

int main(void)
{
	float *x = (float *)(uintptr_t)0x7000100;
	int a = triton_per_fused_mul_pow_rsqrt_0(NULL, x, x, x, 64, 4096);
	int b = triton_per_fused_mul_pow_rsqrt_0(NULL, x, x, x, 64, 4096);
	CHECK(a == TRITONC_ERROR_NO_DRIVER && b == a, "no driver: TRITONC_ERROR_NO_DRIVER (rc %d, then %d)", a, b);
	CHECK(triton_per_fused_mul_pow_rsqrt_0_unload() == 0, "unload without a driver: nothing to do");
	return failures != 0;
}
