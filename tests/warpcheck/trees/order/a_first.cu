// Checked first: reads tiles.hpp before both.hpp does.
#include "include/tiles.hpp"
__global__ void fill(float *x) { x[threadIdx.x] = 0.f; }
void run_fill(float *x) { fill<<<1, 128>>>(x); }
