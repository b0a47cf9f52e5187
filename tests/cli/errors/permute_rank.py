# expect: 9:9: error: tl.permute: 3 dims (2, 0, 1) for a tensor of rank 2
# args: -s *fp32,*fp32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r[:, None] * BLOCK + r[None, :])
    t = x.permute(2, 0, 1)
    tl.store(y_ptr + r[:, None] * BLOCK + r[None, :], t)
