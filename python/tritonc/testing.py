"""tritonc.testing: do_bench, assert_close, perf_report and Benchmark."""
import math
import os
import statistics
import time


def _is_cuda_work():
    torch = __import__("sys").modules.get("torch")
    return torch is not None and torch.cuda.is_available()


def _summarize(times, quantiles, return_mode):
    if quantiles is not None:
        s = sorted(times)
        out = [s[min(len(s) - 1, max(0, int(round(q * (len(s) - 1)))))] for q in quantiles]
        return out[0] if len(out) == 1 else out
    if return_mode == "min":
        return min(times)
    if return_mode == "max":
        return max(times)
    if return_mode == "median":
        return statistics.median(times)
    if return_mode == "all":
        return times
    return statistics.fmean(times)


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="mean", device=None):
    """Milliseconds a call of fn takes: CUDA events when torch has a GPU (the L2 flushed before each call),
    else the wall clock."""
    assert return_mode in ("min", "max", "mean", "median", "all")
    use_cuda = _is_cuda_work() if device is None else device == "cuda"
    if not use_cuda:
        fn()
        start = time.perf_counter()
        fn()
        est = max((time.perf_counter() - start) * 1e3, 1e-3)
        n_warmup = max(1, int(warmup / est))
        n_repeat = max(1, int(rep / est))
        for _ in range(n_warmup):
            fn()
        times = []
        for _ in range(n_repeat):
            t = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t) * 1e3)
        return _summarize(times, quantiles, return_mode)
    import torch
    fn()
    torch.cuda.synchronize()
    cache = torch.empty(int(256e6 // 4), dtype=torch.int, device="cuda")
    start_event = torch.cuda.Event(enable_timing=True)
    end_event = torch.cuda.Event(enable_timing=True)
    start_event.record()
    for _ in range(5):
        cache.zero_()
        fn()
    end_event.record()
    torch.cuda.synchronize()
    est = max(start_event.elapsed_time(end_event) / 5, 1e-4)
    n_warmup = max(1, int(warmup / est))
    n_repeat = max(1, int(rep / est))
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    for _ in range(n_warmup):
        fn()
    for i in range(n_repeat):
        if grad_to_none is not None:
            for x in grad_to_none:
                x.grad = None
        cache.zero_()
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    times = [s.elapsed_time(e) for s, e in zip(starts, ends)]
    return _summarize(times, quantiles, return_mode)


def _to_numpy(x):
    import numpy as np
    if hasattr(x, "detach"):
        x = x.detach()
        if str(x.dtype) == "torch.bfloat16":
            x = x.float()
        return x.cpu().numpy()
    return np.asarray(x)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """Fails when x and y differ by more than atol + rtol * |y| anywhere (atol 1e-2, rtol 0 by default);
    NaNs count as equal only to NaNs."""
    import numpy as np
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    a = _to_numpy(x)
    b = _to_numpy(y)
    if a.dtype == np.bool_ or b.dtype == np.bool_:
        np.testing.assert_array_equal(a, b, err_msg=err_msg)
        return
    np.testing.assert_allclose(a.astype(np.float64), b.astype(np.float64), atol=atol, rtol=rtol, equal_nan=True,
                               err_msg=err_msg)


class Benchmark:
    """What a perf_report measures: x values, lines, labels."""

    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names, plot_name, args, xlabel="", ylabel="",
                 x_log=False, y_log=False, styles=None, color=None):
        self.x_names = x_names
        self.x_vals = x_vals
        self.line_arg = line_arg
        self.line_vals = line_vals
        self.line_names = line_names
        self.plot_name = plot_name
        self.args = args
        self.xlabel = xlabel
        self.ylabel = ylabel
        self.x_log = x_log
        self.y_log = y_log
        self.styles = styles


def _points():
    """TRITONC_PERF_REPORT_POINTS: how many sizes a perf_report measures (None: all of them)."""
    text = os.environ.get("TRITONC_PERF_REPORT_POINTS", "").strip()
    if not text:
        return None
    if not text.isdigit():
        raise ValueError(f"TRITONC_PERF_REPORT_POINTS must be a number of sizes, 0 or more (got {text!r})")
    return int(text)


class Mark:
    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def _run(self, bench, save_path, print_data, **kwargs):
        rows = []
        x_vals = list(bench.x_vals)
        points = _points()
        if points is not None:   # only the first N x values (a quick run)
            x_vals = x_vals[:points]
        for x in x_vals:
            xs = x if isinstance(x, (list, tuple)) else [x] * len(bench.x_names)
            xargs = dict(zip(bench.x_names, xs))
            row = list(xs)
            for line in bench.line_vals:
                r = self.fn(**xargs, **{bench.line_arg: line}, **bench.args, **kwargs)
                row.append(r[0] if isinstance(r, (list, tuple)) else r)
            rows.append(row)
        header = list(bench.x_names) + list(bench.line_names)
        if print_data:
            print(bench.plot_name + ":")
            print("  ".join(f"{h:>14}" for h in header))
            for row in rows:
                print("  ".join(f"{v:>14.6g}" if isinstance(v, float) else f"{v!s:>14}" for v in row))
        if save_path:
            os.makedirs(save_path, exist_ok=True)
            with open(os.path.join(save_path, f"{bench.plot_name}.csv"), "w") as f:
                f.write(",".join(header) + "\n")
                for row in rows:
                    f.write(",".join(str(v) for v in row) + "\n")
        return rows

    def run(self, show_plots=False, print_data=False, save_path="", return_df=False, **kwargs):
        benches = self.benchmarks if isinstance(self.benchmarks, list) else [self.benchmarks]
        results = [self._run(b, save_path, print_data, **kwargs) for b in benches]
        if return_df:
            return results if isinstance(self.benchmarks, list) else results[0]
        return None


def perf_report(benchmarks):
    """@perf_report(Benchmark(...)): the function becomes a Mark whose run() measures and prints a table."""
    return lambda fn: Mark(fn, benchmarks)


def get_dram_gbps(device=None):
    return math.nan
