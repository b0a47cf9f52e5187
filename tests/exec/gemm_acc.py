# A 2-D GEMM whose accumulator and output take the dtype ACC: fp32 operands
# (PREC 'tf32' or 'tf32x3': mma.sync m16n8k8 on NVIDIA and the C target at
# W=32, tf32x3 as three products of tf32 parts; None for int8) or
# int8 operands with an int32 accumulator (m16n8k32), B stored K x N or (BT)
# N x K. tests/unit/test_gemm.c runs it against float64 and exact integer
# products over many blocks; the lines below check it against the
# interpreter.
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

# run: -s *fp32,*fp32,*fp32,i32,i32,i32,i32,i32,i32 -D ACC=tl.float32 -D PREC="tf32" -D BT=0 -D BM=32 -D BN=32 -D BK=16 --num-warps 4 --arg a_ptr=3850 --arg b_ptr=5390 --arg c_ptr=3500 --arg M=50 --arg N=70 --arg K=77 --arg lda=77 --arg ldb=70 --arg ldc=70 --grid 2,3
# run: -s *i8,*i8,*i32,i32,i32,i32,i32,i32,i32 -D ACC=tl.int32 -D PREC=None -D BT=1 -D BM=32 -D BN=32 -D BK=32 --num-warps 4 --arg a_ptr=3850 --arg b_ptr=5390 --arg c_ptr=3500 --arg M=50 --arg N=70 --arg K=77 --arg lda=77 --arg ldb=77 --arg ldc=70 --grid 2,3
# K in chunks (the operands of one K block do not fit AMD's 64 KiB; on c:wave32-64k by mma.sync)
# run-64k: -s *fp32,*fp32,*fp32,i32,i32,i32,i32,i32,i32 -D ACC=tl.float32 -D PREC="tf32x3" -D BT=0 -D BM=64 -D BN=128 -D BK=256 --num-warps 4 --arg a_ptr=40000 --arg b_ptr=56000 --arg c_ptr=14000 --arg M=100 --arg N=140 --arg K=400 --arg lda=400 --arg ldb=140 --arg ldc=140 --grid 2,2
# run-64k: -s *i8,*i8,*i32,i32,i32,i32,i32,i32,i32 -D ACC=tl.int32 -D PREC=None -D BT=1 -D BM=64 -D BN=128 -D BK=512 --num-warps 4 --arg a_ptr=64000 --arg b_ptr=89600 --arg c_ptr=14000 --arg M=100 --arg N=140 --arg K=640 --arg lda=640 --arg ldb=640 --arg ldc=140 --grid 2,2
