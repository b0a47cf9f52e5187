#!/bin/sh
# The seed RMSNorm kernel (examples/rmsnorm.py) at 32768 x 4096, fp32 and
# bf16: tritonc's CUDA output and real Triton compiling the same source, in
# one run, on a machine with an NVIDIA GPU, torch and triton:
#
#   sh bench/rmsnorm/run.sh
#
# Each variant: tritonc run --check (against the interpreter on 64 programs)
# --bench (median of 20 launches, L2 flushed), then reference.py (float64
# check of tritonc's output, Triton's run and time on the same inputs).
set -e
cd "$(dirname "$0")/../.."
make -j16 bin/tritonc >/dev/null
out=${OUT:-/tmp/rmsnorm-bench}
mkdir -p "$out"
kernel=examples/rmsnorm.py
table="$out/table.txt"
printf '%-5s %-7s %-6s %10s %10s %10s %10s %8s\n' dtype XBLOCK warps tritonc_ms tritonc_GBs triton_ms triton_GBs ratio >"$table"
for dt in fp32 bf16; do
	for cfg in "1 4" "2 4" "2 8" "4 8" "4 16"; do
		set -- $cfg
		d="$out/$dt-$1-$2"
		mkdir -p "$d"
		bin/tritonc run $kernel --target cuda -s "*$dt,*$dt,*$dt,i32,i32" -D XBLOCK=$1 --num-warps $2 \
			--arg xnumel=32768 --arg rnumel=4096 --arg in_ptr1=4096 --check --bench --save "$d" >"$d/tritonc.txt" 2>&1 ||
			{ cat "$d/tritonc.txt"; exit 1; }
		python3 bench/rmsnorm/reference.py $kernel "$d" 32768 4096 $dt $1 $2 >"$d/triton.txt" 2>&1 ||
			{ cat "$d/triton.txt"; exit 1; }
		rm -f "$d"/*.in "$d"/*.out
		cat "$d/tritonc.txt" "$d/triton.txt"
		ours_ms=$(sed -n 's/^bench: median \([0-9.]*\) ms.*/\1/p' "$d/tritonc.txt")
		ours_gbs=$(sed -n 's/.* \([0-9.]*\) GB\/s.*/\1/p' "$d/tritonc.txt")
		ref_ms=$(sed -n 's/^triton .* ms=\([0-9.]*\) .*/\1/p' "$d/triton.txt")
		ref_gbs=$(sed -n 's/^triton .*GB\/s=\([0-9.]*\).*/\1/p' "$d/triton.txt")
		ratio=$(python3 -c "print(f'{$ref_ms / $ours_ms:.3f}')")
		printf '%-5s %-7s %-6s %10s %10s %10s %10s %8s\n' $dt $1 $2 "$ours_ms" "$ours_gbs" "$ref_ms" "$ref_gbs" "$ratio" >>"$table"
	done
done
python3 - <<'PY' >>"$table"
import torch
n = 1 << 30
a = torch.empty(n, dtype=torch.uint8, device="cuda"); b = torch.empty_like(a)
for _ in range(3): b.copy_(a)
ts = []
for _ in range(10):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); b.copy_(a); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
ts.sort()
print(f"ceiling: device copy of 1 GiB (read + write) {2 * n / ts[len(ts) // 2] / 1e6:.0f} GB/s; {torch.cuda.get_device_name()}")
PY
cat "$table"
