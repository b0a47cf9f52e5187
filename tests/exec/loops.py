# A kernel with a loop of run-time bounds carrying two tiles, reductions inside
# the loop, and an if on a run-time scalar: tests/unit/test_exec.c runs it.
import triton
import triton.language as tl

@triton.jit
def rowsum(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr, ROWS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    acc = tl.zeros([ROWS, BLOCK], dtype=tl.float32)
    m = tl.full([ROWS, 1], float("-inf"), tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)[None, :]
        x = tl.load(x_ptr + rows * n_cols + cols, cols < n_cols, other=0.0)
        acc += x
        m = tl.maximum(m, tl.max(tl.where(cols < n_cols, x, float("-inf")), 1)[:, None])
    total = tl.sum(acc, 1)[:, None]
    if n_cols > 100:
        total = total * 2.0
    tl.store(out_ptr + rows * 2, total)
    tl.store(out_ptr + rows * 2 + 1, m)

# Runs of tests/exec/suite.sh (each on c and c:wave64, checked against the interpreter):
# run: -k rowsum -s *fp32,*fp32,i32 -D BLOCK=256 -D ROWS=2 --num-warps 4 --arg x_ptr=10000 --arg out_ptr=20 --arg n_cols=1000 --grid 5
# run: -k rowsum -s *fp32,*fp32,i32 -D BLOCK=64 -D ROWS=4 --num-warps 2 --arg x_ptr=10000 --arg out_ptr=40 --arg n_cols=77 --grid 5


# A range over compile-time bounds too long to unroll (10000 steps, more than
# the 4096 copies the specializer unrolls) is a loop, as every range is in
# Triton: a located error before. The sum is checked against the
# interpreter and, the values being small integers, exact.
@triton.jit
def long_range(x_ptr, out_ptr, BLOCK: tl.constexpr, STEPS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(STEPS):
        acc += tl.load(x_ptr + (i % 7) * BLOCK + offs) + i % 3
    tl.store(out_ptr + offs, acc)

# run: -k long_range -s *fp32,*fp32 -D BLOCK=64 -D STEPS=10000 --arg x_ptr=448 --arg out_ptr=64 --grid 1
