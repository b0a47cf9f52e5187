# Kernels for the Python package's tests, written for Triton: the tests load
# this module through tritonc (import triton resolved to tritonc) and, on a
# machine with a GPU, through real Triton too, and compare the two.
import triton
import triton.language as tl


@triton.jit
def rmsnorm_rows(x_ptr, w_ptr, out_ptr, n_rows, n_cols, stride, eps, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    rows = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    cols = tl.arange(0, RBLOCK)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    x = tl.load(x_ptr + rows * stride + cols, mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, cols < n_cols, other=0.0).to(tl.float32)
    mean_sq = tl.sum(x * x, 1)[:, None] / n_cols
    y = x * tl.rsqrt(mean_sq + eps) * w
    tl.store(out_ptr + rows * stride + cols, y, mask)


@triton.jit
def row_softmax(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    keep = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=keep, other=-float('inf'))
    shifted = x - tl.max(x, axis=0)
    e = tl.exp(shifted)
    tl.store(out_ptr + row * out_stride + cols, e / tl.sum(e, axis=0), mask=keep)


@triton.jit
def tiled_matmul(a_ptr, b_ptr, c_ptr, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn,
                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_tile = a_ptr + rm[:, None] * s_am + rk[None, :] * s_ak
    b_tile = b_ptr + rk[:, None] * s_bk + rn[None, :] * s_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_tile, mask=(rm[:, None] < M) & (k0 + rk[None, :] < K), other=0.0)
        b = tl.load(b_tile, mask=(k0 + rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_tile += BK * s_ak
        b_tile += BK * s_bk
    tl.store(c_ptr + rm[:, None] * s_cm + rn[None, :] * s_cn, acc.to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.autotune(configs=[triton.Config({'BLOCK': 64}, num_warps=2), triton.Config({'BLOCK': 128}, num_warps=4),
                          triton.Config({'BLOCK': 512}, num_warps=4)],
                 key=['n'], reset_to_zero=['total_ptr'])
@triton.jit
def scaled_total(x_ptr, total_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(total_ptr, tl.sum(x * scale, axis=0))


@triton.autotune(configs=[triton.Config({'BLOCK': 32}), triton.Config({'BLOCK': 128})], key=['n'],
                 restore_value=['x_ptr'])
@triton.jit
def double_in_place(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2.0, mask=m)


@triton.jit(do_not_specialize=['n'])
def affine_fill(out_ptr, n, a, b, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs.to(tl.float32) * a + b, mask=offs < n)


@triton.jit
def affine_fill_specialized(out_ptr, n, a, b, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs.to(tl.float32) * a + b, mask=offs < n)


@triton.jit
def add_bias(x_ptr, bias_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if bias_ptr is not None:
        x = x + tl.load(bias_ptr + offs, mask=m)
    tl.store(out_ptr + offs, x, mask=m)


@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK'] == 0})
@triton.jit
def copy_even(src_ptr, dst_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(dst_ptr + offs, tl.load(src_ptr + offs) + 1.0)
    else:
        tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=offs < n) + 1.0, mask=offs < n)


@triton.jit
def strided_scale(x_ptr, out_ptr, n, stride, s):
    i = tl.program_id(0)
    if i < n:
        tl.store(out_ptr + i, tl.load(x_ptr + i * stride) * s)


@triton.jit
def checked_index(x_ptr, n):
    i = tl.program_id(0)
    v = tl.load(x_ptr + i)
    tl.device_assert(v < n, "index out of range")


@triton.jit
def uses_unknown_name(x_ptr):
    tl.store(x_ptr, not_defined_anywhere)


@triton.jit
def activation(x_ptr, out_ptr, n, ACT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if ACT == "relu":
        x = tl.maximum(x, 0.0)
    elif ACT == "neg":
        x = -x
    tl.store(out_ptr + offs, x, mask=m)


@triton.jit(do_not_specialize_on_alignment=['n'])
def affine_fill_unaligned(out_ptr, n, a, b, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs.to(tl.float32) * a + b, mask=offs < n)


def _drop_big_blocks(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs['BLOCK'] <= named_args['n']]


# its key also names no parameter ('count'): Triton skips such a key (Triton's grouped GEMM tutorial has
# one misspelt), so must tritonc
@triton.autotune(configs=[triton.Config({'BLOCK': 32}), triton.Config({'BLOCK': 64}), triton.Config({'BLOCK': 1024})],
                 key=['n', 'count'], prune_configs_by={'early_config_prune': _drop_big_blocks})
@triton.jit
def pruned_copy(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=offs < n), mask=offs < n)


# module-level constexpr globals, as Triton takes them: a tl.constexpr value,
# a dtype, and (only with TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1) a plain int
GLOBAL_BLOCK = tl.constexpr(64)
GLOBAL_SHIFT = tl.constexpr(-1.5)
GLOBAL_DTYPE = tl.float32
GLOBAL_ON = tl.constexpr(True)
PLAIN_SCALE = 3


@triton.jit
def _times_shift(x):
    return x * 2.0 + GLOBAL_SHIFT


@triton.jit
def uses_globals(x_ptr, out_ptr, n, B: tl.constexpr = GLOBAL_BLOCK):
    offs = tl.program_id(0) * GLOBAL_BLOCK + tl.arange(0, GLOBAL_BLOCK)
    m = offs < n
    v = _times_shift(tl.load(x_ptr + offs, mask=m)).to(GLOBAL_DTYPE)
    if GLOBAL_ON:
        v = v + B
    tl.store(out_ptr + offs, v, mask=m)


@triton.jit
def uses_plain_global(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs * PLAIN_SCALE, mask=offs < n)


@triton.jit
def uses_plain_global_allowed(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs * PLAIN_SCALE, mask=offs < n)


@triton.jit
def widen(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m).to(tl.float32) * 2.0, mask=m)


# Several GEMMs of different sizes in one launch, their operands reached through tables of
# addresses (int64 values cast to pointers): program p takes the tiles, counted across the
# problems in order, that are p modulo PROGRAMS.
@triton.jit
def gemm_table(a_table, b_table, c_table, dims, problems, PROGRAMS: tl.constexpr, BM: tl.constexpr,
               BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    before = 0
    for g in range(problems):
        M = tl.load(dims + 3 * g)
        N = tl.load(dims + 3 * g + 1)
        K = tl.load(dims + 3 * g + 2)
        a = tl.load(a_table + g).to(tl.pointer_type(tl.float16))
        b = tl.load(b_table + g).to(tl.pointer_type(tl.float16))
        c = tl.load(c_table + g).to(tl.pointer_type(tl.float32))
        across = tl.cdiv(N, BN)
        tiles = tl.cdiv(M, BM) * across
        mine = (pid - before % PROGRAMS + PROGRAMS) % PROGRAMS
        for t in range(mine, tiles, PROGRAMS):
            rm = (t // across) * BM + tl.arange(0, BM)
            rn = (t % across) * BN + tl.arange(0, BN)
            rk = tl.arange(0, BK)
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for k0 in range(0, K, BK):
                x = tl.load(a + rm[:, None] * K + (k0 + rk)[None, :],
                            mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
                y = tl.load(b + (k0 + rk)[:, None] * N + rn[None, :],
                            mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
                acc += tl.dot(x, y)
            tl.store(c + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
        before += tiles


# descriptors made in the kernel (Triton asks for an allocator first: set_allocator)
@triton.jit
def desc_double(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    dx = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    dy = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    m0 = tl.program_id(0) * BM
    n0 = tl.program_id(1) * BN
    dy.store([m0, n0], dx.load([m0, n0]) * 2.0)
