# fp32 to fp16 and bf16 with fp_downcast_rounding="rtz" (toward zero) and
# "rtne", over random bit patterns of every exponent (subnormal halves,
# values past 65504, infinities, NaNs). tests/unit/test_exec.c (group lang)
# runs it on the C target at W=32 and 64 against the interpreter and
# against the rounding worked out bit by bit; tests/gpu/lang.py against
# Triton on an NVIDIA GPU.
import triton
import triton.language as tl


@triton.jit
def downcast(bits_ptr, h_ptr, b_ptr, hn_ptr, n, B: tl.constexpr):
    i = tl.program_id(0) * B + tl.arange(0, B)
    m = i < n
    bits = tl.load(bits_ptr + i, mask=m, other=0)   # 0 ... 2^31 - 1: every exponent
    # half of them with exponents 2^-27 ... 2^22, around fp16's range (its subnormals, past 65504)
    near = (bits & 8388607) | ((100 + (bits >> 23) % 50) << 23)
    bits = tl.where(i % 4 >= 2, near, bits)
    bits = tl.where(i % 2 == 1, bits ^ (-2147483647 - 1), bits)   # negative halves too
    x = bits.to(tl.float32, bitcast=True)
    tl.store(h_ptr + i, x.to(tl.float16, fp_downcast_rounding="rtz"), mask=m)
    tl.store(b_ptr + i, x.to(tl.bfloat16, fp_downcast_rounding="rtz"), mask=m)
    tl.store(hn_ptr + i, x.to(tl.float16, fp_downcast_rounding="rtne"), mask=m)
