"""tritonc's attention outputs (bench/attention/run.sh's saved buffers) against torch's
scaled_dot_product_attention in fp32 on the same q, k, v.

usage: torch_check.py CASES SAVED_ROOT
Prints one line a case: "NAME torch rel_err=... ok|FAIL" (error over the largest reference value).
"""
import os
import re
import sys

import numpy as np
import torch


def main():
    cases, root = sys.argv[1:3]
    for line in open(cases):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, _, _, opts, values = line.split("|")[:6]
        saved = os.path.join(root, name)
        if not os.path.isdir(saved):
            print(f"{name} torch: not run")
            continue
        v = dict(x.split("=") for x in values.split())
        d = int(re.search(r"HEAD_DIM=(\d+)", opts).group(1))
        causal = "STAGE=3" in opts
        z, h, n = int(v["Z"]), int(v["H"]), int(v["N_CTX"])

        def buf(b, suffix):
            a = np.fromfile(os.path.join(saved, f"{b}.{suffix}"), dtype=np.float16)
            return torch.from_numpy(a.copy()).cuda().float().view(z, h, n, d)

        q, k, vv = buf("desc_q", "in"), buf("desc_k", "in"), buf("desc_v", "in")
        got = buf("desc_o", "out")
        ref = torch.nn.functional.scaled_dot_product_attention(q, k, vv, is_causal=causal, scale=float(v["sm_scale"]))
        err = ((got - ref).abs().max() / ref.abs().max()).item()
        print(f"{name} torch rel_err={err:.2e} {'ok' if err < 1e-2 else 'FAIL'}", flush=True)


main()
