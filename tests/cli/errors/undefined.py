# expect: 7:25: error: undefined name 'offs'
# args: -s *fp32,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr, x)
