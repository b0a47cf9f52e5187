"""Real Triton on TorchInductor kernels, timed as tritonc times its own:
CUDA events around each launch, 256 MiB written before each to flush L2,
median of 20 after 5 warm-up launches.

The kernel's source is taken from the module's async_compile.triton(...)
call; the @triton_heuristics decorator is dropped (it would autotune) so that
Triton runs the block sizes given here, the same tritonc runs.

usage: reference.py FILE KERNEL GRID WARPS CONSTEXPRS BUFFERS SCALARS
  GRID "x,y"; CONSTEXPRS "XBLOCK=1,R0_BLOCK=1024"; BUFFERS "fp32:N,bf16:M,i64:K";
  SCALARS "8192,4096". Prints "triton ms=... GB/s=..." (every buffer counted once).
   or: reference.py --cases CASES
  every line of a bench/inductor/run.sh case file, in one process; prints
  "NAME triton ms=... GB/s=..." for each (or "NAME failed: ...").
"""
import importlib.util
import os
import re
import sys
import tempfile

import numpy as np
import torch

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16, "fp64": torch.float64,
          "i64": torch.int64, "i32": torch.int32, "i16": torch.int16, "i8": torch.int8, "u8": torch.uint8,
          "i1": torch.bool}


def load(path, kernel):
    source = open(path).read()
    match = re.search(r"async_compile\.triton\('%s', '''(.*?)'''" % re.escape(kernel), source, re.S)
    code = re.sub(r"@triton_heuristics\..*?(?=@triton\.jit)", "", match.group(1), flags=re.S)
    # Triton reads a kernel's source back from its file: give it a file of its own.
    kernel_file = os.path.join(tempfile.mkdtemp(), kernel + ".py")
    with open(kernel_file, "w") as f:
        f.write(code)
    spec = importlib.util.spec_from_file_location(kernel, kernel_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, kernel)


def time_kernel(path, kernel, grid, warps, constexprs, buffers, scalars):
    """Median ms and GB/s (every buffer counted once)."""
    fn = load(path, kernel)
    args, nbytes = [], 0
    for spec in buffers.split(","):
        name, count = spec.split(":")
        count = int(count)
        if name == "i1":
            t = torch.randint(0, 2, (count,), device="cuda").to(torch.bool)
        elif name.startswith("i") or name.startswith("u"):
            t = torch.randint(0, 16, (count,), device="cuda", dtype=DTYPES[name])
        else:
            t = (torch.rand(count, device="cuda") * 2 - 1).to(DTYPES[name])
        args.append(t)
        nbytes += t.numel() * t.element_size()
    args += [int(s) for s in scalars.split(",") if s]
    meta = {k: int(v) for k, v in (kv.split("=") for kv in constexprs.split(",") if kv)}
    grid = tuple(int(g) for g in grid.split(","))

    def launch():
        fn[grid](*args, **meta, num_warps=int(warps))

    launch()
    torch.cuda.synchronize()
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    for _ in range(5):
        launch()
    times = []
    for _ in range(20):
        flush.zero_()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        launch()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    ms = float(np.median(times))
    return ms, nbytes / ms / 1e6


def main():
    if sys.argv[1] == "--cases":
        for line in open(sys.argv[2]).read().splitlines():
            if not line.strip():
                continue
            name, file, kernel, meta, warps, grid, scalars, buffers = line.split("|")
            bspec = ",".join(b.split("=", 1)[1] for b in buffers.split())
            svals = ",".join(a.split("=", 1)[1] for a in scalars.split())
            try:
                ms, gbs = time_kernel(file, kernel, grid, warps, meta, bspec, svals)
                print(f"{name} triton ms={ms:.4f} GB/s={gbs:.1f}", flush=True)
            except Exception as e:  # keep going: one kernel's failure is reported, not fatal
                print(f"{name} failed: {repr(e)[:200]}", flush=True)
        return
    ms, gbs = time_kernel(*sys.argv[1:8])
    print(f"triton ms={ms:.4f} GB/s={gbs:.1f}")


if __name__ == "__main__":
    main()
