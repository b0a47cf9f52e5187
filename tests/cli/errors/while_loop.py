# expect: 9:5: error: 'while' loops are not supported yet
# args: -s *fp32,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    a = tl.arange(0, BLOCK)
    i = 0
    while i < n:
        tl.store(y_ptr + a + i, tl.load(x_ptr + a + i))
        i += BLOCK
