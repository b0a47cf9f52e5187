"""Host time of one cached launch, tritonc against Triton, on the same kernels
(overhead_kernels.py) and torch CUDA tensors.

    python3 bench/python/launch_overhead.py [--json FILE]

For each kernel and launcher: compile and run once, then 30 times: 200
launches back to back, timed on the host with perf_counter_ns (the GPU queue
holds 200 tiny kernels, so the host never waits for it), then a
synchronize. The result is the median over the 30 of the time per launch.
Both launchers' outputs are compared, so a fast launch that computes
nothing does not count."""
import argparse
import importlib.util
import json
import os
import statistics
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
import tritonc.__main__ as tc_main  # noqa: E402


def load(name, use_tritonc):
    saved = {k: v for k, v in sys.modules.items() if k == "triton" or k.startswith("triton.")}
    if use_tritonc:
        for k in saved:
            del sys.modules[k]
        tc_main.install()
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, "overhead_kernels.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if use_tritonc:
        sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, tc_main.TritonFinder)]
        for k in [k for k in sys.modules if k == "triton" or k.startswith("triton.")]:
            del sys.modules[k]
        sys.modules.update(saved)
    return module


def per_launch_us(launch, batches=30, per_batch=200):
    launch()
    torch.cuda.synchronize()
    times = []
    for _ in range(batches):
        t0 = time.perf_counter_ns()
        for _ in range(per_batch):
            launch()
        t1 = time.perf_counter_ns()
        torch.cuda.synchronize()
        times.append((t1 - t0) / per_batch / 1e3)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    args = ap.parse_args()
    import triton  # noqa: F401  (real Triton first, so that its modules are the saved ones)
    real = load("overhead_triton", False)
    ours = load("overhead_tritonc", True)
    n = 4096
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    outs = {"triton": torch.empty_like(x), "tritonc": torch.empty_like(x)}
    M = N = 64
    a = torch.randn(M, N, device="cuda")
    b = torch.randn(M, N, device="cuda")
    cs = {"triton": torch.empty_like(a), "tritonc": torch.empty_like(a)}
    rows = []
    for label, mod in (("triton", real), ("tritonc", ours)):
        out, c = outs[label], cs[label]
        add_tuple = lambda: mod.tiny_add[(4,)](x, y, out, n, BLOCK=1024)
        grid = lambda meta: (triton_cdiv(M, meta["BM"]), triton_cdiv(N, meta["BN"]))
        many = lambda: mod.many_args[grid](a, b, c, M, N, 16, N, 1, N, 1, N, 1, 0.5, BM=32, BN=32)
        rows.append((label, per_launch_us(add_tuple), per_launch_us(many)))
    # where tritonc's time goes: the same launches called from C (no Python loop), the stream lookup, and
    # tritonc_launch alone on arguments packed once (cuLaunchKernel and the driver), and the host path with
    # the launch call a no-op (_dry_run(1): binding, key, cache lookup, grid, packing, the stream lookup)
    from tritonc import _tritonc
    out = outs["tritonc"]
    kernel = next(iter(ours.tiny_add._kernels.values()))
    stream = torch.cuda.current_stream().cuda_stream

    def c_loop(fn, args, kwargs):
        times = []
        for _ in range(30):
            times.append(_tritonc._time_calls(fn, args, kwargs, 200) / 1e3)
            torch.cuda.synchronize()
        return statistics.median(times)
    _tritonc._dry_run(1)   # everything but the driver's launch call: the host path alone
    dry = c_loop(ours.tiny_add[(4,)], (x, y, out, n), {"BLOCK": 1024})
    dry_many = c_loop(ours.many_args[grid], (a, b, cs["tritonc"], M, N, 16, N, 1, N, 1, N, 1, 0.5), {"BM": 32, "BN": 32})
    _tritonc._dry_run(0)
    parts = {
        "tritonc kernel[grid](...) called from C": c_loop(ours.tiny_add[(4,)], (x, y, out, n), {"BLOCK": 1024}),
        "tritonc, the launch a no-op (host path alone)": dry,
        "tritonc 13 args, the launch a no-op": dry_many,
        "triton kernel[grid](...) called from C": c_loop(real.tiny_add[(4,)], (x, y, outs["triton"], n),
                                                         {"BLOCK": 1024}),
        "torch's current stream (2 calls)": c_loop(lambda: torch._C._cuda_getCurrentRawStream(
            torch._C._cuda_getDevice()), (), {}),
        "tritonc_launch alone (C, packed once)": statistics.median(
            [_tritonc._launch_floor(kernel, (4,), stream, (x.data_ptr(), y.data_ptr(), out.data_ptr(), n), 200) / 1e3
             for _ in range(30)]),
    }
    torch.cuda.synchronize()
    same_add = torch.equal(outs["triton"], outs["tritonc"])
    same_many = torch.allclose(cs["triton"], cs["tritonc"], rtol=0, atol=1e-6)
    print(f"{'launcher':10} {'vector add, grid tuple (us)':>30} {'13 args, grid lambda (us)':>28}")
    for label, t1, t2 in rows:
        print(f"{label:10} {t1:30.2f} {t2:28.2f}")
    for what, us in parts.items():
        print(f"  {what:48} {us:6.2f} us")
    print(f"outputs equal: vector add {same_add}, 13 args {same_many}")
    print(f"tritonc / triton: {rows[1][1] / rows[0][1]:.2f} and {rows[1][2] / rows[0][2]:.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "parts": parts, "equal": [same_add, same_many], "torch": torch.__version__,
                       "triton": sys.modules["triton"].__version__, "device": torch.cuda.get_device_name()}, f)
    return 0 if same_add and same_many else 1


def triton_cdiv(a, b):
    return (a + b - 1) // b


if __name__ == "__main__":
    sys.exit(main())
