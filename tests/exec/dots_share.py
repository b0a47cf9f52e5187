# Three dots in one loop whose operands (computed, so staged by the
# threads rather than copied ahead) do not fit AMD's 64 KiB block side by
# side: each dot's staged operands share bytes with the others' (a barrier
# between one's last read and the next one's write). The "# run-64k:"
# lines run on the C target with a 64 KiB block (c:wave32-64k and
# c:wave64-64k) against the interpreter; hip:gfx90a compiles it too
# (tests/emit). Blocks overhang M, N and K.
import triton
import triton.language as tl


@triton.jit
def three_dots(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc1 = tl.zeros((BM, BN), dtype=tl.float32)
    acc2 = tl.zeros((BM, BN), dtype=tl.float32)
    acc3 = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc1 = tl.dot(a + 0.5, b, acc1)
        acc2 = tl.dot(a * 2.0, b - 0.25, acc2)
        acc3 = tl.dot(a - 1.0, b * 0.5, acc3)
    c = acc1 - 0.5 * acc2 + acc3
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c, mask=(rm[:, None] < M) & (rn[None, :] < N))


# run-64k: -k three_dots -s *fp16,*fp16,*fp32,i32,i32,i32 -D BM=128 -D BN=128 -D BK=64 --arg M=150 --arg N=140 --arg K=100 --arg a_ptr=15000 --arg b_ptr=14000 --arg c_ptr=21000 --grid 2,2
