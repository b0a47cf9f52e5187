# tl.dot with fp32 (tf32 by default, or ieee) and an fp32 result stored as
# it is: tests/unit/test_exec.c compares the lowering with the interpreter.
import triton
import triton.language as tl


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, IEEE: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], (rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], ((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        if IEEE:
            acc = tl.dot(a, b, acc, input_precision="ieee")
        else:
            acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, (rm[:, None] < M) & (rn[None, :] < N))

# Runs of tests/exec/suite.sh (each on c and c:wave64, checked against the interpreter):
# run: -s *fp32,*fp32,*fp32,i32,i32,i32 -D BM=32 -D BN=16 -D BK=16 -D IEEE=0 --num-warps 4 --arg a_ptr=3500 --arg b_ptr=2800 --arg c_ptr=2000 --arg M=50 --arg N=40 --arg K=70 --grid 2,3
# run: -s *fp32,*fp32,*fp32,i32,i32,i32 -D BM=16 -D BN=32 -D BK=32 -D IEEE=1 --num-warps 2 --arg a_ptr=3500 --arg b_ptr=2800 --arg c_ptr=2000 --arg M=50 --arg N=40 --arg K=70 --grid 4,2
