#!/bin/sh
# On a machine with an NVIDIA GPU, torch, triton, cupy and ncu: tutorial
# 09's persistent matmul (probe.py's default kernel) by tritonc and by
# Triton, timed, profiled by ncu (warp states, scheduler, instructions) and
# disassembled, files under OUT for reading side by side.
#   TUTORIALS=DIR OUT=DIR sh bench/persistent/profile.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
: "${TUTORIALS:?give the folder of Triton's tutorials as TUTORIALS=DIR}"
out=${OUT:?give OUT=DIR}
make -s -j16 bin/tritonc >/dev/null || exit 2
bin/tritonc compile "$TUTORIALS/09-persistent-matmul.py" -k matmul_kernel_persistent \
	-s '*fp16,*fp16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16' -D stride_ak=1 -D stride_bk=1 -D stride_cn=1 \
	-D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=128 -D BLOCK_SIZE_K=64 -D GROUP_SIZE_M=8 -D NUM_SMS=132 --num-stages 3 \
	--target cuda:sm_90a -o "$out/p0.cu" || exit 1
CUBIN=$out python3 bench/persistent/probe.py "$TUTORIALS" time p0="$out/p0.cu"
nvcc -cubin -gencode arch=compute_90a,code=sm_90a -std=c++17 -o "$out/p0.cubin" "$out/p0.cu" && cuobjdump -sass "$out/p0.cubin" > "$out/p0.sass"
cuobjdump -sass "$out/triton.cubin" > "$out/triton.sass" 2>&1
timeout 240 ncu --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --section LaunchStats \
	--section SpeedOfLight --metrics smsp__inst_executed.sum,smsp__cycles_active.avg \
	python3 bench/persistent/probe.py "$TUTORIALS" once p0="$out/p0.cu" > "$out/ncu.txt" 2>&1
grep -E "matmul_kernel_persistent|Duration|Issued Ipc|Warp Cycles Per Issued|inst_executed|No Eligible|Stall|Registers Per" "$out/ncu.txt" | head -60
# per-instruction stall samples (SASS), for both kernels: PAGE=1
if [ "${PAGE:-0}" = 1 ]; then
	timeout 300 ncu --section WarpStateStats --section SourceCounters --page source --print-source sass --csv \
		python3 bench/persistent/probe.py "$TUTORIALS" once p0="$out/p0.cu" > "$out/source.csv" 2>&1
	ls -la "$out/source.csv"; head -c 600 "$out/source.csv"
fi
