# Scans along either axis, forward and reverse, and a max scan through a
# jitted combine: tests/unit/test_exec.c compares the lowering with the
# interpreter.
import triton
import triton.language as tl


@triton.jit
def biggest(a, b):
    return tl.maximum(a, b)


@triton.jit
def scans(x_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    c = tl.arange(0, COLS)[None, :]
    x = tl.load(x_ptr + r * COLS + c)
    down = tl.cumsum(x, axis=0)
    back = tl.cumsum(x, axis=1, reverse=True)
    peak = tl.associative_scan(x, 1, biggest)
    base = out_ptr + 3 * (r * COLS + c)
    tl.store(base, down)
    tl.store(base + 1, back)
    tl.store(base + 2, peak)
