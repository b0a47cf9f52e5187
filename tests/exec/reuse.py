# Two layout conversions one after the other, each of a loaded tile used
# as itself and transposed; at B=128 in fp64 each one's shared array fits a
# block and both together do not, so the allocator gives the second the
# first's bytes, with a barrier of its own between them.
import triton
import triton.language as tl


@triton.jit
def two_moves(x_ptr, y_ptr, out_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    offs = r[:, None] * B + r[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x + x.T)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + B * B + offs, y * 2.0 - y.T)
# run: -s *fp64,*fp64,*fp64 -D B=128 --num-warps 4 --arg x_ptr=16384 --arg y_ptr=16384 --arg out_ptr=32768 --grid 1
