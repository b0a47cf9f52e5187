# expect: 10:9: error: tl.inline_asm_elementwise: 2 constraints (clobbers aside) for 1 results and 2 arguments, which take 3 registers
# args: -s *fp32,*fp32 -D B=128
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, B: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, B))
    y = tl.inline_asm_elementwise("add.f32 $0, $1, $2;", "=f,f", [x, x], dtype=tl.float32, is_pure=True, pack=1)
    tl.store(y_ptr + tl.arange(0, B), y)
