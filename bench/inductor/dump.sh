#!/bin/sh
# What tritonc and Triton make of some kernels, to read side by side: for
# each NAME of a case file (bench/inductor/run.sh's format), into DIR:
# NAME.tritonc.cu and .sass (ptxas -v's registers at the top), and Triton's
# NAME.triton.ttgir, .ptx and .sass for the same source and block sizes.
# On a machine with an NVIDIA GPU, torch and triton:
#   sh bench/inductor/dump.sh CASES DIR NAME...
set -e
cd "$(dirname "$0")/../.."
make -j16 bin/tritonc >/dev/null
cases=$1 dir=$2
shift 2
mkdir -p "$dir"
for name in "$@"; do
	line=$(grep "^$name|" "$cases" | head -1)
	[ -n "$line" ] || { echo "no case $name"; continue; }
	IFS='|' read -r _ file kernel meta warps grid scalars buffers <<EOF2
$line
EOF2
	set --
	for d in $(echo "$meta" | tr ',' ' '); do set -- "$@" -D "$d"; done
	bin/tritonc compile "$file" -k "$kernel" "$@" --num-warps "$warps" --target cuda:sm_90a -o "$dir/$name.tritonc.cu"
	nvcc -arch=sm_90a -cubin -Xptxas -v "$dir/$name.tritonc.cu" -o "$dir/$name.cubin" 2>&1 |
		grep -E 'registers' >"$dir/$name.tritonc.sass" || true
	cuobjdump -sass "$dir/$name.cubin" >>"$dir/$name.tritonc.sass"
	rm -f "$dir/$name.cubin"
	bspec=$(for b in $buffers; do printf '%s,' "${b#*=}"; done)
	svals=$(for a in $scalars; do printf '%s,' "${a#*=}"; done)
	cache=$(mktemp -d)
	TRITON_CACHE_DIR="$cache" python3 bench/inductor/reference.py "$file" "$kernel" "$grid" "$warps" "$meta" \
		"${bspec%,}" "$svals" >/dev/null
	for ext in ttgir ptx; do cp "$(find "$cache" -name "*.$ext" | head -1)" "$dir/$name.triton.$ext"; done
	cuobjdump -sass "$(find "$cache" -name '*.cubin' | head -1)" >"$dir/$name.triton.sass"
	rm -rf "$cache"
	echo "dumped $name"
done
