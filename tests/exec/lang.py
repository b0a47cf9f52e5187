# The Python inside kernels and the language's other spellings: the
# builtins min, max, abs, len, isinstance on compile-time and run-time
# values; string, dtype, None and tuple constexprs; helpers taking and
# returning tuples; static_assert on shapes and dtypes; x.type.element_ty;
# tl.math, triton.language, tl.extra.cuda.libdevice; tl.range's options;
# gdc_wait / gdc_launch_dependents; pointers through int64 and back.
# tests/unit/test_exec.c runs them against the interpreter.
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def _scale_shift(x, pair):
    # a tuple argument, a tuple result
    s, t = pair
    return x * s + t, x - t


@triton.jit
def _act(x, ACT: tl.constexpr):
    if ACT == "leaky":
        return tl.where(x >= 0, x, 0.125 * x)
    elif ACT == "square":
        return x * x
    else:
        return x


@triton.jit
def builtins(x_ptr, y_ptr, z_ptr, n, lim, BLOCK: tl.constexpr, ACT: tl.constexpr, OUT: tl.constexpr,
             BIAS: tl.constexpr, PAIR: tl.constexpr):
    tl.static_assert(len(PAIR) == 2)
    tl.static_assert(BLOCK % 32 == 0, "BLOCK must be a multiple of 32")
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.static_assert(offs.shape[0] == BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.static_assert(x.dtype == tl.float32)
    tl.static_assert(x_ptr.dtype.element_ty == x.type.element_ty)
    tl.extra.cuda.gdc_wait()
    # compile-time min / max / abs fold; run-time ones are tl.minimum / maximum
    lo: tl.constexpr = min(BLOCK, 64, 1000)
    hi = max(-abs(-3), PAIR[0], -7)
    cap = min(lim, n - pid * BLOCK)          # a run-time scalar
    a = max(x, -0.5)
    a = min(a, hi * 0.25)
    y, d = _scale_shift(a, PAIR)
    y = _act(y, ACT)
    if BIAS is not None:
        y = y + BIAS
    if isinstance(BIAS, tl.constexpr) and not isinstance(x, tl.tensor_descriptor):
        y = y + lo * 0.001
    if isinstance(PAIR, tuple) and isinstance(lo, int):
        y = y + len(PAIR)
    e = tl.math.exp2(d * 0.5) + triton.language.sqrt(abs(x) + 1.0) + libdevice.tanh(x)
    w = tl.where(offs - pid * BLOCK < cap, y + tl.extra.cuda.libdevice.floor(e * 4.0), -1.0)
    tl.extra.cuda.gdc_launch_dependents()
    tl.store(y_ptr + offs, w.to(OUT), mask=mask)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in tl.range(0, 3, 1, num_stages=2, loop_unroll_factor=1, flatten=False, warp_specialize=False):
        acc += x * i
    for j in tl.range(pid, n // BLOCK + 1, 1000, num_stages=1):
        acc += j
    tl.store(z_ptr + offs, acc, mask=mask)


@triton.jit
def pointers(table_ptr, x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # addresses as int64, arithmetic on them, and back to pointers
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    base = x_ptr.to(tl.int64)
    addr = (x_ptr + offs).to(tl.int64)
    back = addr.to(tl.pointer_type(tl.float32))
    v = tl.load(back, mask=mask, other=0.0)
    k = tl.load(table_ptr + offs, mask=mask, other=0)   # element indices, as int64
    far = (base + k * 4).to(tl.pointer_type(tl.float32))
    g = tl.load(far, mask=mask, other=0.0)
    tl.store(out_ptr + offs, v * 2.0 + g, mask=mask)
