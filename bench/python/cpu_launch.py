"""Wall-clock cost of launching a trivial kernel on the CPU (the C output)
through the Python package on numpy arrays: 1000 launches timed with
perf_counter (and the process's CPU time, all threads), best of 7, for a grid of 1 program and of 4 programs (one
worker per program up to the number of cores). Checks the result.

    make python && python3 bench/python/cpu_launch.py"""
import os
import sys
import tempfile
import threading
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
os.environ.setdefault("TRITONC_CACHE", tempfile.mkdtemp())
import tritonc.__main__ as tc_main  # noqa: E402

tc_main.install()
import overhead_kernels as K  # noqa: E402


def per_launch_us(programs, n=1000, reps=7):
    size = 64 * programs
    rng = np.random.default_rng(programs)
    x, y = (rng.random(size, dtype=np.float32) for _ in range(2))
    out = np.zeros(size, np.float32)
    launch = K.tiny_add[(programs,)]
    launch(x, y, out, size, BLOCK=64)
    assert np.array_equal(out, x + y)
    best, best_cpu = float("inf"), float("inf")
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(n):
            launch(x, y, out, size, BLOCK=64)
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return best / n * 1e6, best_cpu / n * 1e6


def threaded_ok(nthreads=4, launches=200):
    """Launches from several Python threads at once, each on its own arrays."""
    errors = []

    def body(seed):
        rng = np.random.default_rng(seed)
        x, y = (rng.random(256, dtype=np.float32) for _ in range(2))
        out = np.zeros(256, np.float32)
        for _ in range(launches):
            K.tiny_add[(4,)](x, y, out, 256, BLOCK=64)
            if not np.array_equal(out, x + y):
                errors.append(seed)
                return
            out[:] = 0

    threads = [threading.Thread(target=body, args=(s,)) for s in range(nthreads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return not errors


def main():
    print(f"cores online: {os.cpu_count()}")
    for programs in (1, 4):
        wall, cpu = per_launch_us(programs)
        print(f"tiny_add[({programs},)] on numpy, C target: {wall:8.1f} us a launch ({cpu:.1f} us of CPU time)")
    print("4 Python threads launching at once:", "results equal" if threaded_ok() else "WRONG RESULTS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
