# Run-time while loops: a condition on a carried scalar (a strided sum),
# one on loaded data with tile and scalar updates (Collatz steps, an if
# inside), one on a reduction of the carried tile (a reduction across warps
# each iteration), and a while on compile-time values, unrolled.
# tests/unit/test_exec.c runs them at W=32 and W=64 against the interpreter
# and a direct computation.
import triton
import triton.language as tl


@triton.jit
def strided(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    i = tl.program_id(0)
    rounds = 0
    while i * BLOCK < n:
        acc += tl.load(x_ptr + i * BLOCK + offs, mask=i * BLOCK + offs < n, other=0.0)
        i += tl.num_programs(0)
        rounds += 1
    tl.store(out_ptr + tl.program_id(0) * BLOCK + offs, acc)
    tl.store(out_ptr + tl.num_programs(0) * BLOCK + tl.program_id(0), rounds.to(tl.float32))


@triton.jit
def collatz(k_ptr, out_ptr, LIMIT: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    v = tl.load(k_ptr + pid) + 1
    offs = tl.arange(0, BLOCK)
    trail = tl.zeros([BLOCK], tl.int32)
    count = 0
    odd = 0
    while (v != 1) & (count < LIMIT):
        if v % 2 == 0:
            v = v // 2
        else:
            v = 3 * v + 1
            odd += 1
        trail = tl.where(offs == count % BLOCK, v, trail)
        count += 1
    tl.store(out_ptr + pid * (BLOCK + 2) + offs, trail)
    tl.store(out_ptr + pid * (BLOCK + 2) + BLOCK, count)
    tl.store(out_ptr + pid * (BLOCK + 2) + BLOCK + 1, odd)


@triton.jit
def shrink(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * BLOCK + offs)
    halvings = 0
    while tl.max(tl.abs(x), 0) >= 0.125:
        x = x * 0.5
        halvings += 1
    k = 1
    while k < 4:
        x = x + k
        k *= 2
    tl.store(out_ptr + tl.program_id(0) * (BLOCK + 1) + offs, x)
    tl.store(out_ptr + tl.program_id(0) * (BLOCK + 1) + BLOCK, halvings.to(tl.float32))
