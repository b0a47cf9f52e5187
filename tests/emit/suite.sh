#!/bin/sh
# Every target's output for the seed kernel, Inductor kernels and test
# kernels is accepted by the compiler that target uses: nvcc for CUDA
# (sm_90), hipcc for HIP (gfx90a, gfx940: 64-lane; gfx1030: 32-lane), cc
# for C. A missing hipcc or cc is a failure; a missing nvcc (not a Debian
# package) is reported as SKIP on its own line. The CUDA and HIP outputs
# of all cases go to their compiler in one file a target (compile_bundle).
cd "$(dirname "$0")/../.." || exit 2
BIN=${BIN:-bin}
tmp=$(mktemp -d)
# hipcc and clang make their temporary folders under TMPDIR and leave
# some behind: here they go with the rest
mkdir "$tmp/tmpdir"
TMPDIR=$tmp/tmpdir
export TMPDIR
trap 'rm -rf "$tmp"' EXIT
NVCC=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })

# name|file|options
cases='seed_fp32|tests/corpus/rmsnorm_inductor.py|-s *fp32,*fp32,*fp32,i32,i32:16 -D XBLOCK=2
seed_bf16|tests/corpus/rmsnorm_inductor.py|-s *bf16,*bf16,*bf16,i32,i32 -D XBLOCK=4 --num-warps 8
rmsnorm_f32_4096|tests/corpus/rmsnorm_f32_4096.py|-D XBLOCK=1 -D R0_BLOCK=1024 --num-warps 8
softmax_f32_1024|tests/corpus/softmax_f32_1024.py|-D XBLOCK=1 --num-warps 8
add_relu_mul_f32|tests/corpus/add_relu_mul_f32.py|-D XBLOCK=1024
gemm_fp16|tests/corpus/gemm.py|-s *fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32 -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=32
gemm_fp16_pipelined|tests/corpus/gemm.py|-s *fp16,*fp16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16 -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 --num-stages 3
gemm_wrapped|tests/exec/gemm_tiles.py|-k wrapped -s *fp16,*fp16,*fp16,i32:16,i32:16,i32,i32:16,i32:16,i32:16 -D s_ak=1 -D s_bn=1 -D s_cn=1 -D BM=128 -D BN=128 -D BK=64 -D GROUP=8 --num-stages 3
gemm_tile_loop|tests/exec/gemm_tiles.py|-k tile_loop -s *fp16,*fp16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16 -D s_ak=1 -D s_bn=1 -D s_cn=1 -D BM=128 -D BN=128 -D BK=64 -D GROUP=8 -D PROGRAMS=132
gemm_blocks|tests/exec/gemm_tiles.py|-k blocks -s tensordesc<fp16[128,64]>,tensordesc<fp16[128,64]>,tensordesc<fp16[128,128]>,i32,i32,i32 -D BM=128 -D BN=128 -D BK=64
gemm_mma_tf32|tests/exec/gemm_acc.py|-k gemm_acc -s *fp32,*fp32,*fp32,i32,i32,i32,i32,i32,i32 -D ACC=tl.float32 -D PREC="tf32" -D BT=0 -D BM=128 -D BN=128 -D BK=32 --num-warps 8
gemm_mma_tf32x3|tests/exec/gemm_acc.py|-k gemm_acc -s *fp32,*fp32,*fp32,i32,i32,i32,i32:16,i32:16,i32:16 -D ACC=tl.float32 -D PREC="tf32x3" -D BT=1 -D BM=64 -D BN=64 -D BK=32 --num-stages 3
gemm_mma_int8|tests/exec/gemm_acc.py|-k gemm_acc -s *i8,*i8,*i32,i32,i32,i32,i32:16,i32:16,i32:16 -D ACC=tl.int32 -D PREC=None -D BT=1 -D BM=64 -D BN=64 -D BK=64 --num-stages 3
gemm_mfma_ieee|tests/exec/gemm_acc.py|-k gemm_acc -s *fp32,*fp32,*fp32,i32,i32,i32,i32,i32,i32 -D ACC=tl.float32 -D PREC="ieee" -D BT=0 -D BM=64 -D BN=64 -D BK=32 --num-warps 4
gemm_mfma_int8_k32|tests/exec/gemm_acc.py|-k gemm_forms -s *i8,*i8,*i32,i32,i32,i32 -D ACC=tl.int32 -D PREC=None -D FORM=1 -D BM=64 -D BN=64 -D BK=32 --num-warps 4
gemm_bf16_pipelined|tests/corpus/gemm.py|-s *bf16,*bf16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16 -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=64 -D BLOCK_N=128 -D BLOCK_K=32 --num-warps 8 --num-stages 4
attention|tests/exec/attention.py|-s *fp16,*fp16,*fp16,*fp16,i32,fp32 -D D=64 -D BM=64 -D BN=64 -D CAUSAL=True --num-stages 2
kv_grads|tests/exec/kv_grads.py|-k kv_grads -s *fp16,*fp16,*fp16,*fp16,*fp32,*fp32,*fp16,*fp16,i32 -D D=64 -D BM=32 -D BN=128 --num-stages 3
loops|tests/exec/loops.py|-k rowsum -s *fp32,*fp32,i32 -D BLOCK=256 -D ROWS=2
gather_assert|tests/exec/gather.py|-k gather -s *i32,*fp32,*fp32,i32 -D LIMIT=16 -D BLOCK=128
max_argmax_f32|tests/corpus/max_argmax_f32.py|-D XBLOCK=1 -D R0_BLOCK=1024 --num-warps 8
index_add_atomic|tests/corpus/index_add_f32.py|-k triton_poi_fused_index_add_1 -D YBLOCK=16 -D XBLOCK=32
cumsum_f32|tests/corpus/cumsum_f32.py|-D XBLOCK=1 --num-warps 8
scan_rows|tests/exec/scan.py|-k tiles -s *fp32,*i32,*fp32,*i32 -D ROWS=32 -D COLS=8 -D AXIS=1 -D REVERSE=1
scan_columns|tests/exec/scan.py|-k tiles -s *fp32,*i32,*fp32,*i32 -D ROWS=64 -D COLS=16 -D AXIS=0 -D REVERSE=0 --num-warps 8
scan_line|tests/exec/scan.py|-k line -s *fp32,*i32,*fp32,*i32,i32 -D BLOCK=4096 -D REVERSE=1
scan_dot|tests/exec/scan.py|-k dot_scan -s *fp16,*fp16,*fp32 -D M=64 -D N=32 -D K=32
scan_loop|tests/exec/scan.py|-k chunks -s *fp32,*fp32,i32 -D BLOCK=256
outer_convert|tests/exec/outer.py|-s *fp32,*fp32 -D N=64
philox|tests/exec/philox.py|-k philox -s i64,*fp32,*fp32,*u32 -D BLOCK=256
dropout|tests/exec/philox.py|-k dropout -s *fp32,*fp32,i32,i32 -D P=0.25 -D BLOCK=1024
trans_add|tests/exec/trans.py|-k trans_add -s *fp32,*fp32,*fp32,*fp32,*fp32,*fp32,i32:16,i32:16 -D BM=32 -D BN=16
convert_masks|tests/exec/convert.py|-k masks -s *fp32,*i32,*fp32 -D B=32 --num-warps 8
argmax_tiles|tests/exec/reduce.py|-k indices -s *fp32,*i32,*fp32,*i32 -D ROWS=8 -D COLS=32 -D NANS=1 --num-warps 4
argmax_line|tests/exec/reduce.py|-k line -s *fp32,*i32,i32 -D BLOCK=4096 --num-warps 8
reduce_combine_rows|tests/exec/reduce.py|-k combines -s *fp32,*i32,*fp32,*i32 -D ROWS=8 -D COLS=32 -D AXIS=1 -D OTHER=8 --num-warps 4
reduce_combine_cols|tests/exec/reduce.py|-k combines -s *fp32,*i32,*fp32,*i32 -D ROWS=64 -D COLS=64 -D AXIS=0 -D OTHER=64 --num-warps 8
while_strided|tests/exec/whiles.py|-k strided -s *fp32,*fp32,i32 -D BLOCK=256
while_collatz|tests/exec/whiles.py|-k collatz -s *i32,*i32 -D LIMIT=100 -D BLOCK=32 --num-warps 1
while_shrink|tests/exec/whiles.py|-k shrink -s *fp32,*fp32 -D BLOCK=1024 --num-warps 8
jump_first_negative|tests/exec/jumps.py|-k first_negative -s *fp32,*fp32,*i32,i32 -D BLOCK=1024 --num-warps 8
jump_scan_table|tests/exec/jumps.py|-k scan_table -s *i32,*i32,i32 -D LIMIT=90 --num-warps 1
mathfns_fp32|tests/exec/mathfns.py|-s *fp32,*fp32,*fp32,*i32 -D BLOCK=256
mathfns_fp64|tests/exec/mathfns.py|-s *fp64,*fp64,*fp64,*i32 -D BLOCK=256
intdiv_i32|tests/exec/intdiv.py|-s *i32,*i32,*i32,*i32,i32 -D BLOCK=128
intdiv_u8|tests/exec/intdiv.py|-s *u8,*u8,*u8,*u8,i32 -D BLOCK=128
atomics_rmw|tests/exec/atomics.py|-k rmw -s *i32,*i32,*i32,*i32,i32 -D BLOCK=64
atomics_floats|tests/exec/atomics.py|-k floats -s *fp32,*fp32,*fp32 -D BLOCK=128
atomics_locked|tests/exec/atomics.py|-k locked -s *i32,*i32,*i32 -D BLOCK=32 --num-warps 1
split_scan_bf16|tests/heldout/cumsum_bf16.py|
split_scan64|tests/exec/splitscan.py|-k split_scan64 -s *i64,*i64,*u8,i32,i32 -D R0_BLOCK=32 --num-warps 1
lang_builtins|tests/exec/lang.py|-k builtins -s *fp32,*fp16,*fp32,i32,i32 -D BLOCK=64 -D ACT="leaky" -D OUT=tl.float16 -D BIAS=0.5 -D PAIR=(2,3) --num-warps 2
lang_pointers|tests/exec/lang.py|-k pointers -s *i64,*fp32,*fp32,i32 -D BLOCK=128
uint16_mix|tests/exec/uint16.py|-k mix16 -s *u16,*u16,*i16,*u16,*i32,*fp32,i32 -D B=128
uint16_scale|tests/exec/uint16.py|-k scale16 -s *u16,*u16,i32,i32 -D B=16 --num-warps 2
dot3_fp16|tests/exec/dot3.py|-k bmm -s *fp16,*fp16,*fp32,i32,i32,i32,i32 -D ACC=tl.float32 -D PREC=None -D BB=2 -D BM=16 -D BN=32 -D BK=32
early_rows|tests/exec/early_return.py|-k rows_early -s *fp32,*fp32,i32,i32 -D B=64 --num-warps 2
early_find|tests/exec/early_return.py|-k find_first -s *i32,*i32,i32,i32 -D B=32 --num-warps 1
early_helper|tests/exec/early_return.py|-k helper_return -s *fp32,*fp32,*fp32,i32 -D B=64 --num-warps 2
rtz_downcast|tests/exec/rounding.py|-s *i32,*fp16,*bf16,*fp16,i32 -D B=256
dot3_once|tests/exec/dot3.py|-k bmm_once -s *fp16,*fp16,*fp16,i32,i32,i32,i32 -D BB=2 -D BM=16 -D BN=32 -D BK=32
desc_tiles|tests/exec/descriptors.py|-k tiles -s *fp32,*fp32,i32,i32 -D BM=16 -D BN=32
desc_from_host|tests/exec/descriptors.py|-k from_host -s tensordesc<fp32[16,32]>,tensordesc<fp16[16,32]>,i32 -D BK=32
desc_cube|tests/exec/descriptors.py|-k cube -s *fp32,*fp32,i32,i32,i32 -D BA=2 -D BB=4 -D BC=8 --num-warps 2
shapes_halves|tests/exec/shapes.py|-k halves -s *fp32,*fp32,*fp32,i32,i32 -D BM=16 -D BN=32
shapes_mix|tests/exec/shapes.py|-k mix -s *fp32,*fp32,*fp32,*fp32,*fp32,i32 -D B=64 --num-warps 2
shapes_flat|tests/exec/shapes.py|-k flat -s *fp32,*fp32,*fp32 -D R=8 -D C=16
fp8_widen|tests/exec/fp8.py|-k widen -s *fp8e5,*fp32,*fp16,*bf16,i32 -D B=256
fp8_narrow|tests/exec/fp8.py|-k narrow -s *fp32,*fp8e4nv,*fp32,i32 -D DT=tl.float8e4nv -D SCALE=600.0 -D B=256
fp8_narrow16|tests/exec/fp8.py|-k narrow16 -s *fp16,*u8,i32 -D DT=tl.float8e4b15 -D B=128
fp8_dot|tests/exec/fp8.py|-k fp8_dot -s *fp8e4nv,*fp8e5,*fp32,i32,i32,i32 -D BM=64 -D BN=64 -D BK=32
rank_five|tests/exec/rank.py|-k five -s *fp32,*fp32,*fp32,i32 -D B=256
rank_eight|tests/exec/rank.py|-k eight -s *fp32,*fp32,i32 -D B=512 --num-warps 8
sort_rows|tests/exec/sorting.py|-k rows -s *fp32,*fp32,*fp32,*fp32,*fp32,i32 -D N=64 -D BM=4 -D K=8
sort_columns|tests/exec/sorting.py|-k columns -s *i32,*i32,*i32,*i32,*i32,i32 -D BM=32 -D BN=16
histogram|tests/exec/sorting.py|-k hist -s *i32,*i32,i32 -D BINS=16 -D B=128
twoway_dk|tests/exec/twoway.py|-k twoway_t -s *fp16,*fp16,*fp16,*fp32,*fp32,*fp16,i32 -D BN=64 -D BM=32 -D D=32
device_print|tests/exec/printing.py|-k show -s *fp32,*fp32,i32 -D B=64
dot_scaled_mx|tests/exec/dot_scaled.py|-k scaled_mm -s *u8,*i32,*u8,*i32,*fp32,i32,i32,i32 -D FA="e2m1" -D FB="e4m3" -D SCALE_A=True -D SCALE_B=True -D NAN_AT=-1 -D FAST=False -D BM=64 -D BN=64 -D BK=64
dot_scaled_nvfp4|tests/exec/dot_scaled.py|-k scaled_nvfp4 -s *u8,*fp8e4nv,*u8,*fp8e4nv,*fp32,i32,i32,i32 -D BM=32 -D BN=32 -D BK=64
dots_share|tests/exec/dots_share.py|-k three_dots -s *fp16,*fp16,*fp32,i32,i32,i32 -D BM=128 -D BN=128 -D BK=64
fit_tiles_split|tests/exec/fit64k.py|-k tiles_split -s *fp16,*fp16,*fp16,i32,i32,i32 -D BM=128 -D BN=128 -D BK=64 -D PROGRAMS=3 --num-stages 3 --num-warps 8
fit_wide_k|tests/exec/fit64k.py|-k wide_k -s *fp16,*fp16,*fp32,i32,i32,i32 -D BM=128 -D BN=128 -D BK=256 --num-warps 8
fit_wide_k_ieee|tests/exec/fit64k.py|-k wide_k_ieee -s *fp32,*fp32,*fp32,i32,i32,i32 -D BM=64 -D BN=128 -D BK=128'
# inline PTX: for the CUDA targets only (the others give a located error, tests/lang/suite.sh)
cuda_cases='asm_rotate|tests/exec/inline_asm.py|-k rotate -s *u32,*u32,*u32,i32 -D SHIFT=7 -D B=256
asm_min_max|tests/exec/inline_asm.py|-k min_max -s *fp32,*fp32,*fp32,*fp32,i32,i32 -D BM=16 -D BN=64
asm_halves|tests/exec/inline_asm.py|-k halves -s *fp16,*fp16,*u32,i32 -D B=128
asm_bytes4|tests/exec/inline_asm.py|-k bytes4 -s *u8,*u8,*u8,i32 -D B=1024
asm_halves2|tests/exec/inline_asm.py|-k halves2 -s *fp16,*fp16,*fp16,*fp16,i32,i32 -D BM=16 -D BN=64
asm_mixed4|tests/exec/inline_asm.py|-k mixed4 -s *u8,*fp32,*fp32,i32 -D B=1024
asm_neighbours|tests/exec/inline_asm.py|-k neighbours -s *u8,*fp16,*u8,*fp16,i32 -D B=1024'

# One case for a target: $out is its output, or the case fails here.
emit_one() { # name file opts target ext
	out="$tmp/$1-$(echo "$4" | tr ':' '_').$5"
	if ! "$BIN/tritonc" compile $2 $3 --target "$4" -o "$out" 2>"$tmp/err"; then
		echo "FAIL emit $1 $4: tritonc failed: $(head -3 "$tmp/err")"
		return 1
	fi
}

compile_with() { # name target ext command... (one case, one compiler run)
	name=$1 target=$2 ext=$3
	shift 3
	emit_one "$name" "$file" "$opts" "$target" "$ext" || return
	if "$@" "$out" -o "$out.o" >"$tmp/log" 2>&1; then
		echo "PASS emit $name $target: $1 accepts it"
	else
		echo "FAIL emit $name $target: $1 rejects it:"
		head -20 "$tmp/log"
	fi
}

# Every case (of those whose name matches PATTERN) for a CUDA or HIP target
# in one compiler run: each output in a namespace of its own, its extern "C"
# kernel renamed after the case. When the bundle is rejected, each case is
# compiled alone to say which.
compile_bundle() { # target ext pattern header command...
	target=$1 ext=$2 pattern=$3 header=$4
	shift 4
	bundle="$tmp/bundle-$(echo "$target" | tr ':' '_').$ext"
	echo "$header" >"$bundle"
	: >"$tmp/bundled"
	echo "$cases" | while IFS='|' read -r name file opts; do
		case $name in $pattern) ;; *) continue ;; esac
		emit_one "$name" "$file" "$opts" "$target" "$ext" || continue
		kernel=$(awk '/__global__/ { getline; sub(/\(.*/, ""); print; exit }' "$out")   # the line after
		{ echo "namespace case_$name {"; sed "s/\b$kernel\b/${kernel}_$name/g" "$out"; echo "}"; } >>"$bundle"
		echo "$name|$file|$opts" >>"$tmp/bundled"
	done
	if "$@" "$bundle" -o "$bundle.o" >"$tmp/log" 2>&1; then
		while IFS='|' read -r name file opts; do
			echo "PASS emit $name $target: $1 accepts it"
		done <"$tmp/bundled"
	else
		while IFS='|' read -r name file opts; do
			compile_with "$name" "$target" "$ext" "$@"
		done <"$tmp/bundled"
	fi
}

echo "$cases" | while IFS='|' read -r name file opts; do
	compile_with "$name" c c cc -std=c11 -O1 -Wall -Werror -Wno-unused-variable -Wno-unused-function -c
	case $name in   # the C that models wgmma
	gemm_*|attention|kv_grads) compile_with "$name" c:wgmma c cc -std=c11 -O1 -Wall -Werror -Wno-unused-variable -Wno-unused-function -c ;;
	esac
done
for arch in gfx90a gfx940 gfx1030; do
	if command -v hipcc >/dev/null; then
		compile_bundle "hip:$arch" hip '*' '#include <hip/hip_runtime.h>' hipcc --offload-arch=$arch -c
	else
		echo "FAIL emit hip:$arch: hipcc is not installed (scripts/setup.sh installs it)"
	fi
done
# fp32 and int8 dots on MFMA: the HIP output calls the instruction of its
# architecture (gfx90a: f32 16x16x4 for every precision, i32 16x16x16; gfx940:
# xf32 16x16x8 for tf32, i32 16x16x32), never another's, and gfx1030 (no
# MFMA) none
mfma_builtins='gemm_mma_tf32 gfx90a mfma_f32_16x16x4f32
gemm_mma_tf32 gfx940 mfma_f32_16x16x8_xf32
gemm_mma_tf32x3 gfx940 mfma_f32_16x16x4f32
gemm_mfma_ieee gfx90a mfma_f32_16x16x4f32
gemm_mfma_ieee gfx940 mfma_f32_16x16x4f32
gemm_mma_int8 gfx90a mfma_i32_16x16x16i8
gemm_mma_int8 gfx940 mfma_i32_16x16x32_i8
gemm_mfma_int8_k32 gfx90a mfma_i32_16x16x16i8
gemm_mfma_int8_k32 gfx940 mfma_i32_16x16x32_i8
gemm_mma_int8 gfx1030 -
gemm_mma_tf32 gfx1030 -'
echo "$mfma_builtins" | while read -r name arch builtin; do
	line=$(echo "$cases" | grep "^$name|")
	file=$(echo "$line" | cut -d'|' -f2)
	opts=$(echo "$line" | cut -d'|' -f3)
	emit_one "$name" "$file" "$opts" "hip:$arch" hip || continue
	found=$(grep -o '__builtin_amdgcn_mfma_[a-z0-9_]*' "$out" | sort -u | tr '\n' ' ')
	helper=$(grep -o 'tc_mfma_[0-9a-z_]*(' "$out" | sort | uniq -c | awk '$1 >= 2' | wc -l)
	if [ "$builtin" = - ] && [ -z "$found" ]; then
		echo "PASS emit $name hip:$arch: no MFMA"
	elif [ "$found" = "__builtin_amdgcn_$builtin " ] && [ "$helper" -ge 1 ]; then
		echo "PASS emit $name hip:$arch: the dot by __builtin_amdgcn_$builtin"
	else
		echo "FAIL emit $name hip:$arch: wanted ${builtin}, the output has: ${found:-no MFMA}"
	fi
done
if [ -n "$NVCC" ]; then
	cases="$cases
$cuda_cases"
	# -cubin: the device pass only (cicc, then ptxas, which checks the inline
	# PTX); the output is device code, so the host pass has nothing to check.
	compile_bundle cuda:sm_90 cu '*' '#include <cstdio>' "$NVCC" -arch=sm_90 -cubin
	compile_bundle cuda:sm_90a cu 'gemm_*' '#include <cstdio>' "$NVCC" -gencode arch=compute_90a,code=sm_90a -cubin   # tl.dot by wgmma
	compile_bundle cuda:sm_80 cu 'gemm_mma_*' '#include <cstdio>' "$NVCC" -arch=sm_80 -cubin   # tf32 and int8 by mma.sync
	compile_bundle cuda:sm_90a cu 'attention' '#include <cstdio>' "$NVCC" -gencode arch=compute_90a,code=sm_90a -cubin   # p from registers
	compile_bundle cuda:sm_90a cu 'kv_grads' '#include <cstdio>' "$NVCC" -gencode arch=compute_90a,code=sm_90a -cubin   # shared copies, side loads
else
	echo "SKIP emit cuda:sm_90: nvcc is not installed here"
fi
