# expect: 9:10: error: comprehensions are not supported in a kernel
# args: -s *fp32,i32 -D BLOCK=16
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    s = [i for i in range(4)]
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)
