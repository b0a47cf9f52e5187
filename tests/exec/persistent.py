# Persistent matrix products: each program walks tiles (its first is its
# program id, then every num_programs-th) around a pipelined K loop. Where
# the K loop runs as many iterations for every tile, the pipeline is carried
# from tile to tile: the last iterations of one tile copy the first operands
# of the next (tests/unit/test_gemm.c checks the plan and the products).
import triton
import triton.language as tl


@triton.jit
def tile_of(t, tiles_n, GROUP: tl.constexpr, tiles_m):
    # column-major groups of GROUP tile columns
    per_group = GROUP * tiles_m
    first = (t // per_group) * GROUP
    cols = min(tiles_n - first, GROUP)
    return (t % per_group) // cols, first + (t % per_group) % cols


@triton.jit
def persistent(a_ptr, b_ptr, c_ptr, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    steps = tl.cdiv(K, BK)
    done = tl.program_id(0) - tl.num_programs(0)
    for t in tl.range(tl.program_id(0), tiles_m * tiles_n, tl.num_programs(0), flatten=True):
        tm, tn = tile_of(t, tiles_n, GROUP, tiles_m)
        rows = (tm * BM + tl.arange(0, BM)) % M
        cols = tl.where(tn * BN + tl.arange(0, BN) < N, tn * BN + tl.arange(0, BN), 0)
        cols = tl.max_contiguous(tl.multiple_of(cols, BN), BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for s in range(0, steps):
            k = s * BK + tl.arange(0, BK)
            x = tl.load(a_ptr + rows[:, None] * s_am + k[None, :] * s_ak, mask=k[None, :] < K, other=0.0)
            y = tl.load(b_ptr + k[:, None] * s_bk + cols[None, :] * s_bn, mask=k[:, None] < K, other=0.0)
            acc = tl.dot(x, y, acc)
        # the epilogue's tile from a counter of its own, as tutorial 09 keeps one
        done += tl.num_programs(0)
        em, en = tile_of(done, tiles_n, GROUP, tiles_m)
        om = em * BM + tl.arange(0, BM)
        on = en * BN + tl.arange(0, BN)
        tl.store(c_ptr + om[:, None] * s_cm + on[None, :] * s_cn, acc.to(tl.float16),
                 mask=(om[:, None] < M) & (on[None, :] < N))


@triton.jit
def rotated(a_ptr, b_ptr, c_ptr, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    # each tile starts its K loop at step tm: its bounds are the tile's own,
    # so the pipeline fills and drains in every tile
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    steps = tl.cdiv(K, BK)
    for t in tl.range(tl.program_id(0), tiles_m * tiles_n, tl.num_programs(0)):
        tm, tn = tile_of(t, tiles_n, GROUP, tiles_m)
        rows = tm * BM + tl.arange(0, BM)
        cols = tn * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for s in range(tm, tm + steps):
            k = (s % steps) * BK + tl.arange(0, BK)
            x = tl.load(a_ptr + rows[:, None] * s_am + k[None, :] * s_ak,
                        mask=(rows[:, None] < M) & (k[None, :] < K), other=0.0)
            y = tl.load(b_ptr + k[:, None] * s_bk + cols[None, :] * s_bn,
                        mask=(k[:, None] < K) & (cols[None, :] < N), other=0.0)
            acc = tl.dot(x, y, acc)
        tl.store(c_ptr + rows[:, None] * s_cm + cols[None, :] * s_cn, acc.to(tl.float16),
                 mask=(rows[:, None] < M) & (cols[None, :] < N))


@triton.jit
def persistent_blocks(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # tensor descriptors, B stored N x K, the epilogue stored in two halves
    tiles_n = tl.cdiv(N, BN)
    for t in tl.range(tl.program_id(0), tl.cdiv(M, BM) * tiles_n, tl.num_programs(0), flatten=True):
        tm = t // tiles_n
        tn = t % tiles_n
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for s in range(tl.cdiv(K, BK)):
            x = a_desc.load([tm * BM, s * BK])
            y = b_desc.load([tn * BN, s * BK])
            acc = tl.dot(x, y.T, acc)
        halves = tl.permute(tl.reshape(acc, (BM, 2, BN // 2)), (0, 2, 1))
        left, right = tl.split(halves)
        c_desc.store([tm * BM, tn * BN], left.to(tl.float16))
        c_desc.store([tm * BM, tn * BN + BN // 2], right.to(tl.float16))


@triton.jit
def _grouped_tile(t, per_group, tiles_m, G: tl.constexpr):
    # tiles in groups of G rows of tiles, column by column inside a group
    first = (t // per_group) * G
    rows = min(tiles_m - first, G)
    return first + t % rows, (t % per_group) // rows


@triton.jit
def persistent_grouped(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # descriptors, tiles in grouped order, the blocks' offsets computed
    # once a tile before its K loop: the next tile's bulk copies read them
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    for t in tl.range(tl.program_id(0), tiles_m * tiles_n, tl.num_programs(0), flatten=True):
        tm, tn = _grouped_tile(t, 2 * tiles_n, tiles_m, 2)
        row = tm * BM
        col = tn * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for s in range(tl.cdiv(K, BK)):
            acc = tl.dot(a_desc.load([row, s * BK]), b_desc.load([col, s * BK]).T, acc)
        halves = tl.permute(tl.reshape(acc, (BM, 2, BN // 2)), (0, 2, 1))
        left, right = tl.split(halves)
        c_desc.store([row, col], left.to(tl.float16))
        c_desc.store([row, col + BN // 2], right.to(tl.float16))
