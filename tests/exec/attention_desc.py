import triton
import triton.language as tl

# Flash attention over one [S, D] head, q, k, v and o all host descriptors (TensorDescriptor on the
# host: base, extents, row stride). In the loop K and V stream through the pipeline; on sm_90a (and
# the C target's c:wgmma model) the bulk tensor copy engine copies their blocks, rows past S read as
# zeros, and q @ k.T takes k's block transposed. Rows of q past S read as zeros and are not stored.


@triton.jit
def attn_desc(q_desc, k_desc, v_desc, o_desc, S, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
              SCALE: tl.constexpr):
    start_m = tl.program_id(0) * BM
    q = q_desc.load([start_m, 0])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    offs_n = tl.arange(0, BN)
    for start in range(0, S, BN):
        k = k_desc.load([start, 0])
        qk = tl.dot(q, k.T) * SCALE
        qk = tl.where((start + offs_n)[None, :] < S, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp(qk - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = v_desc.load([start, 0])
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    o_desc.store([start_m, 0], acc.to(tl.float16))
