# expect: 8:35: error: -D ACT=leaky: not a constant (an integer that fits in 64 bits, a float, True/False, None, a string such as '"text"', a dtype such as tl.float16, or a tuple of these)
# args: -s *fp32 -D BLOCK=16 -D ACT=leaky
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr, ACT: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)
