#!/bin/sh
# `tritonc run --target cuda --timeout`, on a machine with an NVIDIA GPU: a
# kernel that never finishes (a while on a run-time condition that stays
# true) is stopped with an error after its seconds, and the process ends
# (the driver ends the kernel with the context) instead of waiting for it.
# Prints PASS / FAIL lines like tests/gpu/run.sh, which calls it.
cd "$(dirname "$0")/../.." || exit 2
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp tests/robust/spin.py "$tmp/spin.py"
for arch in sm_90a sm_80; do
	start=$(date +%s)
	timeout 120 "$BIN/tritonc" run "$tmp/spin.py" -s '*i32,*i32,i32' -D BLOCK=16 --grid 4 --arg n=1 \
		--arg x_ptr=16 --arg y_ptr=16 --target cuda:$arch --timeout 2 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	s=$(($(date +%s) - start))
	if [ $rc -eq 1 ] && grep -q "^tritonc: error: kernel 'spin' did not finish within 2 s$" "$tmp/err" && [ $s -lt 60 ]; then
		echo "PASS gpu run --timeout 2 on a kernel that never finishes ($arch): error, exit 1 after $s s"
	else
		echo "FAIL gpu run --timeout 2 on a kernel that never finishes ($arch): status $rc after $s s: $(head -3 "$tmp/err")"
	fi
done
# the same kernel with a condition that ends: no error, and --timeout does not slow it
sed 's/while x >= 0:/while x >= 0 and x < 15:/' "$tmp/spin.py" >"$tmp/ends.py"
if timeout 120 "$BIN/tritonc" run "$tmp/ends.py" -s '*i32,*i32,i32' -D BLOCK=16 --grid 4 --arg n=1 --int-range 8 \
	--arg x_ptr=16 --arg y_ptr=16 --target cuda --timeout 30 --check >"$tmp/out" 2>"$tmp/err"; then
	echo "PASS gpu run --timeout 30 on a kernel that ends: matches the interpreter"
else
	echo "FAIL gpu run --timeout 30 on a kernel that ends: $(head -3 "$tmp/err")"
fi
