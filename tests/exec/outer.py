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

# Runs of tests/exec/suite.sh (each on c and c:wave64, checked against the interpreter):
# run: -s *fp32,*fp32 -D N=32 --num-warps 1 --arg x_ptr=32 --arg out_ptr=1024 --grid 1
# run: -s *fp32,*fp32 -D N=64 --num-warps 4 --arg x_ptr=64 --arg out_ptr=4096 --grid 1
