# tl.device_print and print() in a kernel: tiles, scalars, several values,
# hex, on a block that overhangs its tensor. tests/exec/print.sh compares
# the lines the C target prints (W=32 and 64) with the interpreter's;
# tests/gpu/lang.py compares them with real Triton's on a GPU.
import triton
import triton.language as tl


@triton.jit
def show(x_ptr, out_ptr, n, B: tl.constexpr):
    pid = tl.program_id(0)
    i = pid * B + tl.arange(0, B)
    x = tl.load(x_ptr + i, mask=i < n, other=-1.0)
    tl.device_print("x", x)
    print("pid and n", pid, n)
    tl.device_print("two ", i, x * 2.0)
    tl.device_print("bits: ", (i * 7919) & 0xffff, hex=True)
    m = tl.reshape(x, (2, B // 2))
    tl.device_print("m", tl.sum(m, axis=1))
    tl.store(out_ptr + i, x + 1.0, mask=i < n)
