# Tiles made from a wgmma dot's result, read along its rows: on sm_90a
# (c:wgmma models it) the result's frame numbers its rows as wgmma's
# warpgroups hold them (lower_dot.c, Frame.wgmma_rows), so everything that
# reads a row coordinate of it must agree: a store of the tile transposed,
# sums and maxima down the columns (across lanes, warps and repetitions),
# maxima along the rows, a row vector stored by its own aranges. A scan
# down the columns follows the blocked order, so its frame keeps blocked
# rows and A goes to shared memory with its rows permuted instead
# (tests/expected/wgmma_scanned.plan). Checked against the interpreter on
# c:wgmma, c and c:wave64 (the K loop pipelined on wgmma only on c:wgmma).
import triton
import triton.language as tl


@triton.jit
def rows_reduced(a_ptr, b_ptr, t_ptr, colsum_ptr, colmax_ptr, rowmax_ptr, M, K,
                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :], mask=(k + rk)[:, None] < K, other=0.0)
        acc = tl.dot(a, b, acc)
    # the tile transposed: column n of the output holds row m
    tl.store(t_ptr + rn[None, :] * M + rm[:, None], acc, mask=rm[:, None] < M)
    live = tl.where(rm[:, None] < M, acc, 0.0)
    tl.store(colsum_ptr + tl.program_id(0) * BN + rn, tl.sum(live, 0))
    tl.store(colmax_ptr + tl.program_id(0) * BN + rn, tl.max(tl.where(rm[:, None] < M, acc, -1e30), 0))
    tl.store(rowmax_ptr + rm, tl.max(acc, 1) + rm.to(tl.float32), mask=rm < M)

# run-wgmma: -k rows_reduced -s *fp16,*fp16,*fp32,*fp32,*fp32,*fp32,i32,i32 -D BM=128 -D BN=64 -D BK=32 --num-stages 3 --arg M=200 --arg K=96 --arg a_ptr=19200 --arg b_ptr=6144 --arg t_ptr=12800 --arg colsum_ptr=128 --arg colmax_ptr=128 --arg rowmax_ptr=200 --grid 2
# run-wgmma: -k rows_reduced -s *fp16,*fp16,*fp32,*fp32,*fp32,*fp32,i32,i32 -D BM=64 -D BN=128 -D BK=64 --num-stages 2 --num-warps 4 --arg M=100 --arg K=130 --arg a_ptr=13000 --arg b_ptr=16640 --arg t_ptr=12800 --arg colsum_ptr=256 --arg colmax_ptr=256 --arg rowmax_ptr=100 --grid 2
# run-wgmma: -k rows_reduced -s *fp16,*fp16,*fp32,*fp32,*fp32,*fp32,i32,i32 -D BM=128 -D BN=64 -D BK=32 --num-stages 3 --num-warps 8 --arg M=256 --arg K=64 --arg a_ptr=16384 --arg b_ptr=4096 --arg t_ptr=16384 --arg colsum_ptr=128 --arg colmax_ptr=128 --arg rowmax_ptr=256 --grid 2


@triton.jit
def rows_scanned(a_ptr, b_ptr, c_ptr, M, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :], mask=(k + rk)[:, None] < K, other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], tl.cumsum(acc, 0), mask=rm[:, None] < M)

# run-wgmma: -k rows_scanned -s *fp16,*fp16,*fp32,i32,i32 -D BM=128 -D BN=64 -D BK=32 --num-stages 3 --arg M=200 --arg K=96 --arg a_ptr=19200 --arg b_ptr=6144 --arg c_ptr=12800 --grid 2


@triton.jit
def rows_once(a_ptr, b_ptr, c_ptr, colsum_ptr, M, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # one dot outside any loop: mma.sync in the frame of wgmma's rows
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :], mask=rm[:, None] < M, other=0.0)
    b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
    acc = tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc, mask=rm[:, None] < M)
    tl.store(colsum_ptr + rn, tl.sum(acc, 0))

# run-wgmma: -k rows_once -s *fp16,*fp16,*fp32,*fp32,i32 -D BM=128 -D BN=64 -D BK=32 --arg M=100 --arg a_ptr=4096 --arg b_ptr=2048 --arg c_ptr=8192 --arg colsum_ptr=64 --grid 1
# run-wgmma: -k rows_once -s *fp16,*fp16,*fp32,*fp32,i32 -D BM=128 -D BN=64 -D BK=32 --num-warps 8 --arg M=128 --arg a_ptr=4096 --arg b_ptr=2048 --arg c_ptr=8192 --arg colsum_ptr=64 --grid 1
