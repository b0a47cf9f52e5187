"""Real Triton on one TorchInductor kernel of the corpus, timed as tritonc
times its own: CUDA events around each launch, 256 MiB written before each to
flush L2, median of 20 after 5 warm-up launches.

The kernel's source is taken from the module's async_compile.triton(...)
call; the @triton_heuristics decorator is dropped (it would autotune) so that
Triton runs the block sizes given here, the same tritonc runs.

usage: reference.py FILE KERNEL GRID WARPS CONSTEXPRS BUFFERS SCALARS
  GRID "x,y"; CONSTEXPRS "XBLOCK=1,R0_BLOCK=1024"; BUFFERS "fp32:N,bf16:M,i64:K";
  SCALARS "8192,4096". Prints "triton ms=... GB/s=..." (every buffer counted once).
"""
import re
import sys

import numpy as np
import torch

path, kernel, grid, warps, constexprs, buffers, scalars = sys.argv[1:8]
source = open(path).read()
match = re.search(r"async_compile\.triton\('%s', '''(.*?)'''" % re.escape(kernel), source, re.S)
code = re.sub(r"@triton_heuristics\..*?(?=@triton\.jit)", "", match.group(1), flags=re.S)
# Triton reads a kernel's source back from its file: give it a file of its own.
import importlib.util
import os
import tempfile

kernel_file = os.path.join(tempfile.mkdtemp(), kernel + ".py")
with open(kernel_file, "w") as f:
    f.write(code)
spec = importlib.util.spec_from_file_location(kernel, kernel_file)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
fn = getattr(module, kernel)

dtypes = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16, "i64": torch.int64,
          "i32": torch.int32, "i1": torch.bool}
args, nbytes = [], 0
for spec in buffers.split(","):
    name, count = spec.split(":")
    count = int(count)
    if name.startswith("i"):
        t = torch.randint(0, 16, (count,), device="cuda", dtype=dtypes[name])
    else:
        t = (torch.rand(count, device="cuda") * 2 - 1).to(dtypes[name])
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
print(f"triton ms={ms:.4f} GB/s={nbytes / ms / 1e6:.1f}")
