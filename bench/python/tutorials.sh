#!/bin/sh
# Triton's tutorials 01 (vector add), 02 (fused softmax), 03 (matrix
# multiplication, its autotune configs) and 05 (layer norm, forward and
# backward) run unchanged through `python3 -m tritonc`, their own checks
# against torch read from what they print and their exit status; prints a
# table. The tutorials are Triton's files, not this repository's: give their
# folder. On a machine with an NVIDIA GPU, torch and a C compiler:
#
#   bench/python/tutorials.sh TUTORIAL_DIR
#
# Their benchmarks run on the first $POINTS sizes only (default 2; 0 skips
# them: TRITONC_PERF_REPORT_POINTS). Each tutorial may run $TIMEOUT seconds
# (default 300). The disk cache starts empty unless TRITONC_CACHE names one
# (a warm run). After the table, what compiling cost each tutorial
# (TRITONC_COMPILE_STATS: compiles, tritonc's and NVRTC's seconds, each
# autotuning's compile and timing seconds). Each tutorial's output is kept
# in a temporary folder whose name is printed. Exit status 1 when any failed.
set -u
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: bench/python/tutorials.sh TUTORIAL_DIR (the folder with 01-vector-add.py ...)" >&2
	exit 2
fi
dir=$(cd "$1" && pwd)
cd "$(dirname "$0")/../.." || exit 2
root=$(pwd)
PY=${PYTHON:-python3}
if ! ls python/tritonc/_tritonc*.so >/dev/null 2>&1; then
	make -s python PYTHON="$PY" >/dev/null || { echo "make python failed" >&2; exit 1; }
fi
work=$(mktemp -d)
echo "outputs in $work"
export TRITONC_CACHE="${TRITONC_CACHE:-$work/cache}" TRITONC_PERF_REPORT_POINTS="${POINTS:-2}" PYTHONPATH="$root/python"
export TRITONC_COMPILE_STATS=1
limit=${TIMEOUT:-300}
run_limited() {   # the command, stopped after $limit seconds (status 124) where timeout(1) exists
	if command -v timeout >/dev/null 2>&1; then timeout -k 10 "$limit" "$@"; else "$@"; fi
}
"$PY" -c 'import torch; print("torch", torch.__version__, "cuda", torch.cuda.is_available(), torch.cuda.get_device_name() if torch.cuda.is_available() else "")'
status=0
printf '%-30s %-6s %8s  %s\n' tutorial result seconds checks
for t in 01-vector-add 02-fused-softmax 03-matrix-multiplication 05-layer-norm; do
	f="$dir/$t.py"
	if [ ! -f "$f" ]; then
		printf '%-30s %-6s %8s  %s\n' "$t" FAIL - "no $t.py in $dir"
		status=1
		continue
	fi
	mkdir -p "$work/$t"
	start=$(date +%s)
	(cd "$work/$t" && run_limited "$PY" -m tritonc "$f") >"$work/$t/out.txt" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	out="$work/$t/out.txt"
	result=PASS
	case $t in
	01-*)   # prints the maximum difference from torch
		diff=$(sed -n 's/^The maximum difference between torch and triton is //p' "$out")
		checks="max difference from torch: ${diff:-none printed}"
		[ -n "$diff" ] && "$PY" -c "import sys; sys.exit(0 if float('$diff') < 1e-6 else 1)" || result=FAIL ;;
	02-*)   # asserts torch.allclose against torch.softmax
		checks="assert torch.allclose(y_triton, y_torch)"
		grep -q "^softmax-performance" "$out" || checks="$checks (no benchmark table)" ;;
	03-*)   # prints a match line for fp16 and, where torch has fp8, for fp8 inputs
		ok=$(grep -c "Triton and Torch match" "$out")
		bad=$(grep -c "Triton and Torch differ" "$out")
		checks="torch.allclose: $ok match, $bad differ"
		[ "$ok" -ge 1 ] && [ "$bad" -eq 0 ] || result=FAIL ;;
	05-*)   # test_layer_norm asserts forward (y) and backward (dx, dw, db) against torch
		checks="assert torch.allclose: y, dx, db, dw (fp16, 1151 x 8192)" ;;
	esac
	if [ $rc -eq 124 ]; then
		result=FAIL
		checks="$checks; stopped after $limit s"
	elif [ $rc -ne 0 ]; then
		result=FAIL
		checks="$checks; exit $rc: $(grep -v '^\s*$' "$out" | grep -v '^tritonc compile stats:' | grep -v '^  ' | tail -1 | cut -c1-160)"
	fi
	[ $result = PASS ] || status=1
	printf '%-30s %-6s %8s  %s\n' "$t" $result "$secs" "$checks"
done
for t in 01-vector-add 02-fused-softmax 03-matrix-multiplication 05-layer-norm; do
	[ -f "$work/$t/out.txt" ] || continue
	echo "$t:"
	sed -n '/^tritonc compile stats:/,$p' "$work/$t/out.txt" | sed 1d | grep '^  ' || echo "  (none printed: no kernel compiled, or it did not exit normally)"
done
exit $status
