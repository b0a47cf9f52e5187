# expect: 9:11: error: the condition of a while loop must be a scalar, not a tensor of type i1[16]
# args: -s *fp32,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    a = tl.arange(0, BLOCK)
    i = 0
    while a + i < n:
        tl.store(y_ptr + a + i, tl.load(x_ptr + a + i))
        i += BLOCK
