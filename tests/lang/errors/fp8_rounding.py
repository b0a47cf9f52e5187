# expect: 10:48: error: fp_downcast_rounding='rtz' is supported from fp32 to fp16 and bf16, not fp32 to fp8e5 yet
# args: -s *fp32,*fp8e5,i32 -D BLOCK=16
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    y = x.to(tl.float8e5, fp_downcast_rounding="rtz")
    tl.store(y_ptr + tl.arange(0, BLOCK), y)
