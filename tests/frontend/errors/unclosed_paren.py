@triton.jit
def k(x_ptr):
    x = tl.load(x_ptr, mask=(a < b)
    return x
