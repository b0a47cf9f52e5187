# expect: 6:7: error: unknown type '*float' for parameter 'x_ptr' (expected *fp32, i32, fp32, ...)
# args: -s *float,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    tl.store(y_ptr, tl.load(x_ptr))
