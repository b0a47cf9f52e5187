// warp_size is not one constant: no H6 finding, whatever was read before.
#include "include/both.hpp"
__global__ void sum(const float *x, float *y)
{
	float v = x[threadIdx.x];
	for (int o = warp_size / 2; o > 0; o /= 2)
		v += __shfl_xor(v, o);
	if (threadIdx.x == 0)
		*y = v;
}
void run_sum(const float *x, float *y) { sum<<<1, warp_size>>>(x, y); }  // expect: H8 expect-col: 51
