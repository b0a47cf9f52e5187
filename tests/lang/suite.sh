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
