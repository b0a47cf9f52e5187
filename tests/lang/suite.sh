#!/bin/sh
# The language beyond Inductor's: whole user files (host code skipped by
# discovery, only @triton.jit functions listed) and located errors for
# what is still outside the language (each tests/lang/errors/*.py says the
# error it must give with '# expect:' and its arguments with '# args:').
cd "$(dirname "$0")/../.." || exit 2
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
f=tests/lang/host_code.py
if "$BIN/tritonc" list "$f" >"$tmp/list" 2>"$tmp/err" &&
	[ "$(grep -v '^ ' "$tmp/list" | sed 's/ .*//' | tr '\n' ' ')" = "_twice scale shift " ]; then
	echo "PASS lang host code skipped, jit functions listed"
else
	echo "FAIL lang host code: $(head -3 "$tmp/err") $(grep -v '^ ' "$tmp/list" | tr '\n' ' ')"
fi
for k in scale shift; do
	if "$BIN/tritonc" compile "$f" -k $k -s '*fp32,*fp32,i32' -D BLOCK=128 --target c -o "$tmp/$k.c" 2>"$tmp/err"; then
		echo "PASS lang $k compiles from a file full of host code"
	else
		echo "FAIL lang $k: $(head -3 "$tmp/err")"
	fi
done
# inline PTX: CUDA compiles it, the other targets say where and why not
f=tests/exec/inline_asm.py
if "$BIN/tritonc" compile "$f" -k rotate -s '*u32,*u32,*u32,i32' -D SHIFT=7 -D B=256 --target cuda:sm_90 \
	-o "$tmp/asm.cu" 2>"$tmp/err" && grep -q 'asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(o0) : "r"(i0), "r"(i1), "r"(i2))' "$tmp/asm.cu"; then
	echo "PASS lang inline asm on cuda:sm_90: PTX with CUDA's operands"
else
	echo "FAIL lang inline asm on cuda:sm_90: $(head -3 "$tmp/err")"
fi
# pack=4 on uint8: each call takes the four neighbours of a thread's run, bytes low first, and
# returns its own slot's byte
if "$BIN/tritonc" compile "$f" -k bytes4 -s '*u8,*u8,*u8,i32' -D B=1024 --target cuda:sm_90 -o "$tmp/asm4.cu" 2>"$tmp/err" &&
	grep -q 'tc_u8 a0_0, tc_u8 a0_1, tc_u8 a0_2, tc_u8 a0_3, tc_u8 a1_0, .*, int slot)' "$tmp/asm4.cu" &&
	grep -q '(tc_u32)((tc_u32)(tc_u8)a0_3 << 24)' "$tmp/asm4.cu" &&
	grep -q 'return (tc_u8)(tc_u8)(o0\[slot / 4\] >> (slot % 4 \* 8));' "$tmp/asm4.cu" &&
	grep -q '= tc_asm_[0-9]*([a-z0-9]*\[(i0 - (i0 % 4))\], [a-z0-9]*\[((i0 - (i0 % 4)) + 1)\], .*, (i0 % 4));' "$tmp/asm4.cu"; then
	echo "PASS lang inline asm pack=4 on cuda:sm_90: four neighbours a call, each its own slot"
else
	echo "FAIL lang inline asm pack=4 on cuda:sm_90: $(head -3 "$tmp/err")"
fi
for t in c c:wave64 hip:gfx90a hip:gfx1030; do
	"$BIN/tritonc" compile "$f" -k halves -s '*fp16,*fp16,*u32,i32' -D B=128 --target $t -o "$tmp/asm.out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && head -1 "$tmp/err" | grep -q "^$f:47:5: error: tl.inline_asm_elementwise: inline PTX runs on CUDA targets only, not on $t\$" &&
		grep -q '| .*\^' "$tmp/err"; then
		echo "PASS lang inline asm on $t: a located error"
	else
		echo "FAIL lang inline asm on $t: status $rc: $(head -1 "$tmp/err")"
	fi
done
for f in tests/lang/errors/*.py; do
	name=$(basename "$f" .py)
	want=$(sed -n 's/^# expect: //p' "$f")
	args=$(sed -n 's/^# args: //p' "$f")
	# shellcheck disable=SC2086
	"$BIN/tritonc" compile "$f" $args --target c -o "$tmp/$name.out" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	first=$(head -n 1 "$tmp/err")
	if [ $rc -ne 1 ]; then
		echo "FAIL lang error $name: exit status $rc, expected 1"
	elif [ "$first" != "$f:$want" ]; then
		echo "FAIL lang error $name: got '$first', expected '$f:$want'"
	elif ! grep -q '| .*\^' "$tmp/err"; then
		echo "FAIL lang error $name: no caret line"
	else
		echo "PASS lang error $name"
	fi
done
