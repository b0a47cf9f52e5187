#!/bin/sh
# Writes generated deep and long inputs for fuzz target $1 into folder $2:
# chains and nests that once overflowed the C stack or took quadratic time.
t=$1
out=$2
python_seeds() {
	head='import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i)
'
	tail='    tl.store(y_ptr + i, x)
'
	awk -v h="$head" -v t="$tail" 'BEGIN {
		printf "%s    x = x", h > "'"$out"'/plus_chain.py"; for (i = 0; i < 20000; i++) printf " + x" > "'"$out"'/plus_chain.py"; printf "\n%s", t > "'"$out"'/plus_chain.py"
		printf "%s    x = x * 1", h > "'"$out"'/pow_chain.py"; for (i = 0; i < 3000; i++) printf "**1" > "'"$out"'/pow_chain.py"; printf "\n%s", t > "'"$out"'/pow_chain.py"
		printf "%s    x = ", h > "'"$out"'/parens.py"; for (i = 0; i < 3000; i++) printf "(" > "'"$out"'/parens.py"; printf "x"> "'"$out"'/parens.py"; for (i = 0; i < 3000; i++) printf ")" > "'"$out"'/parens.py"; printf "\n%s", t > "'"$out"'/parens.py"
		printf "%s    x = x", h > "'"$out"'/to_chain.py"; for (i = 0; i < 2000; i++) printf ".to(tl.float32)" > "'"$out"'/to_chain.py"; printf "\n%s", t > "'"$out"'/to_chain.py"
		printf "%s    if n == 0:\n        x = x + 0\n", h > "'"$out"'/elif_chain.py"; for (i = 1; i < 2000; i++) printf "    elif n == %d:\n        x = x + %d\n", i, i > "'"$out"'/elif_chain.py"; printf "%s", t > "'"$out"'/elif_chain.py"
		printf "%s    c = n == 0", h > "'"$out"'/and_chain.py"; for (i = 0; i < 5000; i++) printf " and n == %d", i > "'"$out"'/and_chain.py"; printf "\n%s", t > "'"$out"'/and_chain.py"
		printf "%s", h > "'"$out"'/many_lines.py"; for (i = 0; i < 20000; i++) printf "    x = x + %d\n", i > "'"$out"'/many_lines.py"; printf "%s", t > "'"$out"'/many_lines.py"
	}'
}
cuda_seeds() {
	awk 'BEGIN {
		f = "'"$out"'/deep_parens.cu"
		printf "__global__ void k(int *p) { int v = " > f; for (i = 0; i < 3000; i++) printf "(" > f; printf "threadIdx.x" > f; for (i = 0; i < 3000; i++) printf ")" > f; printf "; p[v %% 32] = __shfl_sync(0xffffffff, v, 0); }\n" > f
		f = "'"$out"'/deep_blocks.cu"
		printf "__global__ void k(int *p) {\n" > f; for (i = 0; i < 2000; i++) printf "if (threadIdx.x < %d) {\n", i > f; printf "p[0] = __ballot_sync(0xffffffff, 1);\n" > f; for (i = 0; i < 2000; i++) printf "}\n" > f; printf "}\n" > f
		f = "'"$out"'/many_lanes.cu"
		printf "__global__ void k(int *p) {\n  int lane = threadIdx.x %% 32;\n" > f; for (i = 0; i < 20000; i++) printf "  p[lane] += __shfl_xor_sync(0xffffffff, lane, %d);\n", i % 32 > f; printf "}\n" > f
	}'
}
case $t in
fuzz_warpcheck|fuzz_warpfix) cuda_seeds ;;
*) python_seeds ;;
esac
