# expect: 9:5: error: loop-carried variable 'acc' is fp32[16] before the loop but fp16[16] at the end of its body
# args: -s *fp16,*fp32,i32 -D BLOCK=16
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    a = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, n, BLOCK):
        acc = tl.load(x_ptr + a + i)
    tl.store(y_ptr + a, acc)
