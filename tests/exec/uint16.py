# tl.uint16 throughout: loads and stores of *u16, Triton 3.6's promotions
# (unsigned wins against a signed type of its width, a wider signed type
# wins), unsigned division, remainder, shifts and comparisons, casts to and
# from the other integer and float types, reductions. tests/unit/test_exec.c
# (group lang) runs it on the C target at W=32 and 64 against the
# interpreter; tests/gpu/lang.py against Triton on an NVIDIA GPU.
import triton
import triton.language as tl


@triton.jit
def mix16(x_ptr, y_ptr, s_ptr, out_ptr, wide_ptr, f_ptr, n, B: tl.constexpr):
    pid = tl.program_id(0)
    i = pid * B + tl.arange(0, B)
    m = i < n
    x = tl.load(x_ptr + i, mask=m, other=7)
    y = tl.load(y_ptr + i, mask=m, other=3)
    s = tl.load(s_ptr + i, mask=m, other=-5)
    tl.static_assert(x.dtype == tl.uint16)
    tl.static_assert(x.dtype.is_uint16())
    one = tl.full([B], 1, tl.uint16)
    seven = tl.full([B], 7, tl.uint16)
    three = tl.full([B], 3, tl.uint16)
    a = x + s                      # uint16 + int16: uint16
    tl.static_assert(a.dtype == tl.uint16)
    q = x // (y | one)             # unsigned division
    r = x % (y + one)              # y = 65535 wraps to 0: x % 0 is x
    sh = (x >> three) | (y << (x & seven))  # logical right, left wrapping at 16 bits
    tl.static_assert(sh.dtype == tl.uint16)
    t = tl.full([B], 65535, tl.uint16) - x
    c = (s.to(tl.uint16) ^ y) - one  # int16 to uint16 keeps the bits
    f = x.to(tl.float32) * 0.5 + s.to(tl.uint16).to(tl.float32)
    back = (f * 0.25).to(tl.uint16)
    h = x.to(tl.float16).to(tl.float32)   # rounded to fp16's 11 bits
    w = x.to(tl.int32) * 3 - y     # widened first: no wrap
    tl.static_assert(w.dtype == tl.int32)
    wide = x + tl.full([B], 1, tl.int32)   # a wider signed type wins
    tl.static_assert(wide.dtype == tl.int32)
    big = (x > 40000) & (y <= 20000)   # unsigned comparisons
    lo8 = x.to(tl.uint8).to(tl.int32)  # the low byte
    tl.store(out_ptr + i, a, mask=m)
    tl.store(out_ptr + n + i, q, mask=m)
    tl.store(out_ptr + 2 * n + i, r, mask=m)
    tl.store(out_ptr + 3 * n + i, sh, mask=m)
    tl.store(out_ptr + 4 * n + i, t, mask=m)
    tl.store(out_ptr + 5 * n + i, c, mask=m)
    tl.store(out_ptr + 6 * n + i, back, mask=m)
    tl.store(wide_ptr + i, w, mask=m)
    tl.store(wide_ptr + n + i, wide, mask=m)
    tl.store(wide_ptr + 2 * n + i, big.to(tl.int32), mask=m)
    tl.store(wide_ptr + 3 * n + i, lo8, mask=m)
    tl.store(f_ptr + i, f, mask=m)
    tl.store(f_ptr + n + i, h, mask=m)
    # reductions over the block: the largest (unsigned) and the sum (widened)
    tl.store(wide_ptr + 4 * n + pid, tl.max(tl.where(m, x, 0), axis=0).to(tl.int32))
    tl.store(wide_ptr + 4 * n + 64 + pid, tl.sum(tl.where(m, y, 0), axis=0).to(tl.int32))


@triton.jit
def scale16(x_ptr, out_ptr, n, k, B: tl.constexpr):
    # a run-time uint16 scalar against a uint16 tile: divided, compared, its rows of a 2-D tile
    r = tl.program_id(0) * B + tl.arange(0, B)
    c = tl.arange(0, 4)
    m = (r[:, None] < n) & (c[None, :] < 3)
    x = tl.load(x_ptr + r[:, None] * 3 + c[None, :], mask=m, other=1)
    ku = k.to(tl.uint16)
    y = tl.where(x > ku, x // ku, x * ku)
    tl.store(out_ptr + r[:, None] * 3 + c[None, :], y, mask=m)
