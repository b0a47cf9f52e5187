#!/bin/sh
# Expected text of every stage, cproc-style: for each case NAME the output of
# `tritonc compile ARGS` must equal tests/expected/NAME.EXT, compared with
# diff -u, for each stage:
#   NAME.tir     the tile IR after specialization   (--dump tir)
#   NAME.passes  after the tile-IR passes, axis info (--dump passes)
#   NAME.plan    the lowering's plan for cuda:sm_90     (--dump plan)
#   NAME.simt    the SIMT IR for cuda:sm_90           (--dump simt)
#   NAME.cu      CUDA C for cuda:sm_90
#   NAME.hip     HIP C for hip:gfx90a (64-lane wavefronts)
#   NAME.c       C for c:wave64
# Every corpus kernel is a case (Inductor kernels with the block sizes the
# compiler chooses for them); a few test kernels add one stage each. After a
# change meant to alter the output, refresh every file with
#   make update-expected
# and read `git diff tests/expected` before committing it.
cd "$(dirname "$0")/../.." || exit 2
BIN=${BIN:-bin}
dir=tests/expected
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name|arguments: every stage
all='seed_rmsnorm|examples/rmsnorm.py -s *fp32,*fp32,*fp32,i32,i32:16 -D XBLOCK=2
add_relu_mul_f32|tests/corpus/add_relu_mul_f32.py
broadcast_bias_f16|tests/corpus/broadcast_bias_f16.py
colsum_f32_k0|tests/corpus/colsum_f32.py -k triton_red_fused_sum_0
colsum_f32_k1|tests/corpus/colsum_f32.py -k triton_per_fused_sum_1
cumsum_f32|tests/corpus/cumsum_f32.py
embedding_f32|tests/corpus/embedding_f32.py
gelu_tanh_bf16|tests/corpus/gelu_tanh_bf16.py
gemm|tests/corpus/gemm.py -s *fp16,*fp16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16 -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 --num-stages 3
index_add_f32_k0|tests/corpus/index_add_f32.py -k triton_poi_fused_index_add_0
index_add_f32_k1|tests/corpus/index_add_f32.py -k triton_poi_fused_index_add_1
layernorm_f32_1024|tests/corpus/layernorm_f32_1024.py
log_softmax_f32_777|tests/corpus/log_softmax_f32_777.py
max_argmax_f32|tests/corpus/max_argmax_f32.py
mean_all_f32_k0|tests/corpus/mean_all_f32.py -k triton_red_fused_mean_0
mean_all_f32_k1|tests/corpus/mean_all_f32.py -k triton_per_fused_mean_1
rmsnorm_bf16_4096|tests/corpus/rmsnorm_bf16_4096.py
rmsnorm_f32_4096|tests/corpus/rmsnorm_f32_4096.py
rmsnorm_inductor|tests/corpus/rmsnorm_inductor.py -s *fp32,*fp32,*fp32,i32,i32:16 -D XBLOCK=2
softmax_f16_32000|tests/corpus/softmax_f16_32000.py
softmax_f32_1024|tests/corpus/softmax_f32_1024.py
swiglu_bf16|tests/corpus/swiglu_bf16.py
transpose_add_f32|tests/corpus/transpose_add_f32.py
var_mean_f32|tests/corpus/var_mean_f32.py'

# name|extension|arguments: one stage (.plan files: the lowering's frames, layouts, dots
# and pipelines; gemm_wrapped, gemm_tile_loop, gemm_blocks: tutorial 03's % M, 09's tile loop and
# descriptor blocks on the pipelined wgmma path; attention_causal: q written once, p every iteration, K/V streamed; trans_add_shared.cu and reuse.simt: shared arrays sharing bytes;
# ahead_mixed, rows_softmax_ahead.cu: loads issued an iteration ahead, and one that is not; outer_blocks: the blocks an SM is asked to hold; locked_held, locked_late: not asked when tiles are held through a loop, asked when not;
# kv_grads: attention backward's loops on wgmma, one copy read by two dots, side loads in the consumer, k and v written once for two loops;
# gemm_made_blocks: descriptors made in the kernel of arguments (run-time strides), bulk tensor copies by
# tensor maps the host encodes; gemm_made_batched: A's base computed, 16-byte async copies by the contract;
# wgmma_rows, wgmma_scanned: a wgmma result's frame with rows in the instruction's order, and one with a scan that keeps blocked rows)
one='outer_convert|simt|tests/exec/outer.py -s *fp32,*fp32 -D N=64 --target hip:gfx940 --dump simt
dropout|simt|tests/exec/philox.py -k dropout -s *fp32,*fp32,i32,i32 -D P=0.25 -D BLOCK=1024 --target cuda:sm_90 --dump simt
gemm_pipelined|plan|tests/corpus/gemm.py -s *fp16,*fp16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16 -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 --num-stages 3 --target cuda:sm_90 --dump plan
gemm_wgmma|plan|tests/corpus/gemm.py -s *fp16,*fp16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16 -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 --num-stages 4 --target cuda:sm_90a --dump plan
gemm_mfma|plan|tests/corpus/gemm.py -s *fp16,*fp16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16 -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 --num-stages 3 --target hip:gfx90a --dump plan
gemm_wrapped|plan|tests/exec/gemm_tiles.py -k wrapped -s *fp16,*fp16,*fp16,i32:16,i32:16,i32,i32:16,i32:16,i32:16 -D s_ak=1 -D s_bn=1 -D s_cn=1 -D BM=128 -D BN=256 -D BK=64 -D GROUP=8 --num-warps 8 --num-stages 3 --target cuda:sm_90a --dump plan
gemm_tile_loop|plan|tests/exec/gemm_tiles.py -k tile_loop -s *fp16,*fp16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16 -D s_ak=1 -D s_bn=1 -D s_cn=1 -D BM=128 -D BN=128 -D BK=64 -D GROUP=8 -D PROGRAMS=132 --num-stages 3 --target cuda:sm_90a --dump plan
gemm_hinted|plan|tests/exec/gemm_tiles.py -k hinted -s *fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32 -D s_ak=1 -D s_bn=1 -D s_cn=1 -D BM=128 -D BN=128 -D BK=64 -D GROUP=1 --num-stages 3 --target cuda:sm_90a --dump plan
gemm_blocks|plan|tests/exec/gemm_tiles.py -k blocks -s tensordesc<fp16[128,64]>,tensordesc<fp16[128,64]>,tensordesc<fp16[128,128]>,i32,i32,i32 -D BM=128 -D BN=128 -D BK=64 --num-stages 3 --target cuda:sm_90a --dump plan
gemm_made_blocks|plan|tests/exec/gemm_tiles.py -k made_blocks -s *fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32 -D BM=128 -D BN=128 -D BK=64 --num-stages 3 --target cuda:sm_90a --dump plan
gemm_made_batched|plan|tests/exec/gemm_tiles.py -k made_batched -s *fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32 -D BM=128 -D BN=128 -D BK=64 --num-stages 3 --target cuda:sm_90a --dump plan
wgmma_rows|plan|tests/exec/wgmma_rows.py -k rows_reduced -s *fp16,*fp16,*fp32,*fp32,*fp32,*fp32,i32,i32 -D BM=128 -D BN=64 -D BK=32 --num-stages 3 --target cuda:sm_90a --dump plan
wgmma_scanned|plan|tests/exec/wgmma_rows.py -k rows_scanned -s *fp16,*fp16,*fp32,i32,i32 -D BM=128 -D BN=64 -D BK=32 --num-stages 3 --target cuda:sm_90a --dump plan
attention_causal|plan|tests/exec/attention.py -s *fp16,*fp16,*fp16,*fp16,i32,fp32 -D D=64 -D BM=64 -D BN=64 -D CAUSAL=True --num-stages 2 --target cuda:sm_90a --dump plan
gemm_unaligned|plan|tests/corpus/gemm.py -s *fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32 -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=32 --target cuda:sm_90 --dump plan
trans_add|plan|tests/exec/trans.py -k trans_add -s *fp32,*fp32,*fp32,*fp32,*fp32,*fp32,i32:16,i32:16 -D BM=32 -D BN=16 --target hip:gfx90a --dump plan
reuse|simt|tests/exec/reuse.py -s *fp64,*fp64,*fp64 -D B=128 --target c --dump simt
trans_add_shared|cu|tests/exec/trans.py -k trans_add -s *fp32,*fp32,*fp32,*fp32,*fp32,*fp32,i32:16,i32:16 -D BM=32 -D BN=16 --target cuda:sm_90
ahead_mixed|plan|tests/exec/ahead.py -k ahead_mixed -s *fp32,*fp32,*fp32,i32 -D BLOCK=64 --num-warps 2 --target cuda:sm_90 --dump plan
rows_softmax_ahead|cu|tests/exec/ahead.py -k rows_softmax -s *fp32,*fp32,i32,i32,i32 -D BLOCK=128 -D STAGES=4 --num-warps 4 --target cuda:sm_90
outer_blocks|plan|tests/exec/outer.py -s *fp32,*fp32 -D N=64 --target cuda:sm_90 --dump plan
locked_held|plan|tests/exec/locked.py -k grouped_rows -s *fp32,*fp32,*fp32,*fp32,*i32,i32 -D GROUPS=3 -D BLOCK=1024 --num-warps 1 --target cuda:sm_90 --dump plan
locked_late|plan|tests/exec/locked.py -k grouped_rows_late -s *fp32,*fp32,*i32,i32 -D GROUPS=2 -D BLOCK=1024 --num-warps 1 --target cuda:sm_90 --dump plan
kv_grads|plan|tests/exec/kv_grads.py -k kv_grads -s *fp16,*fp16,*fp16,*fp16,*fp32,*fp32,*fp16,*fp16,i32 -D D=64 -D BM=32 -D BN=128 --num-stages 3 --target cuda:sm_90a --dump plan'

stage_args() { # extension: what selects that stage
	case $1 in
	tir) echo "--dump tir" ;;
	passes) echo "--target cuda:sm_90 --dump passes" ;;
	plan) echo "--target cuda:sm_90 --dump plan" ;;
	simt) echo "--target cuda:sm_90 --dump simt" ;;
	cu) echo "--target cuda:sm_90" ;;
	hip) echo "--target hip:gfx90a" ;;
	c) echo "--target c:wave64" ;;
	esac
}

check() { # name extension arguments...
	name=$1 ext=$2
	shift 2
	out="$tmp/$name.$ext"
	if ! "$BIN/tritonc" compile "$@" -o "$out" 2>"$tmp/err"; then
		echo "FAIL expected $name.$ext: tritonc failed: $(grep -v 'note:' "$tmp/err" | head -2)"
	elif [ -n "$UPDATE" ]; then
		cp "$out" "$dir/$name.$ext"
		echo "PASS expected $name.$ext (updated)"
	elif [ ! -f "$dir/$name.$ext" ]; then
		echo "FAIL expected $name.$ext: no such file (make update-expected writes it)"
	elif diff -u "$dir/$name.$ext" "$out" >"$tmp/diff"; then
		echo "PASS expected $name.$ext"
	else
		echo "FAIL expected $name.$ext differs from the expected text:"
		head -40 "$tmp/diff"
	fi
}

# shellcheck disable=SC2086
echo "$all" | while IFS='|' read -r name args; do
	for ext in tir passes plan simt cu hip c; do
		check "$name" "$ext" $args $(stage_args $ext)
	done
done
# shellcheck disable=SC2086
echo "$one" | while IFS='|' read -r name ext args; do
	check "$name" "$ext" $args
done
