// Host time of a launch of the exported RMSNorm built from NAME.cu (its
// launcher over the CUDA runtime) and of a plain <<<>>> launch of the same
// kernel function, one program of 128 threads each (tests/gpu/export.sh):
// batches of 200 launches, short of the launch queue's depth, the GPU
// drained between them; the median batch.
#include "triton_per_fused_mul_pow_rsqrt_0.cu"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

static double now_us()
{
	return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <typename F> static double median_launch(cudaStream_t s, F launch)
{
	const int batches = 100, batch = 200;
	std::vector<double> per;
	for (int b = 0; b < batches; b++) {
		double t0 = now_us();
		for (int i = 0; i < batch; i++)
			launch();
		per.push_back((now_us() - t0) / batch);
		cudaStreamSynchronize(s);
	}
	std::sort(per.begin(), per.end());
	return per[batches / 2];
}

int main()
{
	const int RN = 4096;
	float *x, *y;
	cudaMalloc(&x, RN * 8);
	cudaMalloc(&y, RN * 8);
	cudaMemset(x, 0, RN * 8);
	cudaStream_t s;
	cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
	int bad = 0;
	for (int i = 0; i < 1000; i++)
		bad |= triton_per_fused_mul_pow_rsqrt_0(s, x, x, y, 2, RN);
	cudaStreamSynchronize(s);
	double exported = median_launch(s, [&] { bad |= triton_per_fused_mul_pow_rsqrt_0(s, x, x, y, 2, RN); });
	double plain = median_launch(s, [&] { triton_per_fused_mul_pow_rsqrt_0__v0<<<1, 128, 0, s>>>(x, x, y, 2, RN); });
	printf("bench launch exported NAME.cu (CUDA runtime): %.2f us a launch (median of 100 batches of 200, host time)\n", exported);
	printf("bench launch plain <<<>>> of the same kernel: %.2f us a launch (median of 100 batches of 200, host time)\n", plain);
	printf("%s gpu export: the NAME.cu launcher's timed launches succeed\n", bad || cudaGetLastError() ? "FAIL" : "PASS");
	return bad != 0;
}
