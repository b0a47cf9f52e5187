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


@triton.jit
def pick_max(v1, i1, v2, i2):
    # the larger value, and among equal values the smaller index
    take = (v2 > v1) | ((v2 == v1) & (i2 < i1))
    return tl.where(take, v2, v1), tl.where(take, i2, i1)


@triton.jit
def hypot(a, b):
    return tl.sqrt(a * a + b * b)


@triton.jit
def bits(a, b):
    return a ^ b


@triton.jit
def stats(s1, n1, m1, s2, n2, m2):
    return s1 + s2, n1 + n2, tl.maximum(m1, m2)


# tl.reduce with jitted combines along AXIS of a [ROWS, COLS] tile (OTHER
# is the other extent): of (value, index) pairs, of one tensor with a
# combine of several ops, of integers with xor, of three tensors over every
# axis, with keep_dims. Per program `out` holds floats: [0, OTHER) the
# largest x, [OTHER, 2 OTHER) the hypot, [2 OTHER, 3 OTHER) the hypot with
# keep_dims, then the tile's sum and maximum; `idx` holds i32: where x and
# k are largest, k's maxima, the xor of k, then the count of k's ones.
@triton.jit
def combines(x_ptr, k_ptr, out_ptr, idx_ptr, ROWS: tl.constexpr, COLS: tl.constexpr, AXIS: tl.constexpr,
             OTHER: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, COLS)[None, :]
    offs = rows * COLS + cols
    x = tl.load(x_ptr + pid * ROWS * COLS + offs)
    k = tl.load(k_ptr + pid * ROWS * COLS + offs)
    o = tl.arange(0, OTHER)
    out = out_ptr + pid * (3 * OTHER + 2)
    idx = idx_ptr + pid * (4 * OTHER + 1)
    top, where = tl.reduce((x, offs), AXIS, pick_max)
    tl.store(out + o, top)
    tl.store(idx + o, where)
    tl.store(out + OTHER + o, tl.reduce(x, AXIS, hypot))
    kept = x.reduce(AXIS, hypot, keep_dims=True)
    if AXIS == 0:
        tl.store(out + 2 * OTHER + o[None, :], kept)
    else:
        tl.store(out + 2 * OTHER + o[:, None], kept)
    ktop, kwhere = tl.reduce((k, offs), AXIS, pick_max)
    tl.store(idx + OTHER + o, kwhere)
    tl.store(idx + 2 * OTHER + o, ktop)
    tl.store(idx + 3 * OTHER + o, tl.reduce(k, AXIS, bits))
    total, ones, peak = tl.reduce((x, (k == 1).to(tl.int32), x), None, stats)
    tl.store(out + 3 * OTHER, total)
    tl.store(out + 3 * OTHER + 1, peak)
    tl.store(idx + 4 * OTHER, ones)
