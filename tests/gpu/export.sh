#!/bin/sh
# tritonc export on an NVIDIA GPU (part of make gpu-check): the seed
# RMSNorm and GEMM exported for cuda (two variants each), linked into a C
# program that runs them on its own cuMemAlloc'd buffers on two streams in
# two contexts and compares with Triton's outputs (tests/gpu/export_gpu.c,
# tests/gpu/export_triton.py); then the host time of a launch through the
# exported launcher (NAME.c over libcuda, NAME.cu over the CUDA runtime),
# a plain <<<>>> launch and Triton's Python launch (bench/export/).
cd "$(dirname "$0")/../.." || exit 2
BIN=${BIN:-bin}
CC=${CC:-cc}
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
k=$tmp/kernels
RMS=triton_per_fused_mul_pow_rsqrt_0
step() { # what, command...
	what=$1; shift
	if "$@" >"$tmp/log" 2>&1; then return 0; fi
	echo "FAIL gpu export: $what"; tail -20 "$tmp/log"; exit 1
}
step "export rmsnorm" "$BIN/tritonc" export examples/rmsnorm.py -k $RMS -s '*fp32:16,*fp32:16,*fp32:16,i32,i32:16' \
	-D XBLOCK=2 --target cuda:sm_80,cuda:sm_90a -o $k
step "export rmsnorm" "$BIN/tritonc" export examples/rmsnorm.py -k $RMS -s '*fp32,*fp32,*fp32,i32,i32' -D XBLOCK=2 \
	--target cuda:sm_80,cuda:sm_90a -o $k
step "export gemm" "$BIN/tritonc" export tests/corpus/gemm.py -k gemm_triton \
	-s '*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16' -D stride_ak=1 -D stride_bn=1 \
	-D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 --num-stages 3 --grid 'cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)' \
	--target cuda:sm_80,cuda:sm_90a -o $k
step "export gemm" "$BIN/tritonc" export tests/corpus/gemm.py -k gemm_triton \
	-s '*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32' -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=32 --num-stages 3 \
	--grid 'cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)' --target cuda:sm_80,cuda:sm_90a -o $k
# the program's own driver calls link libcuda itself (by its path where there is no libcuda.so to find)
cudalib=$(ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 /{print $NF; exit}')
step "cc export_gpu" $CC -std=c11 -O2 -Wall -Wextra -Werror -pthread -I$k tests/gpu/export_gpu.c $k/$RMS.c $k/gemm_triton.c \
	-o $tmp/export_gpu ${cudalib:--lcuda} -ldl -lm
step "nvcc export_bench" "$NVCC" -O2 -arch=sm_90 -I$k tests/gpu/export_bench.cu -o $tmp/export_bench
mkdir -p $tmp/data
step "inputs" $tmp/export_gpu inputs $tmp/data
step "Triton's outputs" python3 tests/gpu/export_triton.py $tmp/data
grep '^bench' "$tmp/log" >"$tmp/bench"
$tmp/export_gpu check $tmp/data >"$tmp/out"; grep -v '^bench' "$tmp/out"; grep '^bench' "$tmp/out" >>"$tmp/bench"
$tmp/export_gpu bench >"$tmp/out"; grep -v '^bench' "$tmp/out"; grep '^bench' "$tmp/out" >>"$tmp/bench"
$tmp/export_bench >"$tmp/out"; grep -v '^bench' "$tmp/out"; grep '^bench' "$tmp/out" >>"$tmp/bench"
sed 's/^/# /' "$tmp/bench"
