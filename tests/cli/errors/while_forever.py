# expect: 8:5: error: too many iterations of a while loop on compile-time values (limit is 4096)
# args: -s *fp32,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    i = 0
    while i < 10:
        tl.store(y_ptr + i, tl.load(x_ptr + i))
