#!/bin/sh
# The seed GEMM (tests/corpus/gemm.py), fp16: tritonc's CUDA output, both
# strategies (sm_90a: wgmma reading the operands from shared memory; sm_90:
# mma.sync m16n8k16 fed by ldmatrix; operands copied by cp.async num_stages
# deep) against real Triton compiling the same source with the same
# constexprs (its default, wgmma, and mma.sync) and against cuBLAS, in one
# run, on a machine with an NVIDIA GPU, torch and
# triton:   sh bench/gemm/run.sh
# (SIZES="4096" and CONFIGS="128 128 64 4 3;..." choose what runs; BT=1
# multiplies by a B stored N x K, as x @ w.T does.)
# Integers equal to 1 are constants and the others multiples of 16, as
# Triton specializes them. Prints one line per measurement, a table last.
set -e
cd "$(dirname "$0")/../.."
make -j16 bin/tritonc >/dev/null
nvcc -O3 -arch=sm_90 bench/gemm/hmma_peak.cu -o "${TMPDIR:-/tmp}/hmma_peak" && "${TMPDIR:-/tmp}/hmma_peak"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SIG='*fp16,*fp16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16'
table=""
# CONFIGS: BLOCK_M BLOCK_N BLOCK_K WARPS STAGES, configurations separated by ';'
configs=$(echo "${CONFIGS:-128 128 64 4 3;128 128 64 8 3;128 256 64 8 3;128 128 32 4 4;128 128 64 4 1}" | tr ' ;' '_ ')
# BT=1: B stored N x K (x @ w.T), contiguous along K
if [ "${BT:-0}" = 1 ]; then b_unit=stride_bk b_stride=stride_bn; else b_unit=stride_bn b_stride=stride_bk; fi
export BT
sizes=${SIZES:-4096 8192}
first_size=${sizes%% *}
for S in $sizes; do
	first=1
	for cfg in $configs; do
		set -- $(echo "$cfg" | tr '_' ' ')
		cfg="$*"
		save=""   # outputs checked for every block at the first size, the first block after
		if [ $first = 1 ] || [ "$S" = "$first_size" ]; then save=1; fi
		ours=""
		for arch in sm_90a sm_90; do   # wgmma, then mma.sync
			line=$(timeout ${CASE_LIMIT:-120} bin/tritonc run tests/corpus/gemm.py -s "$SIG" -D stride_ak=1 -D $b_unit=1 -D stride_cn=1 \
				-D BLOCK_M=$1 -D BLOCK_N=$2 -D BLOCK_K=$3 --num-warps $4 --num-stages $5 --target cuda:$arch --bench \
				${save:+--save $tmp} --arg M=$S --arg N=$S --arg K=$S --arg stride_am=$S --arg $b_stride=$S \
				--arg stride_cm=$S --arg A_ptr=$((S * S)) --arg B_ptr=$((S * S)) --arg C_ptr=$((S * S)) \
				--grid $((S / $1)),$((S / $2)) | grep '^bench:')
			ms=$(echo "$line" | sed 's/.*median \([0-9.]*\) ms.*/\1/')
			tf=$(python3 -c "print(f'{2 * $S ** 3 / $ms / 1e9:.1f}')")
			echo "tritonc $arch gemm ${S}^3 $cfg: ms=$ms TFLOP/s=$tf"
			ours="$ours $tf"
			if [ -n "$save" ]; then   # check each strategy's output
				python3 bench/gemm/reference.py $S $S $S $1 $2 $3 $4 $5 $tmp | grep '^tritonc output' | sed "s/^/$arch: /"
				rm -f "$tmp"/*
			fi
		done
		set -- $cfg $ours
		wg=$6 mm=$7
		ref=$(python3 bench/gemm/reference.py $S $S $S $1 $2 $3 $4 $5)
		ref2=$(DISABLE_MMA_V3=1 python3 bench/gemm/reference.py $S $S $S $1 $2 $3 $4 $5)
		echo "$ref"
		echo "$ref2"
		tri=$(echo "$ref" | sed -n 's/^triton gemm.*TFLOP\/s=\([0-9.]*\).*/\1/p')
		trm=$(echo "$ref2" | sed -n 's/^triton-mma.sync.*TFLOP\/s=\([0-9.]*\).*/\1/p')
		cub=$(echo "$ref" | sed -n 's/^cublas.*TFLOP\/s=\([0-9.]*\).*/\1/p')
		table="$table
| ${S}^3 | $1 x $2 x $3, $4 warps, $5 stages | $wg | $mm | $trm | $tri | $cub | $(python3 -c "print(f'{$wg / $tri:.2f} | {$mm / $trm:.2f}')") |"
		first=0
		rm -f "$tmp"/*
	done
done
echo
echo "| size | BLOCK_M x N x K, warps, stages | tritonc wgmma | tritonc mma.sync | Triton mma.sync | Triton (wgmma) | cuBLAS | tritonc wgmma / Triton | tritonc mma.sync / Triton mma.sync |"
echo "|---|---|---|---|---|---|---|---|---|"
echo "$table" | sed '/^$/d'
