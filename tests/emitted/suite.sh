#!/bin/sh
# Golden files of emitted code and of the lowering's plan (.plan: frames,
# layouts, dots, pipelines; trans_add_shared.cu and reuse.simt: arrays sharing
# bytes, the second with a barrier of the allocator's own),
# cproc-style: each case's output must equal
# tests/emitted/NAME.EXT; a difference is shown with diff -u. After a change
# that is meant to alter the output, regenerate with
#   UPDATE=1 tests/emitted/suite.sh
# and read the diff before committing it.
cd "$(dirname "$0")/../.." || exit 2
BIN=${BIN:-bin}
dir=tests/emitted
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SEED='examples/rmsnorm.py -s *fp32,*fp32,*fp32,i32,i32:16 -D XBLOCK=2'
GEMM='tests/corpus/gemm.py -s *fp16,*fp16,*fp16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16 -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64'
# name|extension|arguments
cases="seed_rmsnorm|cu|$SEED --target cuda:sm_90
seed_rmsnorm|hip|$SEED --target hip:gfx90a
seed_rmsnorm|c|$SEED --target c:wave64
seed_rmsnorm|simt|$SEED --target cuda:sm_90 --dump simt
seed_rmsnorm|tir|$SEED --dump tir
outer_convert|simt|tests/exec/outer.py -s *fp32,*fp32 -D N=64 --target hip:gfx940 --dump simt
dropout|simt|tests/exec/philox.py -k dropout -s *fp32,*fp32,i32,i32 -D P=0.25 -D BLOCK=1024 --target cuda:sm_90 --dump simt
seed_rmsnorm|plan|$SEED --target cuda:sm_90 --dump plan
gemm_pipelined|plan|$GEMM --num-stages 3 --target cuda:sm_90 --dump plan
gemm_wgmma|plan|$GEMM --num-stages 4 --target cuda:sm_90a --dump plan
gemm_mfma|plan|$GEMM --num-stages 3 --target hip:gfx90a --dump plan
gemm_unaligned|plan|tests/corpus/gemm.py -s *fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32 -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=32 --target cuda:sm_90 --dump plan
trans_add|plan|tests/exec/trans.py -k trans_add -s *fp32,*fp32,*fp32,*fp32,*fp32,*fp32,i32:16,i32:16 -D BM=32 -D BN=16 --target hip:gfx90a --dump plan
reuse|simt|tests/exec/reuse.py -s *fp64,*fp64,*fp64 -D B=128 --target c --dump simt
trans_add_shared|cu|tests/exec/trans.py -k trans_add -s *fp32,*fp32,*fp32,*fp32,*fp32,*fp32,i32:16,i32:16 -D BM=32 -D BN=16 --target cuda:sm_90"
echo "$cases" | while IFS='|' read -r name ext args; do
	out="$tmp/$name.$ext"
	# shellcheck disable=SC2086
	if ! "$BIN/tritonc" compile $args -o "$out" 2>"$tmp/err"; then
		echo "FAIL emitted $name.$ext: tritonc failed: $(head -2 "$tmp/err")"
		continue
	fi
	if [ -n "$UPDATE" ]; then
		cp "$out" "$dir/$name.$ext"
		echo "PASS emitted $name.$ext (updated)"
	elif diff -u "$dir/$name.$ext" "$out" >"$tmp/diff"; then
		echo "PASS emitted $name.$ext"
	else
		echo "FAIL emitted $name.$ext differs from the golden file:"
		head -40 "$tmp/diff"
	fi
done
