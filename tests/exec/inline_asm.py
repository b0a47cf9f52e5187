# tl.inline_asm_elementwise: inline PTX, its results first ($0 ...) and then
# its arguments (broadcast to one shape), one element a call (pack=1) or
# several (pack > 1: elements narrower than 32 bits share a register). The
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


@triton.jit
def bytes4(x_ptr, y_ptr, out_ptr, n, B: tl.constexpr):
    # pack=4 on uint8: four bytes of each argument in one 32-bit register
    i = tl.program_id(0) * B + tl.arange(0, B)
    m = i < n
    x = tl.load(x_ptr + i, mask=m, other=0)
    y = tl.load(y_ptr + i, mask=m, other=0)
    r = tl.inline_asm_elementwise("and.b32 $0, $1, $2;\n\txor.b32 $0, $0, 0x0F3C5AA5;", "=r,r,r", [x, y],
                                  dtype=tl.uint8, is_pure=True, pack=4)
    tl.store(out_ptr + i, r, mask=m)


@triton.jit
def halves2(x_ptr, y_ptr, sum_ptr, prod_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # pack=2 on fp16: f16x2 arithmetic, two results, a row broadcast down the columns
    r = tl.program_id(0) * BM + tl.arange(0, BM)
    c = tl.arange(0, BN)
    m = (r[:, None] < M) & (c[None, :] < N)
    x = tl.load(x_ptr + r[:, None] * N + c[None, :], mask=m, other=1.0)
    y = tl.load(y_ptr + c, mask=c < N, other=1.0)
    s, p = tl.inline_asm_elementwise("add.rn.f16x2 $0, $2, $3;\n\tmul.rn.f16x2 $1, $2, $3;", "=r,=r,r,r",
                                     [x, y[None, :]], dtype=(tl.float16, tl.float16), is_pure=True, pack=2)
    tl.store(sum_ptr + r[:, None] * N + c[None, :], s, mask=m)
    tl.store(prod_ptr + r[:, None] * N + c[None, :], p, mask=m)


@triton.jit
def mixed4(x_ptr, y_ptr, out_ptr, n, B: tl.constexpr):
    # pack=4 over a uint8 (one register for four) and an fp32 (one each):
    # operands $0-$3 the results, $4 the bytes, $5-$8 the floats
    i = tl.program_id(0) * B + tl.arange(0, B)
    m = i < n
    x = tl.load(x_ptr + i, mask=m, other=0)
    y = tl.load(y_ptr + i, mask=m, other=0.0)
    r = tl.inline_asm_elementwise("""{
    .reg .b32 t;
    .reg .f32 f;
    bfe.u32 t, $4, 0, 8;
    cvt.rn.f32.u32 f, t;
    fma.rn.f32 $0, f, 0f3E800000, $5;
    bfe.u32 t, $4, 8, 8;
    cvt.rn.f32.u32 f, t;
    fma.rn.f32 $1, f, 0f3E800000, $6;
    bfe.u32 t, $4, 16, 8;
    cvt.rn.f32.u32 f, t;
    fma.rn.f32 $2, f, 0f3E800000, $7;
    bfe.u32 t, $4, 24, 8;
    cvt.rn.f32.u32 f, t;
    fma.rn.f32 $3, f, 0f3E800000, $8;
    }""", "=f,=f,=f,=f,r,f,f,f,f", [x, y], dtype=tl.float32, is_pure=True, pack=4)
    tl.store(out_ptr + i, r, mask=m)


@triton.jit
def neighbours(x_ptr, h_ptr, rev_ptr, swap_ptr, n, B: tl.constexpr):
    # results that depend on the neighbours packed with each element: the
    # bytes of each register reversed (element i takes element i ^ 3's byte
    # where the thread holds runs of four), the halves of an f16x2 swapped
    # (i takes i ^ 1's); the masked tail's `other` is packed in too
    i = tl.program_id(0) * B + tl.arange(0, B)
    m = i < n
    x = tl.load(x_ptr + i, mask=m, other=0)
    h = tl.load(h_ptr + i, mask=m, other=0.0)
    rev = tl.inline_asm_elementwise("prmt.b32 $0, $1, 0, 0x0123;", "=r,r", [x], dtype=tl.uint8, is_pure=True, pack=4)
    swap = tl.inline_asm_elementwise("prmt.b32 $0, $1, 0, 0x1032;", "=r,r", [h], dtype=tl.float16, is_pure=True,
                                     pack=2)
    tl.store(rev_ptr + i, rev, mask=m)
    tl.store(swap_ptr + i, swap, mask=m)
