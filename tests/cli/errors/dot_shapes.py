# expect: 9:9: error: tl.dot: the first operand's columns must equal the second's rows
# args: -s *fp16,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    a = tl.load(x_ptr + r[:, None] * BLOCK + r[None, :])
    c = tl.dot(a, tl.load(x_ptr + tl.arange(0, 2 * BLOCK)[:, None] * BLOCK + r[None, :]))
    tl.store(y_ptr + r[:, None] * BLOCK + r[None, :], c)
