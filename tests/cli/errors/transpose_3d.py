# expect: 9:9: error: x.T swaps the two dims of a 2-D tensor; this one has rank 3
# args: -s *fp32,*fp32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r[:, None, None] * BLOCK + r[None, :, None] + r[None, None, :])
    t = x.T
    tl.store(y_ptr + r[:, None, None] * BLOCK + r[None, :, None] + r[None, None, :], t)
