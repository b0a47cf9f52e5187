# expect: 8:5: error: tl.atomic_max on fp32 is not supported yet (integers only)
# args: -s *fp32,*fp32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(p, x_ptr, BLOCK: tl.constexpr):
    a = tl.arange(0, BLOCK)
    tl.atomic_max(p + a, tl.load(x_ptr + a))
