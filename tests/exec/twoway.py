# One tile broadcast two ways: attention backward's pattern, where the
# masked and the unmasked steps are one inlined helper called with BN / 2
# and BN columns, and both read the same loaded row maxima `m` and the
# same offsets (their connected tiles then have two extents along one
# dim; the placement splits them, place.c). The "# run:" lines check the C
# target at W=32 and 64 against the interpreter.
import triton
import triton.language as tl


@triton.jit
def _step(acc, k, m, q_ptr, v_ptr, rows, start, n, BN: tl.constexpr, D: tl.constexpr, MASK: tl.constexpr):
    cols = start + tl.arange(0, BN)
    d = tl.arange(0, D)
    qT = tl.load(q_ptr + cols[None, :] * D + d[:, None], mask=cols[None, :] < n, other=0.0)
    s = tl.dot(k, qT)                                     # [BM, BN]
    p = tl.exp2(s - m)                                    # m: [BM, 1]
    if MASK:
        p = tl.where(rows[:, None] >= cols[None, :], p, 0.0)
    v = tl.load(v_ptr + cols[:, None] * D + d[None, :], mask=cols[:, None] < n, other=0.0)
    return acc + tl.dot(p.to(tl.float16), v)


@triton.jit
def twoway(k_ptr, q_ptr, v_ptr, m_ptr, out_ptr, n, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    start = tl.program_id(0) * BM
    rows = start + tl.arange(0, BM)
    d = tl.arange(0, D)
    k = tl.load(k_ptr + rows[:, None] * D + d[None, :], mask=rows[:, None] < n, other=0.0)
    m = tl.load(m_ptr + rows, mask=rows < n, other=0.0)[:, None]
    acc = tl.zeros((BM, D), dtype=tl.float32)
    # the diagonal block in two masked halves of BN // 2 columns, then the rest unmasked
    for j in range(start, start + BM, BN // 2):
        acc = _step(acc, k, m, q_ptr, v_ptr, rows, j, n, BN // 2, D, True)
    for j in range(start + BM, n, BN):
        acc = _step(acc, k, m, q_ptr, v_ptr, rows, j, n, BN, D, False)
    tl.store(out_ptr + rows[:, None] * D + d[None, :], acc.to(tl.float16), mask=rows[:, None] < n)

# run: -k twoway -s *fp16,*fp16,*fp16,*fp32,*fp16,i32 -D BM=32 -D BN=32 -D D=16 --arg k_ptr=3200 --arg q_ptr=3200 --arg v_ptr=3200 --arg m_ptr=200 --arg out_ptr=3200 --arg n=200 --grid 7
# run: -k twoway -s *fp16,*fp16,*fp16,*fp32,*fp16,i32 -D BM=64 -D BN=32 -D D=32 --num-warps 4 --arg k_ptr=9600 --arg q_ptr=9600 --arg v_ptr=9600 --arg m_ptr=300 --arg out_ptr=9600 --arg n=300 --grid 5


@triton.jit
def _dk_step(dk, k, q_ptr, do_ptr, m_ptr, d_ptr, rows, start, n, BM: tl.constexpr, D: tl.constexpr,
             MASK: tl.constexpr):
    offs_m = start + tl.arange(0, BM)
    d = tl.arange(0, D)
    qT = tl.load(q_ptr + offs_m[None, :] * D + d[:, None], mask=offs_m[None, :] < n, other=0.0)   # [D, BM]
    m = tl.load(m_ptr + offs_m, mask=offs_m < n, other=0.0)
    pT = tl.exp2(tl.dot(k, qT) - m[None, :])                                                      # [BN, BM]
    if MASK:
        pT = tl.where(offs_m[None, :] >= rows[:, None], pT, 0.0)
    do = tl.load(do_ptr + offs_m[:, None] * D + d[None, :], mask=offs_m[:, None] < n, other=0.0)  # [BM, D]
    dpT = tl.dot(k, tl.trans(do)).to(tl.float32)
    Di = tl.load(d_ptr + offs_m, mask=offs_m < n, other=0.0)
    dsT = pT * (dpT - Di[None, :])
    return dk + tl.dot(dsT.to(tl.float16), tl.trans(qT))                                          # [BN, D]


@triton.jit
def twoway_t(k_ptr, q_ptr, do_ptr, m_ptr, d_ptr, out_ptr, n, BN: tl.constexpr, BM: tl.constexpr, D: tl.constexpr):
    # the attention backward's dk: transposed operands, row vectors of the M side, masked halves first
    start = tl.program_id(0) * BN
    rows = start + tl.arange(0, BN)
    d = tl.arange(0, D)
    k = tl.load(k_ptr + rows[:, None] * D + d[None, :], mask=rows[:, None] < n, other=0.0)
    dk = tl.zeros((BN, D), dtype=tl.float32)
    for j in range(start, start + BN, BM // 2):
        dk = _dk_step(dk, k, q_ptr, do_ptr, m_ptr, d_ptr, rows, j, n, BM // 2, D, True)
    for j in range(start + BN, n, BM):
        dk = _dk_step(dk, k, q_ptr, do_ptr, m_ptr, d_ptr, rows, j, n, BM, D, False)
    tl.store(out_ptr + rows[:, None] * D + d[None, :], dk.to(tl.float16), mask=rows[:, None] < n)

# run: -k twoway_t -s *fp16,*fp16,*fp16,*fp32,*fp32,*fp16,i32 -D BN=64 -D BM=32 -D D=32 --arg k_ptr=9600 --arg q_ptr=9600 --arg do_ptr=9600 --arg m_ptr=300 --arg d_ptr=300 --arg out_ptr=9600 --arg n=300 --grid 5
# run: -k twoway_t -s *fp16,*fp16,*fp16,*fp32,*fp32,*fp16,i32 -D BN=128 -D BM=32 -D D=64 --num-warps 4 --arg k_ptr=16384 --arg q_ptr=16384 --arg do_ptr=16384 --arg m_ptr=256 --arg d_ptr=256 --arg out_ptr=16384 --arg n=256 --grid 2
