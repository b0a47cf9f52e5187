@triton.jit
def k(x_ptr):
    if x_ptr
        pass
