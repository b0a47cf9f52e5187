"""The seed GEMM (tests/corpus/gemm.py), fp16 in, fp32 accumulate, fp16 out:
real Triton with the same constexprs, and cuBLAS (torch.matmul), timed as
tritonc times its own (events, L2 flushed, median of 20).

usage: reference.py M N K BM BN BK WARPS STAGES [SAVED_DIR]
With SAVED_DIR (tritonc run --save), also checks tritonc's output there
against torch's fp32 product of the same inputs. With DISABLE_MMA_V3=1 in
the environment Triton uses mma.sync instead of wgmma, and only Triton is
timed (label triton-mma.sync). With BT=1, B is stored N x K (x @ w.T, a
linear layer's weight): stride_bk is 1."""
import importlib.util
import os
import sys

import numpy as np
import torch

M, N, K, BM, BN, BK, W, S = (int(a) for a in sys.argv[1:9])
saved = sys.argv[9] if len(sys.argv) > 9 else None
bt = os.environ.get("BT", "0") == "1"
spec = importlib.util.spec_from_file_location("gemm", "tests/corpus/gemm.py")
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)


def rel_err(c, a, b):
    ref = a.float() @ b.float()
    return ((c.float() - ref).norm() / ref.norm()).item()


if saved:
    def load(name, rows, cols):
        data = np.fromfile(os.path.join(saved, name), dtype=np.float16).reshape(rows, cols)
        return torch.from_numpy(data).cuda()
    a, c = load("A_ptr.in", M, K), load("C_ptr.out", M, N)
    b = load("B_ptr.in", N, K).T if bt else load("B_ptr.in", K, N)
    err = rel_err(c, a, b)
    print(f"tritonc output {M}x{N}x{K}: relative error vs torch fp32 {err:.2e} {'ok' if err < 1e-2 else 'FAIL'}")

a = torch.randn(M, K, device="cuda", dtype=torch.float16)
b = torch.randn(N, K, device="cuda", dtype=torch.float16).T if bt else torch.randn(K, N, device="cuda", dtype=torch.float16)
c = torch.empty(M, N, device="cuda", dtype=torch.float16)
grid = ((M + BM - 1) // BM, (N + BN - 1) // BN)
flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")


def triton_launch():
    mod.gemm_triton[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                          c.stride(1), BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, num_warps=W, num_stages=S)


def cublas_launch():
    torch.matmul(a, b, out=c)


def timed(launch):
    launch()
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
    return float(np.median(times))


legacy = os.environ.get("DISABLE_MMA_V3", "0") == "1"
runs = (("triton-mma.sync", triton_launch),) if legacy else (("triton", triton_launch), ("cublas", cublas_launch))
for name, launch in runs:
    ms = timed(launch)
    err = rel_err(c, a, b)
    print(f"{name} gemm {M}x{N}x{K} rel_err={err:.2e} ms={ms:.4f} TFLOP/s={2 * M * N * K / ms / 1e9:.1f}")
