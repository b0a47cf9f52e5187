# expect: 11:9: error: tl.dot_scaled: unknown rhs_format 'e3m2' (e2m1, e4m3, e5m2, bf16 or fp16)
# args: -s *u8,*fp32 -D B=32
import triton
import triton.language as tl


@triton.jit
def k(a_ptr, c_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    a = tl.load(a_ptr + i[:, None] * B + i[None, :])
    c = tl.dot_scaled(a, None, "e4m3", a, None, "e3m2")
    tl.store(c_ptr + i[:, None] * B + i[None, :], c)
