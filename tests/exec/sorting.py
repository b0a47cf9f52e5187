# tl.gather, tl.flip, tl.sort, tl.topk and tl.histogram on blocks that
# overhang their tensors (masks live). The "# run:" lines check the C
# target at W=32 and 64 against the interpreter; tests/unit/test_exec.c
# checks the meaning (a sorted row is sorted and a permutation of its
# input); tests/gpu/lang.py compares with real Triton on a GPU.
import triton
import triton.language as tl


@triton.jit
def rows(x_ptr, flip_ptr, up_ptr, down_ptr, top_ptr, M, N: tl.constexpr, BM: tl.constexpr, K: tl.constexpr):
    # each row of an M x N matrix flipped, sorted both ways, and its K largest
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    c = tl.arange(0, N)
    m = r[:, None] < M
    x = tl.load(x_ptr + r[:, None] * N + c[None, :], mask=m, other=0.0)
    tl.store(flip_ptr + r[:, None] * N + c[None, :], tl.flip(x, 1), mask=m)
    tl.store(up_ptr + r[:, None] * N + c[None, :], tl.sort(x), mask=m)
    tl.store(down_ptr + r[:, None] * N + c[None, :], tl.sort(x, descending=True), mask=m)
    k = tl.arange(0, K)
    tl.store(top_ptr + r[:, None] * K + k[None, :], tl.topk(x, K, dim=1), mask=m)


@triton.jit
def columns(x_ptr, idx_ptr, g_ptr, f_ptr, s_ptr, M, BM: tl.constexpr, BN: tl.constexpr):
    # along dim 0: a gather by an index tile, a flip, an integer sort (of the columns, through
    # transposes: Triton sorts along the last dim only)
    r = tl.arange(0, BM)
    c = tl.program_id(0) * BN + tl.arange(0, BN)
    m = c[None, :] < M
    x = tl.load(x_ptr + r[:, None] * M + c[None, :], mask=m, other=0)
    i = tl.load(idx_ptr + r[:, None] * M + c[None, :], mask=m, other=0) % BM
    tl.store(g_ptr + r[:, None] * M + c[None, :], tl.gather(x, i, 0), mask=m)
    tl.store(f_ptr + r[:, None] * M + c[None, :], x.flip(0), mask=m)
    tl.store(s_ptr + r[:, None] * M + c[None, :], tl.trans(tl.sort(tl.trans(x))), mask=m)


@triton.jit
def hist(x_ptr, out_ptr, n, BINS: tl.constexpr, B: tl.constexpr):
    i = tl.program_id(0) * B + tl.arange(0, B)
    x = tl.load(x_ptr + i, mask=i < n, other=0)
    h = tl.histogram(x, BINS, mask=i < n)
    tl.atomic_add(out_ptr + tl.arange(0, BINS), h)


@triton.jit
def gather_rows(x_ptr, idx_ptr, out_ptr, n, B: tl.constexpr, C: tl.constexpr):
    # a [B, C] table's rows picked by a [B // 2, C] index (the result has the index's shape)
    r = tl.arange(0, B)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    h = tl.program_id(0) * (B // 2) + tl.arange(0, B // 2)
    j = tl.load(idx_ptr + h[:, None] * C + c[None, :], mask=h[:, None] < n, other=0)
    tl.store(out_ptr + h[:, None] * C + c[None, :], tl.gather(x, j, axis=0), mask=h[:, None] < n)

# run: -k rows -s *fp32,*fp32,*fp32,*fp32,*fp32,i32 -D N=64 -D BM=4 -D K=8 --arg x_ptr=1920 --arg flip_ptr=1920 --arg up_ptr=1920 --arg down_ptr=1920 --arg top_ptr=240 --arg M=30 --grid 8
# run: -k rows -s *fp16,*fp16,*fp16,*fp16,*fp16,i32 -D N=16 -D BM=8 -D K=16 --num-warps 2 --arg x_ptr=336 --arg flip_ptr=336 --arg up_ptr=336 --arg down_ptr=336 --arg top_ptr=336 --arg M=21 --grid 3
# run: -k columns -s *i32,*i32,*i32,*i32,*i32,i32 -D BM=32 -D BN=16 --int-range 1000 --arg x_ptr=1600 --arg idx_ptr=1600 --arg g_ptr=1600 --arg f_ptr=1600 --arg s_ptr=1600 --arg M=50 --grid 4
# run: -k hist -s *i32,*i32,i32 -D BINS=16 -D B=128 --arg x_ptr=1000 --arg out_ptr=16 --arg n=1000 --grid 8
# run: -k gather_rows -s *fp32,*i32,*fp32,i32 -D B=32 -D C=8 --int-range 32 --arg x_ptr=256 --arg idx_ptr=400 --arg out_ptr=400 --arg n=50 --grid 4


@triton.jit
def check_sort(x_ptr, out_ptr, M, N: tl.constexpr, BM: tl.constexpr):
    # what sort means, asserted in the kernel (the run fails otherwise): each row of the result
    # ascends, holds the input's values (sums of powers agree), flip reverses it, topk is its end
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    c = tl.arange(0, N)
    m = r[:, None] < M
    x = tl.load(x_ptr + r[:, None] * N + c[None, :], mask=m, other=0)
    y = tl.sort(x, dim=1)
    nxt = tl.gather(y, tl.minimum(c + 1, N - 1)[None, :] + tl.zeros((BM, N), tl.int32), 1)
    tl.device_assert(y <= nxt, "a sorted row does not ascend")
    tl.device_assert(tl.sum(y, 1) == tl.sum(x, 1), "sort changed the sum")
    tl.device_assert(tl.sum(y * y, 1) == tl.sum(x * x, 1), "sort changed the sum of squares")
    tl.device_assert(tl.sum(y * y * y, 1) == tl.sum(x * x * x, 1), "sort changed the sum of cubes")
    d = tl.sort(x, dim=1, descending=True)
    tl.device_assert(d == tl.flip(y, 1), "descending is not the ascending flipped")
    t = tl.topk(x, 4, dim=1)
    tl.device_assert(t == tl.gather(d, tl.arange(0, 4)[None, :] + tl.zeros((BM, 4), tl.int32), 1), "topk")
    tl.store(out_ptr + r[:, None] * N + c[None, :], y, mask=m)

# run: -k check_sort -s *i32,*i32,i32 -D N=64 -D BM=4 --int-range 50 --arg x_ptr=1920 --arg out_ptr=1920 --arg M=30 --grid 8
# run: -k check_sort -s *i32,*i32,i32 -D N=128 -D BM=2 --int-range 1000 --num-warps 2 --arg x_ptr=1280 --arg out_ptr=1280 --arg M=10 --grid 5
