# expect: 10:13: error: 'break' is not supported (Triton has no early exit from a loop)
# args: -s *fp32,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    a = tl.arange(0, BLOCK)
    for i in range(0, n, BLOCK):
        if i > 64:
            break
        tl.store(y_ptr + a + i, tl.load(x_ptr + a + i))
