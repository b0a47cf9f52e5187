# expect: 6:24: error: constexpr 'BLOCK' needs a value (-D BLOCK=...)
# args: -s *fp32,*fp32,i32
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    tl.store(y_ptr, tl.load(x_ptr))
