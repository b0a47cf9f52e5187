#!/usr/bin/env python3
"""Prints bench/inductor/run.sh case lines for the held-out Inductor kernels
(tests/heldout/golden/*.json: the kernel, its block sizes, warps, grid and
buffers as real Triton ran it), so that

    python3 bench/inductor/heldout_cases.py >/tmp/heldout.cases
    EXTRA_ONLY=1 EXTRA=/tmp/heldout.cases sh bench/inductor/run.sh

times each against Triton at its module's own size. Kernels of one program
or with a constexpr numel (single reductions of a few hundred values) are
left out: they time a launch, not the kernel."""
import glob
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(here))
for path in sorted(glob.glob(os.path.join(repo, "tests", "heldout", "golden", "*.json"))):
    g = json.load(open(path))
    name = os.path.basename(path)[:-5]
    if g["grid"][0] * g["grid"][1] * g["grid"][2] == 1 or any(a["dtype"] == "constexpr" for a in g["args"]):
        continue
    meta = ",".join("%s=%d" % kv for kv in g["constexprs"].items())
    grid = ",".join(str(x) for x in g["grid"] if x > 1) or "1"
    if g["grid"][2] > 1:
        grid = ",".join(str(x) for x in g["grid"])
    elif g["grid"][1] > 1:
        grid = "%d,%d" % (g["grid"][0], g["grid"][1])
    else:
        grid = str(g["grid"][0])
    scalars, buffers = [], []
    for a in g["args"]:
        if a["dtype"] == "constexpr":
            continue
        if a["init"] == "scalar":
            scalars.append("%s=%d" % (a["name"], a["value"]))
        else:
            n = 1
            for d in a["shape"]:
                n *= d
            buffers.append("%s=%s:%d" % (a["name"], a["dtype"], n))
    sys.stdout.write("%s|%s|%s|%s|%d|%s|%s|%s\n" % (name, g["file"], g["kernel"], meta, g["num_warps"], grid,
                                                   " ".join(scalars), " ".join(buffers)))
