import triton
import triton.language as tl


# Rows of x summed into one of GROUPS partial rows under a lock a group (a
# spin on atomic_cas, then atomic_xchg to release), the scaled row also
# written on its own. Tiles of 32 elements a thread are held through the
# spin loop (the row and its square): the plan asks ptxas for no blocks an
# SM, which at 64 registers would spill them. grouped_rows_late reads its
# row once it holds the lock: nothing is held through the loop, and the plan
# asks for the blocks an SM holds at 64 registers a thread.
# run: -k grouped_rows -s *fp32,*fp32,*fp32,*fp32,*i32,i32 -D GROUPS=3 -D BLOCK=1024 --num-warps 1 --arg n=1000 --arg x=7000 --arg y=7000 --arg part=3000 --arg sq=3000 --arg lock=6 --int-range 1 --grid 7
@triton.jit
def grouped_rows(x, y, part, sq, lock, n, GROUPS: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    keep = cols < n
    v = tl.load(x + row * n + cols, mask=keep, other=0.0)
    v2 = v * v
    tl.store(y + row * n + cols, v * 0.5, mask=keep)
    g = row % GROUPS
    while tl.atomic_cas(lock + g, 0, 1) == 1:
        pass
    seen = tl.load(lock + GROUPS + g)
    if seen == 0:
        tl.atomic_xchg(lock + GROUPS + g, 1)
    else:
        v += tl.load(part + g * n + cols, mask=keep)
        v2 += tl.load(sq + g * n + cols, mask=keep)
    tl.store(part + g * n + cols, v, mask=keep)
    tl.store(sq + g * n + cols, v2, mask=keep)
    tl.debug_barrier()
    tl.atomic_xchg(lock + g, 0)


# run: -k grouped_rows_late -s *fp32,*fp32,*i32,i32 -D GROUPS=2 -D BLOCK=1024 --num-warps 1 --arg n=999 --arg x=4995 --arg part=1998 --arg lock=4 --int-range 1 --grid 5
@triton.jit
def grouped_rows_late(x, part, lock, n, GROUPS: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    g = row % GROUPS
    while tl.atomic_cas(lock + g, 0, 1) == 1:
        pass
    cols = tl.arange(0, BLOCK)
    keep = cols < n
    v = tl.load(x + row * n + cols, mask=keep, other=0.0)
    seen = tl.load(lock + GROUPS + g)
    if seen == 0:
        tl.atomic_xchg(lock + GROUPS + g, 1)
    else:
        v += tl.load(part + g * n + cols, mask=keep)
    tl.store(part + g * n + cols, v, mask=keep)
    tl.debug_barrier()
    tl.atomic_xchg(lock + g, 0)
