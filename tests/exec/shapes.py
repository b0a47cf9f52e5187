# Shape functions that move elements: reshape (through shared memory),
# permute, split, join, interleave, cat, expand_dims, clamp, on blocks
# that overhang their tensors (masks live). tests/unit/test_exec.c runs
# them against the interpreter and against what each function means.
import triton
import triton.language as tl


@triton.jit
def halves(x_ptr, lo_ptr, hi_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # x is M x N; lo and hi are M x (N / 2): each block's left and right halves
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=(rm[:, None] < M) & (rn[None, :] < N), other=-1.0)
    a, b = tl.reshape(x, (BM, 2, BN // 2)).permute(0, 2, 1).split()
    H: tl.constexpr = BN // 2
    rh = tl.program_id(1) * H + tl.arange(0, H)
    m = (rm[:, None] < M) & (rh[None, :] < N // 2)
    tl.store(lo_ptr + rm[:, None] * (N // 2) + rh[None, :], a, mask=m)
    tl.store(hi_ptr + rm[:, None] * (N // 2) + rh[None, :], b, mask=m)


@triton.jit
def mix(a_ptr, b_ptr, il_ptr, cat_ptr, cl_ptr, n, B: tl.constexpr):
    # il[2 i] = a[i], il[2 i + 1] = b[i]; cat = a's block then b's; cl = clamp(a * 3, -1, 0.5)
    i = tl.program_id(0) * B + tl.arange(0, B)
    a = tl.load(a_ptr + i, mask=i < n, other=0.0)
    b = tl.load(b_ptr + i, mask=i < n, other=0.0)
    j = tl.program_id(0) * 2 * B + tl.arange(0, 2 * B)
    tl.store(il_ptr + j, tl.interleave(a, b), mask=j < 2 * n)
    tl.store(cat_ptr + j, tl.cat(a, b, can_reorder=True), mask=j < 2 * n)
    tl.store(cl_ptr + i, tl.clamp(a * 3.0, -1.0, 0.5), mask=i < n)


@triton.jit
def flat(x_ptr, y_ptr, z_ptr, R: tl.constexpr, C: tl.constexpr):
    # a 2-D tile flattened to 1-D and stored reversed by rows, and a 3-D view of it summed
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    base = tl.program_id(0) * R * C
    x = tl.load(x_ptr + base + r[:, None] * C + c[None, :])
    f = x.reshape(R * C)
    k = tl.arange(0, R * C)
    tl.store(y_ptr + base + k, f * 2.0)
    t = tl.expand_dims(tl.sum(tl.reshape(f, [R // 2, 2, C]), axis=1), 0)
    tl.static_assert(t.shape[0] == 1 and t.shape[1] == R // 2)
    h = tl.arange(0, R // 2)
    tl.store(z_ptr + tl.program_id(0) * (R // 2) * C + h[:, None] * C + c[None, :], tl.reshape(t, (R // 2, C)))
