# expect: 8:9: error: tl.trans without dims swaps the two dims of a 2-D tensor; this one has rank 1
# args: -s *fp32,*fp32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    t = tl.trans(x)
    tl.store(y_ptr + tl.arange(0, BLOCK), t)
