"""Host time of one cached launch through tritonc's Python package, the
device's own launch call left out: runs on any machine, no GPU needed.

    python3 bench/python/host_overhead.py

_tritonc._dry_run(1) makes each launch a no-op after everything before it
(binding the arguments, the specialization key, the cache lookup, the grid,
packing); _dry_run(2) also takes every pointer as CUDA memory, so the CUDA
path runs (kernels compiled to CUDA source, not loaded; the stream lookup
is torch's where torch has CUDA, else none). The same kernels as
launch_overhead.py, on numpy arrays and, where torch is installed, torch CPU
tensors (the same attribute calls as CUDA tensors). Then a real launch of
the C output with one program (the CPU runtime's own cost included).
Calls are made from C (_tritonc._time_calls), best of 9 runs of 20000."""
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
os.environ.setdefault("TRITONC_CACHE", tempfile.mkdtemp())
import tritonc  # noqa: E402
import tritonc.__main__ as tc_main  # noqa: E402
from tritonc import _tritonc  # noqa: E402

tc_main.install()
import overhead_kernels as K  # noqa: E402


def per_call_us(fn, args=(), kwargs=None, n=20000, reps=9):
    _tritonc._time_calls(fn, args, kwargs or {}, 10)
    return min(_tritonc._time_calls(fn, args, kwargs or {}, n) for _ in range(reps)) / 1e3


def main():
    try:
        import torch
    except ImportError:
        torch = None
    n, M = 4096, 64
    libs = {"numpy": lambda *s: np.random.rand(*s).astype(np.float32)}
    if torch is not None:
        libs["torch"] = lambda *s: torch.rand(*s)
    empty = per_call_us(lambda: None)
    rows = []
    for mode, what in ((1, "no-op launch"), (2, "no-op launch, CUDA path")):
        _tritonc._dry_run(mode)
        for lib, make in libs.items():
            x, y, out = make(n), make(n), make(n)
            a, b, c = make(M, M), make(M, M), make(M, M)
            grid = lambda meta: (tritonc.cdiv(M, meta["BM"]), tritonc.cdiv(M, meta["BN"]))
            t1 = per_call_us(K.tiny_add[(4,)], (x, y, out, n), {"BLOCK": 1024})
            t2 = per_call_us(K.many_args[grid], (a, b, c, M, M, 16, M, 1, M, 1, M, 1, 0.5), {"BM": 32, "BN": 32})
            rows.append((f"{what}, {lib}", t1, t2))
    _tritonc._dry_run(0)
    x, y, out = (np.random.rand(64).astype(np.float32) for _ in range(3))
    real = per_call_us(K.tiny_add[(1,)], (x, y, out, 64), {"BLOCK": 64}, n=2000, reps=5)
    assert np.array_equal(out, x + y)
    print(f"{'tritonc host path (us a launch)':44} {'vector add, grid tuple':>24} {'13 args, grid lambda':>22}")
    for label, t1, t2 in rows:
        print(f"{label:44} {t1:24.2f} {t2:22.2f}")
    print(f"{'C output launched on the CPU, 1 program':44} {real:24.2f}")
    print(f"(a call from C of an empty lambda: {empty:.3f} us)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
