#!/bin/sh
# On a machine with an NVIDIA GPU, torch, triton, cupy and ncu: where the
# one-program-per-SM wgmma kernels (tutorial 09's persistent matmul, and
# tutorial 03's with KERNEL=matmul03) spend their time, by tritonc and by
# Triton from the same source: DRAM and L2 traffic, L2 hit rate, the
# tensor pipe's activity, shared-memory pipe use, one launch each under ncu.
#   TUTORIALS=DIR OUT=DIR sh bench/persistent/memprof.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
: "${TUTORIALS:?give the folder of Triton's tutorials as TUTORIALS=DIR}"
out=${OUT:?give OUT=DIR}
make -s -j16 bin/tritonc >/dev/null || exit 2
bin/tritonc compile "$TUTORIALS/09-persistent-matmul.py" -k matmul_kernel_persistent \
	-s '*fp16,*fp16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16' -D stride_ak=1 -D stride_bk=1 -D stride_cn=1 \
	-D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=128 -D BLOCK_SIZE_K=64 -D GROUP_SIZE_M=8 -D NUM_SMS=132 --num-stages 3 \
	--target cuda:sm_90a -o "$out/p0.cu" || exit 1
bin/tritonc compile "$TUTORIALS/03-matrix-multiplication.py" -k matmul_kernel \
	-s '*fp16,*fp16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16' -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 \
	-D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=256 -D BLOCK_SIZE_K=64 -D GROUP_SIZE_M=8 -D 'ACTIVATION=""' \
	--num-warps 8 --num-stages 3 --target cuda:sm_90a -o "$out/m0.cu" || exit 1
ncu --query-metrics 2>/dev/null | grep -iE 'gmma|pipe_tensor' | head -20 > "$out/metrics.txt"
cat "$out/metrics.txt"
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sector_op_read_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg.per_second,smsp__warps_issue_stalled_dispatch_stall.sum,smsp__warps_issue_stalled_mio_throttle.sum,smsp__warps_issue_stalled_lg_throttle.sum,smsp__warps_issue_stalled_barrier.sum,smsp__warps_issue_stalled_wait.sum,smsp__warps_issue_stalled_long_scoreboard.sum,smsp__warps_issue_stalled_math_pipe_throttle.sum
for g in $(sed -n 's/^ *\([a-z_]*gmma[a-z_]*\).*/\1/p' "$out/metrics.txt" | head -4); do m="$m,$g.avg.pct_of_peak_sustained_elapsed"; done
for k in persistent matmul03; do
	if [ $k = matmul03 ]; then f=m0; else f=p0; fi
	KERNEL=$k timeout 200 ncu -k regex:matmul_kernel --metrics "$m" python3 bench/persistent/probe.py "$TUTORIALS" once $f="$out/$f.cu" > "$out/ncu_$k.txt" 2>&1
	echo "== $k"; grep -E '^  [a-z_]+ |matmul_kernel|^    [a-z]' "$out/ncu_$k.txt" | grep -v '^==PROF' | head -60
done
