# A whole file as users keep it: host code of every kind around two
# kernels and a helper. Discovery must skip it all without an error and
# list only the @triton.jit functions.
import os
from contextlib import contextmanager

import triton
import triton.language as tl

SIZES = [2**i for i in range(4, 9)]
SQUARES = {n: n * n for n in SIZES if n > 8}
UNIQUE = {n % 3 for n in SIZES}
TOTAL = sum(n for n in SIZES)
NAME = f"lang-{len(SIZES)}-{'x' * 2}"


def configs():
    return [triton.Config({'BLOCK': b}, num_warps=w) for b in [64, 128] for w in (2, 4) if b * w <= 512]


class Runner:
    """A class with methods and decorators of its own."""

    def __init__(self, n):
        self.n = n

    @staticmethod
    def grid(meta):
        return (triton.cdiv(1000, meta['BLOCK']), )

    @property
    def size(self):
        return self.n


@contextmanager
def scope(name):
    yield name


@triton.testing.perf_report(
    triton.testing.Benchmark(x_names=['n'], x_vals=[2**i for i in range(10, 12)], line_arg='p',
                             line_vals=['a', 'b'], line_names=['A', 'B'], plot_name=f'plot-{NAME}', args={}))
def bench(n, p):
    with scope("x") as s:
        f = lambda ms: 3 * n * 4 / ms
        return f(1.0) if s else 0


@triton.jit
def _twice(x):
    return x * 2


@triton.autotune(configs=configs(), key=['n'])
@triton.jit
def scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, _twice(tl.load(x_ptr + offs, mask=offs < n)), mask=offs < n)


@triton.jit(launch_metadata=None)
def shift(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


if __name__ == "__main__":
    r = Runner(4)
    print([k for k in sorted(SQUARES)], r.size, os.getcwd())
