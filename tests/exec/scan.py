# Scans along either axis, forward and reverse, with plain and jitted
# combines (one op, several ops, two tensors at once): tests/unit/test_exec.c
# compares the lowering with the interpreter over tiles shorter than a
# warp, longer than the block, and wider than the tile (wrapped copies).
import triton
import triton.language as tl


@triton.jit
def biggest(a, b):
    return tl.maximum(a, b)


@triton.jit
def first_order(a1, b1, a2, b2):
    # y = a * y_prev + b, composed: first (a1, b1), then (a2, b2)
    return a1 * a2, b1 * a2 + b2


@triton.jit
def running_max(v1, i1, v2, i2):
    # the larger value, and among equal values the smaller index
    take = (v2 > v1) | ((v2 == v1) & (i2 < i1))
    return tl.where(take, v2, v1), tl.where(take, i2, i1)


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


# Every kind of scan of a [ROWS, COLS] tile along AXIS: fp32 and int32
# sums, a product, a recurrence of (fp32, fp32) pairs and a running
# maximum of (int32 value, int32 index) pairs.
@triton.jit
def tiles(x_ptr, k_ptr, out_ptr, kout_ptr, ROWS: tl.constexpr, COLS: tl.constexpr, AXIS: tl.constexpr,
          REVERSE: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    c = tl.arange(0, COLS)[None, :]
    offs = r * COLS + c
    x = tl.load(x_ptr + offs)
    k = tl.load(k_ptr + offs)
    total = tl.cumsum(x, axis=AXIS, reverse=REVERSE)
    count = tl.cumsum(k, axis=AXIS, reverse=REVERSE)
    prod = tl.cumprod(x, axis=AXIS, reverse=REVERSE)
    a, y = tl.associative_scan((x, k.to(tl.float32)), AXIS, first_order, reverse=REVERSE)
    top, at = tl.associative_scan((k, offs), AXIS, running_max, reverse=REVERSE)
    tl.store(out_ptr + 4 * offs, total)
    tl.store(out_ptr + 4 * offs + 1, prod)
    tl.store(out_ptr + 4 * offs + 2, a)
    tl.store(out_ptr + 4 * offs + 3, y)
    tl.store(kout_ptr + 3 * offs, count)
    tl.store(kout_ptr + 3 * offs + 1, top)
    tl.store(kout_ptr + 3 * offs + 2, at)


# The same scans of a 1-D block, the last one cut short by a mask.
@triton.jit
def line(x_ptr, k_ptr, out_ptr, kout_ptr, n, BLOCK: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    k = tl.load(k_ptr + offs, mask=mask, other=0)
    total = tl.cumsum(x, 0, reverse=REVERSE)
    count = tl.cumsum(k, 0, reverse=REVERSE)
    prod = tl.cumprod(x, 0, reverse=REVERSE)
    a, y = tl.associative_scan((x, k.to(tl.float32)), 0, first_order, reverse=REVERSE)
    top, at = tl.associative_scan((k, offs), 0, running_max, reverse=REVERSE)
    tl.store(out_ptr + 4 * offs, total, mask=mask)
    tl.store(out_ptr + 4 * offs + 1, prod, mask=mask)
    tl.store(out_ptr + 4 * offs + 2, a, mask=mask)
    tl.store(out_ptr + 4 * offs + 3, y, mask=mask)
    tl.store(kout_ptr + 3 * offs, count, mask=mask)
    tl.store(kout_ptr + 3 * offs + 1, top, mask=mask)
    tl.store(kout_ptr + 3 * offs + 2, at, mask=mask)


# A running sum over a row longer than the block: a scan in a loop of
# run-time bounds, its carry from one chunk to the next.
@triton.jit
def chunks(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0) * n
    carry = 0.0
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row + offs, offs < n, other=0.0)
        tl.store(out_ptr + row + offs, carry + tl.cumsum(x, 0), offs < n)
        carry += tl.sum(x, 0)


# Scans of a tl.dot's result, whose frame has the matrix unit's layout
# (fp16 operands: mma.sync or MFMA fragments).
@triton.jit
def dot_scan(a_ptr, b_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :])
    b = tl.load(b_ptr + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
    c = tl.dot(a, b)
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(out_ptr + 2 * offs, tl.cumsum(c, 0))
    tl.store(out_ptr + 2 * offs + 1, tl.cumsum(c, 1, reverse=True))

# Runs of tests/exec/suite.sh (each on c and c:wave64, checked against the interpreter):
# run: -k scans -s *fp32,*fp32 -D ROWS=4 -D COLS=64 --num-warps 2 --arg x_ptr=768 --arg out_ptr=2304 --grid 3
# run: -k scans -s *fp32,*fp32 -D ROWS=16 -D COLS=32 --num-warps 4 --arg x_ptr=1536 --arg out_ptr=4608 --grid 3
