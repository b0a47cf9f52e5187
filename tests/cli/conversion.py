# x + x.T of a loaded tile: the transposed use reads x through shared
# memory (tests/cli/suite.sh compiles it for every target).
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r[:, None] * BLOCK + r[None, :])
    tl.store(y_ptr + r[:, None] * BLOCK + r[None, :], x + x.T)
