"""What compiling an autotuned GEMM costs, with no GPU needed: for each of
sixteen configurations (the block shapes, warps and stages a CUDA matmul
autotuner typically tries), the time tritonc takes from the kernel's text
to CUDA C and the time NVRTC takes from the CUDA C to a cubin, for fp16
and fp8 (e5m2) inputs; then the whole set compiled one at a time and on
several threads, as the autotuner does.

    make python && PYTHONPATH=python python3 bench/python/compile_cost.py [--arch sm_90a] [--threads N] [--fp16-only]

Needs libnvrtc (the CUDA toolkit), not a GPU or a driver. Times are
processor seconds of the compiling thread (what the compile costs on a
loaded machine) and wall seconds for the sets.
"""
import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))

from tritonc import _tritonc  # noqa: E402
from tritonc.jit import _kernel_source  # noqa: E402
import tritonc as triton  # noqa: E402
import tritonc.language as tl  # noqa: E402


@triton.jit
def gemm(a_ptr, b_ptr, c_ptr, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn,
         BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    per_group = GROUP * tiles_n
    first_m = (pid // per_group) * GROUP
    rows = min(tiles_m - first_m, GROUP)
    tm = first_m + (pid % per_group) % rows
    tn = (pid % per_group) // rows
    rm = (tm * BM + tl.arange(0, BM)) % M
    rn = (tn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    a_tile = a_ptr + rm[:, None] * s_am + rk[None, :] * s_ak
    b_tile = b_ptr + rk[:, None] * s_bk + rn[None, :] * s_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_tile, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_tile, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_tile += BK * s_ak
        b_tile += BK * s_bk
    cm = tm * BM + tl.arange(0, BM)
    cn = tn * BN + tl.arange(0, BN)
    tl.store(c_ptr + cm[:, None] * s_cm + cn[None, :] * s_cn, acc.to(tl.float16),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


# (BM, BN, BK, num_stages, num_warps)
CONFIGS = [(128, 256, 64, 3, 8), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4), (128, 64, 32, 4, 4),
           (64, 128, 32, 4, 4), (128, 32, 32, 4, 4), (64, 32, 32, 5, 2), (32, 64, 32, 5, 2),
           (128, 256, 128, 3, 8), (256, 128, 128, 3, 8), (256, 64, 128, 4, 4), (64, 256, 128, 4, 4),
           (128, 128, 128, 4, 4), (128, 64, 64, 4, 4), (64, 128, 64, 4, 4), (128, 32, 64, 4, 4)]


def jobs(dtype):
    """(label, compile arguments) for each configuration: A row-major, B as the dtype's usual layout
    (fp16 row-major, fp8 transposed), 512 x 512 x 512, unit strides specialized to 1."""
    ab = f"*{dtype}:16"
    if dtype == "fp16":   # s_ak = s_bn = s_cn = 1
        sig, ones = f"{ab},{ab},*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16", ["s_ak=1", "s_bn=1", "s_cn=1"]
    else:                 # B transposed: s_bk = 1, s_bn = K
        sig, ones = f"{ab},{ab},*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16", ["s_ak=1", "s_bk=1", "s_cn=1"]
    out = []
    for bm, bn, bk, stages, warps in CONFIGS:
        defines = ones + [f"BM={bm}", f"BN={bn}", f"BK={bk}", "GROUP=8"]
        out.append((f"{dtype} {bm}x{bn}x{bk} w{warps} s{stages}", (sig, defines, warps, stages)))
    return out


def compile_one(source, filename, arch, job):
    sig, defines, warps, stages = job
    t = time.thread_time()
    info = _tritonc.compile(source, filename, "gemm", sig, defines, warps, stages, "cuda:" + arch)
    front = time.thread_time() - t
    wall, nvrtc, ptx, cubin = _tritonc._nvrtc(info["code"], arch)
    return front, nvrtc, len(info["code"]), ptx, cubin


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--fp16-only", action="store_true")
    args = ap.parse_args()
    source, filename = _kernel_source(gemm.fn)
    todo = jobs("fp16") + ([] if args.fp16_only else jobs("fp8e5"))
    print(f"{'configuration':28s} {'tritonc ms':>10s} {'NVRTC ms':>9s} {'CUDA C B':>9s} {'PTX B':>8s} {'cubin B':>8s}")
    totals = {}
    start = time.perf_counter()
    for label, job in todo:
        front, nvrtc, code, ptx, cubin = compile_one(source, filename, args.arch, job)
        t = totals.setdefault(label.split()[0], [0.0, 0.0, 0])
        t[0] += front
        t[1] += nvrtc
        t[2] += 1
        print(f"{label:28s} {front * 1e3:10.1f} {nvrtc * 1e3:9.0f} {code:9d} {ptx:8d} {cubin:8d}", flush=True)
    serial = time.perf_counter() - start
    for dtype, (front, nvrtc, n) in totals.items():
        print(f"{dtype}: {n} configurations, tritonc {front:.2f} s, NVRTC {nvrtc:.2f} s (processor time)")
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=args.threads) as pool:
        list(pool.map(lambda lj: compile_one(source, filename, args.arch, lj[1]), todo))
    parallel = time.perf_counter() - start
    print(f"all {len(todo)}: one at a time {serial:.2f} s wall; on {args.threads} threads {parallel:.2f} s wall "
          f"({os.cpu_count()} processors)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
