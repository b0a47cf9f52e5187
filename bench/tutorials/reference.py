"""Triton 3.6's tutorial kernels, compiled by real Triton from the same
source with the same constexprs tritonc was given, run on the inputs
tritonc ran on (its `run --save` buffers), their outputs compared with
tritonc's, and timed as tritonc times its own: CUDA events around each
launch, 256 MiB written before each to flush L2, median of 20 after 5
warm-up launches.

The tutorial files are not imported (their host code would run tests and
benchmarks): the @triton.jit functions are cut out of the source with
Python's ast module, their other decorators (autotune, perf_report)
dropped, and written to a module file of their own.

usage: reference.py TUTORIAL_DIR CASES SAVED_ROOT
  CASES is bench/tutorials/cases.txt; SAVED_ROOT/NAME holds the case's
  NAME.in / NAME.out buffers. Prints one line a case:
  "NAME triton ms=... max_err=... ok|FAIL" (or "NAME failed: ...").
"""
import ast
import importlib.util
import os
import re
import shlex
import sys
import tempfile

import numpy as np
import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16, "fp64": torch.float64,
          "i64": torch.int64, "i32": torch.int32, "i16": torch.int16, "i8": torch.int8, "u8": torch.uint8,
          "i1": torch.bool}
NP = {torch.float32: np.float32, torch.float16: np.float16, torch.float64: np.float64, torch.int64: np.int64,
      torch.int32: np.int32, torch.int16: np.int16, torch.int8: np.int8, torch.uint8: np.uint8,
      torch.bfloat16: np.uint16, torch.bool: np.int8}


def jit_module(path):
    """The tutorial's @triton.jit functions, alone, as a module."""
    tree = ast.parse(open(path).read())
    keep = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            decos = [d for d in node.decorator_list if "triton.jit" in ast.unparse(d)]
            if decos:
                node.decorator_list = [ast.parse("triton.jit").body[0].value]
                keep.append(ast.unparse(node))
    code = "import triton\nimport triton.language as tl\nfrom triton.language.extra import libdevice\n\n\n" + \
        "\n\n\n".join(keep) + "\n"
    out = os.path.join(tempfile.mkdtemp(), os.path.basename(path).replace("-", "_"))
    with open(out, "w") as f:
        f.write(code)
    spec = importlib.util.spec_from_file_location(os.path.basename(out)[:-3], out)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def split_sig(sig):
    out, depth, cur = [], 0, ""
    for ch in sig:
        depth += ch in "[<"
        depth -= ch in "]>"
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return out + [cur]


def load_buffer(saved, name, dtype, suffix):
    data = np.fromfile(os.path.join(saved, f"{name}.{suffix}"), dtype=NP[dtype])
    t = torch.from_numpy(data.copy())
    if dtype == torch.bfloat16:
        t = t.view(torch.bfloat16)
    return t.cuda()


def median_ms(launch):
    """launch()'s time as tritonc run --bench takes its own: 5 warm-up
    launches, then 20 with 256 MiB written before each (L2 flushed), CUDA
    events around each; the median, in ms."""
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    for _ in range(5):
        launch()
    times = []
    for _ in range(20):
        flush.zero_()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        launch()
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    return float(np.median(times))


def run_case(mod, line, saved):
    name, file, kernel, sig, opts, values, grid, compared = line.split("|")
    fn = getattr(mod, kernel)
    words = shlex.split(opts)
    constexprs, warps, stages = {}, 4, 3
    for i, w in enumerate(words):
        if w == "-D":
            k, v = words[i + 1].split("=", 1)
            constexprs[k] = eval(v, {"tl": tl, "triton": triton})
        elif w == "--num-warps":
            warps = int(words[i + 1])
        elif w == "--num-stages":
            stages = int(words[i + 1])
    vals = dict(v.split("=", 1) for v in values.split())
    types = [t.split(":")[0] for t in split_sig(sig)]
    params = fn.arg_names
    args, outputs, ti = [], {}, 0
    for p in params:   # every parameter by position, constexprs too, as the tutorials launch them
        if p in constexprs:
            args.append(constexprs[p])
            continue
        t = types[ti]
        ti += 1
        if t.startswith("*"):
            buf = load_buffer(saved, p, DTYPES[t[1:]], "in")
            args.append(buf)
            outputs[p] = (buf, DTYPES[t[1:]])
        elif t.startswith("tensordesc"):
            m = re.match(r"tensordesc<(\w+)\[([\d,]+)\]>", t)
            dt, block = DTYPES[m.group(1)], [int(b) for b in m.group(2).split(",")]
            rank = len(block)
            shape = [int(vals[f"{p}_shape{k}"]) for k in range(rank)]
            strides = [int(vals[f"{p}_stride{k}"]) for k in range(rank - 1)] + [1]
            buf = load_buffer(saved, p, dt, "in")
            args.append(TensorDescriptor(buf, shape, strides, block))
            outputs[p] = (buf, dt)
        elif t.startswith("fp"):
            args.append(float(vals[p]))
        else:
            args.append(int(vals[p]))
    g = tuple(int(x) for x in grid.split(","))

    options = {"num_warps": warps, "num_stages": stages}
    for p in params:   # softmax_kernel's num_stages parameter is also the launch option
        options.pop(p, None)

    def launch():
        return fn[g](*args, **options)

    compiled = launch()
    if os.environ.get("CUBIN_DIR") and hasattr(compiled, "asm"):   # Triton's machine code, for cuobjdump
        with open(os.path.join(os.environ["CUBIN_DIR"], name + ".cubin"), "wb") as f:
            f.write(compiled.asm["cubin"])
    torch.cuda.synchronize()
    worst, ok = 0.0, True
    for p in compared.split(","):
        got, dt = outputs[p]
        want = load_buffer(saved, p, dt, "out")
        a, b = got.float(), want.float()
        if torch.isnan(a).any() or torch.isnan(b).any():
            print(f"{name}: {p} has NaN: Triton {int(torch.isnan(a).sum())}, tritonc {int(torch.isnan(b).sum())} "
                  f"of {a.numel()}", file=sys.stderr, flush=True)
            ok = False
            continue
        inf = torch.isinf(a) | torch.isinf(b)   # overflowed on both sides alike (fp16 outputs of random inputs)
        if inf.any():
            same = bool((a[inf] == b[inf]).all())
            print(f"{name}: {p} has {int(inf.sum())} infinities of {a.numel()}, "
                  f"{'the same in both' if same else 'NOT the same in both'}", file=sys.stderr, flush=True)
            ok &= same
            a, b = a[~inf], b[~inf]
        scale = max(b.abs().max().item(), 1e-30) if b.numel() else 1.0
        err = (a - b).abs().max().item() / scale if b.numel() else 0.0
        worst = max(worst, err)
        ok &= err <= (2e-2 if dt in (torch.float16, torch.bfloat16) else 1e-4)
    regs = f"regs={compiled.n_regs} spills={compiled.n_spills} " if hasattr(compiled, "n_regs") else ""
    print(f"{name} triton ms={median_ms(launch):.4f} {regs}max_err={worst:.2e} {'ok' if ok else 'FAIL'}", flush=True)


def main():
    tdir, cases, root = sys.argv[1:4]
    # descriptors made in a kernel need global scratch memory, as the tutorials set it up
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    mods = {}
    for line in open(cases):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, file = line.split("|")[:2]
        saved = os.path.join(root, name)
        if not os.path.isdir(saved):
            print(f"{name} failed: tritonc did not run it")
            continue
        try:
            if file not in mods:
                mods[file] = jit_module(os.path.join(tdir, file))
            run_case(mods[file], line, saved)
        except Exception as ex:  # one case's failure does not stop the others
            print(f"{name} failed: {type(ex).__name__}: {str(ex)[:300]}", flush=True)


if __name__ == "__main__":
    main()
