#include <proj/defs.cuh>

// The block loads BLOCK / PER_TH threads' items with a warp transpose.
template <typename T, int BLOCK, int PER_TH>
__global__ void quant(const T *in, unsigned char *out) {
    typedef hipcub::BlockLoad<T, BLOCK / PER_TH, PER_TH, hipcub::BLOCK_LOAD_WARP_TRANSPOSE> Load;  // expect: H15 expect-col: 34
    typedef hipcub::BlockStore<unsigned char, BLOCK / PER_TH, PER_TH, hipcub::BLOCK_STORE_DIRECT> Store;
    __shared__ typename Load::TempStorage tmp;
    T v[PER_TH];
    Load(tmp).Load(in + blockIdx.x * BLOCK, v);
}

// The algorithm chosen from the thread count: fine for any instantiation.
template <typename T, int BLOCK, int PER_TH>
__global__ void quant_safe(const T *in, unsigned char *out) {
    static constexpr int THREADS = BLOCK / PER_TH;
    static constexpr auto ALGO = THREADS >= PROJ_WARP ? hipcub::BLOCK_LOAD_WARP_TRANSPOSE : hipcub::BLOCK_LOAD_DIRECT;
    typedef hipcub::BlockLoad<T, THREADS, PER_TH, ALGO> Load;
    __shared__ typename Load::TempStorage tmp;
    T v[PER_TH];
    Load(tmp).Load(in + blockIdx.x * BLOCK, v);
}

// A thread count passed as it is.
template <typename T, int TH>
__global__ void copy_k(const T *in, T *out) {
    typedef hipcub::BlockLoad<T, TH, 4, hipcub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
    __shared__ typename Load::TempStorage tmp;
    T v[4];
    Load(tmp).Load(in, v);
    out[threadIdx.x] = v[0];
}

// A block of 32 written out: half a wavefront on CDNA.
__global__ void small_copy(const float *in, float *out) {
    typedef hipcub::BlockLoad<float, 32, 4, hipcub::BLOCK_LOAD_WARP_TRANSPOSE> Load;  // expect: H15 expect-col: 38
    typedef hipcub::BlockLoad<float, 128, 4, hipcub::BLOCK_LOAD_WARP_TRANSPOSE> Wide;
    __shared__ typename Load::TempStorage tmp;
    float v[4];
    Load(tmp).Load(in, v);
    out[threadIdx.x] = v[0];
}

#define MAKE_QUANT(T, B, N) \
    template __global__ void quant<T, B, N>(const T *in, unsigned char *out); \
    template __global__ void quant_safe<T, B, N>(const T *in, unsigned char *out);

MAKE_QUANT(float, 4096, 4)
MAKE_QUANT(float, 256, 2)
#if PROJ_WARP == 32
MAKE_QUANT(float, 64, 2)
#endif

template __global__ void copy_k<float, 128>(const float *in, float *out);
template __global__ void copy_k<float, 32>(const float *in, float *out);  // expect: H15 expect-col: 40
