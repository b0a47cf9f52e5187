#!/bin/sh
# One device call of 2026-12-04 (second session), on a machine with an NVIDIA
# GPU, torch and triton: the lock kernels of tests/exec/locked.py on the GPU
# against the interpreter, the registers ptxas gives tutorial 05's backward
# dx kernel, then every tutorial case (bench/tutorials/run.sh; the backward
# dx case is new) beside Triton.
#   TUTORIALS=DIR sh bench/merge/run_1204b.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
: "${TUTORIALS:?give the folder of Triton's tutorials as TUTORIALS=DIR}"
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
make -s -j16 bin/tritonc >/dev/null || exit 2
sed -n 's/^# run: //p' tests/exec/locked.py | while read -r args; do
	# shellcheck disable=SC2086
	if eval timeout 120 bin/tritonc run tests/exec/locked.py $args --target cuda --check > "$out/check.txt" 2>&1; then
		echo "PASS locked.py $(echo "$args" | cut -c1-40) ($(grep -c ': ok' "$out/check.txt") buffers)"
	else
		echo "FAIL locked.py $args"; tail -4 "$out/check.txt"
	fi
done
bin/tritonc compile "$TUTORIALS/05-layer-norm.py" -k _layer_norm_bwd_dx_fused \
	-s '*fp16,*fp16,*fp16,*fp16,*fp16,*fp16,*fp32,*fp32,*i32,i32:16,i32:16' -D GROUP_SIZE_M=96 \
	-D BLOCK_SIZE_N=8192 --num-warps 8 --target cuda:sm_90a -o "$out/bwd_dx.cu" &&
	nvcc -arch=sm_90a -cubin --resource-usage -std=c++17 -o "$out/bwd_dx.cubin" "$out/bwd_dx.cu" 2>&1 | grep -E 'Used|spill'
TUTORIALS=$TUTORIALS OUT=$out/tut sh bench/tutorials/run.sh 2>&1 | tail -24
