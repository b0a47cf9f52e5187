@triton.jit
def k(x_ptr):
    x = 1
      y = 2
