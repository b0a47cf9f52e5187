"""Real Triton on the seed RMSNorm kernel, beside tritonc's CUDA output.

Reads the inputs tritonc generated (DIR/NAME.in) and its output
(DIR/out_ptr0.out), checks tritonc's output against a float64 reference,
compiles the same source file with Triton, runs it on the same inputs,
checks it, and times it as tritonc times its own kernel: CUDA events around
each launch, 256 MiB of writes before each to flush L2, median of 20 after 5
warm-up launches. Prints one line per variant.

usage: python3 reference.py KERNEL.py DIR ROWS COLS DTYPE XBLOCK NUM_WARPS
"""
import importlib.util
import sys

import numpy as np
import torch

path, run_dir, rows, cols, dtype, xblock, num_warps = sys.argv[1:8]
rows, cols, xblock, num_warps = int(rows), int(cols), int(xblock), int(num_warps)
tdtype = {"fp32": torch.float32, "bf16": torch.bfloat16}[dtype]
np_bits = {"fp32": np.float32, "bf16": np.uint16}[dtype]


def load(name, count, suffix):
    raw = np.fromfile(f"{run_dir}/{name}.{suffix}", dtype=np_bits, count=count)
    t = torch.from_numpy(raw.astype(raw.dtype))
    return t.view(torch.bfloat16) if dtype == "bf16" else t


x = load("in_ptr0", rows * cols, "in").reshape(rows, cols).cuda()
w = load("in_ptr1", cols, "in").cuda()
ours = load("out_ptr0", rows * cols, "out").reshape(rows, cols).cuda()

xd, wd = x.double(), w.double()
ref = xd * torch.rsqrt((xd * xd).mean(dim=1, keepdim=True) + 1e-6) * wd


def rel_err(out):
    out = out.double()
    if torch.isnan(out).any():
        return float("inf")
    return ((out - ref).norm() / ref.norm()).item()


spec = importlib.util.spec_from_file_location("kernel", path)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
kernel = mod.triton_per_fused_mul_pow_rsqrt_0

out = torch.full_like(x, float("nan"))
grid = ((rows + xblock - 1) // xblock,)


def launch():
    kernel[grid](x, w, out, rows, cols, XBLOCK=xblock, num_warps=num_warps)


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
nbytes = (2 * rows * cols + cols) * x.element_size()
print(f"tritonc_vs_f64 {dtype} rel_err={rel_err(ours):.3e} max_abs_vs_triton={(ours.double() - out.double()).abs().max().item():.3e}")
print(f"triton {dtype} XBLOCK={xblock} warps={num_warps} rel_err={rel_err(out):.3e} ms={ms:.4f} GB/s={nbytes / ms / 1e6:.1f}")
