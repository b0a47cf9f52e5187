// The ceiling of mma.sync m16n8k16 (fp16 in, fp32 accumulate) on this GPU:
// every warp issues independent mma.sync on register fragments, no memory
// traffic in the loop. Compare the GEMM's TFLOP/s with this figure.
// On a machine with an NVIDIA GPU:
//   nvcc -O3 -arch=sm_90 bench/gemm/hmma_peak.cu -o hmma_peak && ./hmma_peak
#include <cstdio>

#define CHAINS 16   // independent accumulators a warp keeps in flight
#define ITERS 4096

__global__ void __launch_bounds__(256) peak(float *out, unsigned seed)
{
	unsigned a[4], b[2];
	for (int i = 0; i < 4; i++)
		a[i] = seed * (threadIdx.x + i + 1);
	for (int i = 0; i < 2; i++)
		b[i] = seed ^ (threadIdx.x * 7 + i);
	float c[CHAINS][4] = {};
	for (int it = 0; it < ITERS; it++) {
#pragma unroll
		for (int j = 0; j < CHAINS; j++)
			asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
				     "{%8, %9}, {%0, %1, %2, %3};"
				     : "+f"(c[j][0]), "+f"(c[j][1]), "+f"(c[j][2]), "+f"(c[j][3])
				     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
	}
	float s = 0;
	for (int j = 0; j < CHAINS; j++)
		s += c[j][0] + c[j][1] + c[j][2] + c[j][3];
	out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

int main()
{
	int sms = 0;
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
	int blocks = sms * 8, threads = 256;
	float *out;
	cudaMalloc(&out, sizeof(float) * blocks * threads);
	peak<<<blocks, threads>>>(out, 3);
	cudaEvent_t s, e;
	cudaEventCreate(&s);
	cudaEventCreate(&e);
	cudaEventRecord(s);
	peak<<<blocks, threads>>>(out, 5);
	cudaEventRecord(e);
	cudaEventSynchronize(e);
	float ms;
	cudaEventElapsedTime(&ms, s, e);
	double flops = 2.0 * 16 * 8 * 16 * CHAINS * (double)ITERS * (blocks * threads / 32);
	printf("mma.sync m16n8k16 f16->f32 ceiling: %.1f TFLOP/s (%d SMs, %.3f ms)\n", flops / ms / 1e9, sms, ms);
	return 0;
}
