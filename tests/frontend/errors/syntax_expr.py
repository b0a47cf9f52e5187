@triton.jit
def k(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr +)
