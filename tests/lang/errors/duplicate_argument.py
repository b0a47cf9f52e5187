# expect: 9:49: error: got multiple values for argument 'mask' (given by position 2 and by keyword)
# args: -s *fp32,*fp32,i32 -D B=16
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, n, B: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, B), n > 0, mask=tl.arange(0, B) < n)
    tl.store(y_ptr + tl.arange(0, B), x)
