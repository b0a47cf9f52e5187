#!/bin/sh
# Triton 3.6's tutorial kernels (python/tutorials/01-11 of the Triton
# repository, not kept here: give their folder as TUTORIALS=DIR), compiled
# by tritonc and by real Triton from the same source with the same
# constexprs, on a machine with an NVIDIA GPU, torch and triton:
#   TUTORIALS=DIR sh bench/tutorials/run.sh
# Each case of bench/tutorials/cases.txt runs through `tritonc run --target
# cuda --bench --save`; reference.py then runs Triton's build of the same
# kernel on the very inputs, compares the outputs named in the case and
# times it the same way. Prints one line per measurement and a table last.
set -e
cd "$(dirname "$0")/../.."
: "${TUTORIALS:?give the folder of Triton's python/tutorials as TUTORIALS=DIR}"
make -j${JOBS:-16} bin/tritonc >/dev/null
OUT=${OUT:-$(mktemp -d)}
saved="$OUT/saved"
mkdir -p "$saved"
cases=${CASES:-bench/tutorials/cases.txt}
grep -v '^#' "$cases" | while IFS='|' read -r name file kernel sig opts values grid compared; do
	[ -n "$name" ] || continue
	mkdir -p "$saved/$name"
	runargs=""
	for v in $values; do runargs="$runargs --arg $v"; done
	# a case that never finishes (a kernel that hangs on the GPU) costs CASE_LIMIT seconds, not the run
	if eval "timeout ${CASE_LIMIT:-120} bin/tritonc run \"$TUTORIALS/$file\" -k $kernel -s '$sig' $opts $runargs --grid $grid --target ${TARGET:-cuda} \
		--bench --save \"$saved/$name\"" >"$OUT/$name.log" 2>&1; then
		ms=$(sed -n 's/^bench: median \([0-9.]*\) ms.*/\1/p' "$OUT/$name.log")
		echo "$name tritonc ms=$ms"
	else
		rmdir "$saved/$name" 2>/dev/null || rm -rf "${saved:?}/$name"
		echo "$name tritonc failed: $(grep -m1 error "$OUT/$name.log")"
	fi
done | tee "$OUT/tritonc.txt"
python3 bench/tutorials/reference.py "$TUTORIALS" "$cases" "$saved" | tee "$OUT/triton.txt"
echo
echo "| case | tritonc ms | Triton ms | tritonc speed / Triton's | outputs |"
echo "|---|---|---|---|---|"
while read -r name tool ms; do
	[ "$tool" = tritonc ] || continue
	ours=${ms#ms=}
	ref=$(grep "^$name triton " "$OUT/triton.txt" || true)
	theirs=$(echo "$ref" | sed -n 's/.* ms=\([0-9.]*\).*/\1/p')
	verdict=$(echo "$ref" | awk '{print $NF}')
	case "$ours" in *failed*|"") echo "| $name | failed | $theirs | | |"; continue ;; esac
	ratio=$(python3 -c "print(f'{$theirs / $ours:.3f}')" 2>/dev/null || echo "")
	echo "| $name | $ours | $theirs | $ratio | $verdict $(echo "$ref" | sed -n 's/.*\(max_err=[^ ]*\).*/\1/p') |"
done <"$OUT/tritonc.txt"
