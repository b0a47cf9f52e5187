# A 2-D GEMM whose accumulator and output take the dtype ACC: fp32 operands
# (PREC 'tf32' or 'tf32x3': mma.sync m16n8k8 on NVIDIA and the C target at
# W=32, tf32x3 as three products of tf32 parts; 'ieee': FMA there; on
# AMD's MFMA and the C target at W=64, MFMA f32 16x16x4 for every
# precision but tf32 on gfx94x and c:cdna3, xf32 16x16x8) or int8 operands
# with an int32 accumulator (mma.sync m16n8k32, MFMA i32 16x16x16 or on
# gfx94x 16x16x32), B stored K x N or (BT) N x K. tests/unit/test_gemm.c
# runs it against float64 and exact integer products over many blocks; the
# lines below check it against the interpreter.
import triton
import triton.language as tl


@triton.jit
def gemm_acc(a_ptr, b_ptr, c_ptr, M, N, K, lda, ldb, ldc, ACC: tl.constexpr, PREC: tl.constexpr, BT: tl.constexpr,
             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=ACC)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * lda + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K),
                    other=0)
        if BT:
            b = tl.load(b_ptr + rn[None, :] * ldb + (k + rk)[:, None], mask=((k + rk)[:, None] < K) & (rn[None, :] < N),
                        other=0)
        else:
            b = tl.load(b_ptr + (k + rk)[:, None] * ldb + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N),
                        other=0)
        acc = tl.dot(a, b, acc, input_precision=PREC, out_dtype=ACC)
    tl.store(c_ptr + rm[:, None] * ldc + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))



# The forms a dot's accumulator takes: FORM 0 `acc=` by keyword, 1 `acc +=
# tl.dot(..)` (the dot's own zeros), 2 one dot of the first K block, no
# accumulator, stored as it is.
@triton.jit
def gemm_forms(a_ptr, b_ptr, c_ptr, M, N, K, ACC: tl.constexpr, PREC: tl.constexpr, FORM: tl.constexpr,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    if FORM == 2:
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0)
        acc = tl.dot(a, b, input_precision=PREC, out_dtype=ACC)
    else:
        acc = tl.zeros((BM, BN), dtype=ACC)
        for k in range(0, K, BK):
            a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K),
                        other=0)
            b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N),
                        other=0)
            if FORM == 0:
                acc = tl.dot(a, b, acc=acc, input_precision=PREC, out_dtype=ACC)
            else:
                acc += tl.dot(a, b, input_precision=PREC, out_dtype=ACC)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))

# run: -k gemm_acc -s *fp32,*fp32,*fp32,i32,i32,i32,i32,i32,i32 -D ACC=tl.float32 -D PREC="tf32" -D BT=0 -D BM=32 -D BN=32 -D BK=16 --num-warps 4 --arg a_ptr=3850 --arg b_ptr=5390 --arg c_ptr=3500 --arg M=50 --arg N=70 --arg K=77 --arg lda=77 --arg ldb=70 --arg ldc=70 --grid 2,3
# run: -k gemm_acc -s *i8,*i8,*i32,i32,i32,i32,i32,i32,i32 -D ACC=tl.int32 -D PREC=None -D BT=1 -D BM=32 -D BN=32 -D BK=32 --num-warps 4 --arg a_ptr=3850 --arg b_ptr=5390 --arg c_ptr=3500 --arg M=50 --arg N=70 --arg K=77 --arg lda=77 --arg ldb=77 --arg ldc=70 --grid 2,3
# ieee (MFMA at W=64)
# run: -k gemm_acc -s *fp32,*fp32,*fp32,i32,i32,i32,i32,i32,i32 -D ACC=tl.float32 -D PREC="ieee" -D BT=1 -D BM=32 -D BN=64 -D BK=32 --num-warps 4 --arg a_ptr=3850 --arg b_ptr=5390 --arg c_ptr=3500 --arg M=50 --arg N=70 --arg K=77 --arg lda=77 --arg ldb=77 --arg ldc=70 --grid 2,2
# the accumulator's forms, fp32 and int8 (over its whole range)
# run: -k gemm_forms -s *fp32,*fp32,*fp32,i32,i32,i32 -D ACC=tl.float32 -D PREC="tf32" -D FORM=0 -D BM=32 -D BN=32 -D BK=32 --num-warps 4 --arg a_ptr=3850 --arg b_ptr=5390 --arg c_ptr=3500 --arg M=50 --arg N=70 --arg K=77 --grid 2,3
# run: -k gemm_forms -s *i8,*i8,*i32,i32,i32,i32 -D ACC=tl.int32 -D PREC=None -D FORM=1 -D BM=32 -D BN=32 -D BK=64 --num-warps 4 --int-range 256 --arg a_ptr=3850 --arg b_ptr=5390 --arg c_ptr=3500 --arg M=50 --arg N=70 --arg K=77 --grid 2,3
# run: -k gemm_forms -s *i8,*i8,*i32,i32,i32,i32 -D ACC=tl.int32 -D PREC=None -D FORM=2 -D BM=32 -D BN=16 -D BK=64 --num-warps 2 --int-range 256 --arg a_ptr=3000 --arg b_ptr=4200 --arg c_ptr=3500 --arg M=50 --arg N=70 --arg K=60 --grid 2,5
# run: -k gemm_forms -s *fp32,*fp32,*fp32,i32,i32,i32 -D ACC=tl.float32 -D PREC="tf32x3" -D FORM=2 -D BM=16 -D BN=32 -D BK=32 --num-warps 2 --arg a_ptr=1500 --arg b_ptr=2100 --arg c_ptr=3500 --arg M=50 --arg N=70 --arg K=30 --grid 4,3
# K in chunks (the operands of one K block do not fit AMD's 64 KiB; on c:wave32-64k by mma.sync); the
# 64 KiB lines run on c:cdna3 too (gfx94x's instructions: xf32 for tf32, int8 16x16x32)
# run-64k: -k gemm_acc -s *fp32,*fp32,*fp32,i32,i32,i32,i32,i32,i32 -D ACC=tl.float32 -D PREC="tf32x3" -D BT=0 -D BM=64 -D BN=128 -D BK=256 --num-warps 4 --arg a_ptr=40000 --arg b_ptr=56000 --arg c_ptr=14000 --arg M=100 --arg N=140 --arg K=400 --arg lda=400 --arg ldb=140 --arg ldc=140 --grid 2,2
# run-64k: -k gemm_acc -s *i8,*i8,*i32,i32,i32,i32,i32,i32,i32 -D ACC=tl.int32 -D PREC=None -D BT=1 -D BM=64 -D BN=128 -D BK=512 --num-warps 4 --arg a_ptr=64000 --arg b_ptr=89600 --arg c_ptr=14000 --arg M=100 --arg N=140 --arg K=640 --arg lda=640 --arg ldb=640 --arg ldc=140 --grid 2,2
# run-64k: -k gemm_forms -s *fp32,*fp32,*fp32,i32,i32,i32 -D ACC=tl.float32 -D PREC="tf32" -D FORM=1 -D BM=64 -D BN=32 -D BK=32 --num-warps 4 --arg a_ptr=3850 --arg b_ptr=5390 --arg c_ptr=3500 --arg M=50 --arg N=70 --arg K=77 --grid 1,3
# run-64k: -k gemm_forms -s *i8,*i8,*i32,i32,i32,i32 -D ACC=tl.int32 -D PREC=None -D FORM=0 -D BM=32 -D BN=64 -D BK=32 --num-warps 4 --int-range 256 --arg a_ptr=3850 --arg b_ptr=5390 --arg c_ptr=3500 --arg M=50 --arg N=70 --arg K=77 --grid 2,2
