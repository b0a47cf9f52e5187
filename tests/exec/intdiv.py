# Integer // and % where C would trap: by 0 (what masked-off lanes loaded
# with other=0 divide by) and the lowest value by -1. tests/unit/test_exec.c
# runs the C target against the interpreter for each integer dtype; both
# give what an H200 gives under Triton 3.6 (x // 0 all ones, x % 0 = x,
# INT_MIN // -1 = INT_MIN, INT_MIN % -1 = 0).
import triton
import triton.language as tl


@triton.jit
def divmod(a_ptr, b_ptr, q_ptr, r_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs, offs < n, other=0)
    b = tl.load(b_ptr + offs, offs < n, other=0)
    one = tl.full([BLOCK], 1, a.dtype)
    lowest = one << tl.full([BLOCK], a.dtype.primitive_bitwidth - 1, a.dtype)
    a = tl.where(offs % 8 == 7, lowest, tl.where(offs % 2 == 0, -a, a))
    b = tl.where(offs % 8 == 7, -one, tl.where(offs % 3 == 0, -b, b))
    # every lane stored, the masked ones too: they divide by 0
    tl.store(q_ptr + offs, a // b)
    tl.store(r_ptr + offs, a % b)
