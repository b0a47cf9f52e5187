# Reductions beyond one axis and one op: tl.argmax / tl.argmin (ties to
# the first index; a NaN is the largest and the smallest value), tl.max
# with return_indices, reductions over every axis (axis=None), keep_dims,
# the tensor methods (x.sum(), x.argmax(1)), and tl.reduce of a tuple of
# tensors with a jitted combine: tests/unit/test_exec.c runs them at W=32
# and W=64 against the interpreter and a direct computation.
import triton
import triton.language as tl


# Per program, `out` holds floats: [0, ROWS) max of each row, [ROWS, ROWS +
# COLS) sum of each column, then the sum, the max and (keep_dims) the min of
# the whole tile; `idx` holds i32: argmax of each row, argmin of each
# column, argmax of each row of k (ties), argmin of each column of k
# (keep_dims), argmax of each row from tl.max(..., return_indices=True),
# then the min of k over the tile.
@triton.jit
def indices(x_ptr, k_ptr, out_ptr, idx_ptr, ROWS: tl.constexpr, COLS: tl.constexpr, NANS: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, ROWS)
    cols = tl.arange(0, COLS)
    offs = pid * ROWS * COLS + rows[:, None] * COLS + cols[None, :]
    x = tl.load(x_ptr + offs)
    if NANS:
        x = tl.where(x > 0.875, float("nan"), x)
    k = tl.load(k_ptr + offs)
    out = out_ptr + pid * (ROWS + COLS + 3)
    idx = idx_ptr + pid * (3 * ROWS + 2 * COLS + 1)
    top, at = tl.max(x, 1, return_indices=True)
    tl.store(out + rows, top)
    tl.store(out + ROWS + cols, x.sum(axis=0))
    tl.store(out + ROWS + COLS, tl.sum(x))
    tl.store(out + ROWS + COLS + 1, x.max())
    low = tl.min(x, keep_dims=True)
    tl.store(out + ROWS + COLS + 2 + rows[:, None] * 0, low)
    tl.store(idx + rows, tl.argmax(x, 1))
    tl.store(idx + ROWS + cols, tl.argmin(x, axis=0))
    tl.store(idx + ROWS + COLS + rows, k.argmax(1))
    tl.store(idx + 2 * ROWS + COLS + cols[None, :], tl.argmin(k, 0, keep_dims=True))
    tl.store(idx + 2 * ROWS + 2 * COLS + rows, at)
    tl.store(idx + 3 * ROWS + 2 * COLS, tl.min(k, axis=None))


# One long row: argmax / argmin over the whole block (lanes, warps,
# repetitions), masked with -inf / +inf like a softmax's tail.
@triton.jit
def line(x_ptr, idx_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=float("-inf"))
    tl.store(idx_ptr, tl.argmax(x, 0))
    y = tl.load(x_ptr + offs, mask=offs < n, other=float("inf"))
    tl.store(idx_ptr + 1, tl.argmin(y, 0, tie_break_left=False))
    tl.store(idx_ptr + 2, tl.sum(tl.where(offs < n, 1, 0)))
