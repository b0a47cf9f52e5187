# Kernels whose shared memory does not fit AMD's 64 KiB block as first
# planned, made to fit as the HIP targets need it (the "# run-64k:" lines
# run on the C target with a 64 KiB block, c:wave32-64k and c:wave64-64k,
# against the interpreter; hip:gfx90a and hip:gfx1030 compile them too,
# tests/emit). Blocks overhang M, N and K.
#
# tiles_split: a loop over output tiles around a pipelined K loop whose
# staged operands take the whole block, then an epilogue whose reshape of
# the fp32 accumulator crosses shared memory (64 KiB on its own): the two
# share bytes, barriers separating them both ways inside the tile loop.
#
# wide_k: a dot of BK = 256 whose operands the loop computes (staged by the
# threads, 128 KiB side by side): its K is cut into chunks that fit.
# wide_k_ieee: the same on the multiply-add path (fp32, input_precision
# "ieee"; hip:gfx1030 lowers every dot so).
import triton
import triton.language as tl


@triton.jit
def tiles_split(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                PROGRAMS: tl.constexpr):
    tiles_m = tl.cdiv(M, BM)
    tiles = tiles_m * tl.cdiv(N, BN)
    for t in range(tl.program_id(0), tiles, PROGRAMS):
        rm = (t % tiles_m) * BM + tl.arange(0, BM)
        rn = (t // tiles_m) * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k0 in range(0, K, BK):
            rk = k0 + tl.arange(0, BK)
            a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
            b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(a, b, acc)
        halves = tl.permute(tl.reshape(acc, (BM, 2, BN // 2)), (0, 2, 1))
        lo, hi = tl.split(halves)
        rh = (t // tiles_m) * BN + tl.arange(0, BN // 2)
        tl.store(c_ptr + rm[:, None] * N + rh[None, :], (lo * 0.5).to(tl.float16),
                 mask=(rm[:, None] < M) & (rh[None, :] < N))
        rh2 = rh + BN // 2
        tl.store(c_ptr + rm[:, None] * N + rh2[None, :], (hi - 1.0).to(tl.float16),
                 mask=(rm[:, None] < M) & (rh2[None, :] < N))


@triton.jit
def wide_k(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a * 0.5 + 0.25, b - 0.5, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def wide_k_ieee(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a - 0.5, b * 2.0, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


# run-64k: -k tiles_split -s *fp16,*fp16,*fp16,i32,i32,i32 -D BM=128 -D BN=128 -D BK=64 -D PROGRAMS=3 --num-stages 3 --num-warps 8 --arg M=200 --arg N=300 --arg K=136 --arg a_ptr=27200 --arg b_ptr=40800 --arg c_ptr=60000 --grid 3
# run-64k: -k wide_k -s *fp16,*fp16,*fp32,i32,i32,i32 -D BM=128 -D BN=128 -D BK=256 --num-warps 8 --arg M=150 --arg N=140 --arg K=300 --arg a_ptr=45000 --arg b_ptr=42000 --arg c_ptr=21000 --grid 2,2
# run-64k: -k wide_k_ieee -s *fp32,*fp32,*fp32,i32,i32,i32 -D BM=64 -D BN=128 -D BK=128 --num-warps 4 --arg M=100 --arg N=140 --arg K=200 --arg a_ptr=20000 --arg b_ptr=28000 --arg c_ptr=14000 --grid 2,2
