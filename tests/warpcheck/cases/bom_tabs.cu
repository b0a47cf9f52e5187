#define FULL 0xffffffff
__device__ float f(float v) {
	return __shfl_xor_sync(FULL, v, 1);  // expect: H2 expect-col: 25
}
