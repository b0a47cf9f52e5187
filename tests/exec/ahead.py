# Loops that ask for stages (tl.range(..., num_stages=n)) without a dot: the
# plan issues their loads iterations ahead (plan.c, plan_ahead). Each run
# checks the C target against the interpreter with trip counts 0, 1, 2 and
# odd (programs walking rows), masks cutting the rows, negative and
# run-time steps, and loads that must not go ahead (a carried address, a
# row the loop itself writes).
import triton
import triton.language as tl

@triton.jit
def rows_softmax(x_ptr, y_ptr, n_rows, n_cols, stride, BLOCK: tl.constexpr, STAGES: tl.constexpr):
    # program p walks rows p, p + P, ...: trip counts differ by program
    for r in tl.range(tl.program_id(0), n_rows, tl.num_programs(0), num_stages=STAGES):
        cols = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + r * stride + cols, mask=cols < n_cols, other=-float("inf"))
        e = tl.exp(x - tl.max(x, 0))
        tl.store(y_ptr + r * stride + cols, e / tl.sum(e, 0), mask=cols < n_cols)

@triton.jit
def ahead_mixed(x_ptr, w_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # a negative constant step, a scalar load, a load of a carried address
    # (not ahead), an accumulator carried through the loop
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    q = w_ptr + pid
    for i in tl.range(n - 1, -1, -1, num_stages=3):
        s = tl.load(w_ptr + i)
        x = tl.load(x_ptr + i * BLOCK + offs, mask=offs < n + pid, other=1.5)
        c = tl.load(q)
        acc = acc * 0.5 + x * s + c
        q += 1
    tl.store(y_ptr + pid * BLOCK + offs, acc)

@triton.jit
def ahead_inplace(x_ptr, n, BLOCK: tl.constexpr):
    # writes the rows it reads (the next row depends on this one's store):
    # its load is not issued ahead
    offs = tl.arange(0, BLOCK)
    for i in tl.range(1, n, 1, num_stages=2):
        prev = tl.load(x_ptr + (i - 1) * BLOCK + offs)
        cur = tl.load(x_ptr + i * BLOCK + offs)
        tl.store(x_ptr + i * BLOCK + offs, cur + prev * 0.5)

# run: -k rows_softmax -s *fp32,*fp32,i32,i32,i32 -D BLOCK=128 -D STAGES=4 --num-warps 4 --arg x_ptr=1100 --arg y_ptr=1100 --arg n_rows=11 --arg n_cols=100 --arg stride=100 --grid 3
# run: -k rows_softmax -s *fp32,*fp32,i32,i32,i32 -D BLOCK=64 -D STAGES=2 --num-warps 2 --arg x_ptr=1000 --arg y_ptr=1000 --arg n_rows=2 --arg n_cols=50 --arg stride=50 --grid 4
# run: -k rows_softmax -s *fp32,*fp32,i32,i32,i32 -D BLOCK=32 -D STAGES=3 --num-warps 1 --arg x_ptr=279 --arg y_ptr=279 --arg n_rows=9 --arg n_cols=31 --arg stride=31 --grid 4
# run: -k rows_softmax -s *fp32,*fp32,i32,i32,i32 -D BLOCK=32 -D STAGES=5 --num-warps 1 --arg x_ptr=1000 --arg y_ptr=1000 --arg n_rows=0 --arg n_cols=31 --arg stride=31 --grid 2
# run: -k ahead_mixed -s *fp32,*fp32,*fp32,i32 -D BLOCK=64 --num-warps 2 --arg x_ptr=1000 --arg w_ptr=100 --arg y_ptr=192 --arg n=7 --grid 3
# run: -k ahead_mixed -s *fp32,*fp32,*fp32,i32 -D BLOCK=64 --num-warps 2 --arg x_ptr=1000 --arg w_ptr=100 --arg y_ptr=128 --arg n=1 --grid 2
# run: -k ahead_inplace -s *fp32,i32 -D BLOCK=64 --num-warps 2 --arg x_ptr=640 --arg n=10 --grid 1
