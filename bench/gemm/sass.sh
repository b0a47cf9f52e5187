#!/bin/sh
# The instructions the seed GEMM's CUDA output becomes (nvcc, cuobjdump):
# tensor-core HMMA (mma.sync) or HGMMA (wgmma), LDSM (ldmatrix), LDGSTS
# (cp.async), and the registers and spills ptxas reports. On a machine with
# the CUDA toolkit:
#   ARCH=sm_90a sh bench/gemm/sass.sh [BLOCK_M BLOCK_N BLOCK_K WARPS STAGES]
# (ARCH=sm_90: mma.sync, the default; sm_90a: wgmma)
set -e
cd "$(dirname "$0")/../.."
make -j16 bin/tritonc >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin/tritonc compile tests/corpus/gemm.py -s '*fp16,*fp16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16' \
	-D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=${1:-128} -D BLOCK_N=${2:-128} -D BLOCK_K=${3:-64} \
	--num-warps ${4:-4} --num-stages ${5:-3} --target cuda:${ARCH:-sm_90} -o "$tmp/gemm.cu"
nvcc -arch=${ARCH:-sm_90} -cubin -Xptxas -v "$tmp/gemm.cu" -o "$tmp/gemm.cubin" 2>&1 | grep -E 'registers|spill'
for op in HMMA HGMMA LDSM LDGSTS; do
	echo "$op: $(cuobjdump -sass "$tmp/gemm.cubin" | grep -c "$op\.")"
done
