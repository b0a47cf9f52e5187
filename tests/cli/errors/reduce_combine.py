# expect: 12:9: error: tl.reduce with the combine function 'hypot' is not supported yet (only one add, mul, maximum or minimum)
# args: -k k -s *fp32,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def hypot(a, b):
    return tl.sqrt(a * a + b * b)

@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    s = tl.reduce(x, 0, hypot)
    tl.store(y_ptr, s)
