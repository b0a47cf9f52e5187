#!/bin/sh
# One device call of 2026-12-03 (fourth session), on a machine with an NVIDIA
# GPU, torch and triton: the tutorial cases (bench/tutorials/run.sh) and
# tutorial 08 through tritonc beside Triton.
#   TUTORIALS=DIR sh bench/merge/run_0303d.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
: "${TUTORIALS:?give the folder of Triton's tutorials as TUTORIALS=DIR}"
TUTORIALS=$(cd "$TUTORIALS" && pwd)
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
make -s -j16 bin/tritonc >/dev/null
make -s python PYTHON=python3 >/dev/null 2>&1 || echo "make python failed"
[ "${TUT:-1}" = 1 ] && CASES=${CASES:-bench/tutorials/cases.txt} OUT=$out/tut sh bench/tutorials/run.sh > "$out/tutorials.txt" 2>&1
if [ "${G08:-1}" = 1 ]; then
	mkdir -p "$out/t08" "$out/r08"
	(cd "$out/t08" && TRITONC_CACHE=$out/t08/cache TRITONC_PERF_REPORT_POINTS=${POINTS:-4} PYTHONPATH=$OLDPWD/python \
		timeout -k 5 240 python3 -m tritonc "$TUTORIALS/08-grouped-gemm.py") > "$out/08-tritonc.txt" 2>&1
	echo "08 tritonc exit $?" >> "$out/08-tritonc.txt"
	(cd "$out/r08" && timeout -k 5 240 python3 "$TUTORIALS/08-grouped-gemm.py") > "$out/08-triton.txt" 2>&1
	echo "08 triton exit $?" >> "$out/08-triton.txt"
fi
grep -v "^tritonc compile stats\|^  " "$out/08-tritonc.txt" 2>/dev/null | tail -30
tail -20 "$out/08-triton.txt" 2>/dev/null
sed -n '/^| case/,$p' "$out/tutorials.txt" 2>/dev/null
