#include <proj/kernels.cuh>

template <typename T>
void pack(const T *in, T *out, int n, int blocks)
{
#if PROJ_HIP
    pack_pairs<T><<<(blocks + 1) / 2, 64>>>(in, out, n);  // expect: H8 expect-col: 39
#else
    pack_pairs<T><<<blocks, 32>>>(in, out, n);
#endif
}

template <typename T>
void pack_queried(const T *in, T *out, int n, int blocks)
{
#if PROJ_HIP
    if (proj_host_warp_size() == 64) {
        pack_pairs<T><<<(blocks + 1) / 2, 64>>>(in, out, n);
    } else {
        pack_pairs<T><<<blocks, 32>>>(in, out, n);
    }
#endif
}

// 64 under AMD for a kernel never launched with 32, and 64 with no AMD condition.
template <typename T>
void scale(const T *in, T *out, int n, int blocks)
{
#ifdef PROJ_HIP
    scale_rows<T><<<blocks, 64>>>(in, out, n);
#endif
    fill<T><<<blocks, 64>>>(out, n);
    fill<T><<<blocks, 32>>>(out, n);  // expect: H12
}

template void pack<float>(const float *, float *, int, int);
template void pack_queried<float>(const float *, float *, int, int);
template void scale<float>(const float *, float *, int, int);
