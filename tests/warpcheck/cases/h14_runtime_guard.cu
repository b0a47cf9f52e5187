// H14 runtime-width-guard: a template's logical warp width refused at run
// time when it is wider than the device's. The return stops the code after
// it from running, not from being compiled for that width.

__device__ unsigned int lanes_here();

template <typename T, unsigned int Width>
struct group_ops {
    __device__ void sum(T v, T &out) {
        if (Width > warpSize) {  // expect: H14 expect-col: 13
            out = v;
            return;
        }
        for (unsigned int o = Width / 2; o > 0; o /= 2)
            v += __shfl_down(v, o, Width);
        out = v;
    }
    __device__ void max(T v, T &out) {
        if (::lib::warp_size() < Width)  // expect: H14 expect-col: 34
            return;
        for (unsigned int o = Width / 2; o > 0; o /= 2)
            v = v > __shfl_xor(v, o, Width) ? v : __shfl_xor(v, o, Width);
        out = v;
    }
};

// Not reported: a compile-time choice, a literal bound, a test that does
// not return, and a name that is no template parameter.
template <typename T, unsigned int Width>
struct group_ops_ok {
    __device__ void sum(T v, T &out) {
        if constexpr (Width > 64) {
            return;
        }
        if (Width > 64)
            return;
        if (Width > warpSize)
            out = v;
        unsigned int n = lanes_here();
        if (n > warpSize)
            return;
        for (unsigned int o = Width / 2; o > 0; o /= 2)
            v += __shfl_down(v, o, Width);
        out = v;
    }
};
