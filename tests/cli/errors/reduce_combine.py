# expect: 13:12: error: the tensors tl.reduce combines must have one shape
# args: -k k -s *fp32,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def pick(a, i, b, j):
    return tl.maximum(a, b), tl.minimum(i, j)

@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    i = tl.arange(0, 2 * BLOCK)
    s, t = tl.reduce((x, i), 0, pick)
    tl.store(y_ptr, s)
