# expect: 8:7: error: a descriptor's block extents must be powers of two; 48 is not
# args: -s tensordesc<fp16[64,48]>
import triton
import triton.language as tl


@triton.jit
def k(d):
    d.store([0, 0], d.load([0, 0]))
