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
