# A kernel that never finishes: a while on a run-time condition that stays
# true (x cycles through [0, 16) from a non-negative start). Used by
# tests/robust/suite.sh (the C target's --timeout) and tests/gpu/timeout.sh
# (the CUDA target's); the GPU test also edits the condition into one that
# ends.
import triton
import triton.language as tl


@triton.jit
def spin(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    x = tl.load(x_ptr)
    while x >= 0:
        x = (x + 1) % 16
    tl.store(y_ptr, x)
