import triton
import triton.language as tl


# Attention forward of one head, one block of BM query rows a program:
# online softmax over blocks of BN keys, two tl.dot an iteration (q @ k.T,
# q loaded once before the loop; p @ v, p made from the softmax in
# registers). S need not be a multiple of BM or BN: rows and keys past S
# are masked (the keys' scores to -inf, a value of the induction
# variable). CAUSAL: key n is seen by query m only when n <= m, the loop
# ending at the block's last row.
@triton.jit
def attn(Q, K, V, O, S, scale, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, CAUSAL: tl.constexpr):
    pid = tl.program_id(0)
    offs_m = pid * BM + tl.arange(0, BM)
    offs_d = tl.arange(0, D)
    offs_n = tl.arange(0, BN)
    q = tl.load(Q + offs_m[:, None] * D + offs_d[None, :], mask=offs_m[:, None] < S, other=0.0)
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    hi = S
    if CAUSAL:
        hi = tl.minimum((pid + 1) * BM, S)
    for start in range(0, hi, BN):
        cols = start + offs_n
        k = tl.load(K + cols[:, None] * D + offs_d[None, :], mask=cols[:, None] < S, other=0.0)
        qk = tl.dot(q, tl.trans(k)) * scale
        keep = cols[None, :] < S
        if CAUSAL:
            keep = keep & (cols[None, :] <= offs_m[:, None])
        qk = tl.where(keep, qk, -float("inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp(qk - m_ij[:, None])
        alpha = tl.exp(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(V + cols[:, None] * D + offs_d[None, :], mask=cols[:, None] < S, other=0.0)
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(O + offs_m[:, None] * D + offs_d[None, :], acc.to(tl.float16), mask=offs_m[:, None] < S)
