@triton.jit
def k(x_ptr):
    x = [1, 2)
