#!/bin/sh
# On a machine with an NVIDIA GPU: 09 persistent and 03 matmuls as generated (p0, m0) and with a
# commit group per operand (two_groups.py: p1, m1), each twice, against Triton.
#   OUT=DIR sh bench/persistent/groups_run.sh TUTORIAL_DIR
make -s -j16 bin/tritonc >/dev/null || exit 2
set -e
T=$1; O=${OUT:?}
bin/tritonc compile $T/09-persistent-matmul.py -k matmul_kernel_persistent -s '*fp16,*fp16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16' -D stride_ak=1 -D stride_bk=1 -D stride_cn=1 -D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=128 -D BLOCK_SIZE_K=64 -D GROUP_SIZE_M=8 -D NUM_SMS=132 --num-stages 3 --target cuda:sm_90a -o $O/p0.cu
bin/tritonc compile $T/03-matrix-multiplication.py -k matmul_kernel -s '*fp16,*fp16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16' -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=256 -D BLOCK_SIZE_K=64 -D GROUP_SIZE_M=8 -D 'ACTIVATION=""' --num-warps 8 --num-stages 3 --target cuda:sm_90a -o $O/m0.cu
python3 bench/persistent/two_groups.py $O/p0.cu $O/p1.cu
python3 bench/persistent/two_groups.py $O/m0.cu $O/m1.cu
python3 bench/persistent/probe.py $T time p0=$O/p0.cu p1=$O/p1.cu p0b=$O/p0.cu p1b=$O/p1.cu
KERNEL=matmul03 python3 bench/persistent/probe.py $T time m0=$O/m0.cu m1=$O/m1.cu m0b=$O/m0.cu m1b=$O/m1.cu
