# A @triton.jit function that calls itself: inlined calls nest past the limit.
# args: -k kernel -s *fp32,i32
# expect: 10:16: error: too many nested calls of @triton.jit functions at 'fact' (limit is 32; recursion is not supported)
import triton
import triton.language as tl


@triton.jit
def fact(n):
    return n * fact(n - 1)


@triton.jit
def kernel(out_ptr, n):
    tl.store(out_ptr, fact(n).to(tl.float32))
