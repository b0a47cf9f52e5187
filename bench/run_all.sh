#!/bin/sh
# Everything a GPU session measures, on a machine with an NVIDIA GPU, torch
# and triton, in one command; logs and tables under OUT (default
# /tmp/tritonc-gpu):
#
#   sh bench/run_all.sh [check] [golden] [inductor] [heldout] [gemm] [rmsnorm] [tutorials] [attention]
#
# check: make gpu-check; golden: Triton's values for the held-out kernels
# (tests/heldout/golden, gen_golden.py); inductor: the corpus kernels
# against Triton (bench/inductor/run.sh); heldout: the held-out kernels
# against Triton; gemm, rmsnorm: bench/gemm/run.sh, bench/rmsnorm/run.sh;
# tutorials, attention: bench/tutorials/run.sh and bench/attention/run.sh
# (they need TUTORIALS=DIR, the folder of Triton's python/tutorials).
# With no argument: check, inductor, heldout. The tables come last.
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/tritonc-gpu}
mkdir -p "$OUT"
make -j16 >/dev/null && make -j16 units >/dev/null || exit 2
[ $# -gt 0 ] || set -- check inductor heldout
for part in "$@"; do
	start=$(date +%s)
	case $part in
	check) make gpu-check >"$OUT/gpu-check.txt" 2>&1; tail -1 "$OUT/gpu-check.txt" ;;
	golden) python3 tests/triton_values/gen_golden.py "$OUT/golden" --corpus tests/heldout --prefix tests/heldout \
			>"$OUT/golden.txt" 2>&1; tail -2 "$OUT/golden.txt" ;;
	inductor) OUT="$OUT/inductor" sh bench/inductor/run.sh >"$OUT/inductor.txt" 2>&1 ;;
	heldout) cases="$OUT/heldout.cases"
		python3 bench/inductor/heldout_cases.py >"$cases"
		OUT="$OUT/heldout" EXTRA_ONLY=1 EXTRA="$cases" sh bench/inductor/run.sh >"$OUT/heldout.txt" 2>&1 ;;
	gemm) sh bench/gemm/run.sh >"$OUT/gemm.txt" 2>&1 ;;
	rmsnorm) sh bench/rmsnorm/run.sh >"$OUT/rmsnorm.txt" 2>&1 ;;
	tutorials|attention) : "${TUTORIALS:?give the folder of Triton's python/tutorials as TUTORIALS=DIR}"
		OUT="$OUT/$part" sh bench/$part/run.sh >"$OUT/$part.txt" 2>&1 ;;
	*) echo "unknown part: $part"; exit 2 ;;
	esac
	echo "== $part: $(($(date +%s) - start)) s"
done
for part in "$@"; do
	case $part in
	check) grep '^FAIL' "$OUT/gpu-check.txt" | head -20; tail -1 "$OUT/gpu-check.txt" ;;
	inductor|heldout) tail -80 "$OUT/$part.txt" ;;
	tutorials|attention|gemm) grep '^|' "$OUT/$part.txt" ;;
	esac
done
