# Tables of device addresses: `tritonc run --arg NAME=@A,@B` fills an int64
# buffer with the addresses of other buffers as the run has them (those
# made by --buffer, which no argument names, or another argument's), and
# `--arg NAME=V1,V2,...` a buffer with given values (per-group sizes). The
# interpreter gets the addresses of its own copies; every buffer, the
# tables too, is compared with it.
#
# groups: program (i, g) loads group g's input and output pointers and its
# length from the tables and scales a block of it; lengths that do not
# divide the block, an output that is another argument.
# grouped_dot: a dot per group whose operands and sizes come from tables
# (tutorial 08's grouped GEMM, with masks: sizes that do not divide the
# blocks).
import triton
import triton.language as tl


@triton.jit
def groups(xs, ys, lens, out, scale, BLOCK: tl.constexpr):
    g = tl.program_id(1)
    n = tl.load(lens + g)
    x = tl.load(xs + g).to(tl.pointer_type(tl.float32))
    y = tl.load(ys + g).to(tl.pointer_type(tl.float32))
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0.0)
    tl.store(y + offs, v * scale + g, mask=offs < n)


@triton.jit
def grouped_dot(a_ptrs, b_ptrs, c_ptrs, sizes, count, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    for g in range(count):
        m = tl.load(sizes + g * 3)
        n = tl.load(sizes + g * 3 + 1)
        k = tl.load(sizes + g * 3 + 2)
        a = tl.load(a_ptrs + g).to(tl.pointer_type(tl.float16))
        b = tl.load(b_ptrs + g).to(tl.pointer_type(tl.float16))
        c = tl.load(c_ptrs + g).to(tl.pointer_type(tl.float32))
        rm = tl.program_id(0) * BM + tl.arange(0, BM)
        rn = tl.program_id(1) * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k0 in range(0, k, BK):
            rk = k0 + tl.arange(0, BK)
            x = tl.load(a + rm[:, None] * k + rk[None, :], mask=(rm[:, None] < m) & (rk[None, :] < k), other=0.0)
            y = tl.load(b + rk[:, None] * n + rn[None, :], mask=(rk[:, None] < k) & (rn[None, :] < n), other=0.0)
            acc = tl.dot(x, y, acc)
        tl.store(c + rm[:, None] * n + rn[None, :], acc, mask=(rm[:, None] < m) & (rn[None, :] < n))


# run: -k groups -s *i64,*i64,*i32,*fp32,fp32 -D BLOCK=128 --buffer x0=fp32:300 --buffer x1=fp32:77 --buffer y0=fp32:300 --buffer x2=fp32:200 --buffer y2=fp32:200 --arg xs=@x0,@x1,@x2 --arg ys=@y0,@out,@y2 --arg lens=300,77,200 --arg scale=1.5 --arg out=77 --grid 3,3
# run: -k grouped_dot -s *i64,*i64,*i64,*i32,i32 -D BM=64 -D BN=64 -D BK=32 --buffer a0=fp16:6000 --buffer b0=fp16:3500 --buffer c0=fp32:8400 --buffer a1=fp16:5400 --buffer b1=fp16:2700 --buffer c1=fp32:1800 --arg a_ptrs=@a0,@a1 --arg b_ptrs=@b0,@b1 --arg c_ptrs=@c0,@c1 --arg sizes=120,70,50,60,30,90 --arg count=2 --grid 2,2
