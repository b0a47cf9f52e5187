"""tritonc: Triton's Python API over the tritonc compiler.

Kernels written for Triton run unchanged: ``@tritonc.jit`` (or ``@triton.jit``
under ``python3 -m tritonc``) compiles them with libtritonc to CUDA C for
tensors in CUDA memory and to C for arrays in CPU memory.
"""
from ._tritonc import CompilationError
from .jit import JITFunction, KernelInterface, jit, TensorWrapper, reinterpret
from .autotuner import Autotuner, Config, Heuristics, autotune, heuristics
from . import language, runtime, testing

__version__ = "3.6.0"

OutOfResources = runtime.OutOfResources


def cdiv(x, y):
    """x / y rounded up."""
    return (x + y - 1) // y


_allocator = None


def set_allocator(allocator):
    """Triton's global scratch allocator, ``allocator(size, alignment, stream)``.
    Kept for code that sets it before launching kernels that make tensor
    descriptors on the device; tritonc's kernels need no scratch memory (their
    descriptors are pointer accesses with bounds masks), so it is never called."""
    global _allocator
    _allocator = allocator


def next_power_of_2(n):
    """The smallest power of 2 >= n (1 for n <= 1)."""
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


__all__ = [
    "CompilationError", "Config", "JITFunction", "KernelInterface", "OutOfResources", "autotune", "cdiv",
    "heuristics", "jit", "language", "next_power_of_2", "runtime", "set_allocator", "testing",
]
