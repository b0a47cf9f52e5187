# Layout placement where the conflict lies beyond the op it is found at: a
# load whose `other` is a row reduction of another tile laid along the
# columns ([None, :]) while its mask and pointers come from the same
# aranges as that tile's. Copying the pointers' arithmetic (cheap) leaves the
# conflict where it was; the ops reading the copy then read a conversion of
# it. Each "# run:" line runs on c and c:wave64 against the interpreter.
import triton
import triton.language as tl


@triton.jit
def other_across(x_ptr, y_ptr, M, N, B: tl.constexpr):
    rows = tl.arange(0, B)
    cols = tl.arange(0, B)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=(rows[:, None] < M) & (cols[None, :] < N), other=1.0)
    z = tl.load(x_ptr + rows[:, None] * N + cols[None, :], rows[:, None] > M // 2, tl.max(x, axis=1)[None, :])
    tl.store(y_ptr + rows[:, None] * N + cols[None, :], z, mask=(rows[:, None] < M) & (cols[None, :] < N))


@triton.jit
def mask_across(x_ptr, y_ptr, M, N, B: tl.constexpr):
    # the same with a 1-D mask broadcast along the rows
    rows = tl.arange(0, B)
    cols = tl.arange(0, B)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=(rows[:, None] < M) & (cols[None, :] < N), other=2.0)
    z = tl.load(x_ptr + rows[:, None] * N + cols[None, :], rows > M // 3, tl.sum(x, axis=1))
    tl.store(y_ptr + rows[:, None] * N + cols[None, :], z, mask=(rows[:, None] < M) & (cols[None, :] < N))

# run: -k other_across -s *fp32,*fp32,i32,i32 -D B=16 --arg M=13 --arg N=16 --arg x_ptr=256 --arg y_ptr=256 --grid 1
# run: -k other_across -s *fp32,*fp32,i32,i32 -D B=32 --num-warps 2 --arg M=30 --arg N=32 --arg x_ptr=1024 --arg y_ptr=1024 --grid 1
# run: -k mask_across -s *fp32,*fp32,i32,i32 -D B=16 --arg M=11 --arg N=16 --arg x_ptr=256 --arg y_ptr=256 --grid 1
