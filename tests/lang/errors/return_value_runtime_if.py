# expect: 9:5: error: 'return' of a value inside an if on a run-time condition is not supported (a bare 'return' is)
# args: -k k -s *fp32,i32 -D B=128
import triton
import triton.language as tl


@triton.jit
def _pick(x, n):
    if n > 0:
        return x * 2.0
    return x


@triton.jit
def k(x_ptr, n, B: tl.constexpr):
    i = tl.arange(0, B)
    x = tl.load(x_ptr + i)
    tl.store(x_ptr + i, _pick(x, n))
