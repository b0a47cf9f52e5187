#!/bin/sh
# The matrix products of bench/gemm/tiles_cases.txt (Triton 3.6's tutorial matmuls and the test
# kernels of tests/exec/gemm_tiles.py), each compiled by tritonc and by real Triton from the same
# source with the same constexprs, run on the same inputs, outputs compared and both timed, on a
# machine with an NVIDIA GPU, torch and triton:
#   TUTORIALS=DIR sh bench/gemm/tiles.sh      (CASES=FILE: another cases file)
# DIR holds Triton's python/tutorials files (not kept in this repository); the test kernels are
# copied beside them into a scratch folder. Prints a table last (bench/tutorials/run.sh's).
set -e
cd "$(dirname "$0")/../.."
: "${TUTORIALS:?give the folder of Triton's python/tutorials as TUTORIALS=DIR}"
dir=$(mktemp -d)
cp "$TUTORIALS"/*.py tests/exec/gemm_tiles.py "$dir/"
TUTORIALS=$dir CASES=${CASES:-bench/gemm/tiles_cases.txt} sh bench/tutorials/run.sh
