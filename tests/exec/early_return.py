# `return` inside ifs and loops on run-time values: the program (or the
# helper) ends there. tests/unit/test_exec.c (group jumps) runs these on
# the C target at W=32 and 64 against the interpreter and against what they
# mean; tests/gpu/lang.py against Triton on an NVIDIA GPU.
import triton
import triton.language as tl


@triton.jit
def rows_early(x_ptr, y_ptr, n_rows, n_cols, B: tl.constexpr):
    # more programs than rows: the extra ones leave at once and write nothing
    row = tl.program_id(0)
    if row >= n_rows:
        return
    c = tl.arange(0, B)
    x = tl.load(x_ptr + row * n_cols + c, mask=c < n_cols, other=0.0)
    tl.store(y_ptr + row * n_cols + c, x * 2.0 + 1.0, mask=c < n_cols)


@triton.jit
def find_first(x_ptr, out_ptr, n, LIMIT, B: tl.constexpr):
    # a row per program, scanned in blocks: the first index holding more
    # than LIMIT, found in the block that has one; -7 where none does
    row = tl.program_id(0)
    for start in range(0, n, B):
        c = start + tl.arange(0, B)
        x = tl.load(x_ptr + row * n + c, mask=c < n, other=0)
        hit = tl.max(tl.where(x > LIMIT, 1, 0), axis=0)
        if hit > 0:
            tl.store(out_ptr + row, tl.min(tl.where(x > LIMIT, c, n), axis=0))
            return
        tl.store(out_ptr + row, -1 - start)
    tl.store(out_ptr + row, -7)


@triton.jit
def _store_odd(ptr, v, k):
    # a helper's own early return: its caller goes on
    if k % 2 == 0:
        return
    tl.store(ptr, v)


@triton.jit
def helper_return(x_ptr, y_ptr, z_ptr, n, B: tl.constexpr):
    pid = tl.program_id(0)
    i = pid * B + tl.arange(0, B)
    x = tl.load(x_ptr + i, mask=i < n, other=0.0)
    _store_odd(y_ptr + pid, tl.sum(x, axis=0), pid)
    tl.store(z_ptr + i, x + 1.0, mask=i < n)
    # a while loop on a run-time condition that returns from the kernel
    k = pid
    while k < n:
        if k == 5 * B + 3:   # program 3 only
            return
        k += B
    tl.store(y_ptr + 64 + pid, k.to(tl.float32))
