# expect: 8:21: error: an index reduction needs an axis (Triton has none over all axes)
# args: -s *fp32,*i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, i_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(i_ptr, tl.argmax(x, None))
