"""Triton's outputs for tests/gpu/export.sh: the seed RMSNorm and GEMM on the
inputs export_gpu wrote, with the constexprs of the exported variants, and
the host time of a Triton launch from Python.

    python3 tests/gpu/export_triton.py DIR
"""
import importlib.util
import sys
import time

import torch
import triton

ROWS, RN = 4099, 4096
SHAPES = [(528, 1040, 512), (500, 260, 200)]


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def read(d, name, dtype, n):
    t = torch.from_file(f"{d}/{name}", size=n, dtype=dtype)
    return t.cuda()


def main():
    d = sys.argv[1]
    rms = load("examples/rmsnorm.py", "rmsnorm").triton_per_fused_mul_pow_rsqrt_0
    gemm = load("tests/corpus/gemm.py", "gemm").gemm_triton
    x = read(d, "x.bin", torch.float32, ROWS * RN)
    w = read(d, "w.bin", torch.float32, RN)
    y = torch.empty_like(x)
    rms[(triton.cdiv(ROWS, 2),)](x, w, y, ROWS, RN, XBLOCK=2, num_warps=4)
    y.cpu().numpy().tofile(f"{d}/rmsnorm.out")
    for s, (M, N, K) in enumerate(SHAPES):
        a = read(d, f"a{s}.bin", torch.float16, M * K)
        b = read(d, f"b{s}.bin", torch.float16, K * N)
        c = torch.empty(M * N, dtype=torch.float16, device="cuda")
        blocks = (128, 128, 64, 3) if s == 0 else (64, 64, 32, 3)
        grid = (triton.cdiv(M, blocks[0]), triton.cdiv(N, blocks[1]))
        gemm[grid](a, b, c, M, N, K, K, 1, N, 1, N, 1, BLOCK_M=blocks[0], BLOCK_N=blocks[1], BLOCK_K=blocks[2],
                   num_warps=4, num_stages=blocks[3])
        c.float().cpu().numpy().tofile(f"{d}/c{s}.out")
    torch.cuda.synchronize()

    # launch overhead: one program of the same kernel, as export_gpu bench times it
    xs = torch.zeros(2 * RN, device="cuda")
    ys = torch.empty_like(xs)
    for _ in range(1000):
        rms[(1,)](xs, xs, ys, 2, RN, XBLOCK=2, num_warps=4)
    torch.cuda.synchronize()
    # batches of 200, short of the launch queue's depth, the GPU drained between them; the median batch
    per = []
    for _ in range(100):
        t0 = time.perf_counter()
        for _ in range(200):
            rms[(1,)](xs, xs, ys, 2, RN, XBLOCK=2, num_warps=4)
        per.append((time.perf_counter() - t0) / 200)
        torch.cuda.synchronize()
    per.sort()
    print(f"bench launch triton (Python, kernel[grid](...)): {per[50] * 1e6:.2f} us a launch "
          f"(median of 100 batches of 200, host time; triton {triton.__version__}, torch {torch.__version__})")


main()
