# A pytest file written for Triton (import triton), run by the suite as
#   python3 -m tritonc -m pytest tests/python/pytest_case
# Each test launches a kernel on numpy arrays and checks the result.
import numpy as np
import pytest
import triton
import triton.language as tl


@triton.jit
def axpy(x_ptr, y_ptr, out_ptr, n, a, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, a * tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


def test_triton_is_tritonc():
    assert triton.__name__ == "tritonc" and tl.__name__ == "tritonc.language"


@pytest.mark.parametrize("n", [1, 100, 1000])
def test_axpy(n):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.zeros_like(x)
    axpy[(triton.cdiv(n, 128),)](x, y, out, n, 0.5, BLOCK=128)
    np.testing.assert_allclose(out, 0.5 * x + y, rtol=1e-6, atol=1e-6)
