// H4: ballot results and lane bits handled as 32 bits.
__device__ int f(bool p, int lane) {
    int b = __ballot(p);  // expect: H4
    unsigned long long ok = __ballot(p);
    int n = __popc(ok);  // expect: H4
    int first = __ffs(__activemask());  // expect: H4
    unsigned bit = 1u << lane;  // expect: H4
    unsigned below = (1 << lane) - 1;  // expect: H4
    return b + n + first + bit + below + __popcll(ok);
}
