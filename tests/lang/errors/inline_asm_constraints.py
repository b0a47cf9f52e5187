# expect: 11:9: error: tl.inline_asm_elementwise: 3 constraints (clobbers aside) for 1 results and 1 arguments, which take 2 registers (elements narrower than 32 bits share 32-bit registers)
# args: -s *u8,*i8 -D B=128
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, B: tl.constexpr):
    # pack=4 puts four bytes in one register: "=r,r", not one constraint an element
    x = tl.load(x_ptr + tl.arange(0, B))
    y = tl.inline_asm_elementwise("and.b32 $0, $1, 0x1F1F1F1F;", "=r,r,r,~{memory}", [x], dtype=tl.int8, is_pure=True, pack=4)
    tl.store(y_ptr + tl.arange(0, B), y)
