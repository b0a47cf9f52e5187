# expect: 10:5: error: print() / tl.device_print: the first argument must be a string (the prefix)
# args: -s *fp32,i32 -D BLOCK=16
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    print(x)
    tl.store(x_ptr + tl.arange(0, BLOCK), x)
