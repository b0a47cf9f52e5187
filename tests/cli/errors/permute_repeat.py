# expect: 9:9: error: tl.permute: (0, 0) is not a permutation of 0..1
# args: -s *fp32,*fp32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r[:, None] * BLOCK + r[None, :])
    t = tl.permute(x, (0, 0))
    tl.store(y_ptr + r[:, None] * BLOCK + r[None, :], t)
