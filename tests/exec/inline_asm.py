# tl.inline_asm_elementwise: inline PTX, its results first ($0 ...) and then
# its arguments (broadcast to one shape), one element a call (pack=1). The
# CUDA targets compile it (tests/emit/suite.sh has nvcc accept each
# kernel); C, HIP and the interpreter cannot run PTX and give a located
# error (tests/lang/suite.sh); tests/gpu/lang.py compares the results with
# real Triton's on an NVIDIA GPU. No "# run:" lines: the C target cannot
# run these.
import triton
import triton.language as tl


@triton.jit
def rotate(x_ptr, y_ptr, out_ptr, n, SHIFT: tl.constexpr, B: tl.constexpr):
    # a funnel shift of two uint32 tiles by a constant: three arguments, one a scalar
    i = tl.program_id(0) * B + tl.arange(0, B)
    m = i < n
    x = tl.load(x_ptr + i, mask=m, other=0)
    y = tl.load(y_ptr + i, mask=m, other=0)
    r = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r,r,r", [x, y, SHIFT],
                                  dtype=tl.uint32, is_pure=True, pack=1)
    tl.store(out_ptr + i, r, mask=m)


@triton.jit
def min_max(x_ptr, c_ptr, lo_ptr, hi_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # two results of an asm of two statements: the elements' min and max
    # against a row broadcast down the columns
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    c = tl.arange(0, BN)
    m = (r[:, None] < M) & (c[None, :] < N)
    x = tl.load(x_ptr + r[:, None] * N + c[None, :], mask=m, other=0.0)
    row = tl.load(c_ptr + c, mask=c < N, other=0.0)
    lo, hi = tl.inline_asm_elementwise("min.f32 $0, $2, $3;\n\tmax.f32 $1, $2, $3;", "=f,=f,f,f",
                                       [x, row[None, :]], dtype=(tl.float32, tl.float32), is_pure=True, pack=1)
    tl.store(lo_ptr + r[:, None] * N + c[None, :], lo, mask=m)
    tl.store(hi_ptr + r[:, None] * N + c[None, :], hi, mask=m)


@triton.jit
def halves(x_ptr, neg_ptr, bits_ptr, n, B: tl.constexpr):
    # fp16 through 16-bit registers ("h"): negated by PTX, and its bits
    # widened to a uint32 ("=r" from "h")
    i = tl.program_id(0) * B + tl.arange(0, B)
    m = i < n
    x = tl.load(x_ptr + i, mask=m, other=1.0)
    neg = tl.inline_asm_elementwise("neg.f16 $0, $1;", "=h,h", [x], dtype=tl.float16, is_pure=True, pack=1)
    bits = tl.inline_asm_elementwise("cvt.u32.u16 $0, $1;", "=r,h", [x], dtype=tl.uint32, is_pure=False, pack=1)
    tl.store(neg_ptr + i, neg, mask=m)
    tl.store(bits_ptr + i, bits, mask=m)
