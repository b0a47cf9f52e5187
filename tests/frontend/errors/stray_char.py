@triton.jit
def k(x_ptr):
    x = x_ptr $ 2
