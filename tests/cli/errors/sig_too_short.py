# expect: 6:21: error: the signature has no type for parameter 'n'
# args: -s *fp32,*fp32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    tl.store(y_ptr, tl.load(x_ptr))
