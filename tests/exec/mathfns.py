# Every element-wise math function Inductor's Triton backend calls, on
# inputs in [-1, 1) and [-8, 8) and, in some lanes, zeros of both signs,
# infinities, NaN, ties (2.5) and a negative integer (finite results stay
# small, so that the comparison, relative to a buffer's rms, is tight). Row f of out holds
# the f-th float function, row f of bits the f-th integer-valued one.
# tests/unit/test_exec.c compares the C target at W=32 and W=64 with the
# interpreter for fp32, fp64, fp16 and bf16 (the signature picks them).
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def mathfns(x_ptr, y_ptr, out_ptr, bits_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    edge = offs % 16
    x = tl.where(edge == 0, 0.0, x)
    x = tl.where(edge == 1, -0.0, x)
    x = tl.where(edge == 2, float("inf"), x)
    x = tl.where(edge == 3, float("-inf"), x)
    x = tl.where(edge == 4, float("nan"), x)
    x = tl.where(edge == 5, 0.001, x)
    x = tl.where(edge == 6, 1.0, x)
    x = tl.where(edge == 7, -1.0, x)
    x = tl.where(edge == 8, 2.5, x)
    x = tl.where(edge == 9, -2.5, x)
    x = tl.where(edge == 10, 0.5, x)
    x = tl.where(edge == 11, -3.0, x)
    wide = tl.where(edge < 12, x, x * 8)     # the random lanes spread over [-8, 8)
    tl.store(out_ptr + 0 * BLOCK + offs, libdevice.expm1(x))
    tl.store(out_ptr + 1 * BLOCK + offs, libdevice.log10(wide))
    tl.store(out_ptr + 2 * BLOCK + offs, libdevice.tan(x))
    tl.store(out_ptr + 3 * BLOCK + offs, libdevice.asin(x))
    tl.store(out_ptr + 4 * BLOCK + offs, libdevice.acos(x))
    tl.store(out_ptr + 5 * BLOCK + offs, libdevice.atan(wide))
    tl.store(out_ptr + 6 * BLOCK + offs, libdevice.sinh(wide * 0.25))
    tl.store(out_ptr + 7 * BLOCK + offs, libdevice.cosh(wide * 0.25))
    tl.store(out_ptr + 8 * BLOCK + offs, libdevice.asinh(wide))
    tl.store(out_ptr + 9 * BLOCK + offs, libdevice.acosh(1.0 + libdevice.abs(wide)))
    tl.store(out_ptr + 10 * BLOCK + offs, libdevice.atanh(x))
    tl.store(out_ptr + 11 * BLOCK + offs, libdevice.erfc(wide * 0.5))
    tl.store(out_ptr + 12 * BLOCK + offs, libdevice.erfinv(x))
    tl.store(out_ptr + 13 * BLOCK + offs, libdevice.lgamma(wide))
    tl.store(out_ptr + 14 * BLOCK + offs, libdevice.cbrt(wide))
    tl.store(out_ptr + 15 * BLOCK + offs, libdevice.trunc(wide))
    tl.store(out_ptr + 16 * BLOCK + offs, libdevice.nearbyint(wide))
    tl.store(out_ptr + 17 * BLOCK + offs, libdevice.rint(wide))
    tl.store(out_ptr + 18 * BLOCK + offs, libdevice.round(wide))
    tl.store(out_ptr + 19 * BLOCK + offs, libdevice.pow(libdevice.abs(wide) * 0.5, y * 3))
    tl.store(out_ptr + 20 * BLOCK + offs, libdevice.pow(x, 3.0))
    tl.store(out_ptr + 21 * BLOCK + offs, libdevice.atan2(wide, y))
    tl.store(out_ptr + 22 * BLOCK + offs, libdevice.hypot(wide, y))
    tl.store(out_ptr + 23 * BLOCK + offs, libdevice.copysign(y, x))
    tl.store(out_ptr + 24 * BLOCK + offs, libdevice.fmod(wide, y))
    tl.store(out_ptr + 25 * BLOCK + offs, libdevice.nextafter(x, y))
    tl.store(out_ptr + 26 * BLOCK + offs, libdevice.ldexp(x, (y * 4).to(tl.int32)))
    # fused: what x * y rounds away, relative to x * y and scaled by 2^24
    # (fp32) or 2^53 (fp64) to where it shows; 0 if not fused
    a = x if x.dtype == tl.float64 else x.to(tl.float32)
    b = y if y.dtype == tl.float64 else y.to(tl.float32)
    scale = 9007199254740992.0 if a.dtype == tl.float64 else 16777216.0
    tl.store(out_ptr + 27 * BLOCK + offs, tl.fma(a, b, -(a * b)) * scale / (libdevice.abs(a * b) + 1e-30))
    tl.store(out_ptr + 28 * BLOCK + offs, tl.fma(x, y, wide))
    tl.store(bits_ptr + 0 * BLOCK + offs, libdevice.signbit(x))
    tl.store(bits_ptr + 1 * BLOCK + offs, libdevice.ilogb(wide))
    tl.store(bits_ptr + 2 * BLOCK + offs, libdevice.isnan(x).to(tl.int32))
    tl.store(bits_ptr + 3 * BLOCK + offs, libdevice.isinf(x).to(tl.int32))
    tl.store(bits_ptr + 4 * BLOCK + offs, (libdevice.isfinited(x) if x.dtype == tl.float64 else libdevice.finitef(x)).to(tl.int32))
