# Run by test_api.py on a machine with a GPU, as
#   TRITONC_TARGET=c python3 -m tritonc tests/python/cuda_forced_c.py
# torch CUDA tensors given to a kernel are copied to the CPU, the C output
# runs there and the results are copied back; prints "ok" when they are right.
import torch
import triton
import triton.language as tl


@triton.jit
def twice_plus(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2.0 + 1.0, mask=m)


x = torch.randn(1000, device="cuda")
out = torch.zeros_like(x)
twice_plus[(8,)](x, out, 1000, BLOCK=128)
key = next(iter(twice_plus._kernels))
assert key[0] == "cpu", key
assert out.is_cuda and torch.equal(out, x * 2.0 + 1.0), (out - (x * 2.0 + 1.0)).abs().max()
print("ok")
