#!/bin/sh
# One device call of 2026-12-04, on a machine with an NVIDIA GPU, torch and
# triton: descriptors made in the kernel of arguments on the bulk tensor copy
# engine (tritonc run --check against the interpreter), then the tutorial
# cases (bench/tutorials/run.sh) and tutorial 08 through tritonc beside
# Triton (bench/merge/run_0303d.sh).
#   TUTORIALS=DIR sh bench/merge/run_1204.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
: "${TUTORIALS:?give the folder of Triton's tutorials as TUTORIALS=DIR}"
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
make -s -j16 bin/tritonc >/dev/null || exit 2
check() {
	if timeout 120 bin/tritonc run "$@" --target cuda --check > "$out/check.txt" 2>&1; then
		echo "PASS $*" | cut -c1-100
	else
		echo "FAIL $*" | cut -c1-100
		tail -4 "$out/check.txt"
	fi
}
[ "${CHECKS:-1}" = 1 ] && for sig in i32,i32,i32,i32,i32,i32 i64,i32,i64,i32,i64,i32; do
	check tests/exec/gemm_tiles.py -k made_blocks -s "*fp16,*fp16,*fp16,$sig" -D BM=128 -D BN=128 -D BK=64 \
		--num-stages 3 --arg M=200 --arg N=136 --arg K=77 --arg s_a=80 --arg s_b=80 --arg s_c=136 \
		--arg a_ptr=16000 --arg b_ptr=10880 --arg c_ptr=27200 --grid 2,2
done
[ "${CHECKS:-1}" = 1 ] && check tests/exec/gemm_tiles.py -k made_batched -s '*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32' \
	-D BM=128 -D BN=128 -D BK=64 --num-stages 3 --arg M=200 --arg N=136 --arg K=77 --arg s_a=80 --arg s_b=80 \
	--arg s_c=136 --arg a_ptr=32000 --arg b_ptr=10880 --arg c_ptr=54400 --grid 2,2,2
OUT=$out sh bench/merge/run_0303d.sh
