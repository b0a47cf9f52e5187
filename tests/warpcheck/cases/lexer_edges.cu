// Tokenizer edges: nothing inside comments or strings is code.
/* __shfl_xor_sync(0xffffffff, v, 1); */
const char *a = "__shfl_xor_sync(0xffffffff, v, 1)";
const char *b = R"doc(
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
)" still raw )doc";
const char c = '\'';
const unsigned long long d = 0xffffffffull + 16ull + 1'000'000;
#define LONG_MACRO(x) \
    __shfl_xor_sync(0xffffffff, x, 1)  // expect: H2
__device__ float f(float v) {
    return v + __shfl_xor_sync(0xffffffff, v, 1);  // expect: H2 expect-col: 32
}
