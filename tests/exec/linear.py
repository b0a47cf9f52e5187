# x @ w.T + bias, a linear layer: w is stored N x K (row-major, K
# contiguous) and transposed in the kernel, so tl.dot's B operand is a
# tl.trans of a loaded tile. fp16 or bf16 operands on the matrix units;
# tests/unit/test_exec.c compares the lowering with the interpreter.
import triton
import triton.language as tl


@triton.jit
def linear(x_ptr, w_ptr, bias_ptr, y_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(x_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[:, None] * K + (k + rk)[None, :], mask=(rn[:, None] < N) & ((k + rk)[None, :] < K), other=0.0)
        acc += tl.dot(x, tl.trans(w))
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    y = acc + bias[None, :]
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], y.to(y_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))

# Runs of tests/exec/suite.sh (each on c and c:wave64, checked against the interpreter):
# run: -s *fp16,*fp16,*fp16,*fp16,i32,i32,i32 -D BM=64 -D BN=32 -D BK=32 --num-warps 4 --arg x_ptr=8000 --arg w_ptr=5760 --arg bias_ptr=72 --arg y_ptr=7200 --arg M=100 --arg N=72 --arg K=80 --grid 2,3
# run: -s *bf16,*bf16,*bf16,*bf16,i32,i32,i32 -D BM=32 -D BN=64 -D BK=16 --num-warps 2 --arg x_ptr=2400 --arg w_ptr=4800 --arg bias_ptr=100 --arg y_ptr=5000 --arg M=50 --arg N=100 --arg K=48 --grid 2,2
