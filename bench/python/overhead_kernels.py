# Kernels whose launch cost bench/python/launch_overhead.py measures, written
# for Triton; the benchmark loads this module through real Triton and through
# tritonc.
import triton
import triton.language as tl


@triton.jit
def tiny_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


@triton.jit
def many_args(a_ptr, b_ptr, c_ptr, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn, alpha,
              BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    a = tl.load(a_ptr + rm[:, None] * s_am + rn[None, :] * s_ak, mask=mask, other=0.0)
    b = tl.load(b_ptr + rm[:, None] * s_bk + rn[None, :] * s_bn, mask=mask, other=0.0)
    tl.store(c_ptr + rm[:, None] * s_cm + rn[None, :] * s_cn, a * alpha + b + K, mask=mask)
