# Kernels of the export tests (tests/export/suite.sh).
import triton
import triton.language as tl


# Per row: the sum and the maximum of the first n_cols columns.
@triton.jit
def row_stats(x_ptr, sum_ptr, max_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    tl.store(sum_ptr + row, tl.sum(x, 0))
    tl.store(max_ptr + row, tl.max(tl.where(mask, x, -float("inf")), 0))


# y = 2 x[i * stride]; every program writes TAG, so a test sees which variant ran.
@triton.jit
def scale(x_ptr, y_ptr, tag_ptr, n, stride, TAG: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs * stride, mask=m)
    tl.store(y_ptr + offs, x * 2.0, mask=m)
    one = tl.arange(0, 1)
    tl.store(tag_ptr + one, tl.full((1,), TAG, tl.int32))


# Fails a device_assert when an index is out of range.
@triton.jit
def checked_gather(idx_ptr, src_ptr, out_ptr, n, LIMIT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    i = tl.load(idx_ptr + offs, mask=m, other=0)
    tl.device_assert(i < LIMIT, "index out of range")
    tl.store(out_ptr + offs, tl.load(src_ptr + i, mask=m), mask=m)


# Parameters named like the launchers' own variables (and "stream" and "variant").
@triton.jit
def clash(a, s, g, v, i, grid, stream, variant, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(s + offs, mask=m)
    y = tl.load(g + offs, mask=m)
    tl.store(a + offs, x * v + y + i + grid + stream + variant, mask=m)
