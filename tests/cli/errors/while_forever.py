# expect: 8:5: error: this while loop on compile-time values runs more than 4096 times
# args: -s *fp32,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    i = 0
    while i < 10:
        tl.store(y_ptr + i, tl.load(x_ptr + i))
