#!/bin/sh
# tritonc export on an NVIDIA GPU: correctness against Triton and the host
# time of a launch (see RESULTS.md). Run from the repository root, after make:
#     sh bench/export/run.sh
# The same script is part of make gpu-check (tests/gpu/run.sh).
cd "$(dirname "$0")/../.." || exit 2
exec tests/gpu/export.sh
