#!/bin/sh
# One device call of 2026-12-04 (third session), on a machine with an NVIDIA
# GPU, torch and triton: every tutorial case (bench/tutorials/run.sh) with
# pipelined loops peeled into fill, steady and drain loops (src/gpu/peel.c),
# then the seed GEMM's configurations (bench/gemm/run.sh) beside Triton and
# cuBLAS.
#   TUTORIALS=DIR sh bench/merge/run_1204c.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
: "${TUTORIALS:?give the folder of Triton's tutorials as TUTORIALS=DIR}"
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
make -s -j16 bin/tritonc >/dev/null || exit 2
TUTORIALS=$TUTORIALS OUT=$out/tut sh bench/tutorials/run.sh > "$out/tutorials.txt" 2>&1
[ -z "${NO_GEMM:-}" ] && timeout 240 sh bench/gemm/run.sh > "$out/gemm.txt" 2>&1
tail -12 "$out/gemm.txt" 2>/dev/null
tail -21 "$out/tutorials.txt"
