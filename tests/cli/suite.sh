#!/bin/sh
# Broken kernels: each must give its expected "file:line:col: error:" line,
# a source line with a caret, exit status 1, and leave no output file.
cd "$(dirname "$0")/../.." || exit 2
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in tests/cli/errors/*.py; do
	name=$(basename "$f" .py)
	want=$(sed -n 's/^# expect: //p' "$f")
	args=$(sed -n 's/^# args: //p' "$f")
	# shellcheck disable=SC2086
	"$BIN/tritonc" compile "$f" $args -o "$tmp/$name.out" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	first=$(head -n 1 "$tmp/err")
	if [ $rc -ne 1 ]; then
		echo "FAIL cli $name: exit status $rc, expected 1"
	elif [ "$first" != "$f:$want" ]; then
		echo "FAIL cli $name: got '$first', expected '$f:$want'"
	elif ! grep -q '^ *| *^$' "$tmp/err" && ! grep -q '| .*\^$' "$tmp/err"; then
		echo "FAIL cli $name: no caret line"
	elif [ -e "$tmp/$name.out" ] || ls "$tmp" | grep -q "$name.out.tmp"; then
		echo "FAIL cli $name: an output file was left behind"
	else
		echo "PASS cli $name"
	fi
done
# A good kernel writes its output; an existing file is replaced only on success.
echo keep >"$tmp/kept"
"$BIN/tritonc" compile tests/cli/errors/undefined.py -s '*fp32,*fp32,i32' -D BLOCK=16 -o "$tmp/kept" 2>/dev/null
if [ "$(cat "$tmp/kept")" = keep ]; then echo "PASS cli failed compile keeps the old output"; else echo "FAIL cli failed compile overwrote the output"; fi
if "$BIN/tritonc" compile examples/rmsnorm.py -s '*fp32,*fp32,*fp32,i32,i32' -D XBLOCK=2 --dump tir -o "$tmp/ok.tir" &&
	grep -q 'reduce.sum axis=1' "$tmp/ok.tir"; then
	echo "PASS cli compile writes the tile IR"
else
	echo "FAIL cli compile of the example"
fi
if "$BIN/tritonc" list examples/rmsnorm.py | grep -q '^triton_per_fused_mul_pow_rsqrt_0'; then
	echo "PASS cli list"
else
	echo "FAIL cli list"
fi
"$BIN/tritonc" compile examples/rmsnorm.py --target hip:gfx999 2>"$tmp/err"
if [ $? -eq 2 ] && grep -q "unknown AMD architecture 'gfx999'" "$tmp/err"; then echo "PASS cli bad target"; else echo "FAIL cli bad target"; fi
# Inductor kernels without -D: block sizes chosen, said on stderr, and the kernel compiles.
if "$BIN/tritonc" compile tests/corpus/rmsnorm_f32_4096.py --target c -o "$tmp/dflt.c" 2>"$tmp/err" &&
	grep -q "using R0_BLOCK=2048" "$tmp/err" && grep -q "using 8 warps" "$tmp/err" && grep -q "_launch" "$tmp/dflt.c"; then
	echo "PASS cli block sizes chosen for an Inductor reduction"
else
	echo "FAIL cli block sizes for an Inductor reduction: $(head -3 "$tmp/err")"
fi
if "$BIN/tritonc" compile tests/corpus/add_relu_mul_f32.py -D XBLOCK=256 --target c -o "$tmp/dflt2.c" 2>"$tmp/err" &&
	! grep -q "note" "$tmp/err" && grep -q "TC_THREADS 128" "$tmp/dflt2.c"; then
	echo "PASS cli -D wins over the chosen block size"
else
	echo "FAIL cli -D XBLOCK was overridden: $(head -3 "$tmp/err")"
fi
# Layout conversions: a tile needed in two places reaches the second through
# shared memory, on every target.
for target in c cuda:sm_90 hip:gfx90a; do
	if "$BIN/tritonc" compile tests/cli/conversion.py -s '*fp32,*fp32' -D BLOCK=16 --target $target -o "$tmp/conv" \
		2>"$tmp/err" && grep -q "x_moved\[" "$tmp/conv"; then
		echo "PASS cli x + x.T of a loaded tile through shared memory ($target)"
	else
		echo "FAIL cli x + x.T of a loaded tile ($target): $(head -3 "$tmp/err")"
	fi
done
# Inside a run-time loop the conversion first waits at a barrier for the
# reads of the iteration before.
if "$BIN/tritonc" compile tests/exec/convert.py -k loop_trans -s '*fp32,*fp32,i32,i32' -D B=16 --dump simt \
	-o "$tmp/loop.simt" 2>"$tmp/err" &&
	sed -n '/for s = /,/^  uniform: }/p' "$tmp/loop.simt" | grep -B1 '_moved\[.*\] = ' | head -1 | grep -q barrier; then
	echo "PASS cli a conversion in a run-time loop starts with a barrier"
else
	echo "FAIL cli a conversion in a run-time loop: no barrier before its writes $(head -3 "$tmp/err")"
fi
# Inductor's x.T + y: the load that runs along the other dim gets a frame of
# its own, so both loads and the store move 16 bytes at a time.
if "$BIN/tritonc" compile tests/corpus/transpose_add_f32.py -D YBLOCK=32 -D XBLOCK=32 --dump simt -o "$tmp/ta.simt" \
	2>"$tmp/err" && [ "$(grep -c '= load.v4 ' "$tmp/ta.simt")" -eq 2 ] && grep -q 'store.v4 ' "$tmp/ta.simt" &&
	grep -q 'shared fp32 tmp1_moved' "$tmp/ta.simt"; then
	echo "PASS cli transpose_add: both loads coalesced, one through shared memory"
else
	echo "FAIL cli transpose_add is not coalesced: $(head -3 "$tmp/err")"
fi
# Inductor's split scan without -D: the block size and the SplitScanGrid chosen,
# the workspace zeroed and not compared, and the C run matches the interpreter.
if "$BIN/tritonc" run tests/heldout/cumsum_bf16.py --arg xnumel=1024 --arg r0_numel=512 --check --threads 2 \
	>"$tmp/out" 2>"$tmp/err" && grep -q "using R0_BLOCK=256" "$tmp/err" && grep -q "grid 2,1024,1" "$tmp/out" &&
	grep -q "check out_ptr0: .*: ok" "$tmp/out" && grep -q "check ws_ptr: .*not compared" "$tmp/out"; then
	echo "PASS cli run of an Inductor split scan with its defaults"
else
	echo "FAIL cli run of an Inductor split scan: $(head -3 "$tmp/err") $(head -5 "$tmp/out")"
fi
# The driver's stages: --dump takes any of them, several in order under their names.
SEEDARGS='examples/rmsnorm.py -s *fp32,*fp32,*fp32,i32,i32:16 -D XBLOCK=2'
# shellcheck disable=SC2086
if "$BIN/tritonc" compile $SEEDARGS --dump code,kernels,passes -o "$tmp/stages" 2>"$tmp/err" &&
	[ "$(grep -c '^// ---- ' "$tmp/stages")" -eq 3 ] &&
	[ "$(grep '^// ---- ' "$tmp/stages" | tr '\n' ' ')" = "// ---- kernels ---- // ---- passes ---- // ---- code ---- " ] &&
	grep -q 'contig=.* div=16' "$tmp/stages" && grep -q '__global__' "$tmp/stages"; then
	echo "PASS cli --dump kernels,passes,code in stage order"
else
	echo "FAIL cli --dump of several stages: $(head -3 "$tmp/err")"
fi
# shellcheck disable=SC2086
"$BIN/tritonc" compile $SEEDARGS --dump ast -o "$tmp/ast" 2>"$tmp/err"
if [ $? -eq 0 ] && [ -s "$tmp/ast" ] && grep -q 'xnumel' "$tmp/ast"; then echo "PASS cli --dump ast"; else echo "FAIL cli --dump ast"; fi
# shellcheck disable=SC2086
"$BIN/tritonc" compile $SEEDARGS --dump plan -o "$tmp/plan" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q '^frame 1: blocked<' "$tmp/plan" && grep -q "load 'x': .* vector 4" "$tmp/plan"; then
	echo "PASS cli --dump plan: frames and their layouts, the loads' vector widths"
else
	echo "FAIL cli --dump plan: $(head -2 "$tmp/err")"
fi
# shellcheck disable=SC2086
"$BIN/tritonc" compile $SEEDARGS --dump tir,bogus 2>"$tmp/err"
if [ $? -eq 2 ] && grep -q "unknown --dump stage 'bogus'" "$tmp/err"; then echo "PASS cli unknown --dump stage"; else echo "FAIL cli unknown --dump stage"; fi
# Hints are sized from the signature: a :16 on the 66th parameter is taken.
{
	printf 'import triton\nimport triton.language as tl\n\n@triton.jit\ndef many(out_ptr'
	i=0; while [ $i -lt 65 ]; do printf ', n%d' $i; i=$((i + 1)); done
	printf ', BLOCK: tl.constexpr):\n    offs = tl.arange(0, BLOCK)\n'
	printf '    tl.store(out_ptr + n64 * tl.program_id(0) + offs, offs.to(tl.float32))\n'
} >"$tmp/many.py"
sig='*fp32'; i=0; while [ $i -lt 64 ]; do sig="$sig,i32"; i=$((i + 1)); done
if "$BIN/tritonc" compile "$tmp/many.py" -s "$sig,i32:16" -D BLOCK=512 --num-warps 1 -o "$tmp/many.cu" 2>"$tmp/err" &&
	grep -q 'tc_st4(t' "$tmp/many.cu" && "$BIN/tritonc" compile "$tmp/many.py" -s "$sig,i32" -D BLOCK=512 --num-warps 1 \
	-o "$tmp/many1.cu" && ! grep -q 'tc_st4(t' "$tmp/many1.cu"; then
	echo "PASS cli a :16 hint on argument 66 gives 16-byte stores"
else
	echo "FAIL cli a :16 hint on argument 66: $(head -2 "$tmp/err")"
fi
"$BIN/tritonc" compile "$tmp/many.py" -s "$sig,i32:8" -D BLOCK=512 -o "$tmp/many8.cu" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "signature entry 66 'i32:8': a hint must be ':16'" "$tmp/err" && [ ! -e "$tmp/many8.cu" ]; then
	echo "PASS cli a bad hint on argument 66 is named"
else
	echo "FAIL cli a bad hint on argument 66: $(head -1 "$tmp/err")"
fi
# A descriptor's entry stands for several arguments (pointer, extents,
# strides): a hint after it is counted from the arguments, not the entries.
printf 'import triton\nimport triton.language as tl\n\n@triton.jit\ndef after_desc(d, n, out_ptr):\n    tl.store(out_ptr, n * 2)\n' >"$tmp/desc.py"
if "$BIN/tritonc" compile "$tmp/desc.py" -s 'tensordesc<fp32[16,32]>,i32:16,*i32' --dump passes -o "$tmp/desc.txt" 2>"$tmp/err" &&
	grep -q 'mul .*div=32' "$tmp/desc.txt"; then
	echo "PASS cli a :16 hint after a descriptor's arguments"
else
	echo "FAIL cli a :16 hint after a descriptor: $(head -1 "$tmp/err")"
fi
# A comparison chain of any length parses (the parser's array grows); the
# specializer then says what it does not support.
{
	printf 'import triton\nimport triton.language as tl\n@triton.jit\ndef k(o, a):\n    tl.store(o, (0 < a'
	i=0; while [ $i -lt 100 ]; do printf ' < %d' $((i + 5)); i=$((i + 1)); done
	printf ').to(tl.int32))\n'
} >"$tmp/chain.py"
"$BIN/tritonc" compile "$tmp/chain.py" -s '*i32,i32' -o "$tmp/chain.cu" 2>"$tmp/err"
if [ $? -eq 1 ] && head -1 "$tmp/err" | grep -q "chain.py:5:18: error: chained comparisons are not supported"; then
	echo "PASS cli a comparison chain of 101 parses"
else
	echo "FAIL cli a comparison chain of 101: $(head -1 "$tmp/err")"
fi
# Limits that remain say so, with the limit and the place.
{
	printf 'import triton\n@triton.jit\ndef k(x):\n    y = '
	i=0; while [ $i -lt 1500 ]; do printf '('; i=$((i + 1)); done
	printf 'x'
	i=0; while [ $i -lt 1500 ]; do printf ')'; i=$((i + 1)); done
	printf '\n'
} >"$tmp/deep.py"
"$BIN/tritonc" compile "$tmp/deep.py" -s 'i32' 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "deep.py:4:.*error: too many nested .*(limit is [0-9]*)" "$tmp/err"; then
	echo "PASS cli nesting limit stated with its place"
else
	echo "FAIL cli nesting limit: $(head -1 "$tmp/err")"
fi
