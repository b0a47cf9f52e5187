# expect: 10:9: error: fp8 tensors (fp8e5) are not supported yet
# args: -s *fp32,i32 -D BLOCK=16
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    y = x.to(tl.float8e5)
    tl.store(x_ptr + tl.arange(0, BLOCK), y)
