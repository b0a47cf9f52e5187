# expect: 9:5: error: a tile of shape [16,16] is used along two different dimensions (layout conversions are not lowered yet)
# args: -s *fp32,*fp32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r[:, None] * BLOCK + r[None, :])
    tl.store(y_ptr + r[:, None] * BLOCK + r[None, :], x + x.T)
