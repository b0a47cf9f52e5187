# tl.dot_scaled: microscaled operands (e2m1 two to a byte, e4m3 and e5m2 as
# bytes or fp8 tensors, bf16 and fp16) with their e8m0 scales, one byte per
# 32 elements along K, emulated as upcasts and a tl.dot. Blocks overhang
# the matrices along M, N and K (masks live); scale bytes are drawn so the
# products stay finite, one kernel puts 0xFF scales (NaN) in. The "# run:"
# lines check the C target at W=32 and 64 against the interpreter;
# tests/gpu/lang.py compares with real Triton on a GPU.
import triton
import triton.language as tl


@triton.jit
def _scales(s_ptr, rows, row0, k0, n_rows, KS, BR: tl.constexpr, BK: tl.constexpr, NAN_AT: tl.constexpr):
    # a [BR, BK // 32] block of a [n_rows, KS] table of raw bytes, made
    # scales in [120, 135] (or 0xFF where the raw byte is NAN_AT)
    r = row0 + tl.arange(0, BR)
    k = k0 // 32 + tl.arange(0, BK // 32)
    m = (r[:, None] < n_rows) & (k[None, :] < KS)
    raw = tl.load(s_ptr + r[:, None] * KS + k[None, :], mask=m, other=7)
    s = (raw % 16 + 120).to(tl.uint8)
    if NAN_AT >= 0:
        s = tl.where(raw == NAN_AT, 255, s).to(tl.uint8)
    return s


@triton.jit
def scaled_mm(a_ptr, sa_ptr, b_ptr, sb_ptr, c_ptr, M, N, K,
              FA: tl.constexpr, FB: tl.constexpr, SCALE_A: tl.constexpr, SCALE_B: tl.constexpr,
              NAN_AT: tl.constexpr, FAST: tl.constexpr,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # C[M, N] = (A * sa) @ (B * sb); A is [M, K // PA] row-major, B is
    # [K // PB, N] row-major, PA / PB = 2 for e2m1
    PA: tl.constexpr = 2 if FA == "e2m1" else 1
    PB: tl.constexpr = 2 if FB == "e2m1" else 1
    pm = tl.program_id(0) * BM
    pn = tl.program_id(1) * BN
    rm = pm + tl.arange(0, BM)
    rn = pn + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        ka = k0 // PA + tl.arange(0, BK // PA)
        kb = k0 // PB + tl.arange(0, BK // PB)
        a = tl.load(a_ptr + rm[:, None] * (K // PA) + ka[None, :],
                    mask=(rm[:, None] < M) & (ka[None, :] < K // PA), other=0)
        b = tl.load(b_ptr + kb[:, None] * N + rn[None, :],
                    mask=(kb[:, None] < K // PB) & (rn[None, :] < N), other=0)
        sa = _scales(sa_ptr, rm, pm, k0, M, K // 32, BM, BK, NAN_AT) if SCALE_A else None
        sb = _scales(sb_ptr, rn, pn, k0, N, K // 32, BN, BK, NAN_AT) if SCALE_B else None
        acc = tl.dot_scaled(a, sa, FA, b, sb, FB, acc, fast_math=FAST)
    c = acc
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def scaled_mn_packed(a_ptr, sa_ptr, b_ptr, sb_ptr, c_ptr, M, N,
                     BM: tl.constexpr, BN: tl.constexpr, K: tl.constexpr):
    # e2m1 packed along M (lhs_k_pack=False) and along N (rhs_k_pack=False):
    # A is [M // 2, K], B is [K, N // 2]; one K block
    pm = tl.program_id(0) * BM
    pn = tl.program_id(1) * BN
    ra = pm // 2 + tl.arange(0, BM // 2)
    rb = pn // 2 + tl.arange(0, BN // 2)
    k = tl.arange(0, K)
    a = tl.load(a_ptr + ra[:, None] * K + k[None, :], mask=ra[:, None] < M // 2, other=0)
    b = tl.load(b_ptr + k[:, None] * (N // 2) + rb[None, :], mask=rb[None, :] < N // 2, other=0)
    rm = pm + tl.arange(0, BM)
    rn = pn + tl.arange(0, BN)
    sa = _scales(sa_ptr, rm, pm, 0, M, K // 32, BM, K, -1)
    sb = _scales(sb_ptr, rn, pn, 0, N, K // 32, BN, K, -1)
    c = tl.dot_scaled(a, sa, "e2m1", b, sb, "e2m1", lhs_k_pack=False, rhs_k_pack=False)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def scaled_nvfp4(a_ptr, sa_ptr, b_ptr, sb_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # nvfp4: e2m1 operands with fp8e4nv scales, one per 16 elements along K;
    # A is [M, K // 2], B is [K // 2, N], the scales [M, K // 16], [N, K // 16]
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        ka = k0 // 2 + tl.arange(0, BK // 2)
        ks = k0 // 16 + tl.arange(0, BK // 16)
        a = tl.load(a_ptr + rm[:, None] * (K // 2) + ka[None, :], mask=(rm[:, None] < M) & (ka[None, :] < K // 2), other=0)
        b = tl.load(b_ptr + ka[:, None] * N + rn[None, :], mask=(ka[:, None] < K // 2) & (rn[None, :] < N), other=0)
        sa = tl.load(sa_ptr + rm[:, None] * (K // 16) + ks[None, :], mask=(rm[:, None] < M) & (ks[None, :] < K // 16), other=1.0)
        sb = tl.load(sb_ptr + rn[:, None] * (K // 16) + ks[None, :], mask=(rn[:, None] < N) & (ks[None, :] < K // 16), other=1.0)
        acc = tl.dot_scaled(a, sa, "e2m1", b, sb, "e2m1", acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


# run: -k scaled_mm -s *u8,*i32,*u8,*i32,*fp32,i32,i32,i32 -D FA="e2m1" -D FB="e2m1" -D SCALE_A=True -D SCALE_B=True -D NAN_AT=-1 -D FAST=False -D BM=32 -D BN=32 -D BK=64 --arg M=45 --arg N=37 --arg K=160 --arg a_ptr=3600 --arg sa_ptr=225 --arg b_ptr=2960 --arg sb_ptr=185 --arg c_ptr=1665 --grid 2,2 --int-range 256
# run: -k scaled_mm -s *u8,*i32,*u8,*i32,*fp32,i32,i32,i32 -D FA="e4m3" -D FB="e2m1" -D SCALE_A=True -D SCALE_B=True -D NAN_AT=-1 -D FAST=False -D BM=16 -D BN=32 -D BK=64 --arg M=40 --arg N=50 --arg K=96 --arg a_ptr=3840 --arg sa_ptr=120 --arg b_ptr=2400 --arg sb_ptr=150 --arg c_ptr=2000 --grid 3,2 --int-range 256
# run: -k scaled_mm -s *fp8e5,*i32,*fp8e4nv,*i32,*fp32,i32,i32,i32 -D FA="e5m2" -D FB="e4m3" -D SCALE_A=True -D SCALE_B=True -D NAN_AT=-1 -D FAST=False -D BM=32 -D BN=16 -D BK=32 --arg M=33 --arg N=20 --arg K=96 --arg a_ptr=3168 --arg sa_ptr=99 --arg b_ptr=1920 --arg sb_ptr=60 --arg c_ptr=660 --grid 2,2
# run: -k scaled_mm -s *bf16,*i32,*u8,*i32,*fp32,i32,i32,i32 -D FA="bf16" -D FB="e2m1" -D SCALE_A=False -D SCALE_B=True -D NAN_AT=-1 -D FAST=False -D BM=32 -D BN=32 -D BK=64 --arg M=41 --arg N=35 --arg K=128 --arg a_ptr=5248 --arg sa_ptr=164 --arg b_ptr=2240 --arg sb_ptr=140 --arg c_ptr=1435 --grid 2,2 --int-range 256
# run: -k scaled_mm -s *u8,*i32,*fp16,*i32,*fp32,i32,i32,i32 -D FA="e4m3" -D FB="fp16" -D SCALE_A=True -D SCALE_B=False -D NAN_AT=-1 -D FAST=False -D BM=16 -D BN=16 -D BK=32 --arg M=20 --arg N=18 --arg K=64 --arg a_ptr=1280 --arg sa_ptr=40 --arg b_ptr=1152 --arg sb_ptr=36 --arg c_ptr=360 --grid 2,2 --int-range 120
# run: -k scaled_mm -s *u8,*i32,*u8,*i32,*fp32,i32,i32,i32 -D FA="e2m1" -D FB="e4m3" -D SCALE_A=True -D SCALE_B=True -D NAN_AT=3 -D FAST=False -D BM=16 -D BN=16 -D BK=64 --arg M=24 --arg N=20 --arg K=128 --arg a_ptr=1536 --arg sa_ptr=96 --arg b_ptr=2560 --arg sb_ptr=80 --arg c_ptr=480 --grid 2,2 --int-range 100
# run: -k scaled_mn_packed -s *u8,*i32,*u8,*i32,*fp32,i32,i32 -D BM=32 -D BN=32 -D K=64 --arg M=44 --arg N=36 --arg a_ptr=1408 --arg sa_ptr=88 --arg b_ptr=1152 --arg sb_ptr=72 --arg c_ptr=1584 --grid 2,2 --int-range 256
# run: -k scaled_nvfp4 -s *u8,*fp8e4nv,*u8,*fp8e4nv,*fp32,i32,i32,i32 -D BM=32 -D BN=16 -D BK=64 --arg M=40 --arg N=30 --arg K=96 --arg a_ptr=1920 --arg sa_ptr=240 --arg b_ptr=1440 --arg sb_ptr=180 --arg c_ptr=1200 --grid 2,2 --int-range 256
