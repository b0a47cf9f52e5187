# expect: 7:9: error: arange(0, 12): its range, 12, must be a positive power of two
# args: -s *fp32,*fp32,i32 -D BLOCK=12
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    a = tl.arange(0, BLOCK)
    tl.store(y_ptr + a, tl.load(x_ptr + a))
