"""What compiling costs through the Python package, on numpy arrays (the CPU):

- an autotuned kernel with many configurations compiles each of them once,
  on several threads (TRITONC_COMPILE_THREADS), before any is timed; a
  configuration that does not compile is timed as infinitely slow, once;
- a new value of the autotune key re-times the configurations (as Triton
  does) but compiles nothing when the specialization is the same;
- a cached key launches without compiling or timing anything;
- do_bench's repetitions launch the one compiled kernel;
- a second process finds every compiled kernel in the disk cache, and
  with TRITON_CACHE_AUTOTUNING=1 (or cache_results=True) the autotuner's
  choice too, timing nothing;
- TRITONC_PERF_REPORT_POINTS limits perf_report to its first N sizes;
- TRITONC_COMPILE_STATS=1 prints what compiling cost when the process exits;
- the CUDA C of each configuration is the same text in every process (the cubin
  cache's key), compiled on threads or not;
- each CUDA device has its own compiled kernels and launches on its own stream
  (under _dry_run, with a stand-in for torch's device and stream functions).

Prints one "PASS name" or "FAIL name: why" line per case; exits 1 when any failed.
`test_compile.py --child` is the second process of the disk-cache cases.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import traceback

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.join(HERE, "..", "..", "python")
sys.path.insert(0, PKG)

import tritonc as triton  # noqa: E402
import tritonc.language as tl  # noqa: E402
from tritonc import _tritonc  # noqa: E402

failures = 0


def report(name, ok, why=""):
    global failures
    if ok:
        print(f"PASS python compile: {name}")
    else:
        failures += 1
        print(f"FAIL python compile: {name}: {why}")


# BLOCK 48 is no power of 2: tl.arange refuses it, so that configuration does not compile.
CONFIGS = [triton.Config({"BLOCK": b}, num_warps=w) for b in (32, 64, 128, 256) for w in (1, 2)] + \
    [triton.Config({"BLOCK": 48}, num_warps=1)]


@triton.autotune(configs=CONFIGS, key=["n"], reset_to_zero=["out_ptr"])
@triton.jit
def weighted_sum(x_ptr, w_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    w = tl.load(w_ptr + offs, mask=m, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x * w, axis=0))


@triton.jit
def shifted_copy(src_ptr, dst_ptr, n, shift, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=m) + shift, mask=m)


class Counter:
    """Counts _tritonc.compile and _tritonc.load calls (the compiler and the loader) and their threads."""

    def __init__(self):
        self.compiles, self.loads, self.threads = [], [], set()
        self._compile, self._load = _tritonc.compile, _tritonc.load
        self._lock = threading.Lock()

    def __enter__(self):
        def compile_(source, filename, name, sig, defines, warps, stages, target):
            with self._lock:
                self.compiles.append((name, sig, tuple(defines), warps, stages))
                self.threads.add(threading.get_ident())
            return self._compile(source, filename, name, sig, defines, warps, stages, target)

        def load(*args):
            with self._lock:
                self.loads.append(args[2])
            return self._load(*args)
        _tritonc.compile, _tritonc.load = compile_, load
        return self

    def __exit__(self, *exc):
        _tritonc.compile, _tritonc.load = self._compile, self._load


def run_weighted_sum(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n).astype(np.float32)
    w = rng.standard_normal(n).astype(np.float32)
    out = np.zeros(1, np.float32)
    weighted_sum[lambda m: (triton.cdiv(n, m["BLOCK"]),)](x, w, out, n)
    want = float(x.astype(np.float64) @ w.astype(np.float64))
    return float(out[0]), want


def near(got, want):
    return abs(got - want) <= 1e-4 * max(1.0, abs(want))


def case(fn):
    def run():
        try:
            fn()
        except Exception as e:  # a case that raises fails with its message
            report(fn.__name__, False, f"{type(e).__name__}: {e}\n{traceback.format_exc()}")
    return run


@case
def autotune_compiles():
    os.environ["TRITONC_COMPILE_THREADS"] = "4"
    with Counter() as c:
        got, want = run_weighted_sum(1000, 1)
    good = len(CONFIGS) - 1
    report(f"autotuned result right (best {weighted_sum.best_config.kwargs}, "
           f"num_warps {weighted_sum.best_config.num_warps})", near(got, want), f"got {got}, want {want}")
    report(f"{len(CONFIGS)} configurations: each compiled once", len(c.compiles) == len(CONFIGS) and
           len(set(c.compiles)) == len(CONFIGS), f"{len(c.compiles)} compiles: {c.compiles}")
    report(f"{good} configurations loaded once each (the failing one never)", len(c.loads) == good, str(c.loads))
    report("compiled on several threads (TRITONC_COMPILE_THREADS=4)", len(c.threads) > 1,
           f"{len(c.threads)} thread(s)")
    timings = weighted_sum.configs_timings
    bad = [cfg for cfg in timings if cfg.kwargs["BLOCK"] == 48]
    report("the configuration that does not compile is timed as infinitely slow",
           len(bad) == 1 and timings[bad[0]][0] == float("inf") and
           all(t[0] < float("inf") for cfg, t in timings.items() if cfg is not bad[0]), str(timings))

    timed = weighted_sum.configs_timings
    with Counter() as c:
        got, want = run_weighted_sum(1000, 2)
    report("a cached key: no compile, no timing", not c.compiles and not c.loads and
           weighted_sum.configs_timings is timed and near(got, want), f"{c.compiles} {c.loads}")

    with Counter() as c:   # 1000 and 1800 are both i32 without the divisible-by-16 hint: the same kernels
        got, want = run_weighted_sum(1800, 3)
    report("a new key value re-times (as Triton) but loads nothing new", not c.loads and
           weighted_sum.configs_timings is not timed and len(weighted_sum.cache) == 2 and near(got, want),
           f"loads {c.loads}, cache {weighted_sum.cache}")

    os.environ["TRITONC_COMPILE_THREADS"] = "x"
    try:
        run_weighted_sum(64, 4)
        report("TRITONC_COMPILE_THREADS=x is refused", False, "no error")
    except ValueError as e:
        report("TRITONC_COMPILE_THREADS=x is refused", "TRITONC_COMPILE_THREADS" in str(e), str(e))
    del os.environ["TRITONC_COMPILE_THREADS"]


@case
def do_bench_compiles_once():
    src = np.random.default_rng(5).standard_normal(4096).astype(np.float32)
    dst = np.empty_like(src)
    with Counter() as c:
        ms = triton.testing.do_bench(lambda: shifted_copy[(32,)](src, dst, 4096, 0.5, BLOCK=128), warmup=5, rep=20)
    report("do_bench: its repetitions launch one compiled kernel", len(c.compiles) == 1 and len(c.loads) == 1 and
           ms > 0 and np.allclose(dst, src + 0.5), f"{len(c.compiles)} compiles, {len(c.loads)} loads, {ms} ms")


@case
def perf_report_points():
    calls = []

    @triton.testing.perf_report(triton.testing.Benchmark(
        x_names=["size"], x_vals=[10, 20, 30, 40, 50], line_arg="provider", line_vals=["a", "b"],
        line_names=["A", "B"], plot_name="points", args={"scale": 2}))
    def bench(size, provider, scale):
        calls.append((size, provider))
        return float(size * scale)
    for points, want in (("2", [(10, "a"), (10, "b"), (20, "a"), (20, "b")]), ("0", []), ("", None), ("9", None)):
        calls.clear()
        os.environ["TRITONC_PERF_REPORT_POINTS"] = points
        rows = bench.run(return_df=True)
        want = want if want is not None else [(x, p) for x in (10, 20, 30, 40, 50) for p in ("a", "b")]
        report(f"TRITONC_PERF_REPORT_POINTS={points!r}: {len(want) // 2} sizes measured", calls == want and
               len(rows) == len(want) // 2 and all(r[1] == r[0] * 2 for r in rows), f"{calls} {rows}")
    for bad in ("two", "-1"):
        os.environ["TRITONC_PERF_REPORT_POINTS"] = bad
        try:
            bench.run()
            report(f"TRITONC_PERF_REPORT_POINTS={bad} is refused", False, "no error")
        except ValueError as e:
            report(f"TRITONC_PERF_REPORT_POINTS={bad} is refused", "TRITONC_PERF_REPORT_POINTS" in str(e), str(e))
    del os.environ["TRITONC_PERF_REPORT_POINTS"]


@case
def nvrtc_alone():
    """_tritonc._nvrtc (bench/python/compile_cost.py's NVRTC timer) needs NVRTC, not a GPU."""
    from tritonc.jit import _kernel_source
    source, filename = _kernel_source(shifted_copy.fn)
    info = _tritonc.compile(source, filename, "shifted_copy", "*fp32:16,*fp32:16,i32,fp32", ["BLOCK=128"], 4, 3,
                            "cuda:sm_80")
    try:
        wall, cpu, ptx, cubin = _tritonc._nvrtc(info["code"], "sm_80")
        report("_nvrtc compiles generated CUDA C without a GPU", wall > 0 and cpu > 0 and ptx > 0 and cubin > 0,
               f"{wall} {cpu} {ptx} {cubin}")
    except triton.CompilationError as e:   # no CUDA toolkit: the error names what is missing
        report("_nvrtc without NVRTC says so", "NVRTC" in str(e) or "nvrtc" in str(e), str(e))
    try:
        _tritonc._nvrtc("__global__ void broken( {", "sm_80")
        report("_nvrtc reports a compile error", False, "no error")
    except triton.CompilationError as e:
        report("_nvrtc reports NVRTC's log (or that NVRTC is missing)", "error" in str(e) or "NVRTC" in str(e), str(e))


@case
def stats_on_sigterm():
    """TRITONC_COMPILE_STATS: a process stopped by SIGTERM (timeout(1)) still prints what compiling cost."""
    code = ("import sys, time, numpy as np; sys.path.insert(0, %r); import test_compile as t; "
            "a = np.zeros(256, np.float32); t.shifted_copy[(2,)](a, a, 256, 1.0, BLOCK=128); "
            "print('ready', flush=True); time.sleep(120)") % HERE
    with tempfile.TemporaryDirectory() as cache:
        p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ, TRITONC_COMPILE_STATS="1", TRITONC_CACHE=cache))
        ready = p.stdout.readline().strip()
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=120)
    report("TRITONC_COMPILE_STATS=1: printed when SIGTERM stops the process",
           ready == "ready" and p.returncode == 128 + signal.SIGTERM and
           "  shifted_copy: 1 compiled (0 from the disk cache)" in err, f"{ready!r} {p.returncode} {err[-1500:]}")


@case
def one_kernel_a_device():
    """Several GPUs without one: under _dry_run(2) (every pointer taken as CUDA memory, nothing loaded) a
    stream getter of two functions, the current device and the stream of a device, as torch gives them.
    Each device gets its own compiled kernel (the key names the current device, as Triton keeps one cache
    a device), and each launch goes on the current device's stream."""
    jit_module = sys.modules["tritonc.jit"]
    current = [0]
    src = np.random.default_rng(8).standard_normal(256).astype(np.float32)
    dst = np.empty_like(src)
    _tritonc._dry_run(2)
    jit_module._init_stream()   # as at the first CUDA launch; then the test's getter in place of torch's
    _tritonc.set_stream_getter((lambda: current[0], lambda d: 0x5000 + 16 * d))
    try:
        seen = []
        with Counter() as c:
            for dev in (0, 1, 0, 1, 1):
                current[0] = dev
                shifted_copy[(2,)](src, dst, 256, 2.0, BLOCK=128)
                grid, stream, where, values = _tritonc._last_launch()
                seen.append((stream, where))
        devices = sorted({key[0] for key in shifted_copy._kernels if key[0] != "cpu"})
        report("two devices: one compile each, then cache hits", len(c.compiles) == 2 and
               devices == ["cuda:0", "cuda:1"], f"{len(c.compiles)} compiles, devices {devices}")
        want = [(0x5000 + 16 * d, "cuda") for d in (0, 1, 0, 1, 1)]
        report("each launch on the current device's stream", seen == want, f"{seen} != {want}")
        for bad, kind in (("zero", TypeError), (99, ValueError), (-1, ValueError)):
            current[0] = bad
            try:
                shifted_copy[(2,)](src, dst, 256, 2.0, BLOCK=128)
                report(f"current device {bad!r} is refused", False, "no error")
            except kind as e:
                report(f"current device {bad!r} is refused ({kind.__name__})", "device" in str(e), str(e))
    finally:
        _tritonc._dry_run(0)
        _tritonc.set_stream_getter(None)
        jit_module._stream_ready = False
        _tritonc.set_stream_init(jit_module._init_stream)


def cuda_child():
    """A process that compiles the autotuned kernel's configurations to CUDA C (_dry_run(2): nothing loaded)
    on threads, and prints a hash of each configuration's code."""
    import hashlib
    _tritonc._dry_run(2)
    weighted_sum[(1,)](np.zeros(1024, np.float32), np.zeros(1024, np.float32), np.zeros(1, np.float32), 1024)
    kernels = weighted_sum.base_fn._kernels.values()
    print(json.dumps(sorted(hashlib.sha256(k.asm["cuda"].encode()).hexdigest() for k in kernels)))


def child():
    """The second process: runs the autotuned kernel and says what came from the disk cache."""
    with Counter() as c:
        got, want = run_weighted_sum(1000, 6)
    kernels = list(weighted_sum.base_fn._kernels.values())
    print(json.dumps({"ok": near(got, want), "from_disk": [k.from_disk_cache for k in kernels],
                      "loads": len(c.loads), "timed": weighted_sum.configs_timings is not None,
                      "best": [weighted_sum.best_config.kwargs["BLOCK"], weighted_sum.best_config.num_warps]}))


@case
def cuda_code_same_across_processes():
    """The disk cache keys a cubin by its CUDA C (with NVRTC's options, version and the arch): a second
    process hits it only if it generates the same text, compiling on threads in another order."""
    runs = []
    for threads in ("4", "1"):
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--cuda-child"], capture_output=True, text=True,
                           env=dict(os.environ, TRITONC_COMPILE_THREADS=threads), timeout=600)
        runs.append(json.loads(r.stdout.strip().splitlines()[-1]) if r.returncode == 0 else r.stderr[-1500:])
    good = len(CONFIGS) - 1
    report(f"CUDA C of {good} configurations identical in two processes (4 threads, then 1)",
           isinstance(runs[0], list) and len(runs[0]) == good and len(set(runs[0])) == good and runs[0] == runs[1],
           str(runs))


@case
def disk_cache_across_processes():
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, TRITONC_CACHE=cache, TRITONC_COMPILE_THREADS="4")

        def run(**extra):
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child"], env=dict(env, **extra),
                               capture_output=True, text=True, timeout=600)
            if r.returncode != 0:
                raise RuntimeError(f"child failed: {r.stdout[-500:]} {r.stderr[-2000:]}")
            return json.loads(r.stdout.strip().splitlines()[-1])
        first = run()
        second = run()
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child"], capture_output=True, text=True,
                           env=dict(env, TRITONC_COMPILE_STATS="1", TRITONC_CACHE=os.path.join(cache, "fresh")),
                           timeout=600)
        good = len(CONFIGS) - 1
        lines = r.stderr.splitlines()
        want = f"  weighted_sum: {good} compiled (0 from the disk cache)"
        report("TRITONC_COMPILE_STATS=1: compiles and the autotuning summed at exit",
               r.returncode == 0 and "tritonc compile stats:" in lines and
               any(x.startswith(want) for x in lines) and
               any(x.startswith(f"  autotune weighted_sum key (1000,") and f"{len(CONFIGS)} configurations" in x
                   for x in lines), r.stderr[-2000:])
        report("first process: every configuration compiled, none from the disk cache",
               first["ok"] and first["loads"] == good and not any(first["from_disk"]), str(first))
        report("second process: every configuration from the disk cache",
               second["ok"] and len(second["from_disk"]) == good and all(second["from_disk"]), str(second))
        tuned = run(TRITON_CACHE_AUTOTUNING="1")
        again = run(TRITON_CACHE_AUTOTUNING="1")
        report("TRITON_CACHE_AUTOTUNING=1: the first process times the configurations",
               tuned["ok"] and tuned["timed"], str(tuned))
        report("TRITON_CACHE_AUTOTUNING=1: the next one takes its choice from the disk, timing and loading "
               "only the winner", again["ok"] and not again["timed"] and again["best"] == tuned["best"] and
               again["loads"] == 1, str(again))


def main():
    if sys.argv[1:] == ["--child"]:
        child()
        return 0
    if sys.argv[1:] == ["--cuda-child"]:
        cuda_child()
        return 0
    for test in (autotune_compiles, do_bench_compiles_once, perf_report_points, nvrtc_alone, stats_on_sigterm,
                 one_kernel_a_device, cuda_code_same_across_processes,
                 disk_cache_across_processes):
        test()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
