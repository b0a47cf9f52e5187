#!/bin/sh
# tl.device_print / print (tests/exec/printing.py): the lines the C target
# prints at W=32 and W=64 are the interpreter's, as a multiset (threads
# print in their own order). `tritonc run` without --check runs the C code
# alone; with --check the interpreter prints the same lines again.
cd "$(dirname "$0")/../.." || exit 2
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
f=tests/exec/printing.py
for target in c c:wave64; do
	for cfg in "16 20 2" "64 100 2"; do
		set -- $cfg
		args="-k show -s *fp32,*fp32,i32 -D B=$1 --arg x_ptr=$2 --arg out_ptr=$2 --arg n=$2 --grid $3 --threads 1"
		# shellcheck disable=SC2086
		"$BIN/tritonc" run $f $args --target $target >"$tmp/c" 2>"$tmp/err" </dev/null
		rc1=$?
		# shellcheck disable=SC2086
		"$BIN/tritonc" run $f $args --target $target --check >"$tmp/both" 2>>"$tmp/err" </dev/null
		rc2=$?
		grep '^pid ' "$tmp/c" | sort >"$tmp/c.sorted"
		grep '^pid ' "$tmp/both" | sort >"$tmp/both.sorted"
		sort "$tmp/c.sorted" "$tmp/c.sorted" >"$tmp/twice"
		lines=$(wc -l <"$tmp/c.sorted")
		want=$(( (4 * $1 + 4) * $3 ))   # x, 2 scalars, two (2 values), bits, m (2)
		if [ $rc1 -ne 0 ] || [ $rc2 -ne 0 ]; then
			echo "FAIL exec print B=$1 on $target: status $rc1 $rc2: $(head -2 "$tmp/err")"
		elif [ "$lines" -ne "$want" ]; then
			echo "FAIL exec print B=$1 on $target: $lines lines, expected $want"
		elif ! cmp -s "$tmp/twice" "$tmp/both.sorted"; then
			echo "FAIL exec print B=$1 on $target: the lines differ from the interpreter's: $(diff "$tmp/twice" "$tmp/both.sorted" | head -3)"
		elif ! grep -q '^pid (1, 0, 0) idx ( 3) bits: 0x0000' "$tmp/c.sorted" && [ "$1" = 16 ]; then
			echo "FAIL exec print B=$1 on $target: no hex line of Triton's form"
		else
			echo "PASS exec print B=$1 on $target: $lines lines as the interpreter prints them"
		fi
	done
done
