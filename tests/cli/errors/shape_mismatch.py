# expect: 8:9: error: incompatible shapes for broadcasting
# args: -s *fp32,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    a = tl.arange(0, BLOCK)
    b = a + tl.arange(0, 2 * BLOCK)
    tl.store(y_ptr + a, b)
