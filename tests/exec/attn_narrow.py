# Online-softmax attention whose key blocks are narrower than the head
# (BN = 32 < D = 64): the row statistics meet tiles of both widths (the
# scores [BM, BN], the accumulator [BM, D]), so the accumulator's part is
# split from the scores' where the rescale factor and the row sums are
# broadcast to its width (place.c, find_two_way_parts). Pointer loads,
# sequence lengths that do not divide the blocks; c and c:wave64 against
# the interpreter.
import triton
import triton.language as tl


@triton.jit
def narrow_keys(q_ptr, k_ptr, v_ptr, o_ptr, m_ptr, N, scale, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :], mask=rm[:, None] < N, other=0.0)
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start in range(0, N, BN):
        rn = start + tl.arange(0, BN)
        kt = tl.load(k_ptr + rn[None, :] * D + rd[:, None], mask=rn[None, :] < N, other=0.0)
        qk = tl.dot(q, kt)
        qk = tl.where(rn[None, :] < N, qk, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * scale)
        qk = qk * scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_ij)
        l_ij = tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr + rn[:, None] * D + rd[None, :], mask=rn[:, None] < N, other=0.0)
        acc = tl.dot(p.to(tl.float16), v, acc)
        l_i = l_i * alpha + l_ij
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(m_ptr + rm, m_i + tl.math.log2(l_i), mask=rm < N)
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], acc.to(tl.float16), mask=rm[:, None] < N)


# run: -k narrow_keys -s *fp16,*fp16,*fp16,*fp16,*fp32,i32,fp32 -D BM=64 -D BN=32 -D D=64 --num-stages 1 --arg N=150 --arg scale=0.18 --arg q_ptr=9600 --arg k_ptr=9600 --arg v_ptr=9600 --arg o_ptr=9600 --arg m_ptr=150 --grid 3
# run: -k narrow_keys -s *fp16,*fp16,*fp16,*fp16,*fp32,i32,fp32 -D BM=128 -D BN=32 -D D=64 --num-stages 2 --num-warps 8 --arg N=200 --arg scale=0.18 --arg q_ptr=12800 --arg k_ptr=12800 --arg v_ptr=12800 --arg o_ptr=12800 --arg m_ptr=200 --grid 2
