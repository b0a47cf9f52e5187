// Exchanges inside logical warps of WarpSize lanes (a template parameter).
#include "proj/shuffle.hpp"

constexpr int kGroup = 16;

template <class T, unsigned Items, unsigned WarpSize>
struct exchange {
    __device__ void to_striped(T (&in)[Items], T (&out)[Items]) {
        const unsigned id = threadIdx.x % WarpSize;
        for (unsigned i = 0; i < Items; i++)
            out[i] = warp_shuffle(in[i], (Items * id + i) % WarpSize);  // expect: H11 expect-col: 22
    }
    __device__ void to_striped_width(T (&in)[Items], T (&out)[Items]) {
        const unsigned id = threadIdx.x % WarpSize;
        for (unsigned i = 0; i < Items; i++)
            out[i] = warp_shuffle(in[i], (Items * id + i) % WarpSize, WarpSize);
    }
    __device__ T rotate(T v) {
        return __shfl(v, (threadIdx.x + 1) % WarpSize);  // expect: H11 expect-col: 16
    }
    __device__ T rotate_group(T v) {
        return __shfl(v, (threadIdx.x + 1) % kGroup, kGroup);
    }
};

template struct exchange<float, 4, 16>;
