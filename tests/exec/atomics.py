# Atomics: every read-modify-write Triton has, on words of their own (the
# old values are what the buffer held) and on words all programs share (the
# results do not depend on the order), a scalar atomic whose old value every
# thread reads, and two spin-waits: programs that pass one after another
# in order (a ticket), and a lock taken with compare-and-swap.
# tests/unit/test_exec.c runs them at W=32 and W=64 against the interpreter
# and a direct computation.
import triton
import triton.language as tl


@triton.jit
def rmw(x_ptr, own_ptr, shared_ptr, old_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    lanes = tl.num_programs(0) * BLOCK
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    # words of their own: 7 of them a lane, masked-off lanes too (atomic_cas
    # takes no mask: those lanes compare and swap words nobody else touches)
    own = own_ptr + 7 * offs
    o0 = tl.atomic_xchg(own + 0, x, mask=mask, sem="relaxed")
    cur = tl.load(own + 1, mask=mask, other=0)
    o1 = tl.atomic_cas(own + 1, tl.where(x % 2 == 0, cur, -1), x + 100, sem="acquire")
    o2 = tl.atomic_max(own + 2, x - 8, mask=mask)
    o3 = tl.atomic_min(own + 3, x - 8, mask=mask, sem="release", scope="gpu")
    o4 = tl.atomic_and(own + 4, x, mask=mask)
    o5 = tl.atomic_or(own + 5, x * 16, mask=mask)
    o6 = tl.atomic_xor(own + 6, x, mask=mask, scope="sys")
    old = old_ptr + 7 * offs
    tl.store(old + 0, o0, mask=mask)
    tl.store(old + 1, o1, mask=mask)
    tl.store(old + 2, o2, mask=mask)
    tl.store(old + 3, o3, mask=mask)
    tl.store(old + 4, o4, mask=mask)
    tl.store(old + 5, o5, mask=mask)
    tl.store(old + 6, o6, mask=mask)
    # words every program shares
    shared = shared_ptr + 0 * offs
    tl.atomic_max(shared + 0, x, mask=mask)
    tl.atomic_min(shared + 1, x, mask=mask)
    tl.atomic_or(shared + 2, 1 << x, mask=mask)
    tl.atomic_and(shared + 3, ~(1 << x), mask=mask)
    tl.atomic_xor(shared + 4, x, mask=mask)
    tl.atomic_add(shared + 5, x, mask=mask, sem="relaxed")
    # one word a program, its old value read by every thread
    before = tl.atomic_xchg(own_ptr + 7 * lanes + pid, pid)
    tl.store(old_ptr + 7 * lanes + offs, x + before, mask=mask)


@triton.jit
def floats(x_ptr, own_ptr, old_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    o0 = tl.atomic_xchg(own_ptr + 2 * offs, x)
    cur = tl.load(own_ptr + 2 * offs + 1)
    o1 = tl.atomic_cas(own_ptr + 2 * offs + 1, tl.where(offs % 2 == 0, cur, 0.5), -x)
    tl.store(old_ptr + 2 * offs, o0)
    tl.store(old_ptr + 2 * offs + 1, o1)


@triton.jit
def ordered(turn_ptr, total_ptr, x_ptr, out_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    s = tl.sum(tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK)), 0)
    while tl.atomic_add(turn_ptr, 0, sem="acquire") != pid:
        pass
    before = tl.load(total_ptr)
    tl.store(total_ptr, before + s)
    tl.store(out_ptr + pid, before)
    tl.debug_barrier()
    tl.atomic_xchg(turn_ptr, pid + 1, sem="release")


@triton.jit
def locked(lock_ptr, total_ptr, x_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    s = tl.sum(tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK)), 0)
    while tl.atomic_cas(lock_ptr, 0, 1, sem="acquire") != 0:
        pass
    tl.store(total_ptr, tl.load(total_ptr) + s)
    tl.debug_barrier()
    tl.atomic_xchg(lock_ptr, 0, sem="release")
