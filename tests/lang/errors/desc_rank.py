# expect: 11:9: error: 'offsets' has 1 entries; the descriptor has 2 dims
# args: -s *fp32,i32 -D BLOCK=16
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x_ptr, [n, n], [n, 1], [BLOCK, BLOCK])
    # one offset for a 2-D descriptor
    x = d.load([0])
    d.store([0, 0], x)
