# Matrix products written the ways hand-written Triton GEMMs are: rows and
# columns wrapped with % M and % N (in bounds by construction), a tile loop
# around the K loop with tl.where and tl.multiple_of / tl.max_contiguous on
# the offsets, tensor-descriptor blocks multiplied as a @ b.T, and row strides
# known only at run time with tl.multiple_of as statements of their own on
# the pointer tiles (the hint holds for the name, as Triton sets it in
# place). Each must keep its K loop on the pipelined matrix path
# (tests/unit/test_gemm.c).
import triton
import triton.language as tl


@triton.jit
def swizzle(t, per_group, tiles_m, GROUP: tl.constexpr):
    first = (t // per_group) * GROUP
    rows = min(tiles_m - first, GROUP)
    return first + (t % per_group) % rows, (t % per_group) // rows


@triton.jit
def wrapped(a_ptr, b_ptr, c_ptr, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    tiles_m = tl.cdiv(M, BM)
    tm, tn = swizzle(tl.program_id(0), GROUP * tl.cdiv(N, BN), tiles_m, GROUP)
    rows = (tm * BM + tl.arange(0, BM)) % M
    cols = (tn * BN + tl.arange(0, BN)) % N
    ks = tl.arange(0, BK)
    pa = a_ptr + rows[:, None] * s_am + ks[None, :] * s_ak
    pb = b_ptr + ks[:, None] * s_bk + cols[None, :] * s_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for i in range(0, tl.cdiv(K, BK)):
        x = tl.load(pa, mask=ks[None, :] < K - i * BK, other=0.0)
        y = tl.load(pb, mask=ks[:, None] < K - i * BK, other=0.0)
        acc = tl.dot(x, y, acc)
        pa += BK * s_ak
        pb += BK * s_bk
    cm = tm * BM + tl.arange(0, BM)
    cn = tn * BN + tl.arange(0, BN)
    tl.store(c_ptr + cm[:, None] * s_cm + cn[None, :] * s_cn, acc.to(tl.float16),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def tile_loop(a_ptr, b_ptr, c_ptr, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr, PROGRAMS: tl.constexpr):
    tiles_m = tl.cdiv(M, BM)
    per_group = GROUP * tl.cdiv(N, BN)
    ks0 = tl.arange(0, BK)
    for t in tl.range(tl.program_id(0), tiles_m * tl.cdiv(N, BN), PROGRAMS):
        tm, tn = swizzle(t, per_group, tiles_m, GROUP)
        rows = tm * BM + tl.arange(0, BM)
        cols = tn * BN + tl.arange(0, BN)
        rows = tl.max_contiguous(tl.multiple_of(tl.where(rows < M, rows, 0), BM), BM)
        cols = tl.max_contiguous(tl.multiple_of(tl.where(cols < N, cols, 0), BN), BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for i in range(tl.cdiv(K, BK)):
            ks = i * BK + tl.arange(0, BK)
            x = tl.load(a_ptr + rows[:, None] * s_am + ks[None, :] * s_ak, mask=ks0[None, :] < K - i * BK, other=0.0)
            y = tl.load(b_ptr + ks[:, None] * s_bk + cols[None, :] * s_bn, mask=ks0[:, None] < K - i * BK, other=0.0)
            acc = tl.dot(x, y, acc)
        cm = tm * BM + tl.arange(0, BM)
        cn = tn * BN + tl.arange(0, BN)
        tl.store(c_ptr + cm[:, None] * s_cm + cn[None, :] * s_cn, acc.to(tl.float16),
                 mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def hinted(a_ptr, b_ptr, c_ptr, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    tm = tl.program_id(0) // tl.cdiv(N, BN)
    tn = tl.program_id(0) % tl.cdiv(N, BN)
    rows = tm * BM + tl.arange(0, BM)
    cols = tn * BN + tl.arange(0, BN)
    ks = tl.arange(0, BK)
    pa = a_ptr + rows[:, None] * s_am + ks[None, :] * s_ak
    pb = b_ptr + ks[:, None] * s_bk + cols[None, :] * s_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for i in range(tl.cdiv(K, BK)):
        tl.multiple_of(pa, [16, 16])
        tl.multiple_of(pb, [16, 16])
        x = tl.load(pa, mask=(rows[:, None] < M) & (ks[None, :] < K - i * BK), other=0.0)
        y = tl.load(pb, mask=(ks[:, None] < K - i * BK) & (cols[None, :] < N), other=0.0)
        acc += tl.dot(x, y)
        pa += BK * s_ak
        pb += BK * s_bk
    tl.store(c_ptr + rows[:, None] * s_cm + cols[None, :] * s_cn, acc.to(tl.float16),
             mask=(rows[:, None] < M) & (cols[None, :] < N))


@triton.jit
def blocks(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tm = tl.program_id(0)
    tn = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for i in range(tl.cdiv(K, BK)):
        x = a_desc.load([tm * BM, i * BK])
        y = b_desc.load([tn * BN, i * BK])
        acc = tl.dot(x, y.T, acc)
    c_desc.store([tm * BM, tn * BN], acc.to(tl.float16))


@triton.jit
def made_blocks(a_ptr, b_ptr, c_ptr, M, N, K, s_a, s_b, s_c, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # descriptors made in the kernel over row strides known only at run
    # time, all of them arguments: on sm_90a the host encodes their tensor
    # maps and the bulk tensor copy engine copies A and B
    # (tests/expected/gemm_made_blocks.plan)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[s_a, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[s_b, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[s_c, 1], block_shape=[BM, BN])
    tm = tl.program_id(0)
    tn = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for i in range(tl.cdiv(K, BK)):
        acc = tl.dot(a_desc.load([tm * BM, i * BK]), b_desc.load([tn * BN, i * BK]).T, acc)
    c_desc.store([tm * BM, tn * BN], acc.to(tl.float16))

# run-wgmma: -k made_blocks -s *fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32 -D BM=128 -D BN=128 -D BK=64 --num-stages 3 --arg M=200 --arg N=136 --arg K=77 --arg s_a=80 --arg s_b=80 --arg s_c=136 --arg a_ptr=16000 --arg b_ptr=10880 --arg c_ptr=27200 --grid 2,2
# run-wgmma: -k made_blocks -s *fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32 -D BM=64 -D BN=64 -D BK=32 --num-stages 2 --arg M=200 --arg N=136 --arg K=77 --arg s_a=80 --arg s_b=80 --arg s_c=136 --arg a_ptr=16000 --arg b_ptr=10880 --arg c_ptr=27200 --grid 4,3


@triton.jit
def made_batched(a_ptr, b_ptr, c_ptr, M, N, K, s_a, s_b, s_c, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # A and C of batch program_id(2), one B for all: A's and C's bases are
    # computed, so no tensor map is made of arguments for them; Triton's
    # contract for a descriptor (the base 16-byte aligned, strides in
    # multiples of 16 bytes) makes A's rows 16-byte async copies beside B's
    # bulk tensor copies in one pipeline (tests/expected/gemm_made_batched.plan)
    tb = tl.program_id(2)
    a_desc = tl.make_tensor_descriptor(a_ptr + tb * M * s_a, shape=[M, K], strides=[s_a, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[s_b, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr + tb * M * s_c, shape=[M, N], strides=[s_c, 1], block_shape=[BM, BN])
    tm = tl.program_id(0)
    tn = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for i in range(tl.cdiv(K, BK)):
        acc = tl.dot(a_desc.load([tm * BM, i * BK]), b_desc.load([tn * BN, i * BK]).T, acc)
    c_desc.store([tm * BM, tn * BN], acc.to(tl.float16))

# run-wgmma: -k made_batched -s *fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32 -D BM=128 -D BN=128 -D BK=64 --num-stages 3 --arg M=200 --arg N=136 --arg K=77 --arg s_a=80 --arg s_b=80 --arg s_c=136 --arg a_ptr=32000 --arg b_ptr=10880 --arg c_ptr=54400 --grid 2,2,2
