# tl.multiple_of / tl.max_contiguous / tl.max_constancy: hints the axis
# analysis reads (here they allow 16-byte accesses the analysis could not
# prove: the offsets come through an integer division), values unchanged.
# tests/unit/test_exec.c compares the lowering with the interpreter.
import triton
import triton.language as tl


@triton.jit
def hints(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    start = (tl.program_id(0) * BLOCK * 3) // 3
    offs = tl.max_contiguous(tl.multiple_of(start + tl.arange(0, BLOCK), BLOCK), BLOCK)
    x = tl.load(x_ptr + offs, offs < n)
    scale = tl.max_constancy(tl.full([BLOCK], 2.0, tl.float32), BLOCK)
    tl.store(y_ptr + offs, x * scale, offs < n)

# Runs of tests/exec/suite.sh (each on c and c:wave64, checked against the interpreter):
# run: -s *fp32,*fp32,i32 -D BLOCK=256 --num-warps 2 --arg x_ptr=1000 --arg y_ptr=1000 --arg n=1000 --grid 4
