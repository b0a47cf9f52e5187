# A kernel decorated by another package's jit (a stand-in for real Triton's
# triton.jit: an object named JITFunction whose .fn is the function), then
# given to tritonc.jit, as a user with Triton installed would.
import triton.language as tl


class JITFunction:
    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Cannot call @triton.jit'd outside of the scope of a kernel")


def jit(fn):
    return JITFunction(fn)


@jit
def _square(x):
    return x * x


@jit
def foreign_square_add(x_ptr, out_ptr, n, c, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, _square(tl.load(x_ptr + offs, mask=m)) + c, mask=m)
