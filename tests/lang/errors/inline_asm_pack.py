# expect: 10:9: error: tl.inline_asm_elementwise with pack=4 (several elements a call) is not supported yet; pack=1 is
# args: -s *u8,*i8 -D B=128
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, B: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, B))
    y = tl.inline_asm_elementwise("and.b32 $0, $1, 0x1F1F1F1F;", "=r,r", [x], dtype=tl.int8, is_pure=True, pack=4)
    tl.store(y_ptr + tl.arange(0, B), y)
