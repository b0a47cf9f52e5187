# expect: 10:9: error: operands of types fp8e4nv and i32 cannot be combined
# args: -s *fp8e4nv,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    y = x + tl.arange(0, BLOCK)
    tl.store(y_ptr + tl.arange(0, BLOCK), y)
