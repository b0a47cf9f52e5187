# A reshape of a tile too large for any block: it crosses shared memory
# (256 KiB of fp32, twice), and nothing can share their bytes: a located
# error saying what was tried.
# expect: 15:5: error: the kernel needs 524288 bytes of shared memory, more than c gives a block (232448), after cutting the pipelines' stages to what the block holds, staging large dot operands in chunks of K and sharing bytes between arrays wherever barriers separate them; the largest array is t_reshaped (262144 bytes)
# args: -k too_big -s *fp32,*fp32 -D B=256
import triton
import triton.language as tl


@triton.jit
def too_big(x_ptr, y_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    h = tl.arange(0, B // 2)
    x = tl.load(x_ptr + r[:, None] * B + r[None, :])
    y = tl.permute(tl.reshape(x, (B, 2, B // 2)), (0, 2, 1))
    lo, hi = tl.split(y)
    tl.store(y_ptr + r[:, None] * B + h[None, :], lo - hi)
