# expect: 12:9: error: tl.dot_scaled: lhs_scale must have shape [32, 2] or [32, 4] (one scale per 32 or 16 elements along K = 64)
# args: -s *u8,*u8,*fp32 -D B=32
import triton
import triton.language as tl


@triton.jit
def k(a_ptr, s_ptr, c_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    a = tl.load(a_ptr + i[:, None] * B + i[None, :])
    s = tl.load(s_ptr + i[:, None] * B + i[None, :])
    c = tl.dot_scaled(a, s, "e2m1", a, None, "e2m1")
    tl.store(c_ptr + i[:, None] * B + i[None, :], c)
