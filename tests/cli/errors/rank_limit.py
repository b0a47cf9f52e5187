# expect: 7:9: error: too many dimensions in a shape: 9 (limit is 8)
# args: -s *fp32 -D B=2
import triton
import triton.language as tl
@triton.jit
def k(y_ptr, B: tl.constexpr):
    z = tl.zeros([B, B, B, B, B, B, B, B, B], tl.float32)
    tl.store(y_ptr + tl.arange(0, B), tl.sum(z, 0))
