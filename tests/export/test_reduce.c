/* A reduction exported for the CPU: row sums and maxima against a reference. */
#include "check.h"
#include "row_stats.h"

static void run(int rows, int cols)
{
	float *x = malloc((size_t)rows * cols * sizeof(float) + 4);
	float *sum = malloc(((size_t)rows + 1) * sizeof(float)), *max = malloc(((size_t)rows + 1) * sizeof(float));
	double *ws = malloc((size_t)rows * sizeof(double)), *wm = malloc((size_t)rows * sizeof(double));
	for (int i = 0; i < rows * cols; i++)
		x[i] = rng_float();
	for (int r = 0; r < rows; r++) {
		ws[r] = 0;
		wm[r] = -INFINITY;
		for (int c = 0; c < cols; c++) {
			ws[r] += x[r * cols + c];
			wm[r] = x[r * cols + c] > wm[r] ? x[r * cols + c] : wm[r];
		}
	}
	sum[rows] = max[rows] = 777.0f;
	int rc = row_stats(NULL, x, sum, max, rows, cols);
	double es = max_error(sum, ws, (size_t)rows), em = max_error(max, wm, (size_t)rows);
	CHECK(rc == 0 && es < 1e-5 && em == 0 && sum[rows] == 777.0f && max[rows] == 777.0f,
	      "row_stats %dx%d: rc %d, sum error %.3g, max error %.3g", rows, cols, rc, es, em);
	free(x);
	free(sum);
	free(max);
	free(ws);
	free(wm);
}

int main(void)
{
	rng_seed();
	run(50, 200);
	run(7, 256);
	run(129, 1);
	return failures != 0;
}
