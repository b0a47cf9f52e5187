#!/bin/sh
# Each lowered TorchInductor kernel of the corpus at its module's full size:
# tritonc's CUDA output (--check against the interpreter on 64 programs,
# --bench) and real Triton compiling the same kernel source with the same
# block sizes, in one run, on a machine with an NVIDIA GPU, torch and triton:
#
#   sh bench/inductor/run.sh
#
# Prints a table and the geometric mean of Triton's time over tritonc's.
# ONLY=name,name runs only those cases; EXTRA=FILE appends the cases of FILE
# (same format as below, for experiments on variants of a kernel, or the
# held-out kernels: bench/inductor/heldout_cases.py), EXTRA_ONLY=1 runs
# only those.
set -e
cd "$(dirname "$0")/../.."
make -j16 bin/tritonc >/dev/null
out=${OUT:-/tmp/inductor-bench}
mkdir -p "$out"
table="$out/inductor.txt"
C=tests/corpus
# name|file|kernel|constexprs|warps|grid|scalars (name=value)|buffers (name=dtype:count)
cat >"$out/cases" <<CASES
add_relu_mul_f32|$C/add_relu_mul_f32.py|triton_poi_fused_add_mul_relu_0|XBLOCK=1024|4|16384|xnumel=16777216|in_ptr0=fp32:16777216 in_ptr1=fp32:16777216 in_ptr2=fp32:16777216 out_ptr0=fp32:16777216
gelu_tanh_bf16|$C/gelu_tanh_bf16.py|triton_poi_fused_gelu_0|XBLOCK=1024|4|16384|xnumel=16777216|in_ptr0=bf16:16777216 out_ptr0=bf16:16777216
swiglu_bf16|$C/swiglu_bf16.py|triton_poi_fused_mul_silu_0|XBLOCK=1024|4|44032|xnumel=45088768|in_ptr0=bf16:45088768 in_ptr1=bf16:45088768 out_ptr0=bf16:45088768
broadcast_bias_f16|$C/broadcast_bias_f16.py|triton_poi_fused_add_0|XBLOCK=1024|4|12000|xnumel=12288000|in_ptr0=fp16:12288000 in_ptr1=fp16:3000 out_ptr0=fp16:12288000
softmax_f32_1024|$C/softmax_f32_1024.py|triton_per_fused__softmax_exp_prepare_softmax_online_sub_0|XBLOCK=1|8|16384|xnumel=16384 r0_numel=1024|in_ptr0=fp32:16777216 out_ptr2=fp32:16777216
log_softmax_f32_777|$C/log_softmax_f32_777.py|triton_per_fused__log_softmax_prepare_softmax_online_sub_0|XBLOCK=1|8|4096|xnumel=4096 r0_numel=777|in_ptr0=fp32:3182592 out_ptr2=fp32:3182592
layernorm_f32_1024|$C/layernorm_f32_1024.py|triton_per_fused_native_layer_norm_0|XBLOCK=1|8|16384|xnumel=16384 r0_numel=1024|in_ptr0=fp32:16777216 in_ptr1=fp32:1024 in_ptr2=fp32:1024 out_ptr2=fp32:16777216
rmsnorm_f32_4096|$C/rmsnorm_f32_4096.py|triton_red_fused_add_mean_mul_pow_rsqrt_0|XBLOCK=1,R0_BLOCK=1024|8|8192|xnumel=8192 r0_numel=4096|in_ptr0=fp32:33554432 in_ptr1=fp32:4096 out_ptr1=fp32:33554432
rmsnorm_bf16_4096|$C/rmsnorm_bf16_4096.py|triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0|XBLOCK=1,R0_BLOCK=1024|8|8192|xnumel=8192 r0_numel=4096|in_ptr0=bf16:33554432 in_ptr1=bf16:4096 out_ptr1=bf16:33554432
softmax_f16_32000|$C/softmax_f16_32000.py|triton_red_fused__softmax__to_copy_exp_prepare_softmax_online_sub_0|XBLOCK=1,R0_BLOCK=2048|8|512|xnumel=512 r0_numel=32000|in_ptr0=fp16:16384000 out_ptr2=fp16:16384000
var_mean_f32|$C/var_mean_f32.py|triton_red_fused_var_mean_0|XBLOCK=1,R0_BLOCK=2048|8|4096|xnumel=4096 r0_numel=2048|in_out_ptr0=fp32:4096 in_ptr0=fp32:8388608 out_ptr0=fp32:4096
max_argmax_f32|$C/max_argmax_f32.py|triton_red_fused_max_0|XBLOCK=1,R0_BLOCK=1024|8|4096|xnumel=4096 r0_numel=3333|in_ptr0=fp32:13651968 out_ptr0=fp32:4096 out_ptr1=i64:4096
transpose_add_f32|$C/transpose_add_f32.py|triton_poi_fused_add_t_0|YBLOCK=32,XBLOCK=32|4|128,128|ynumel=4096 xnumel=4096|in_ptr0=fp32:16777216 in_ptr1=fp32:16777216 out_ptr0=fp32:16777216
embedding_f32|$C/embedding_f32.py|triton_poi_fused_embedding_mul_0|XBLOCK=1024|4|6144|xnumel=6291456|in_ptr0=i64:8192 in_ptr1=fp32:38400000 out_ptr0=fp32:6291456
CASES
[ -n "${EXTRA_ONLY:-}" ] && : >"$out/cases"
[ -n "${EXTRA:-}" ] && cat "$EXTRA" >>"$out/cases"
if [ -n "${ONLY:-}" ]; then
	grep -E "^($(echo "$ONLY" | tr ',' '|'))\|" "$out/cases" >"$out/cases.only" || true
	mv "$out/cases.only" "$out/cases"
fi
# tritonc first, every case; then Triton, every case in one process.
while IFS='|' read -r name file kernel meta warps grid scalars buffers; do
	set --
	for d in $(echo "$meta" | tr ',' ' '); do set -- "$@" -D "$d"; done
	for a in $scalars; do set -- "$@" --arg "$a"; done
	for b in $buffers; do set -- "$@" --arg "${b%%=*}=${b##*:}"; done
	bin/tritonc run "$file" -k "$kernel" "$@" --num-warps "$warps" --grid "$grid" --target cuda --check --bench \
		--int-range 16 </dev/null >"$out/$name.tritonc" 2>&1 || { echo "== $name"; tail -5 "$out/$name.tritonc"; }
done <"$out/cases"
python3 bench/inductor/reference.py --cases "$out/cases" >"$out/triton.txt" 2>"$out/triton.err" ||
	tail -5 "$out/triton.err"
printf '%-24s %10s %10s %10s %10s %8s\n' kernel tritonc_ms tritonc_GBs triton_ms triton_GBs ratio >"$table"
while IFS='|' read -r name rest; do
	ours_ms=$(sed -n 's/^bench: median \([0-9.]*\) ms.*/\1/p' "$out/$name.tritonc")
	ours_gbs=$(sed -n 's/.* \([0-9.]*\) GB\/s.*/\1/p' "$out/$name.tritonc")
	ref_ms=$(sed -n "s/^$name triton ms=\([0-9.]*\) .*/\1/p" "$out/triton.txt")
	ref_gbs=$(sed -n "s/^$name triton .*GB\/s=\([0-9.]*\).*/\1/p" "$out/triton.txt")
	if [ -z "$ours_ms" ] || [ -z "$ref_ms" ]; then
		printf '%-24s %10s %10s %10s %10s %8s\n' "$name" "${ours_ms:--}" "${ours_gbs:--}" "${ref_ms:--}" \
			"${ref_gbs:--}" "FAILED" >>"$table"
		continue
	fi
	grep -q FAIL "$out/$name.tritonc" && name="$name(CHECK-FAILED)"
	printf '%-24s %10s %10s %10s %10s %8s\n' "$name" "$ours_ms" "$ours_gbs" "$ref_ms" "$ref_gbs" \
		"$(python3 -c "print(f'{$ref_ms / $ours_ms:.3f}')")" >>"$table"
done <"$out/cases"
python3 - "$table" <<'PY' >>"$table"
import math, sys
r = [float(l.split()[-1]) for l in open(sys.argv[1]).read().splitlines()[1:]
     if l.split() and "CHECK" not in l and "FAILED" not in l]
print(f"geometric mean of Triton ms / tritonc ms over {len(r)} kernels: {math.exp(sum(map(math.log, r)) / len(r)):.3f}")
PY
cat "$table"
