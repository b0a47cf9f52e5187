"""The language tests' kernels (tests/exec/*.py) on an NVIDIA GPU, each run
by tritonc's Python package and by real Triton 3.6 on the same torch CUDA
inputs; the outputs must be equal (bit for bit, fp8 as its bytes, unless a
case says otherwise). Run from the repository root on a machine with an
NVIDIA GPU, torch and triton, after `make python`:

    python3 tests/gpu/lang.py [GROUP ...]

(the groups: fp8, rank, sorting, twoway, print, dot_scaled, inline_asm, uint16, dot3,
early_return, rounding, kv_grads; all of them without arguments).
Prints one "PASS gpu lang NAME" or "FAIL gpu lang NAME: why" line per case;
exits 1 when any failed.
"""
import importlib.util
import os
import sys
import traceback

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))

import tritonc.__main__ as tc_main  # noqa: E402
import tritonc.language as tc_lang  # noqa: E402

failures = 0


def load(path, use_tritonc):
    """A test file as a module, with `import triton` giving tritonc or real Triton."""
    saved = {k: v for k, v in sys.modules.items() if k == "triton" or k.startswith("triton.")}
    if use_tritonc:
        for k in saved:
            del sys.modules[k]
        tc_main.install()
    name = ("tc_" if use_tritonc else "tr_") + os.path.basename(path)[:-3]
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if use_tritonc:
        sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, tc_main.TritonFinder)]
        for k in [k for k in sys.modules if k == "triton" or k.startswith("triton.")]:
            del sys.modules[k]
        sys.modules.update(saved)
    return module


def report(name, ok, why=""):
    global failures
    if ok:
        print(f"PASS gpu lang {name}")
    else:
        failures += 1
        print(f"FAIL gpu lang {name}: {why}")


def same(a, b, tol):
    """Equal tensors: bit for bit (fp8 and integers), else within tol of the scale; NaNs equal NaNs."""
    if a.dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
        a, b = a.view(torch.uint8), b.view(torch.uint8)
    signed = {torch.uint16: torch.int16, torch.uint32: torch.int32, torch.uint64: torch.int64}
    if a.dtype in signed:   # torch's wider unsigned types have few operations: compare their bits
        a, b = a.view(signed[a.dtype]), b.view(signed[b.dtype])
    if not a.dtype.is_floating_point:
        bad = (a != b).nonzero()
        return len(bad) == 0, f"{len(bad)} elements differ, first at {bad[0].tolist() if len(bad) else None}"
    a, b = a.double(), b.double()
    nan = torch.isnan(a) | torch.isnan(b)
    if not torch.equal(torch.isnan(a), torch.isnan(b)):
        return False, "NaNs in different places"
    a, b = a[~nan], b[~nan]
    if tol == 0:
        bad = (a != b).nonzero()
        return len(bad) == 0, f"{len(bad)} elements differ, first {a[bad[0]].item() if len(bad) else None} " \
                              f"vs {b[bad[0]].item() if len(bad) else None}"
    scale = max(b.abs().max().item() if b.numel() else 0.0, 1e-30)
    err = (a - b).abs().max().item() / scale if a.numel() else 0.0
    return err <= tol, f"max error {err:.3g} of the scale (limit {tol})"


def compare(name, path, kernel, grid, make_args, outputs, tol=0.0, **meta):
    """Runs `kernel` of `path` under both; make_args() gives fresh inputs and outputs (a list);
    `outputs` are the indices of the arguments to compare."""
    try:
        torch.manual_seed(20261202)
        args = make_args()
        mine = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
        theirs = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
        # a dtype constexpr goes to each as its own language's dtype of that name
        tc_meta = {k: tc_lang.dtype(v.name) if type(v).__name__ == "dtype" else v for k, v in meta.items()}
        getattr(TC[path], kernel)[grid](*mine, **tc_meta)
        getattr(TR[path], kernel)[grid](*theirs, **meta)
        torch.cuda.synchronize()
        for i in outputs:
            ok, why = same(mine[i], theirs[i], tol)
            if not ok:
                report(name, False, f"argument {i}: {why}")
                return
        report(name, True)
    except Exception as e:
        report(name, False, f"{type(e).__name__}: {e}\n{traceback.format_exc()}")


def compare_cpu(name, path, kernel, grid, make_args, outputs, tol=0.0, **meta):
    """For what real Triton 3.6 cannot compile on this GPU (its own compiler fails): tritonc's CUDA
    output against tritonc's C output on the CPU (which the CPU suites check against the
    interpreter), on the same inputs."""
    try:
        torch.manual_seed(20261202)
        args = make_args()
        mine = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
        host = [a.cpu().clone() if isinstance(a, torch.Tensor) else a for a in args]
        getattr(TC[path], kernel)[grid](*mine, **meta)
        getattr(TC[path], kernel)[grid](*host, **meta)
        torch.cuda.synchronize()
        for i in outputs:
            ok, why = same(mine[i].cpu(), host[i], tol)
            if not ok:
                report(name + " (CUDA against the C target; Triton 3.6 does not compile it on sm_90)", False,
                       f"argument {i}: {why}")
                return
        report(name + " (CUDA against the C target; Triton 3.6 does not compile it on sm_90)", True)
    except Exception as e:
        report(name, False, f"{type(e).__name__}: {e}\n{traceback.format_exc()}")


FILES = ["tests/exec/fp8.py", "tests/exec/rank.py", "tests/exec/sorting.py", "tests/exec/twoway.py",
         "tests/exec/printing.py", "tests/exec/dot_scaled.py", "tests/exec/inline_asm.py",
         "tests/exec/uint16.py", "tests/exec/dot3.py", "tests/exec/early_return.py",
         "tests/exec/rounding.py", "tests/exec/kv_grads.py"]
TC = {p: load(p, True) for p in FILES}
TR = {p: load(p, False) for p in FILES}
dev = "cuda"


def every_byte(n):
    return torch.arange(n, device=dev, dtype=torch.int32).remainder(256).to(torch.uint8)


def fp8_cases():
    import triton.language as tl
    f = "tests/exec/fp8.py"
    n = 300
    for tname, tdt in (("fp8e4nv", torch.float8_e4m3fn), ("fp8e5", torch.float8_e5m2)):
        compare(f"fp8 widen {tname} (every byte to fp32, fp16, bf16)", f, "widen", (5,),
                lambda: [every_byte(n).view(tdt), torch.empty(n, device=dev), torch.empty(n, device=dev,
                         dtype=torch.float16), torch.empty(n, device=dev, dtype=torch.bfloat16), n], [1, 2, 3], B=64)
    for dt in ("float8e4b15", "float8e5", "float8e4nv"):
        compare(f"fp8 widen_bits {dt}", f, "widen_bits", (5,),
                lambda: [every_byte(600), torch.empty(600, device=dev), torch.empty(600, device=dev,
                         dtype=torch.bfloat16), 600], [1, 2], DT=getattr(tl, dt), B=128)
    m = 999
    for dt, tdt, scale in (("float8e4nv", torch.float8_e4m3fn, 600.0), ("float8e5", torch.float8_e5m2, 70000.0),
                           ("float8e5", torch.float8_e5m2, 0.0001), ("float8e4nv", torch.float8_e4m3fn, 0.01)):
        compare(f"fp8 narrow fp32 to {dt} x{scale}", f, "narrow", (16,),
                lambda: [torch.randn(m, device=dev), torch.empty(m, device=dev, dtype=tdt),
                         torch.empty(m, device=dev), m], [1, 2], DT=getattr(tl, dt), SCALE=scale, B=64)
    for src, dt in (("float16", "float8e4nv"), ("bfloat16", "float8e5"), ("float16", "float8e4b15"),
                    ("float16", "float8e5"), ("bfloat16", "float8e4nv")):
        compare(f"fp8 narrow16 {src} to {dt}", f, "narrow16", (7,),
                lambda: [torch.randn(777, device=dev).to(getattr(torch, src)), torch.empty(777, device=dev,
                         dtype=torch.uint8), 777], [1], DT=getattr(tl, dt), B=128)
    for dt, step in (("float8e4nv", 1 / 64), ("float8e5", 1 / 32)):
        tdt = torch.float8_e4m3fn if dt == "float8e4nv" else torch.float8_e5m2
        compare(f"fp8 ties {dt} (exact halfway values)", f, "ties", (8,),
                lambda: [torch.empty(2000, device=dev, dtype=tdt), torch.empty(2000, device=dev,
                         dtype=torch.float16), 2000], [0, 1], DT=getattr(tl, dt), STEP=step, B=256)
    compare("fp8 mix (where, bitcast to fp8e5)", f, "fp8_mix", (4,),
            lambda: [torch.randn(199, device=dev).to(torch.float8_e4m3fn),
                     torch.randn(199, device=dev).to(torch.float8_e5m2), torch.empty(199, device=dev), 199], [2],
            B=64)
    for ta, tb in ((torch.float8_e4m3fn, torch.float8_e4m3fn), (torch.float8_e5m2, torch.float8_e5m2),
                   (torch.float8_e4m3fn, torch.float8_e5m2)):
        compare(f"fp8 dot {ta} x {tb} 50x50x70", f, "fp8_dot", (2, 2),
                lambda: [torch.randn(50, 70, device=dev).to(ta), torch.randn(70, 50, device=dev).to(tb),
                         torch.empty(50, 50, device=dev), 50, 50, 70], [2], tol=5e-3, BM=32, BN=32, BK=32)
        # (Triton accumulates fp8 products on sm_90 in the matrix unit's reduced precision by default:
        # max_num_imprecise_acc; tritonc sums them in fp32)


def rank_cases():
    f = "tests/exec/rank.py"
    compare("rank 5: reshape, permute, sum, max", f, "five", (4,),
            lambda: [torch.randn(1000, device=dev), torch.empty(1000, device=dev), torch.empty(500, device=dev),
                     1000], [1, 2], tol=1e-6, B=256)
    compare("rank 8: permute of every dim, a sum", f, "eight", (2,),
            lambda: [torch.randn(1000, device=dev), torch.empty(1000, device=dev), 1000], [1], tol=1e-6,
            B=512, num_warps=8)


def sorting_cases():
    f = "tests/exec/sorting.py"
    for dt in (torch.float32, torch.float16):
        compare(f"flip, sort up and down, topk of rows ({dt})", f, "rows", (8,),
                lambda: [torch.randn(30, 64, device=dev).to(dt)] + [torch.empty(30, 64, device=dev, dtype=dt)
                         for _ in range(3)] + [torch.empty(30, 8, device=dev, dtype=dt), 30], [1, 2, 3, 4],
                N=64, BM=4, K=8)
    compare("gather, flip, sort along dim 0 (int32)", f, "columns", (4,),
            lambda: [torch.randint(-1000, 1000, (32, 50), device=dev, dtype=torch.int32),
                     torch.randint(0, 1 << 20, (32, 50), device=dev, dtype=torch.int32)] +
                    [torch.empty(32, 50, device=dev, dtype=torch.int32) for _ in range(3)] + [50], [2, 3, 4],
            BM=32, BN=16)
    compare("histogram with a mask", f, "hist", (8,),
            lambda: [torch.randint(0, 16, (1000,), device=dev, dtype=torch.int32),
                     torch.zeros(16, device=dev, dtype=torch.int32), 1000], [1], BINS=16, B=128)
    compare("gather of table rows", f, "gather_rows", (4,),
            lambda: [torch.randn(32, 8, device=dev), torch.randint(0, 32, (50, 8), device=dev, dtype=torch.int32),
                     torch.empty(50, 8, device=dev), 50], [2], B=32, C=8)


def twoway_cases():
    f = "tests/exec/twoway.py"
    compare("one tile broadcast two ways (attention backward's m)", f, "twoway", (5,),
            lambda: [(0.3 * torch.randn(300, 32, device=dev)).half(), (0.3 * torch.randn(300, 32, device=dev)).half(),
                     torch.randn(300, 32, device=dev).half(), torch.randn(300, device=dev),
                     torch.empty(300, 32, device=dev, dtype=torch.float16), 300], [4], tol=2e-3, BM=64, BN=32, D=32)
    compare("attention backward's dk pattern (masked halves)", f, "twoway_t", (5,),
            lambda: [(0.3 * torch.randn(300, 32, device=dev)).half(), (0.3 * torch.randn(300, 32, device=dev)).half(),
                     torch.randn(300, 32, device=dev).half(), torch.randn(300, device=dev),
                     torch.randn(300, device=dev), torch.empty(300, 32, device=dev, dtype=torch.float16), 300],
            [5], tol=2e-3, BN=64, BM=32, D=32)


def dot_scaled_cases():
    # the raw scale bytes go through the kernel's own map to [120, 135] (0xFF where NAN_AT)
    f = "tests/exec/dot_scaled.py"

    def mm(fa, fb, scale_a, scale_b, M, N, K, nan_at=-1, fast=False, BM=32, BN=32, BK=64):
        pa, pb = (2 if fa == "e2m1" else 1), (2 if fb == "e2m1" else 1)

        def operand(fmt, shape):
            if fmt in ("bf16", "fp16"):
                return torch.randn(shape, device=dev).to(torch.bfloat16 if fmt == "bf16" else torch.float16)
            if fmt == "fp16_e4m3":
                return torch.randint(0, 120, shape, device=dev, dtype=torch.uint8)
            return torch.randint(0, 256, shape, device=dev, dtype=torch.uint8)
        big = "fp16" in (fa, fb)   # fp16 compute: e4m3 bytes below 120 keep the products finite
        compare(f"dot_scaled {fa} x {fb} {M}x{N}x{K}" + (" NaN scales" if nan_at >= 0 else ""), f, "scaled_mm",
                (triton_cdiv(M, BM), triton_cdiv(N, BN)),
                lambda: [operand("fp16_e4m3" if big and fa == "e4m3" else fa, (M, K // pa)),
                         torch.randint(0, 256, (M, K // 32), device=dev, dtype=torch.int32),
                         operand("fp16_e4m3" if big and fb == "e4m3" else fb, (K // pb, N)),
                         torch.randint(0, 256, (N, K // 32), device=dev, dtype=torch.int32),
                         torch.empty(M, N, device=dev), M, N, K], [4], tol=1e-4,
                FA=fa, FB=fb, SCALE_A=scale_a, SCALE_B=scale_b, NAN_AT=nan_at, FAST=fast, BM=BM, BN=BN, BK=BK)
    mm("e2m1", "e2m1", True, True, 45, 37, 160)
    mm("e4m3", "e2m1", True, True, 40, 50, 96, BM=16)
    mm("e5m2", "e4m3", True, True, 33, 20, 96, BN=16, BK=32)
    mm("bf16", "e2m1", False, True, 41, 35, 128)
    mm("e4m3", "fp16", True, False, 20, 18, 64, BM=16, BN=16, BK=32)
    mm("e2m1", "e4m3", True, True, 24, 20, 128, nan_at=3, BM=16, BN=16)
    compare_cpu("dot_scaled e2m1 packed along M and N", f, "scaled_mn_packed", (2, 2),
            lambda: [torch.randint(0, 256, (22, 64), device=dev, dtype=torch.uint8),
                     torch.randint(0, 256, (44, 2), device=dev, dtype=torch.int32),
                     torch.randint(0, 256, (64, 18), device=dev, dtype=torch.uint8),
                     torch.randint(0, 256, (36, 2), device=dev, dtype=torch.int32),
                     torch.empty(44, 36, device=dev), 44, 36], [4], tol=1e-4, BM=32, BN=32, K=64)
    compare_cpu("dot_scaled nvfp4 (fp8e4nv scales per 16)", f, "scaled_nvfp4", (2, 2),
            lambda: [torch.randint(0, 256, (40, 48), device=dev, dtype=torch.uint8),
                     torch.rand(40, 6, device=dev).to(torch.float8_e4m3fn),
                     torch.randint(0, 256, (48, 30), device=dev, dtype=torch.uint8),
                     torch.rand(30, 6, device=dev).to(torch.float8_e4m3fn),
                     torch.empty(40, 30, device=dev), 40, 30, 96], [4], tol=1e-4, BM=32, BN=16, BK=64)


def triton_cdiv(a, b):
    return (a + b - 1) // b


def inline_asm_cases():
    f = "tests/exec/inline_asm.py"
    n = 1000
    compare("inline_asm shf.l.wrap (three arguments, a scalar)", f, "rotate", (4,),
            lambda: [torch.randint(-2**31, 2**31 - 1, (n,), device=dev, dtype=torch.int32),
                     torch.randint(-2**31, 2**31 - 1, (n,), device=dev, dtype=torch.int32),
                     torch.empty(n, device=dev, dtype=torch.int32), n], [2], SHIFT=7, B=256)
    compare("inline_asm two results, a broadcast row", f, "min_max", (4,),
            lambda: [torch.randn(50, 40, device=dev), torch.randn(40, device=dev), torch.empty(50, 40, device=dev),
                     torch.empty(50, 40, device=dev), 50, 40], [2, 3], BM=16, BN=64)
    compare("inline_asm fp16 in 16-bit registers", f, "halves", (8,),
            lambda: [torch.randn(n, device=dev).half(), torch.empty(n, device=dev, dtype=torch.float16),
                     torch.empty(n, device=dev, dtype=torch.int32), n], [1, 2], B=128)
    # pack > 1: blocks of 1024 give each of the 128 threads at least 4 elements (Triton needs pack of them)
    compare("inline_asm pack=4 on uint8 (four bytes a register)", f, "bytes4", (1,),
            lambda: [torch.randint(0, 256, (n,), device=dev, dtype=torch.uint8),
                     torch.randint(0, 256, (n,), device=dev, dtype=torch.uint8),
                     torch.empty(n, device=dev, dtype=torch.uint8), n], [2], B=1024)
    compare("inline_asm pack=2 on fp16 (f16x2, two results)", f, "halves2", (4,),
            lambda: [torch.randn(50, 40, device=dev).half(), torch.randn(40, device=dev).half(),
                     torch.empty(50, 40, device=dev, dtype=torch.float16),
                     torch.empty(50, 40, device=dev, dtype=torch.float16), 50, 40], [2, 3], BM=16, BN=64)
    compare("inline_asm pack=4 over uint8 and fp32 operands", f, "mixed4", (1,),
            lambda: [torch.randint(0, 256, (n,), device=dev, dtype=torch.uint8), torch.randn(n, device=dev),
                     torch.empty(n, device=dev), n], [2], B=1024)
    compare("inline_asm pack=4 and pack=2 results taken from the packed neighbours", f, "neighbours", (1,),
            lambda: [torch.randint(0, 256, (n + 1,), device=dev, dtype=torch.uint8),
                     torch.randn(n + 1, device=dev).half(), torch.empty(n + 1, device=dev, dtype=torch.uint8),
                     torch.empty(n + 1, device=dev, dtype=torch.float16), n + 1], [2, 3], B=1024)


def uint16_cases():
    f = "tests/exec/uint16.py"
    n = 1000

    def u16(count):   # every 16-bit pattern likely, made as int16 (torch has few uint16 operations)
        return torch.randint(-32768, 32768, (count,), device=dev, dtype=torch.int16).view(torch.uint16)
    compare("uint16 promotions, unsigned // % >> <, casts, reductions", f, "mix16", (8,),
            lambda: [u16(n), u16(n), torch.randint(-32768, 32768, (n,), device=dev, dtype=torch.int16),
                     torch.zeros(7 * n, device=dev, dtype=torch.int16).view(torch.uint16),
                     torch.zeros(4 * n + 128, device=dev, dtype=torch.int32),
                     torch.zeros(2 * n, device=dev), n], [3, 4, 5], B=128)
    compare("uint16 against a run-time scalar, 2-D", f, "scale16", (4,),
            lambda: [u16(150), torch.zeros(150, device=dev, dtype=torch.int16).view(torch.uint16), 50, 300],
            [1], B=16)


def dot3_cases():
    import triton.language as tl
    f = "tests/exec/dot3.py"
    NB, M, N, K = 3, 37, 20, 45

    def operands(dt):
        if dt == torch.int8:
            return [torch.randint(-100, 100, (NB, M, K), device=dev, dtype=dt),
                    torch.randint(-100, 100, (NB, K, N), device=dev, dtype=dt)]
        return [torch.randn(NB, M, K, device=dev).to(dt), torch.randn(NB, K, N, device=dev).to(dt)]
    # BK=32: Triton's smallest K for 8-bit operands; the sums' order differs from the matrix units' (tol)
    for dt, acc, prec, tol in [(torch.float16, tl.float32, None, 1e-4),
                               (torch.bfloat16, tl.float32, None, 1e-4),
                               (torch.float32, tl.float32, "tf32", 1e-4),
                               (torch.float32, tl.float32, "ieee", 1e-5),
                               (torch.int8, tl.int32, None, 0.0)]:
        out = torch.int32 if dt == torch.int8 else torch.float32
        compare(f"batched tl.dot {dt} {prec}", f, "bmm", (3, 2),
                lambda dt=dt, out=out: operands(dt) + [torch.zeros(NB, M, N, device=dev, dtype=out), NB, M, N, K],
                [2], tol, ACC=acc, PREC=prec, BB=2, BM=16, BN=32, BK=32)
    compare("batched tl.dot fp16 out, a permuted operand, one K block", f, "bmm_once", (2,),
            lambda: [torch.randn(3, 13, 30, device=dev).half(), torch.randn(3, 20, 30, device=dev).half(),
                     torch.zeros(3, 13, 20, device=dev, dtype=torch.float16), 3, 13, 20, 30],
            [2], 1e-2, BB=2, BM=16, BN=32, BK=32)


def kv_grads_cases():
    # attention backward's key/value half: four pipelined wgmma loops on sm_90a (tests/exec/kv_grads.py);
    # fp16 outputs of fp32 sums taken in another order than Triton's (tol)
    f = "tests/exec/kv_grads.py"
    for n, bm, bn, stages in ((200, 32, 128, 3), (1000, 16, 64, 2), (4096, 32, 128, 5)):
        def args(n=n):
            rows = [torch.randn(n, 64, device=dev).half() * 0.3 for _ in range(4)]
            stats = [torch.randn(n, device=dev) * 0.5, torch.randn(n, device=dev) * 0.1]
            return rows + stats + [torch.zeros(n, 64, device=dev, dtype=torch.float16) for _ in range(2)] + [n]
        compare(f"kv_grads N={n} BM={bm} BN={bn} stages={stages}", f, "kv_grads", (triton_cdiv(n, bn),), args,
                [6, 7], 2e-2, D=64, BM=bm, BN=bn, num_stages=stages)


def early_return_cases():
    f = "tests/exec/early_return.py"
    # outputs start as random values: what a program that returned early left alone must stay so
    compare("return in a run-time if: programs past the rows write nothing", f, "rows_early", (8,),
            lambda: [torch.randn(5 * 50, device=dev), torch.randn(8 * 50, device=dev), 5, 50], [1], B=64,
            num_warps=2)
    # Triton 3.6 rejects a return inside a loop ("Cannot have `return` statements inside `while` or
    # `for` statements"); tritonc takes it, so its CUDA output is checked against its C output
    for n, b in ((300, 32), (100, 16)):
        compare_cpu(f"return in a run-time loop (n={n})", f, "find_first", (16,),
                lambda n=n: [torch.randint(0, 100, (16 * n,), device=dev, dtype=torch.int32),
                             torch.randint(0, 100, (16,), device=dev, dtype=torch.int32), n, 98], [1], B=b)
    compare_cpu("return in a helper, and in a while loop on a run-time condition", f, "helper_return", (16,),
            lambda: [torch.randn(1000, device=dev), torch.randn(128, device=dev), torch.randn(1000, device=dev),
                     1000], [1, 2], 1e-5, B=64, num_warps=2)


def rounding_cases():
    n = 3000
    compare("fp_downcast_rounding rtz and rtne, fp32 to fp16 and bf16", "tests/exec/rounding.py", "downcast", (12,),
            lambda: [torch.randint(0, 2**31 - 1, (n,), device=dev, dtype=torch.int32),
                     torch.empty(n, device=dev, dtype=torch.float16), torch.empty(n, device=dev, dtype=torch.bfloat16),
                     torch.empty(n, device=dev, dtype=torch.float16), n], [1, 2, 3], B=256)


def printed(module, *args, **meta):
    """The lines a launch prints (the GPU's printf goes to file descriptor 1)."""
    import tempfile
    sys.stdout.flush()
    with tempfile.TemporaryFile(mode="w+") as f:
        saved = os.dup(1)
        os.dup2(f.fileno(), 1)
        try:
            module.show[(2,)](*args, **meta)
            torch.cuda.synchronize()
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
        f.seek(0)
        return [line for line in f.read().splitlines() if line.startswith("pid ")]


def print_cases():
    # Triton prints a scalar from every thread and an element from each thread holding a copy;
    # tritonc once: the sets of lines must be equal
    f = "tests/exec/printing.py"
    for b, n in ((16, 20), (64, 100)):
        try:
            x = torch.randn(n, device=dev)
            mine = printed(TC[f], x, torch.empty(n, device=dev), n, B=b)
            theirs = printed(TR[f], x, torch.empty(n, device=dev), n, B=b)
            ok = set(mine) == set(theirs) and len(set(mine)) == (4 * b + 4) * 2
            report(f"device_print B={b}", ok, f"{len(set(mine))} distinct lines against Triton's "
                   f"{len(set(theirs))}; first differences {sorted(set(mine) ^ set(theirs))[:3]}")
        except Exception as e:
            report(f"device_print B={b}", False, f"{type(e).__name__}: {e}")


GROUPS = [fp8_cases, rank_cases, sorting_cases, twoway_cases, print_cases, dot_scaled_cases, inline_asm_cases,
          uint16_cases, dot3_cases, early_return_cases, rounding_cases, kv_grads_cases]
# arguments: the groups to run (fp8, inline_asm, ...), every group without
wanted = sys.argv[1:]
unknown = [w for w in wanted if w + "_cases" not in [g.__name__ for g in GROUPS]]
if unknown:
    sys.exit(f"unknown group(s) {unknown}; the groups: {[g.__name__[:-6] for g in GROUPS]}")
for group in GROUPS:
    if not wanted or group.__name__[:-6] in wanted:
        group()
print(f"{failures} failed")
sys.exit(1 if failures else 0)
