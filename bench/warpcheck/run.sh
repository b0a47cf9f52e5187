#!/bin/sh
# warpcheck's throughput on one core over a generated tree, against grep -rE
# with a regex for the same surface patterns. Usage: bench/warpcheck/run.sh [MB]
# Each tool runs three times; the best time counts (the machines are noisy).
set -e
cd "$(dirname "$0")/../.."
mb=${1:-64}
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
# A tree of CUDA files made from the test cases, renamed so each is distinct.
i=0
while [ "$(du -sm "$tree" | cut -f1)" -lt "$mb" ]; do
	d="$tree/dir$((i / 100))"
	mkdir -p "$d"
	for f in tests/warpcheck/cases/*.cu tests/warpcheck/cases/*.hip; do
		for rep in 1 2 3 4 5 6 7 8; do sed "s/\([a-z_]*kernel\)/\1_$i$rep/g" "$f"; done >"$d/f$i.cu"
		i=$((i + 1))
	done
done
bytes=$(du -sb "$tree" | cut -f1)
files=$(find "$tree" -type f | wc -l)
re='__shfl[a-z_]*\(|__ballot|0xffffffff|% *32|& *31|/ *32|>> *5|offset *= *16|\[32\]|__popc|warpSize'
# best_of CMD...: the shortest wall time of three runs, in seconds.
best_of() {
	best=
	for run in 1 2 3; do
		t0=$(date +%s.%N)
		"$@" >/dev/null 2>&1 || true
		t1=$(date +%s.%N)
		best=$(awk -v a="$t0" -v b="$t1" -v m="$best" 'BEGIN { t = b - a; print (m == "" || t < m) ? t : m }')
	done
	echo "$best"
}
w=$(best_of taskset -c 0 bin/warpcheck --format json "$tree")
g=$(best_of taskset -c 0 grep -rEn "$re" "$tree")
echo "$files files, $bytes bytes"
awk -v b="$bytes" -v w="$w" -v g="$g" 'BEGIN {
	printf "| tool | seconds | MB/s |\n|---|---|---|\n";
	printf "| warpcheck --format json | %.2f | %.1f |\n", w, b / w / 1e6;
	printf "| grep -rEn (surface regex) | %.2f | %.1f |\n", g, b / g / 1e6;
	printf "ratio warpcheck/grep: %.1fx\n", w / g }'
