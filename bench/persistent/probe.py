"""Tutorial 09's persistent matmul (matmul_kernel_persistent, 128x128x64,
4 warps, 3 stages, 132 programs, 4096^3, B stored N x K) compiled by real
Triton and, from CUDA files tritonc wrote (and edited variants of them),
by NVRTC through CuPy; outputs compared with Triton's, each timed by
bench/tutorials/reference.py's median_ms (CUDA events, L2 flushed, median of 20).

usage: probe.py TUTORIAL_DIR [time|once] NAME=FILE.cu ...
  time: prints "NAME ms=... max_err=..." for Triton and each file
  once: one launch of each (for a profiler)
With KERNEL=matmul03 the same for tutorial 03's matmul_kernel (128x256x64,
8 warps, 3 stages, 512 programs, B stored K x N), files compiled by
tritonc with bench/tutorials/cases.txt's constexprs for it. With
KERNEL=descriptor, 09's matmul_kernel_descriptor_persistent (device-made
descriptors, FLATTEN=True, EPILOGUE_SUBTILE from SUBTILE=1 or 0).
With STAGES=N, Triton builds with num_stages=N (3 by default).
NAME=FILE.cu@BYTES gives a file's dynamic shared memory in bytes.
With CUBIN=DIR, Triton's cubin is written to DIR/triton.cubin.
"""
import os
import sys

import cupy
import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tutorials"))
from reference import jit_module, median_ms  # noqa: E402

M = N = K = 4096
SMS = 132
SHARED = 96 * 1024 + 1024
STAGES = int(os.environ.get("STAGES", "3"))   # Triton's num_stages


def main():
    tut, mode, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    m03 = os.environ.get("KERNEL") == "matmul03"
    desc = os.environ.get("KERNEL") == "descriptor"
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16) if m03 else torch.randn(N, K, device="cuda", dtype=torch.float16)
    c_ref = torch.empty(M, N, device="cuda", dtype=torch.float16)
    if m03:
        mod = jit_module(os.path.join(tut, "03-matrix-multiplication.py"))
        name_, grid, threads, shared = "matmul_kernel", 512, 256, 144 * 1024 + 1024

        def triton_run():
            return mod.matmul_kernel[(grid,)](a, b, c_ref, M, N, K, K, 1, N, 1, N, 1, BLOCK_SIZE_M=128,
                                       BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, GROUP_SIZE_M=8, ACTIVATION="",
                                       num_stages=STAGES, num_warps=8)
        args = (np.int32(M), np.int32(N), np.int32(K), np.int32(K), np.int32(N), np.int32(N))
    elif desc:
        import triton
        triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
        mod = jit_module(os.path.join(tut, "09-persistent-matmul.py"))
        name_, grid, threads, shared = "matmul_kernel_descriptor_persistent", SMS, 128, SHARED
        subtile = os.environ.get("SUBTILE", "1") == "1"

        def triton_run():
            return mod.matmul_kernel_descriptor_persistent[(SMS,)](
                a, b, c_ref, M, N, K, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64, GROUP_SIZE_M=8,
                EPILOGUE_SUBTILE=subtile, NUM_SMS=SMS, WARP_SPECIALIZE=False, FLATTEN=True,
                num_stages=STAGES, num_warps=4)
        args = (np.int32(M), np.int32(N), np.int32(K))
    else:
        mod = jit_module(os.path.join(tut, "09-persistent-matmul.py"))
        name_, grid, threads, shared = "matmul_kernel_persistent", SMS, 128, SHARED

        def triton_run():
            return mod.matmul_kernel_persistent[(SMS,)](a, b, c_ref, M, N, K, K, 1, 1, K, N, 1,
                                                 BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64,
                                                 GROUP_SIZE_M=8, NUM_SMS=SMS, num_stages=STAGES, num_warps=4)
        args = (np.int32(M), np.int32(N), np.int32(K), np.int32(K), np.int32(K), np.int32(N))
    compiled = triton_run()
    if os.environ.get("CUBIN") and compiled is not None:
        with open(os.path.join(os.environ["CUBIN"], "triton.cubin"), "wb") as out:
            out.write(compiled.asm["cubin"])
    runs = [("triton", triton_run, c_ref)]
    for spec in files:
        name, path = spec.split("=", 1)
        path, _, nbytes = path.partition("@")
        code = open(path).read()
        m = cupy.RawModule(code=code, options=("--std=c++17", "-arch=sm_90a"), backend="nvrtc")
        f = m.get_function(name_)
        f.max_dynamic_shared_size_bytes = int(nbytes) if nbytes else shared
        c = torch.zeros(M, N, device="cuda", dtype=torch.float16)

        def run(f=f, c=c, nb=int(nbytes) if nbytes else shared):
            f((grid,), (threads,), (np.uint64(a.data_ptr()), np.uint64(b.data_ptr()), np.uint64(c.data_ptr())) + args,
              shared_mem=nb)
        runs.append((name, run, c))
    for name, run, c in runs:
        run()
        torch.cuda.synchronize()
        if mode == "once":
            continue
        ms = median_ms(run)
        err = (c.float() - c_ref.float()).abs().max().item()
        print(f"{name} ms={ms:.4f} tflops={2 * M * N * K / ms / 1e9:.1f} max_err={err:.3g}", flush=True)


main()
