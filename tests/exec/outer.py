# An outer product of a loaded vector with itself: the vector is a column
# in one operand and a row in the other, so one of them needs a layout
# conversion through shared memory. tests/unit/test_exec.c runs it.
import triton
import triton.language as tl


@triton.jit
def outer(x_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i)
    p = x[:, None] * x[None, :]
    tl.store(out_ptr + i[:, None] * N + i[None, :], p)
