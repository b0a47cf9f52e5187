# Tiles of 5 to 8 dims (Triton allows any rank; tritonc up to 8): reshape,
# permute, expand_dims, broadcast, reductions and element-wise ops on them,
# with a mask that cuts the last block. The "# run:" lines check the C
# target at W=32 and 64 against the interpreter.
import triton
import triton.language as tl


@triton.jit
def five(x_ptr, y_ptr, s_ptr, n, B: tl.constexpr):
    i = tl.program_id(0) * B + tl.arange(0, B)
    x = tl.load(x_ptr + i, mask=i < n, other=0.0)
    v = tl.reshape(x, (2, 2, 2, 4, B // 32))                  # 5 dims
    p = tl.permute(v, (4, 3, 2, 1, 0))
    q = p * 2.0 + tl.expand_dims(tl.sum(p, axis=2), 2)       # a sum broadcast back
    tl.store(y_ptr + i, tl.reshape(q, (B,)), mask=i < n)
    s = tl.max(tl.reshape(q, (B // 32, 4, 2, 2, 2)), axis=4)
    j = tl.program_id(0) * (B // 2) + tl.arange(0, B // 2)
    tl.store(s_ptr + j, tl.reshape(s, (B // 2,)), mask=j < n // 2)


@triton.jit
def eight(x_ptr, y_ptr, n, B: tl.constexpr):
    # an 8-dim tile from a 1-D block, every dim permuted, a 7-dim sum
    i = tl.program_id(0) * B + tl.arange(0, B)
    x = tl.load(x_ptr + i, mask=i < n, other=1.0)
    v = tl.reshape(x, (2, 2, 2, 2, 2, 2, 2, B // 128))
    w = tl.permute(v, (7, 0, 6, 1, 5, 2, 4, 3))
    t = tl.sum(w, axis=1)
    u = tl.broadcast_to(tl.expand_dims(t, 1), (B // 128, 2, 2, 2, 2, 2, 2, 2)) - w
    tl.store(y_ptr + i, tl.reshape(u, (B,)), mask=i < n)

# run: -k five -s *fp32,*fp32,*fp32,i32 -D B=256 --arg x_ptr=1000 --arg y_ptr=1000 --arg s_ptr=500 --arg n=1000 --grid 4
# run: -k five -s *fp32,*fp32,*fp32,i32 -D B=64 --num-warps 1 --arg x_ptr=300 --arg y_ptr=300 --arg s_ptr=150 --arg n=300 --grid 5
# run: -k eight -s *fp32,*fp32,i32 -D B=256 --arg x_ptr=700 --arg y_ptr=700 --arg n=700 --grid 3
# run: -k eight -s *fp32,*fp32,i32 -D B=512 --num-warps 8 --arg x_ptr=1000 --arg y_ptr=1000 --arg n=1000 --grid 2
