# break and continue in loops with run-time bounds, in while loops, and in
# a loop unrolled at compile time: tests/unit/test_exec.c runs them at W=32
# and W=64 against the interpreter and a direct computation.
import triton
import triton.language as tl


# Per program, the first chunk of x (of BLOCK) whose sum is negative,
# skipping chunks whose first element is above 0.5 (continue), stopping
# at it (break): `out` holds the sum of the chunks added before the stop,
# `idx` the stopping chunk (-1: none) and how many chunks were skipped.
@triton.jit
def first_negative(x_ptr, out_ptr, idx_ptr, chunks, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    base = x_ptr + pid * chunks * BLOCK
    acc = tl.zeros([BLOCK], tl.float32)
    found = -1
    skipped = 0
    for c in range(chunks):
        x = tl.load(base + c * BLOCK + offs)
        if tl.sum(tl.where(offs == 0, x, 0.0)) > 0.5:
            skipped += 1
            continue
        if tl.sum(x) < 0.0:
            found = c
            break
        acc += x
    tl.store(out_ptr + pid * BLOCK + offs, acc)
    tl.store(idx_ptr + 2 * pid, found)
    tl.store(idx_ptr + 2 * pid + 1, skipped)


# A while loop that counts up k, skips multiples of 3 and stops at the first
# value of the table above LIMIT (or at the end): the sum of what it passed.
@triton.jit
def scan_table(t_ptr, out_ptr, n, LIMIT: tl.constexpr):
    pid = tl.program_id(0)
    k = 0
    total = 0
    stop = -1
    while k < n:
        v = tl.load(t_ptr + pid * n + k)
        k += 1
        if v % 3 == 0:
            continue
        if v > LIMIT:
            stop = k - 1
            break
        total += v
    for j in range(4):   # unrolled: a break at a compile-time index
        if j == 2:
            break
        total += 1000
    tl.store(out_ptr + 3 * pid, total)
    tl.store(out_ptr + 3 * pid + 1, stop)
    tl.store(out_ptr + 3 * pid + 2, k)
