#!/bin/sh
# The seed GEMM (tests/corpus/gemm.py), fp16, 4096^3: tritonc's CUDA output
# (tl.dot through shared memory and FMA, not yet the tensor cores) against
# real Triton compiling the same source, in one run, on a machine with an
# NVIDIA GPU, torch and triton:   sh bench/gemm/run.sh
set -e
cd "$(dirname "$0")/../.."
make -j16 bin/tritonc >/dev/null
S=4096
for cfg in "64 64 32 4" "128 64 32 8"; do
	set -- $cfg
	bin/tritonc run tests/corpus/gemm.py -s '*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32' \
		-D BLOCK_M=$1 -D BLOCK_N=$2 -D BLOCK_K=$3 --num-warps $4 --target cuda --check --bench \
		--arg M=$S --arg N=$S --arg K=$S --arg stride_am=$S --arg stride_ak=1 --arg stride_bk=$S --arg stride_bn=1 \
		--arg stride_cm=$S --arg stride_cn=1 --arg A_ptr=$((S * S)) --arg B_ptr=$((S * S)) --arg C_ptr=$((S * S)) \
		--grid $((S / $1)),$((S / $2)) | tail -2
	python3 bench/gemm/reference.py $S $S $S $1 $2 $3 $4
done
