#!/usr/bin/env python3
"""What an NVIDIA GPU computes for integer division by zero and for
INT_MIN / -1 under Triton (undefined in Triton's semantics; the CPU
targets and the interpreter return the same values so that masked lanes
agree). Prints one line per dtype."""
import torch
import triton
import triton.language as tl


@triton.jit
def div_kernel(a_ptr, b_ptr, q_ptr, r_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    a = tl.load(a_ptr + o)
    b = tl.load(b_ptr + o)
    tl.store(q_ptr + o, a // b)
    tl.store(r_ptr + o, a % b)


for dt in (torch.int32, torch.int64, torch.int16, torch.int8, torch.uint8):
    info = torch.iinfo(dt)
    vals = [7, -7, 0, info.max, info.min] + [5, info.min, -5]
    divs = [0, 0, 0, 0, 0] + [0, -1, -1]
    if not info.min:
        vals, divs = [7, 0, info.max, 200], [0, 0, 0, 0]
    n = 8
    a = torch.tensor((vals + [1] * n)[:n], dtype=dt, device="cuda")
    b = torch.tensor((divs + [1] * n)[:n], dtype=dt, device="cuda")
    q, r = torch.empty_like(a), torch.empty_like(a)
    div_kernel[(1,)](a, b, q, r, N=n)
    print(dt, "a", a.tolist()[:len(vals)], "b", b.tolist()[:len(vals)], "a//b", q.tolist()[:len(vals)],
          "a%b", r.tolist()[:len(vals)])
