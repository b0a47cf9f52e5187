// Blocks sized by a WARP_SIZE of 32: harmless for a kernel that keeps to
// 32-lane groups (half of each 64-lane wavefront idles: a note), a bug for
// one that takes the physical view, and unknown for a kernel pointer.
#define WARP_SIZE 32

__global__ void halves(float *x) {
    float v = x[threadIdx.x];
    for (int o = 16; o > 0; o /= 2)  // expect-note: H1
        v += __shfl_xor(v, o);
    if ((threadIdx.x & 31) == 0)  // expect-note: H3
        x[threadIdx.x >> 5] = v;  // expect-note: H3
}

__global__ void physical(float *x) {
    const unsigned long long b = __ballot(x[threadIdx.x] > 0.0f);
    if (threadIdx.x % warpSize == 0)
        x[threadIdx.x / warpSize] = (float)__popcll(b);
}

void launch_halves(float *x, int n) {
    halves<<<n, 4 * WARP_SIZE>>>(x);  // expect-note: H6 expect-col: 21
}

void launch_physical(float *x, int n) {
    physical<<<n, 4 * WARP_SIZE>>>(x);  // expect: H6
}

void launch_pointer(void (*k)(float *), float *x, int n) {
    k<<<n, WARP_SIZE>>>(x);  // expect: H6
}
