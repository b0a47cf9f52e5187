# Transposes, which move no data: a loaded tile transposed and added to a
# tile of the transposed shape, both reductions of the transposed tile,
# loads through transposed offsets (one of them contiguous along its last
# dim, so 16 bytes wide when aligned) and masks, a transpose carried through
# a run-time loop, a 3-D permute, and x + x^T with offsets recomputed for the
# transposed use. tests/unit/test_exec.c compares the lowering with the
# interpreter.
import triton
import triton.language as tl


@triton.jit
def trans_add(x_ptr, y_ptr, out_ptr, col_ptr, row_ptr, g_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # x is M x N, y, out and g are N x M, all row-major
    pm = tl.program_id(0) * BM + tl.arange(0, BM)
    pn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (pm[:, None] < M) & (pn[None, :] < N)
    x = tl.load(x_ptr + pm[:, None] * N + pn[None, :], mask=mask, other=0.0)
    t = tl.trans(x)
    tmask = (pn[:, None] < N) & (pm[None, :] < M)
    y = tl.load(y_ptr + pn[:, None] * M + pm[None, :], mask=tmask, other=0.0)
    s = t + y
    tl.store(out_ptr + pn[:, None] * M + pm[None, :], s, mask=tmask)
    tl.store(col_ptr + tl.program_id(0) * N + pn, tl.sum(t, axis=1), mask=pn < N)
    xt = tl.load(x_ptr + tl.trans(pn[:, None] + pm[None, :] * N), mask=mask, other=0.0)
    tl.store(row_ptr + tl.program_id(1) * M + pm, tl.max((x + xt).T, axis=0), mask=pm < M)
    off = pm[:, None] * N + pn[None, :]
    g = tl.load(x_ptr + tl.trans(off), mask=tl.trans(mask), other=0.0)
    tl.store(g_ptr + pn[:, None] * M + pm[None, :], g * 2.0 + s, mask=tmask)


@triton.jit
def trans_loop(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # out[n, m] = sum over the row blocks k of x[k * BM + m, n], x being M x N
    pm = tl.arange(0, BM)
    pn = tl.program_id(0) * BN + tl.arange(0, BN)
    acc = tl.zeros((BN, BM), dtype=tl.float32)
    for k in range(0, M, BM):
        rows = k + pm
        x = tl.load(x_ptr + rows[:, None] * N + pn[None, :], mask=(rows[:, None] < M) & (pn[None, :] < N), other=0.0)
        acc += x.trans()
    tl.store(out_ptr + pn[:, None] * BM + pm[None, :], acc, mask=pn[:, None] < N)


@triton.jit
def permute3(x_ptr, out_ptr, sum_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    a = tl.arange(0, A)
    b = tl.arange(0, B)
    c = tl.arange(0, C)
    base = tl.program_id(0) * (A * B * C)
    x = tl.load(x_ptr + base + a[:, None, None] * (B * C) + b[None, :, None] * C + c[None, None, :])
    p = tl.permute(x, 2, 0, 1)
    tl.store(out_ptr + base + c[:, None, None] * (A * B) + a[None, :, None] * B + b[None, None, :], p)
    tl.store(sum_ptr + tl.program_id(0) * (C * B) + c[:, None] * B + b[None, :], tl.sum(p, axis=1))


@triton.jit
def symmetric(x_ptr, out_ptr, N: tl.constexpr):
    # x + x^T of an N x N matrix: the offsets, cheap to recompute, are used
    # as they are and transposed, so the transposed use gets its own copy
    r = tl.arange(0, N)
    off = r[:, None] * N + r[None, :]
    x = tl.load(x_ptr + off)
    xt = tl.load(x_ptr + off.T)
    tl.store(out_ptr + off, x + xt)

# Runs of tests/exec/suite.sh (each on c and c:wave64, checked against the interpreter):
# run: -k trans_add -s *fp32,*fp32,*fp32,*fp32,*fp32,*fp32,i32,i32 -D BM=32 -D BN=16 --num-warps 4 --arg x_ptr=2000 --arg y_ptr=2000 --arg out_ptr=2000 --arg col_ptr=80 --arg row_ptr=150 --arg g_ptr=2000 --arg M=50 --arg N=40 --grid 2,3
# run: -k trans_add -s *fp32,*fp32,*fp32,*fp32,*fp32,*fp32,i32:16,i32:16 -D BM=16 -D BN=64 --num-warps 8 --arg x_ptr=8192 --arg y_ptr=8192 --arg out_ptr=8192 --arg col_ptr=512 --arg row_ptr=128 --arg g_ptr=8192 --arg M=64 --arg N=128 --grid 4,2
# run: -k trans_add -s *fp32,*fp32,*fp32,*fp32,*fp32,*fp32,i32:16,i32:16 -D BM=8 -D BN=8 --num-warps 1 --arg x_ptr=512 --arg y_ptr=512 --arg out_ptr=512 --arg col_ptr=64 --arg row_ptr=64 --arg g_ptr=512 --arg M=16 --arg N=32 --grid 2,4
# run: -k trans_loop -s *fp32,*fp32,i32,i32 -D BM=16 -D BN=32 --num-warps 2 --arg x_ptr=2000 --arg out_ptr=1024 --arg M=50 --arg N=40 --grid 2
# run: -k permute3 -s *fp32,*fp32,*fp32 -D A=2 -D B=4 -D C=8 --num-warps 1 --arg x_ptr=192 --arg out_ptr=192 --arg sum_ptr=96 --grid 3
# run: -k permute3 -s *fp32,*fp32,*fp32 -D A=8 -D B=16 -D C=4 --num-warps 4 --arg x_ptr=1024 --arg out_ptr=1024 --arg sum_ptr=128 --grid 2
# run: -k symmetric -s *fp32,*fp32 -D N=32 --num-warps 2 --arg x_ptr=1024 --arg out_ptr=1024 --grid 1
