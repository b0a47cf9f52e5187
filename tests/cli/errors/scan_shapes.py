# expect: 13:12: error: the inputs of a scan must have one shape
# args: -k k -s *fp32,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def combine(a0, a1, b0, b1):
    return a0 + b0, a1 + b1

@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    i = tl.arange(0, 2 * BLOCK)
    s, t = tl.associative_scan((x, i), 0, combine)
    tl.store(y_ptr + tl.arange(0, BLOCK), s)
