# Shifts by amounts past the register width (the amounts are drawn from
# [0, --int-range)): the C target and the interpreter agree with what an
# H200 computes (<< and unsigned >> give 0, signed >> the sign).
import triton
import triton.language as tl


@triton.jit
def shifts(x_ptr, s_ptr, l_ptr, r_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    x = tl.load(x_ptr + i, mask=m, other=0) - 50
    s = tl.load(s_ptr + i, mask=m, other=0)
    tl.store(l_ptr + i, x << s, mask=m)
    tl.store(r_ptr + i, x >> s, mask=m)
