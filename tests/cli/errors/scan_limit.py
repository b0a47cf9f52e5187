# expect: 12:9: error: too many tensors in one associative_scan: 9 (limit is 8)
# args: -k k -s *fp32 -D B=32
import triton
import triton.language as tl
@triton.jit
def add9(a0, a1, a2, a3, a4, a5, a6, a7, a8, b0, b1, b2, b3, b4, b5, b6, b7, b8):
    return a0 + b0, a1 + b1, a2 + b2, a3 + b3, a4 + b4, a5 + b5, a6 + b6, a7 + b7, a8 + b8
@triton.jit
def k(y_ptr, B: tl.constexpr):
    offs = tl.arange(0, B)
    x = tl.load(y_ptr + offs)
    r = tl.associative_scan(
        (x, x, x, x, x, x, x, x, x), 0, add9)
    tl.store(y_ptr + offs, r[0])
