# Triton's random numbers, all made by Philox-4x32: tests/unit/test_exec.c
# compares the lowering with the interpreter (integers and tl.rand bit for
# bit) and the words with Philox computed on its own; dropout as Triton's
# tutorial writes it.
import triton
import triton.language as tl


@triton.jit
def philox(seed, uniform_ptr, normal_ptr, bits_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    bits = bits_ptr + offs * 8
    a, b, c, d = tl.randint4x(seed, offs)
    tl.store(bits, a)
    tl.store(bits + 1, b)
    tl.store(bits + 2, c)
    tl.store(bits + 3, d)
    tl.store(bits + 4, tl.randint(seed, offs.to(tl.uint32) + 7, n_rounds=7))
    # 64-bit offsets: the high half is the second counter word
    far = offs.to(tl.int64) * 0x100000001 - 2
    e, f, g, h = tl.randint4x(seed, far)
    tl.store(bits + 5, e)
    tl.store(bits + 6, f)
    tl.store(bits + 7, h)
    u = uniform_ptr + offs * 5
    tl.store(u, tl.rand(seed, offs))
    u0, u1, u2, u3 = tl.rand4x(seed, offs)
    tl.store(u + 1, u0)
    tl.store(u + 2, u1)
    tl.store(u + 3, u2)
    tl.store(u + 4, u3)
    n = normal_ptr + offs * 5
    tl.store(n, tl.randn(seed, offs))
    n0, n1, n2, n3 = tl.randn4x(seed, offs)
    tl.store(n + 1, n0)
    tl.store(n + 2, n1)
    tl.store(n + 3, n2)
    tl.store(n + 4, n3)


@triton.jit
def dropout(x_ptr, out_ptr, n, seed, P: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    keep = tl.rand(seed, offs) > P
    tl.store(out_ptr + offs, tl.where(keep, x / (1 - P), 0.0), mask=mask)

# Runs of tests/exec/suite.sh (each on c and c:wave64, checked against the interpreter):
# run: -k dropout -s *fp32,*fp32,i32,i32 -D P=0.25 -D BLOCK=256 --num-warps 4 --arg x_ptr=1000 --arg out_ptr=1000 --arg n=1000 --arg seed=12345 --grid 4
