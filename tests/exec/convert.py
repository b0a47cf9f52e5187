# Layout conversions through shared memory. A loaded tile needed in two
# places at once: added to its own transpose, stored both as it is and
# transposed, a 3-D cube added to its permutes, a row maximum broadcast
# against the transposed tile, a loop-carried tile transposed every
# iteration (the conversion runs inside a run-time loop), a mask made from
# loaded values (booleans in shared memory). And loads and stores that are
# coalesced only in a frame of their own: the blocks of a matrix added to
# the transposed blocks across the diagonal, a permuted 3-D tile added to
# one loaded in the permuted shape. Sizes the blocks do not divide are
# masked. tests/unit/test_exec.c compares the lowering with the interpreter.
import triton
import triton.language as tl


@triton.jit
def sym(x_ptr, out_ptr, n, B: tl.constexpr):
    # program p: x + x^T for the n x n matrix p (n <= B)
    r = tl.arange(0, B)
    base = tl.program_id(0) * n * n
    mask = (r[:, None] < n) & (r[None, :] < n)
    x = tl.load(x_ptr + base + r[:, None] * n + r[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + base + r[:, None] * n + r[None, :], x + x.T, mask=mask)


@triton.jit
def both(x_ptr, out_ptr, outt_ptr, n, B: tl.constexpr):
    # one offsets tile for the load and both stores: the transposed store
    # reads x through a conversion
    r = tl.arange(0, B)
    base = tl.program_id(0) * n * n
    off = base + r[:, None] * n + r[None, :]
    mask = (r[:, None] < n) & (r[None, :] < n)
    x = tl.load(x_ptr + off, mask=mask, other=0.0)
    tl.store(out_ptr + off, x * 3.0, mask=mask)
    tl.store(outt_ptr + off, tl.trans(x), mask=mask)


@triton.jit
def cube(x_ptr, out_ptr, A: tl.constexpr):
    a = tl.arange(0, A)
    off = tl.program_id(0) * (A * A * A) + a[:, None, None] * (A * A) + a[None, :, None] * A + a[None, None, :]
    x = tl.load(x_ptr + off)
    y = x + tl.permute(x, (2, 0, 1)) * tl.permute(x, 1, 0, 2)
    tl.store(out_ptr + off, y)


@triton.jit
def rowmax(x_ptr, out_ptr, n, B: tl.constexpr):
    # out[i, j] = x[j, i] + max_k x[i, k]: the maximum, along frame dim 0
    # of x, is needed along the other one
    r = tl.arange(0, B)
    base = tl.program_id(0) * n * n
    mask = (r[:, None] < n) & (r[None, :] < n)
    x = tl.load(x_ptr + base + r[:, None] * n + r[None, :], mask=mask, other=float("-inf"))
    m = tl.max(x, axis=1)
    tl.store(out_ptr + base + r[:, None] * n + r[None, :], x.T + m[:, None], mask=mask)


@triton.jit
def loop_trans(x_ptr, out_ptr, n, steps, B: tl.constexpr):
    # acc = acc^T + x_s (x_s: the n x n matrix s of program p's steps)
    r = tl.arange(0, B)
    mask = (r[:, None] < n) & (r[None, :] < n)
    acc = tl.zeros((B, B), dtype=tl.float32)
    for s in range(0, steps):
        base = (tl.program_id(0) * steps + s) * n * n
        x = tl.load(x_ptr + base + r[:, None] * n + r[None, :], mask=mask, other=0.0)
        acc = tl.trans(acc) + x * (s + 1)
    tl.store(out_ptr + tl.program_id(0) * n * n + r[:, None] * n + r[None, :], acc, mask=mask)


@triton.jit
def pair(x_ptr, out_ptr, n, BM: tl.constexpr, BN: tl.constexpr):
    # out = x + x^T of the n x n matrix x in BM x BN blocks: block (i, j)
    # adds the BN x BM block (j, i), transposed; that load, contiguous
    # along its own last dim, runs along frame dim 0
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    a = tl.load(x_ptr + rm[:, None] * n + rn[None, :], mask=(rm[:, None] < n) & (rn[None, :] < n), other=0.0)
    b = tl.load(x_ptr + rn[:, None] * n + rm[None, :], mask=(rn[:, None] < n) & (rm[None, :] < n), other=0.0)
    tl.store(out_ptr + rm[:, None] * n + rn[None, :], a + b.T, mask=(rm[:, None] < n) & (rn[None, :] < n))


@triton.jit
def permute_add(x_ptr, y_ptr, out_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    # x is A x B x C, y and out are C x A x B: out = permute(x) + y
    a = tl.arange(0, A)
    b = tl.arange(0, B)
    c = tl.arange(0, C)
    base = tl.program_id(0) * (A * B * C)
    x = tl.load(x_ptr + base + a[:, None, None] * (B * C) + b[None, :, None] * C + c[None, None, :])
    yoff = base + c[:, None, None] * (A * B) + a[None, :, None] * B + b[None, None, :]
    y = tl.load(y_ptr + yoff)
    tl.store(out_ptr + yoff, tl.permute(x, 2, 0, 1) + y)


@triton.jit
def masks(x_ptr, idx_ptr, out_ptr, B: tl.constexpr):
    # a mask and a pointer tile made from loaded values, each also needed
    # transposed: the conversions move booleans and pointers
    r = tl.arange(0, B)
    off = tl.program_id(0) * B * B + r[:, None] * B + r[None, :]
    x = tl.load(x_ptr + off)
    m = x > 0.25
    p = x_ptr + tl.load(idx_ptr + off)
    g = tl.load(p) + tl.load(tl.trans(p))
    tl.store(out_ptr + off, tl.where(m & tl.trans(m), g, x))

# Runs of tests/exec/suite.sh (each on c and c:wave64, checked against the interpreter):
# run: -k sym -s *fp32,*fp32,i32 -D B=16 --num-warps 4 --arg x_ptr=507 --arg out_ptr=507 --arg n=13 --grid 3
# run: -k sym -s *fp32,*fp32,i32 -D B=8 --num-warps 4 --arg x_ptr=128 --arg out_ptr=128 --arg n=8 --grid 2
# run: -k sym -s *fp32,*fp32,i32 -D B=32 --num-warps 2 --arg x_ptr=1682 --arg out_ptr=1682 --arg n=29 --grid 2
# run: -k sym -s *bf16,*bf16,i32 -D B=32 --num-warps 4 --arg x_ptr=1800 --arg out_ptr=1800 --arg n=30 --grid 2
# run: -k both -s *fp32,*fp32,*fp32,i32 -D B=16 --num-warps 4 --arg x_ptr=242 --arg out_ptr=242 --arg outt_ptr=242 --arg n=11 --grid 2
# run: -k both -s *fp32,*fp32,*fp32,i32:16 -D B=32 --num-warps 8 --arg x_ptr=1024 --arg out_ptr=1024 --arg outt_ptr=1024 --arg n=32 --grid 1
# run: -k cube -s *fp32,*fp32 -D A=4 --num-warps 1 --arg x_ptr=128 --arg out_ptr=128 --grid 2
# run: -k cube -s *fp32,*fp32 -D A=8 --num-warps 4 --arg x_ptr=1024 --arg out_ptr=1024 --grid 2
# run: -k rowmax -s *fp32,*fp32,i32 -D B=16 --num-warps 2 --arg x_ptr=300 --arg out_ptr=300 --arg n=10 --grid 3
# run: -k rowmax -s *fp32,*fp32,i32 -D B=64 --num-warps 4 --arg x_ptr=2500 --arg out_ptr=2500 --arg n=50 --grid 1
# run: -k loop_trans -s *fp32,*fp32,i32,i32 -D B=16 --num-warps 4 --arg x_ptr=1014 --arg out_ptr=338 --arg n=13 --arg steps=3 --grid 2
# run: -k loop_trans -s *fp32,*fp32,i32,i32 -D B=32 --num-warps 2 --arg x_ptr=4096 --arg out_ptr=1024 --arg n=32 --arg steps=4 --grid 1
# run: -k pair -s *fp32,*fp32,i32 -D BM=32 -D BN=16 --num-warps 4 --arg x_ptr=2500 --arg out_ptr=2500 --arg n=50 --grid 2,4
# run: -k pair -s *fp32,*fp32,i32:16 -D BM=32 -D BN=16 --num-warps 4 --arg x_ptr=4096 --arg out_ptr=4096 --arg n=64 --grid 2,4
# run: -k pair -s *fp32,*fp32,i32:16 -D BM=16 -D BN=64 --num-warps 8 --arg x_ptr=16384 --arg out_ptr=16384 --arg n=128 --grid 8,2
# run: -k permute_add -s *fp32,*fp32,*fp32 -D A=4 -D B=8 -D C=16 --num-warps 4 --arg x_ptr=1024 --arg y_ptr=1024 --arg out_ptr=1024 --grid 2
# run: -k permute_add -s *fp32,*fp32,*fp32 -D A=2 -D B=16 -D C=8 --num-warps 1 --arg x_ptr=768 --arg y_ptr=768 --arg out_ptr=768 --grid 3
# run: -k masks -s *fp32,*i32,*fp32 -D B=16 --num-warps 4 --arg x_ptr=512 --arg idx_ptr=512 --arg out_ptr=512 --grid 2
# run: -k masks -s *fp32,*i32,*fp32 -D B=32 --num-warps 2 --arg x_ptr=1024 --arg idx_ptr=1024 --arg out_ptr=1024 --grid 1
