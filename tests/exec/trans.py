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
