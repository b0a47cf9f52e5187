# expect: 8:9: error: unsupported function 'tl.sume'
# args: -s *fp32,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    s = tl.sume(x, 0)
    tl.store(y_ptr, s)
