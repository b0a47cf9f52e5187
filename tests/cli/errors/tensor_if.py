# expect: 8:8: error: the condition of an if must be a scalar, not a tensor of type i1[16]
# args: -s *fp32,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    if x > 0:
        x = x * 2
    tl.store(y_ptr + tl.arange(0, BLOCK), x)
