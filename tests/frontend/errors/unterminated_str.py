@triton.jit
def k(x_ptr):
    s = "abc
    return s
