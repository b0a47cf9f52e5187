# Tensor descriptors: made in the kernel (tl.make_tensor_descriptor) and
# given as arguments (signature type tensordesc<fp32[BM,BN]>), blocks read
# and written at offsets where they overhang the view (the extents do not
# divide the blocks, so the bounds masks are live), a negative offset, a
# 3-D view, and tl.load_tensor_descriptor / store_tensor_descriptor.
# tests/unit/test_exec.c runs them against the interpreter.
import triton
import triton.language as tl


@triton.jit
def _maybe_desc(d, shape, strides, block):
    if isinstance(d, tl.tensor_descriptor):
        return d
    else:
        return tl.make_tensor_descriptor(d, shape, strides, block)


@triton.jit
def tiles(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # y = 2 * x + x shifted up by one row, block by block
    x = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    y = _maybe_desc(y_ptr, [M, N], [N, 1], [BM, BN])
    om = tl.program_id(0) * BM
    on = tl.program_id(1) * BN
    a = x.load([om, on])
    b = tl.load_tensor_descriptor(x, [om - 1, on])   # the first block's top row reads zeros
    tl.static_assert(a.shape[0] == BM and a.shape[1] == BN)
    y.store([om, on], a * 2.0 + b)


@triton.jit
def from_host(x_desc, y_desc, K, BK: tl.constexpr):
    # row sums of x's blocks along K, through descriptors made on the host
    x = _maybe_desc(x_desc, [0, 0], [0, 1], [1, 1])
    BM: tl.constexpr = x.block_shape[0]
    om = tl.program_id(0) * BM
    acc = tl.zeros([BM, BK], dtype=tl.float32)
    for k in range(0, K, BK):
        acc += x.load([om, k])
    tl.store_tensor_descriptor(y_desc, [om, 0], acc.to(y_desc.dtype))


@triton.jit
def cube(x_ptr, y_ptr, A, B, C, BA: tl.constexpr, BB: tl.constexpr, BC: tl.constexpr):
    # a 3-D view with a strided middle dim (every other row of B)
    x = tl.make_tensor_descriptor(x_ptr, [A, B // 2, C], [B * C, 2 * C, 1], [BA, BB, BC])
    y = tl.make_tensor_descriptor(y_ptr, [A, B // 2, C], [(B // 2) * C, C, 1], [BA, BB, BC])
    o = [tl.program_id(0) * BA, tl.program_id(1) * BB, 0]
    v = x.load(o)
    y.store(o, v + 1)
