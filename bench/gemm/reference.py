"""Real Triton on the seed GEMM (tests/corpus/gemm.py), fp16 in, fp32
accumulate, fp16 out, timed as tritonc times its own (events, L2 flushed,
median of 20). usage: reference.py M N K BM BN BK WARPS; prints TFLOP/s."""
import importlib.util
import sys

import numpy as np
import torch

M, N, K, BM, BN, BK, W = (int(a) for a in sys.argv[1:8])
spec = importlib.util.spec_from_file_location("gemm", "tests/corpus/gemm.py")
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
a = torch.randn(M, K, device="cuda", dtype=torch.float16)
b = torch.randn(K, N, device="cuda", dtype=torch.float16)
c = torch.empty(M, N, device="cuda", dtype=torch.float16)
grid = ((M + BM - 1) // BM, (N + BN - 1) // BN)


def launch():
    mod.gemm_triton[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                          c.stride(1), BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, num_warps=W)


launch()
err = ((c.float() - (a.float() @ b.float())).norm() / (a.float() @ b.float()).norm()).item()
flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
for _ in range(5):
    launch()
times = []
for _ in range(20):
    flush.zero_()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    launch()
    e.record()
    torch.cuda.synchronize()
    times.append(s.elapsed_time(e))
ms = float(np.median(times))
t = torch.cuda.Event(enable_timing=True)
print(f"triton gemm {M}x{N}x{K} rel_err={err:.2e} ms={ms:.4f} TFLOP/s={2 * M * N * K / ms / 1e9:.1f}")
