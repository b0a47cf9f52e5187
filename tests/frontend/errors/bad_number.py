@triton.jit
def k(x_ptr):
    x = 0x
