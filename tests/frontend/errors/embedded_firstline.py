import triton

kern = async_compile.triton('kern', '''@triton.jit(
 def kern(x):
    pass
''', device_str='cuda')
