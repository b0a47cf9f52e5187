#!/bin/sh
# Triton 3.6's fused attention forward (tutorial 06, _attn_fwd with host descriptors), head dim 64
# and 128, causal and not, fp16, compiled by tritonc and by real Triton from the same source with the
# same constexprs, run on the same inputs, outputs compared and both timed, on a machine with an
# NVIDIA GPU, torch and triton:
#   TUTORIALS=DIR sh bench/attention/run.sh
# DIR holds Triton's python/tutorials files (not kept in this repository). Prints a table last.
set -e
cd "$(dirname "$0")/../.."
: "${TUTORIALS:?give the folder of Triton's python/tutorials as TUTORIALS=DIR}"
CASES=bench/attention/cases.txt sh bench/tutorials/run.sh
