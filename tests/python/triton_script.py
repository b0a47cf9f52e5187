# A program written for Triton (import triton), run by the suite as
#   python3 -m tritonc tests/python/triton_script.py 777
# It checks that triton and triton.language are tritonc's, launches a kernel
# on numpy arrays and prints "ok N" when the results are right.
import sys

import numpy as np
import triton
import triton.language as tl
from triton.language import constexpr


@triton.jit
def scale_add(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: constexpr):
    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, alpha * tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def main():
    assert triton.__name__ == "tritonc" and tl.__name__ == "tritonc.language", (triton.__name__, tl.__name__)
    n = int(sys.argv[1])
    rng = np.random.default_rng(7)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.empty_like(x)
    scale_add[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n, 3.0, BLOCK=128)
    err = float(np.max(np.abs(out - (3.0 * x.astype(np.float64) + y))))
    assert err < 1e-5, err
    print("ok", n)


if __name__ == "__main__":
    main()
