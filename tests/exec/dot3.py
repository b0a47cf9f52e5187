# Batched (3-D) tl.dot: a [B, M, K] x [B, K, N] (+ acc [B, M, N]) as
# Triton 3.6 allows it, with blocks overhanging every dim (masks live) and
# a run-time K loop. tests/unit/test_exec.c (group lang) runs it on the C
# target at W=32 and 64 against the interpreter; tests/gpu/lang.py against
# Triton on an NVIDIA GPU.
import triton
import triton.language as tl


@triton.jit
def bmm(a_ptr, b_ptr, c_ptr, NB, M, N, K, ACC: tl.constexpr, PREC: tl.constexpr,
        BB: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pb = tl.program_id(1)
    bi = pb * BB + tl.arange(0, BB)
    mi = pm * BM + tl.arange(0, BM)
    ni = tl.arange(0, BN)
    acc = tl.zeros([BB, BM, BN], dtype=ACC)
    for k0 in range(0, K, BK):
        ki = k0 + tl.arange(0, BK)
        am = (bi[:, None, None] < NB) & (mi[None, :, None] < M) & (ki[None, None, :] < K)
        a = tl.load(a_ptr + bi[:, None, None] * M * K + mi[None, :, None] * K + ki[None, None, :], mask=am, other=0)
        bm = (bi[:, None, None] < NB) & (ki[None, :, None] < K) & (ni[None, None, :] < N)
        b = tl.load(b_ptr + bi[:, None, None] * K * N + ki[None, :, None] * N + ni[None, None, :], mask=bm, other=0)
        acc = tl.dot(a, b, acc, input_precision=PREC, out_dtype=ACC)
    cm = (bi[:, None, None] < NB) & (mi[None, :, None] < M) & (ni[None, None, :] < N)
    tl.store(c_ptr + bi[:, None, None] * M * N + mi[None, :, None] * N + ni[None, None, :], acc, mask=cm)


@triton.jit
def bmm_once(a_ptr, b_ptr, c_ptr, NB, M, N, K, BB: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
             BK: tl.constexpr):
    # one K block, no accumulator, fp16 out, a transposed operand (b read as [B, N, K]) and an epilogue
    pb = tl.program_id(0)
    bi = pb * BB + tl.arange(0, BB)
    mi = tl.arange(0, BM)
    ni = tl.arange(0, BN)
    ki = tl.arange(0, BK)
    a = tl.load(a_ptr + bi[:, None, None] * M * K + mi[None, :, None] * K + ki[None, None, :],
                mask=(bi[:, None, None] < NB) & (mi[None, :, None] < M) & (ki[None, None, :] < K), other=0.0)
    bt = tl.load(b_ptr + bi[:, None, None] * N * K + ni[None, :, None] * K + ki[None, None, :],
                 mask=(bi[:, None, None] < NB) & (ni[None, :, None] < N) & (ki[None, None, :] < K), other=0.0)
    c = tl.dot(a, tl.permute(bt, (0, 2, 1)), out_dtype=tl.float16)
    c = c * 0.5 + 1.0
    cm = (bi[:, None, None] < NB) & (mi[None, :, None] < M) & (ni[None, None, :] < N)
    tl.store(c_ptr + bi[:, None, None] * M * N + mi[None, :, None] * N + ni[None, None, :], c, mask=cm)
