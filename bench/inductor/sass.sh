#!/bin/sh
# The instruction mix of one corpus kernel as tritonc and as Triton compile
# it (same source, same block sizes), side by side: opcode counts of the
# SASS. On a machine with an NVIDIA GPU, torch and triton:
#   sh bench/inductor/sass.sh NAME      (a name of bench/inductor/run.sh's cases)
set -e
cd "$(dirname "$0")/../.."
make -j16 bin/tritonc >/dev/null
name=${1:-softmax_f16_32000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
C=tests/corpus
line=$(sed -n "/^$name|/p" bench/inductor/run.sh | sed "s|\$C|$C|g")
[ -n "$line" ] || { echo "no case $name"; exit 2; }
IFS='|' read -r _ file kernel meta warps grid scalars buffers <<EOF2
$line
EOF2
set --
for d in $(echo "$meta" | tr ',' ' '); do set -- "$@" -D "$d"; done
bin/tritonc compile "$file" -k "$kernel" "$@" --num-warps "$warps" --target cuda:sm_90 -o "$tmp/k.cu"
nvcc -arch=sm_90 -cubin -Xptxas -v "$tmp/k.cu" -o "$tmp/k.cubin" 2>&1 | grep -E 'registers' | sed 's/^/tritonc: /'
bspec=""
for b in $buffers; do bspec="$bspec,${b#*=}"; done
svals=$(for a in $scalars; do printf '%s,' "${a#*=}"; done)
TRITON_CACHE_DIR="$tmp/cache" python3 bench/inductor/reference.py "$file" "$kernel" "$grid" "$warps" "$meta" "${bspec#,}" \
	"$svals" >/dev/null
cubin=$(find "$tmp/cache" -name '*.cubin' | head -1)
count() { cuobjdump -sass "$1" | sed -n 's/^ *\/\*[0-9a-f]*\*\/ *\(@!*U*P[0-9T]* \)*\([A-Z0-9_]*\).*/\2/p' | sort | uniq -c; }
count "$tmp/k.cubin" >"$tmp/ours"
count "$cubin" >"$tmp/theirs"
echo "opcode tritonc triton"
cat "$tmp/ours" "$tmp/theirs" | awk '{print $2}' | sort -u | while read -r op; do
	a=$(awk -v o="$op" '$2 == o {print $1}' "$tmp/ours")
	b=$(awk -v o="$op" '$2 == o {print $1}' "$tmp/theirs")
	echo "$op ${a:-0} ${b:-0}"
done | sort -k2 -n -r | head -40
echo "total $(awk '{s += $1} END {print s}' "$tmp/ours") $(awk '{s += $1} END {print s}' "$tmp/theirs")"
