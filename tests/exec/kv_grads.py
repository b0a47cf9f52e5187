# The key/value half of an attention backward pass, written the way
# hand-made Triton kernels write it: a helper with a `for _ in range(steps)`
# loop called twice, once with a compile-time number of steps (the causal
# diagonal) and once with a run-time one. Each step reads one block of
# queries qT, transposed, as operand B of two dots (k @ qT and ds @ qT.T),
# one block of output gradients do as B of two more (p @ do and
# v @ do.T), and two small vectors (the rows' softmax statistics m and
# deltas di) at offsets the loop carries itself; the gradients accumulate
# with `+=`. On sm_90a every one of the four loops must stay a loop and be
# pipelined on wgmma (tests/expected/kv_grads.plan): the copies of qT and
# do shared by their two dots, m and di loaded by the consumer, k and v
# written to shared memory once for both loops, dk and dv accumulated in
# place. The runs check every target's output against the interpreter;
# the sequence length divides neither block.
import triton
import triton.language as tl


@triton.jit
def _kv_steps(dk, dv, q_ptr, do_ptr, m_ptr, d_ptr, k, v, keys, first, steps, N,
              D: tl.constexpr, BM: tl.constexpr, DIAGONAL: tl.constexpr):
    cols = tl.arange(0, D)
    rows = first + tl.arange(0, BM)
    qT_at = q_ptr + rows[None, :] * D + cols[:, None]
    do_at = do_ptr + rows[:, None] * D + cols[None, :]
    row0 = first
    for _ in range(steps):
        rows = row0 + tl.arange(0, BM)
        qT = tl.load(qT_at, mask=rows[None, :] < N, other=0.0)
        m = tl.load(m_ptr + rows, mask=rows < N, other=0.0)
        sT = tl.dot(k, qT)
        pT = tl.math.exp2(sT - m[None, :])
        if DIAGONAL:
            pT = tl.where(rows[None, :] >= keys[:, None], pT, 0.0)
        do = tl.load(do_at, mask=rows[:, None] < N, other=0.0)
        dv += tl.dot(pT.to(tl.float16), do)
        di = tl.load(d_ptr + rows, mask=rows < N, other=0.0)
        dpT = tl.dot(v, tl.trans(do))
        dsT = (pT * (dpT - di[None, :])).to(tl.float16)
        dk += tl.dot(dsT, tl.trans(qT))
        row0 += BM
        qT_at += BM * D
        do_at += BM * D
    return dk, dv


@triton.jit
def kv_grads(q_ptr, k_ptr, v_ptr, do_ptr, m_ptr, d_ptr, dk_ptr, dv_ptr, N,
             D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    first = tl.program_id(0) * BN
    keys = first + tl.arange(0, BN)
    cols = tl.arange(0, D)
    at = keys[:, None] * D + cols[None, :]
    inside = keys[:, None] < N
    k = tl.load(k_ptr + at, mask=inside, other=0.0)
    v = tl.load(v_ptr + at, mask=inside, other=0.0)
    dk = tl.zeros([BN, D], dtype=tl.float32)
    dv = tl.zeros([BN, D], dtype=tl.float32)
    dk, dv = _kv_steps(dk, dv, q_ptr, do_ptr, m_ptr, d_ptr, k, v, keys, first, BN // BM, N, D, BM, True)
    rest = first + BN
    dk, dv = _kv_steps(dk, dv, q_ptr, do_ptr, m_ptr, d_ptr, k, v, keys, rest, tl.cdiv(N - rest, BM), N, D, BM, False)
    tl.store(dk_ptr + at, dk * 0.5, mask=inside)
    tl.store(dv_ptr + at, dv, mask=inside)


# run-wgmma: -k kv_grads -s *fp16,*fp16,*fp16,*fp16,*fp32,*fp32,*fp16,*fp16,i32 -D D=64 -D BM=32 -D BN=128 --num-stages 3 --arg N=200 --arg q_ptr=12800 --arg k_ptr=12800 --arg v_ptr=12800 --arg do_ptr=12800 --arg m_ptr=200 --arg d_ptr=200 --arg dk_ptr=12800 --arg dv_ptr=12800 --grid 2
# run-wgmma: -k kv_grads -s *fp16,*fp16,*fp16,*fp16,*fp32,*fp32,*fp16,*fp16,i32 -D D=64 -D BM=16 -D BN=64 --num-stages 2 --arg N=150 --arg q_ptr=9600 --arg k_ptr=9600 --arg v_ptr=9600 --arg do_ptr=9600 --arg m_ptr=150 --arg d_ptr=150 --arg dk_ptr=9600 --arg dv_ptr=9600 --grid 3
