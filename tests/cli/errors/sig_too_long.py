# expect: 6:1: error: the signature has more types than 'k' has parameters
# args: -s *fp32,*fp32,i32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    tl.store(y_ptr, tl.load(x_ptr))
