# A gather with a device_assert on the index: tests/unit/test_exec.c runs it
# with indices that pass and with indices that fail the assertion.
import triton
import triton.language as tl


@triton.jit
def gather(idx_ptr, table_ptr, out_ptr, n, LIMIT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    i = tl.load(idx_ptr + offs, offs < n, other=0)
    tl.device_assert(i < LIMIT, "index out of range")
    tl.store(out_ptr + offs, tl.load(table_ptr + i), offs < n)


# Exactly one element, BAD, fails: not the first a thread holds, so the
# assertion must check every element of the tile, not one per thread.
@triton.jit
def assert_one(x_ptr, n, BAD: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, offs < n, other=0)
    tl.device_assert(offs != BAD, "element BAD reached")
    tl.store(x_ptr + offs, x + 1, offs < n)

# Runs of tests/exec/suite.sh (each on c and c:wave64, checked against the interpreter):
# run: -k gather -s *i32,*fp32,*fp32,i32 -D LIMIT=16 -D BLOCK=128 --num-warps 2 --arg idx_ptr=1000 --arg table_ptr=16 --arg out_ptr=1000 --arg n=1000 --grid 8
