import triton

kern = async_compile.triton('kern', '''
import triton
@triton.jit
def other(x):
    pass
''', device_str='cuda')
