# expect: 9:9: error: 'break' outside a loop
# args: -s *fp32,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    a = tl.arange(0, BLOCK)
    if n > 64:
        break
    tl.store(y_ptr + a, tl.load(x_ptr + a))
